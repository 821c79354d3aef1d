/* batch: prints a profile exactly as GNU gprof 2.40 prints it (tgprof --batch). */
#ifndef TGPROF_BATCH_H
#define TGPROF_BATCH_H

#include <stdio.h>

#include "anno.h"
#include "report.h"
#include "core/measure.h"
#include "core/profile.h"
#include "util/diag.h"

/* Output styles (gprof's STYLE_* bits). */
enum {
	BATCH_FLAT = 1 << 0,		/* -p */
	BATCH_GRAPH = 1 << 1,		/* -q */
	BATCH_EXEC = 1 << 2,		/* -C */
	BATCH_ANNO = 1 << 3,		/* -A */
	BATCH_INFO = 1 << 4,		/* -i */
	BATCH_SUM = 1 << 5,		/* -s */
	BATCH_FUNC_ORDER = 1 << 6,	/* -r */
	BATCH_FILE_ORDER = 1 << 7	/* -R */
};

struct batch_opts {
	unsigned style;		/* BATCH_* to print */
	int brief;		/* -b: no explanations */
	int width;		/* -w: index width */
	struct report_opts ro;
	struct anno_opts anno;	/* -A: -x -t -m -y -I */
	/* Not gprof's (--measured): the call graph's times from call stacks, or NULL. */
	const struct pf_measure *measure;
};

/*
 * Prints the requested sections to OUT.  Returns 0, or -1 with a message
 * in D (gprof's "gmon.out file is missing histogram" and the like, or an
 * output error).
 */
int batch_print(FILE *out, const struct profile *p, const struct batch_opts *o, struct diag *d);

/* The styles gprof picks when none is requested, given what the files held. */
unsigned batch_default_style(const struct profile *p);

#endif
