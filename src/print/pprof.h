/* pprof: the profile as pprof's profile.proto, gzip-compressed, for go tool pprof and its web view. */
#ifndef TGPROF_PPROF_H
#define TGPROF_PPROF_H

#include <stdio.h>

#include "export.h"

/*
 * Sample types samples/count, cpu/nanoseconds (the default) and
 * calls/count: a sample per stack, the measured ones (eo->stacks) or else
 * those estimated from the call graph (estfold.h; the profile's comment
 * says so), with their samples and CPU time; and a sample per called
 * function, the function alone, with its calls (from others and
 * recursive) as its only value: -sample_index=calls shows them.  A
 * function and a location per function of the program (the location at
 * its entry, with its file and line), per library frame and one for
 * unknown frames; one mapping, the executable.  The protobuf is encoded
 * here; the gzip member holds stored (uncompressed) deflate blocks,
 * which every gzip reader takes.  0, or -1 with the reason in D.
 */
int pprof_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d);

#endif
