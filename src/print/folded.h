/* folded: measured call stacks in the folded format of flamegraph.pl, inferno, speedscope and the Firefox profiler. */
#ifndef TGPROF_FOLDED_H
#define TGPROF_FOLDED_H

#include <stdio.h>

#include "report.h"
#include "core/measure.h"
#include "util/diag.h"

/*
 * One line per distinct stack, "root;caller;callee COUNT", in byte order
 * of the text: names as the flat profile prints them (R's options), ';'
 * in a name written ':', control characters '?'.  Frames in a library
 * are its function's name, or "[name.so]" where it cannot be read, unknown
 * ones "[unknown]"; a stack that did not reach
 * its thread's root starts with "[incomplete]", one cut at the depth limit
 * with "[truncated]".  Returns 0, or -1 with a message in D (out of memory,
 * or F could not be written: errno).
 */
int folded_write(FILE *f, struct report *r, const struct pf_measure *m, struct diag *d);

#endif
