/* jsonexp: the analysed profile as JSON for scripts (doc/tgprof-profile.schema.json says what it holds). */
#ifndef TGPROF_JSONEXP_H
#define TGPROF_JSONEXP_H

#include <stdio.h>

#include "export.h"

/*
 * One object, "tgprof_profile": 1: the files, the histogram's rate and
 * totals, the functions (those with a flat-profile row or an arc: names,
 * file and line, address, calls, self and inclusive seconds as the flat
 * profile and the call graph give them, cycle, index, and their source
 * lines' time and calls where the line table has them), the arcs (calls,
 * the time propagated along them), the cycles, and with call stacks
 * (eo->stacks) the times measured from them.  Every number is a JSON
 * number (none is NaN); addresses are hexadecimal strings (they may not
 * fit a double).  0, or -1 with the reason in D.
 */
int jsonexp_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d);

#endif
