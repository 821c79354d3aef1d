/* diffcmd: tgprof --diff, two profiles loaded with the same options and compared. */
#ifndef TGPROF_DIFFCMD_H
#define TGPROF_DIFFCMD_H

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
	struct profile *p;	/* owned (NULL once taken) */
};

struct comparison {
	struct comparison_side side[2];	/* DIFF_OLD, DIFF_NEW */
	struct diff_opts opts;		/* each side's sampling (its stacks files' headers), what is taken out */
};

/*
 * The two profiles the positional arguments name, PROG OLD NEW or
 * OLDPROG OLD NEWPROG NEW (each of OLD and NEW a gmon file or several
 * joined by commas, summed as gprof -s sums them), loaded with O's
 * options (the sides named in O's cmp for the output).  0, or -1 with
 * the reason in D; release C with diffcmd_release() either way.
 */
int diffcmd_load(struct opts *o, struct comparison *c, struct diag *d);
void diffcmd_release(struct comparison *c);

/*
 * The comparison the command line asks for (diffcmd_load(), then
 * core/diff.h) printed: the rules broken (--fail-if-*) to standard
 * error, then the table or JSON.  The exit status: 0, 1 (with the reason
 * in D), or 3 when a rule is broken.
 */
int diffcmd_run(struct opts *o, struct diag *d);

#endif
