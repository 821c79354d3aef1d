/* threadlist: the threads of a measure as rows of text (tgprof --threads, and the browser's thread view). */
#ifndef TGPROF_THREADLIST_H
#define TGPROF_THREADLIST_H

#include <stdio.h>

#include "core/measure.h"
#include "util/diag.h"
#include "util/sbuf.h"

/*
 * The columns' heading, then each row: "% samples", samples, signals,
 * CPU seconds ("?" where not measured), tid, and the name (as the
 * measure keeps it: control characters '?'), with "(main)" or "(ended)";
 * a first column '*' marks a thread chosen (measure_threads()).  Row
 * M->nthread is "[other threads]", the stacks of no thread record, when
 * there are any (threadlist_rows()).
 */
void threadlist_head(struct sbuf *sb);
void threadlist_row(struct sbuf *sb, const struct pf_measure *m, uint32_t t);

/*
 * When M is narrowed to some threads (measure_threads()), what says so:
 * "threads NAME-TID, ... (N of M's threads); calls: all threads" (at
 * most a few named); nothing otherwise.
 */
void threadlist_note(struct sbuf *sb, const struct pf_measure *m);

/* The rows of M: its threads, and one more for stacks of no thread record when there are. */
uint32_t threadlist_rows(const struct pf_measure *m);

/*
 * --threads: a title line, the heading and every row to F, then a line
 * saying that calls are counted for all threads together.  0, or -1 with
 * the reason in D.
 */
int threadlist_write(FILE *f, const struct pf_measure *m, struct diag *d);

#endif
