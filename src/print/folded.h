/* folded: measured call stacks in the folded format of flamegraph.pl, inferno, speedscope and the Firefox profiler. */
#ifndef TGPROF_FOLDED_H
#define TGPROF_FOLDED_H

#include <stdio.h>

#include "report.h"
#include "core/measure.h"
#include "util/diag.h"
#include "util/sbuf.h"

/*
 * One line per distinct stack, "root;caller;callee COUNT", in byte order
 * of the text: names as the flat profile prints them (R's options), ';'
 * in a name written ':', control characters '?'.  Frames in a library
 * are its function's name, or "[name.so]" where it cannot be read, unknown
 * ones "[unknown]"; a stack that did not reach
 * its thread's root starts with "[incomplete]", one cut at the depth limit
 * with "[truncated]".  Counts are the stacks' weights (core/tally.h),
 * rounded; when those have taken something out of the samples (the
 * profiler's, -pg's calls'), a first line "# tgprof: ..." says what.
 * Returns 0, or -1 with a message in D (out of memory, or F could not be
 * written: errno).
 */
int folded_write(FILE *f, struct report *r, const struct pf_measure *m, struct diag *d);

/*
 * As folded_write(), each stack under a first frame naming its thread if
 * THREADS (folded_thread_frame()).
 */
int folded_write_threads(FILE *f, struct report *r, const struct pf_measure *m, int threads,
    struct diag *d);

/*
 * Thread T of M (or PF_NO_THREAD) as a frame into SB: "NAME-TID" (a thread
 * without a name: "thread-TID"; ';' ':', control characters '?'), or
 * "[other threads]" for the stacks of no thread record.
 */
void folded_thread_frame(struct sbuf *sb, const struct pf_measure *m, uint32_t t);

/*
 * What the folded writers share: a stack's text (an offset into one
 * buffer of NUL-ended texts), its count (a measure's weight: tally.h).
 */
struct folded_line {
	size_t off;
	double count;
};

/* SB's text from START made safe for the format: ';' as ':', control characters as '?'. */
void folded_clean(struct sbuf *sb, size_t start);

/*
 * The N lines (texts in TEXT) to F in byte order, equal stacks' counts
 * added and rounded (a line that rounds to none left out); 0, or -1 (errno).
 */
int folded_emit(FILE *f, const char *text, struct folded_line *l, size_t n);

#endif
