/* rowpipe: formats a long list of rows on two threads and writes them out in order. */
#ifndef TGPROF_ROWPIPE_H
#define TGPROF_ROWPIPE_H

#include <stdint.h>
#include <stdio.h>

#include "util/sbuf.h"

/*
 * Items 0..N-1 are cut into chunks of CHUNK; even chunks are formatted by
 * the calling thread, odd ones by a worker, each into its own buffer, and
 * the calling thread writes every chunk to OUT in order.  At most one
 * chunk per thread is in memory.  FORMAT must only read shared data;
 * THREAD (0 or 1) says which thread calls it, for per-thread state.
 */
struct rowpipe_job {
	uint32_t n, chunk;
	void (*format)(void *ctx, struct sbuf *sb, uint32_t from, uint32_t to, int thread);
	void *ctx;
};

/* Returns 0, or -1 if memory ran out (the output is then incomplete). */
int rowpipe_run(FILE *out, const struct rowpipe_job *job);

#endif
