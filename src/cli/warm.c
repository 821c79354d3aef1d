/* warm: memory the browser's first narrowing will take, faulted in by a background thread. */
#include "warm.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/mem.h"

/*
 * Blocks of at most this size come from the heap (main sets the mmap
 * threshold at 256 MiB); allocated one after another they are adjacent,
 * and freed they merge into one free block, as large as the narrowing's
 * largest table needs.
 */
#define WARM_BLOCK ((size_t)128 << 20)
#define WARM_BLOCKS 8

struct warm {
	void *block[WARM_BLOCKS];
	size_t size[WARM_BLOCKS];
	int n;
};

static void *
warm_run(void *arg)
{
	struct warm *w = arg;
	int k;

	for (k = 0; k < w->n; k++)
		mem_populate(w->block[k], w->size[k]);
	for (k = 0; k < w->n; k++)
		free(w->block[k]);
	free(w);
	return NULL;
}

void
warm_start(size_t bytes)
{
	struct warm *w;
	pthread_attr_t attr;
	pthread_t t;
	int ok;

	if (bytes < WARM_MIN || (w = calloc(1, sizeof *w)) == NULL)
		return;
	while (bytes > 0 && w->n < WARM_BLOCKS) {
		size_t s = bytes < WARM_BLOCK ? bytes : WARM_BLOCK;

		if ((w->block[w->n] = mem_unfaulted(s)) == NULL)
			break;
		w->size[w->n++] = s;
		bytes -= s;
	}
	ok = pthread_attr_init(&attr) == 0;
	if (ok && pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
	    pthread_create(&t, &attr, warm_run, w) == 0) {
		pthread_attr_destroy(&attr);
		return;
	}
	if (ok)
		pthread_attr_destroy(&attr);
	for (ok = 0; ok < w->n; ok++)	/* not started: all freed, nothing faulted in */
		free(w->block[ok]);
	free(w);
}
