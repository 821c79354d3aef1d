/* diff: two profiles compared function by function: calls, self and inclusive time, and whether a change is noise. */
#ifndef TGPROF_DIFF_H
#define TGPROF_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "truth.h"
#include "util/diag.h"

/*
 * A function is matched across the two profiles by its raw (for C++,
 * mangled) name, and a static one by its name and source file (name
 * alone when a side has no file for it), so that two builds of a program
 * compare as well as two runs of one.  This is the one rule: old_of
 * gives every function's match, the rows those of the functions with
 * time or calls on either side (the flat profile's rows without -z).
 *
 * Calls are counted exactly: any change is a fact.  Times come from
 * samples: n independent samples are good to about sqrt(n) (the gprof
 * manual's rule of thumb, Poisson's), so the difference of a side's n1
 * and another's n2 has a standard deviation of sqrt(n1 + n2) (each in
 * its side's seconds when the rates differ).  A sampling signal may
 * bring several samples (a CPU-time timer expires at the kernel's tick:
 * at 1 kHz on a 250 Hz kernel, four): the independent observations are
 * the signals, so a side's n samples, k a signal, vary by sqrt(k n).  A
 * change is significant when it exceeds DIFF_SIGMAS deviations (noise
 * does that 2.3% of the time, either way); a gate (--fail-if-slower)
 * needs DIFF_GATE_SIGMAS (0.13%), so that runs of one program trip none.
 * The times are the programs' own (core/truth.h); the profiler's
 * functions are compared, never significant, and ranked last.
 */
#define DIFF_SIGMAS 2.0
#define DIFF_GATE_SIGMAS 3.0

enum { DIFF_OLD, DIFF_NEW };

/* What the comparison knows of each side's sampling, and what to take out of the times. */
struct diff_opts {
	double per_signal[2];		/* samples a signal brought, on average (>= 1; stacks files say) */
	double call_ps[2];		/* -pg's cost a call, picoseconds (0: none taken out) */
	struct truth_opts truth;
};

struct pf_diff_side {
	uint32_t id;		/* the symbol on this side, or PF_NONE: not there, or no time and no calls */
	uint64_t calls;		/* from other functions (the flat profile's), and */
	uint64_t self_calls;	/* recursive ones */
	double self;		/* seconds, the flat profile's */
	double incl;		/* seconds: the call graph's self and children */
	double self_err;	/* the standard deviation of self, and of incl, in seconds */
	double incl_err;
};

struct pf_diff_row {
	struct pf_diff_side side[2];	/* DIFF_OLD, DIFF_NEW */
	const char *name;		/* raw, from whichever side has it */
	const char *file;		/* its source file, or NULL */
	int self_significant;		/* |new self - old self| > DIFF_SIGMAS deviations */
	int incl_significant;
	int self_gate;			/* the same beyond DIFF_GATE_SIGMAS */
	int incl_gate;
	int profiler;			/* a function of the profiler: its time is not the program's */
};

struct pf_diff {
	struct pf_diff_row *row;	/* by the largest change of self time first */
	size_t n;
	double total[2];		/* seconds: each side's flat-profile time */
	double total_err;		/* the deviation of their difference */
	int total_significant;
	int total_gate;
	/*
	 * Per function of the new profile (nsyms of them): the old profile's
	 * function it matches, time and calls or not, or PF_NONE.  Among
	 * functions of one name (and file), those with time or calls are
	 * matched first, then in address order.
	 */
	uint32_t *old_of;
	int files;			/* statics were matched by file (both sides knew files) */
	uint32_t nsyms[2];		/* each side's functions (diff_again() checks them) */
	struct diff_opts opts;		/* what it was made with */
};

/*
 * Compares OLD and NEW (which outlive the result: names point into
 * them) as O says (NULL: a sample a signal, nothing taken out).  0 with
 * *OUT set, or -1 with the reason in D (out of memory).  Free with
 * diff_free().  Time: sorting both sides' names.
 */
int diff_profiles(const struct profile *old, const struct profile *new, const struct diff_opts *o,
    struct pf_diff **out, struct diag *d);

/*
 * OLD and NEW compared again where WAS compared two profiles they were
 * both narrowed from alike (profile_narrow(): the same functions, names
 * and files, their self time and calls too): WAS's matching, the rows'
 * numbers made anew.  The same as diff_profiles(OLD, NEW) without
 * sorting the names again.  0 with *OUT set, or -1 with the reason in D
 * (out of memory, or OLD and NEW have not WAS's numbers of functions).
 */
int diff_again(const struct pf_diff *was, const struct profile *old, const struct profile *new,
    struct pf_diff **out, struct diag *d);
void diff_free(struct pf_diff *df);

#endif
