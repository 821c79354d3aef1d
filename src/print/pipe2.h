/* pipe2: formats a long list of rows on two threads and writes them out in order. */
#ifndef TGPROF_PIPE2_H
#define TGPROF_PIPE2_H

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
struct pipe2_job {
	uint32_t n, chunk;
	void (*format)(void *ctx, struct sbuf *sb, uint32_t from, uint32_t to, int thread);
	void *ctx;
};

/* Returns 0, or -1 if memory ran out (the output is then incomplete). */
int pipe2_run(FILE *out, const struct pipe2_job *job);

#endif
