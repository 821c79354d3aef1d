/* compare: tgprof --diff, two profiles loaded with the same options and compared. */
#ifndef TGPROF_COMPARE_H
#define TGPROF_COMPARE_H

#include <stddef.h>

#include "opts.h"
#include "core/diff.h"
#include "print/report.h"
#include "util/diag.h"

/* One side: its executable, its gmon files (its list split at commas), its profile. */
struct comparison_side {
	const char *image;
	const char *list;
	char *buf;		/* owned: the list's copy the names point into */
	const char **gmon;	/* owned */
	size_t ngmon;
	struct profile *p;	/* owned */
	struct report *r;	/* owned */
};

struct comparison {
	struct comparison_side side[2];	/* DIFF_OLD, DIFF_NEW */
	struct pf_diff *df;		/* owned */
};

/*
 * The two profiles the positional arguments name, PROG OLD NEW or
 * OLDPROG OLD NEWPROG NEW (each of OLD and NEW a gmon file or several
 * joined by commas, summed as gprof -s sums them), loaded with O's
 * options, and compared.  0, or -1 with the reason in D; release C with
 * compare_release() either way.
 */
int compare_load(struct opts *o, struct comparison *c, struct diag *d);
void compare_release(struct comparison *c);

/*
 * The comparison the command line asks for (compare_load()) printed: the
 * rules broken (--fail-if-*) to standard error, then the table or JSON.
 * The exit status: 0, 1 (with the reason in D), or 3 when a rule is broken.
 */
int compare_run(struct opts *o, struct diag *d);

#endif
