/* callgrind: the profile in valgrind's Callgrind format, for KCachegrind, QCachegrind and callgrind_annotate. */
#ifndef TGPROF_CALLGRIND_H
#define TGPROF_CALLGRIND_H

#include <stdio.h>

#include "export.h"

/*
 * One event, "us", microseconds: each function's self time (the flat
 * profile's seconds) on its source lines where the line table gives them
 * (the rest, and all of it without lines, on its entry line), and each
 * arc as a call from its caller's entry line with its count and its
 * inclusive cost (gprof's propagated self and children, or with
 * --measured the stacks').  Cycles are left to the viewer.  Functions are
 * those with a flat-profile row or an arc.  0, or -1 with the reason in D.
 */
int callgrind_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d);

#endif
