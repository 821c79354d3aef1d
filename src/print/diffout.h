/* diffout: a comparison of two profiles (core/diff.h) as a table, as JSON, and checked against CI's rules. */
#ifndef TGPROF_DIFFOUT_H
#define TGPROF_DIFFOUT_H

#include <stdio.h>

#include "report.h"
#include "core/diff.h"
#include "util/diag.h"

/* Each side as the command line named it, and the rules that fail the comparison. */
struct diffout_opts {
	const char *image[2];		/* DIFF_OLD, DIFF_NEW */
	const char *gmon[2];		/* the gmon files, comma-separated as given */
	int fail_calls;			/* a function's calls changed: any, or */
	const char *fail_calls_name;	/* only this one's (NULL: any) */
	double fail_slower;		/* a function's self or inclusive time grew by more (percent),
					 * significantly; < 0: no rule */
	double fail_total_slower;	/* the total did (percent); < 0: no rule */
};

/*
 * Whether O's rules name functions that are there: 0, or -1 with the
 * reason in D (--fail-if-calls-changed=NAME where neither profile R[side]
 * has NAME, as its raw name, its flat-profile name, or a clone's
 * original name).
 */
int diffout_check(struct report *const r[2], const struct diffout_opts *o, struct diag *d);

/*
 * The rules of O that DF breaks, each a line "tgprof: gate: ..." to F;
 * their number.  R[side] names the functions (as the flat profile does).
 */
int diffout_gate(FILE *f, struct report *const r[2], const struct pf_diff *df,
    const struct diffout_opts *o);

/* The two lines of column headings over diffout_row()'s rows, each ending in a newline. */
void diffout_columns(struct sbuf *sb);

/*
 * Row W of a comparison as the table and the browser show it: old, new,
 * change and percent of self time (* when significant), of inclusive
 * time, calls old and new, then "+ " (only in the new profile) or "- "
 * (only in the old) and NAME.  No newline.
 */
void diffout_row(struct sbuf *sb, const struct pf_diff_row *w, const char *name);

/* The table, a row a function, biggest change of self time first; 0, or -1 on a write error. */
int diffout_text(FILE *f, struct report *const r[2], const struct pf_diff *df,
    const struct diffout_opts *o, struct diag *d);

/* The same as a JSON object (tgprof(1), "--format=json"); 0, or -1 on a write error. */
int diffout_json(FILE *f, struct report *const r[2], const struct pf_diff *df,
    const struct diffout_opts *o, struct diag *d);

#endif
