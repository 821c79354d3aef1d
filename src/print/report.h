/* report: gprof's text rows (names, flat profile, call-graph lines), shared by batch output and the browser. */
#ifndef TGPROF_REPORT_H
#define TGPROF_REPORT_H

/*
 * Every number a user sees goes through these functions, in batch mode
 * and in the browser's panes alike, so the differential tests against GNU
 * gprof cover both.  Each function appends one row (without the final
 * newline unless said) to an sbuf.
 */

#include <stddef.h>
#include <stdint.h>

#include "core/measure.h"
#include "core/profile.h"
#include "core/truth.h"
#include "util/sbuf.h"

struct report_opts {
	int bsd;		/* -T: BSD layout, raw names */
	int demangle;		/* demangle C++ names (gprof's default) */
	int line;		/* -l: names carry " (file:line @ addr)" */
	int inline_files;	/* --inline-file-names: names carry " (file:line)" */
	int full_path;		/* -L: full source paths */
	int zeros;		/* -z: also list symbols with no calls and no time */
	/* Not gprof's (the browser's): demangled names' template arguments as <DOTS>, or NULL. */
	const char *template_dots;
};

/* A profile plus printing options and a cache of demangled names. */
struct report;

struct report *report_new(const struct profile *p, const struct report_opts *o);
/*
 * R takes FROM's cache of names, for R's thread and FROM's to print the
 * same symbols at once, each name made once: FROM (same profile and
 * options) is freed after R, which hands it the names it made.
 */
void report_share_names(struct report *r, struct report *from);
void report_free(struct report *r);
const struct profile *report_profile(const struct report *r);
/* The names as R prints them (shown.h: asked for ahead, the call graph's line names made ahead). */
struct shown *report_shown(const struct report *r);

/* gprof's print_name_only(): the name as printed; returns its length in bytes. */
size_t report_name_only(struct report *r, struct sbuf *sb, uint32_t id);

/*
 * Not gprof's: whether symbol ID is a function of the mcount runtime
 * (libtgmon's tgmon_*, glibc's mcount, __mcount_internal, ...), whose
 * time is the cost of profiling rather than the program's.
 */
int report_profiler_own(const struct report *r, uint32_t id);

/*
 * Not gprof's: what was taken out of the times as sampled (core/truth.h),
 * for headers and metadata: "the profiler's 8.6% and -pg's calls' 3.1%
 * taken out", "the profiler's 8.6% counted", "as sampled"; nothing when
 * there was nothing to take out.  Shares of the time sampled.
 */
void report_truth_note(struct sbuf *sb, const struct truth_sums *s, const struct truth_opts *o);
/* The same for the call stacks of M, whose samples are what was sampled. */
void report_measure_note(struct sbuf *sb, const struct pf_measure *m);

/* gprof's print_name(): the name plus " <cycle N>" and " [index]" or " (index)". */
void report_name(struct report *r, struct sbuf *sb, uint32_t id);

/* --- flat profile --- */

/* The per-call unit: an SI prefix and the factor applied to seconds. */
struct report_unit {
	char prefix;		/* 'm' for ms/call, 'u', 'n', ' ', ... */
	double scale;
};

/* gprof's choice: the prefix that puts the largest total per-call time in [1, 1000). */
struct report_unit report_flat_unit(struct report *r);

/*
 * Not gprof's (the browser's): each per-call time in a unit of its own,
 * s, ms, us or ns, so that every one that is not 0 shows digits.
 */
extern const struct report_unit report_unit_each;

/* The two header lines (each ending in a newline) for UNIT. */
void report_flat_columns(struct report *r, struct sbuf *sb, const struct report_unit *u);

/* The symbol has a flat-profile row (-p/-P filters and -z). */
int report_flat_listed(struct report *r, uint32_t id);

/* A row; ACCUM already includes this symbol's time, TOTAL is the flat total (> 0). */
void report_flat_row(struct report *r, struct sbuf *sb, uint32_t id, double accum,
    double total, const struct report_unit *u);

/*
 * Not gprof's (the browser's library rows): symbol ID's row with SELF
 * ticks in place of its own; and a row of NAME (a library's function)
 * with SELF ticks and no calls.
 */
void report_flat_row_self(struct report *r, struct sbuf *sb, uint32_t id, double self, double accum,
    double total, const struct report_unit *u);
void report_flat_other(struct report *r, struct sbuf *sb, const char *name, double self, double accum,
    double total);

/* The time base of the flat profile: gprof's total_time, 1.0 when there is none. */
double report_flat_total(const struct report *r);

/* The time base of the call graph: gprof's print_time, 1.0 when there is none. */
double report_cg_total(const struct report *r);

/* "each sample hit covers N byte(s)": gprof's (long)hist_scale * 2. */
long report_granularity(const struct report *r);

/* --- call graph --- */

/*
 * Not gprof's: the call graph's times measured from call stacks (M, made
 * for this report's profile) in place of gprof's estimates: an entry's
 * self and children, its callers' and callees' shares, % time of the
 * samples with stacks.  NULL: gprof's numbers.  M must outlive R.
 */
void report_use_measure(struct report *r, const struct pf_measure *m);

/* The column headings over the call-graph entries (newline-terminated lines). */
void report_cg_columns(struct report *r, struct sbuf *sb);

/* The symbol or cycle has an entry in the call graph (-z, -e/-f, -l rules). */
int report_cg_listed(struct report *r, uint32_t id);

/*
 * The members of a cycle in gprof's print order; returns their number and
 * a malloc'd array in *OUT (callers and callees come sorted in the
 * profile).  Out of memory: 0, *OUT NULL.
 */
size_t report_cg_members(struct report *r, uint32_t cycle_id, uint32_t **out);

void report_cg_spontaneous(struct report *r, struct sbuf *sb);
void report_cg_parent(struct report *r, struct sbuf *sb, uint32_t child, uint32_t arc);
void report_cg_primary(struct report *r, struct sbuf *sb, uint32_t id);
void report_cg_child(struct report *r, struct sbuf *sb, uint32_t parent, uint32_t arc);
void report_cg_cycle(struct report *r, struct sbuf *sb, uint32_t cycle_id);
void report_cg_member(struct report *r, struct sbuf *sb, uint32_t id);

#endif
