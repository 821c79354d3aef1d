/* session: what the browser shows, owned in one place: the loaded profile, its narrowings, the comparison, the measure, the report. */
#ifndef TGPROF_SESSION_H
#define TGPROF_SESSION_H

/*
 * A session is the model under the browser's panes, without curses: it
 * owns the profile loaded from the files, the call stacks measured for
 * it, the narrowings stacked on it (the browser's x and f: -E and -F), the
 * profile those make of it, and, in a comparison (tgprof --diff), the old
 * profile narrowed the same way and the two compared (core/diff.h: one
 * rule matches their functions).  The panes read its public fields and
 * rebuild what they made of them when GEN changes; nothing but the
 * operations below changes it.  Each operation bumps GEN; the pointers
 * read before it may be gone after it.
 *
 * Every narrowing is the loaded profile analysed with the symspecs of
 * all those stacked (profile_narrow()), so undo makes the analysis of one
 * fewer.  Only the loaded profile and the one shown are kept: a narrowed
 * analysis of a million functions takes about 300 MB and making one again
 * a fifth of a second, and the one shown is freed before the next is
 * made, so that its memory serves the next.
 */

#include <stddef.h>
#include <stdint.h>

#include "core/diff.h"
#include "core/measure.h"
#include "core/profile.h"
#include "core/truth.h"
#include "print/export.h"
#include "print/report.h"
#include "util/diag.h"

#define SESSION_NARROW 32	/* narrowings stacked at most */

struct session_own;

struct session {
	/* Read-only for callers; valid until the next operation. */
	const struct profile *p;	/* shown: the loaded profile with every narrowing */
	struct report *r;		/* P's names and rows (it caches names: not const) */
	struct report_opts ro;		/* what R was made with */
	/* The loaded profile's stacks measured (narrowed to threads by session_threads()), or NULL. */
	const struct pf_measure *measure;
	const struct profile *old;	/* comparing: the old profile, narrowed as P is; else NULL */
	const struct pf_diff *diff;	/* comparing: OLD against P; else NULL */
	size_t nnarrow;			/* narrowings in force */
	size_t nfunc;			/* of them, of functions (x, f): the measure knows nothing of those */
	unsigned gen;			/* bumped whenever P, OLD or DIFF change */
	unsigned names;			/* bumped whenever R is made anew (another P, or session_names()) */
	unsigned loaded;		/* bumped when the loaded profile is replaced */
	uint32_t nfolded;		/* GCC clones folded into their functions (--clones=fold) */
	/*
	 * What is taken out of the times (core/truth.h: the measure's own,
	 * and the histogram's); -pg's cost a call taken out of the
	 * histogram's times (picoseconds: the measure's, else the command
	 * line's, else 0); the loaded profile's times summed under them.
	 */
	struct truth_opts truth;
	double call_ps;
	struct truth_sums sums;
	struct session_own *priv;	/* what it owns and how it got there */
};

/*
 * A session of the loaded profile P (made narrowable, pf_opts) with its
 * measure M (made for P) or NULL, names as RO says: both taken over.
 * TRUTH: what is taken out of the times (M's own, if any, must agree);
 * CALL_PS: -pg's cost a call when there is no M (< 0: none known).  0
 * with *OUT set, or -1 with the reason in D (out of memory: P and M freed).
 */
int session_new(struct profile *p, struct pf_measure *m, const struct report_opts *ro,
    const struct truth_opts *truth, double call_ps, struct session **out, struct diag *d);

/*
 * What is taken out of the times becomes O: the measure weighed again
 * (measure_reweigh()).  0, or -1 with the reason in D (as before).
 */
int session_truth(struct session *s, const struct truth_opts *o, struct diag *d);
void session_free(struct session *s);

/*
 * Function FN of the profile shown analysed away (FOCUS 0: as -E) or
 * alone (1: as -F), in both profiles of a comparison (the symspec names
 * the function, found in each).  0; or -1 with the reason in D, the
 * narrowings then as before it (or none, if those cannot be made again).
 * A function in P only; at most SESSION_NARROW.
 */
int session_narrow(struct session *s, uint32_t fn, int focus, struct diag *d);

/*
 * The measure narrowed to the threads CHOSEN (one byte per thread of the
 * measure's, nonzero: chosen), as --thread does (measure_threads()): a
 * narrowing stacked as x's and f's are (u undoes it), that replaces the
 * threads of any earlier one; the function narrowings stay.  The threads
 * are remembered by their ids (session_replace() finds them again).  0;
 * or -1 with the reason in D (no thread records, none chosen).
 */
int session_threads(struct session *s, const unsigned char *chosen, struct diag *d);

/* The last narrowing undone; 0, or -1 with the reason in D (as session_narrow()). */
int session_undo(struct session *s, struct diag *d);

/*
 * A comparison: OLD (loaded as P was, taken over) against the profile
 * shown, narrowed as it is, as O says (diff.h: each side's sampling;
 * NULL: a sample a signal, no calls' cost; what is taken out of the
 * times is the session's).  0, or -1 with the
 * reason in D (OLD freed, not comparing).
 */
int session_compare(struct session *s, struct profile *old, const struct diff_opts *o, struct diag *d);

/* The comparison ends: its old profile is freed (nothing if there is none). */
void session_stop_comparing(struct session *s);

/*
 * The loaded profile replaced by P with its measure M (both taken over;
 * a new run of the same program): the narrowings and the comparison are
 * made again on it.  0; or -1 with the reason in D: then the narrowings
 * are dropped (they cannot all be made again), and the comparison too if
 * it cannot be made either.
 */
int session_replace(struct session *s, struct profile *p, struct pf_measure *m, struct diag *d);

/* The names made anew as RO says (demangled or not, templates...); 0, or -1 (out of memory: as before). */
int session_names(struct session *s, const struct report_opts *ro);

/*
 * Narrowing K (< nnarrow, the first 0): the function's raw name, and in
 * *FOCUS whether it is -F; a narrowing to threads: "thread NAME-TID, ..."
 * (names as the measure keeps them), *FOCUS 1.
 */
const char *session_narrowing(const struct session *s, size_t k, int *focus);

/* Whether narrowing K (< nnarrow) is to threads (session_threads()). */
int session_narrowing_threads(const struct session *s, size_t k);

/* Comparing: the old profile's function matched with function ID of P (diff's old_of), or PF_NONE. */
uint32_t session_old_id(const struct session *s, uint32_t id);

/*
 * Whether the session is fit to show: 0 only after an operation ran out
 * of memory making P's report, when all that is left is session_free().
 */
int session_usable(const struct session *s);

/*
 * The profile shown exported in format EF to the file PATH (export.h's
 * export_save()), names as shown but C++ templates in full, with EO's
 * options; its stacks only when no function is narrowed (they know
 * nothing of -E and -F): narrowed to threads, those threads' stacks.  0, or -1 with the reason in D.
 */
int session_export(const struct session *s, const struct export_format *ef, const struct export_opts *eo,
    const char *path, struct diag *d);

#endif
