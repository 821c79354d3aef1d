/* compare: tgprof --diff, two profiles loaded with the same options and compared. */
#ifndef TGPROF_COMPARE_H
#define TGPROF_COMPARE_H

#include "opts.h"
#include "util/diag.h"

/*
 * The comparison the command line asks for: its positional arguments are
 * PROG OLD NEW (two runs of one executable) or OLDPROG OLD NEWPROG NEW
 * (two builds), each of OLD and NEW a gmon file or several joined by
 * commas (summed, as gprof -s sums them).  Prints the rules broken
 * (--fail-if-*) to standard error, then the table or JSON.  The exit
 * status: 0, 1 (with the reason in D), or 3 when a rule is broken.
 */
int compare_run(struct opts *o, struct diag *d);

#endif
