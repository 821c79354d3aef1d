/* anno: annotated source (-A), source lines with execution counts, exactly as GNU gprof prints them. */
#ifndef TGPROF_ANNO_H
#define TGPROF_ANNO_H

#include <stddef.h>
#include <stdio.h>

#include "core/profile.h"
#include "util/diag.h"

struct anno_opts {
	int all_lines;			/* -x: a count on every line of a block */
	int table_length;		/* -t: "Top N Lines" (0: no table) */
	unsigned long min_count;	/* -m: lines run fewer times show ##### */
	int separate_files;		/* -y: write FILE-ann files instead */
	int zeros;			/* -z: also files nothing ran in */
	char *const *search;		/* -I lists then $GPROF_PATH, colon-separated */
	size_t nsearch;
};

/*
 * Prints the annotated sources of P's files to OUT (or to FILE-ann files).
 * *FIRST is the batch printer's "nothing printed yet" flag.  A source that
 * cannot be found is a warning in D; returns -1 only when memory runs out
 * or an output file cannot be written.
 */
int anno_print(FILE *out, const struct profile *p, const struct anno_opts *o, int *first,
    struct diag *d);

#endif
