/* warm: memory the browser's first narrowing will take, faulted in by a background thread. */
#include "warm.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/helper.h"
#include "util/mem.h"
#include "util/sysmem.h"

/*
 * Blocks of at most this size come from the heap (main sets the mmap
 * threshold at 256 MiB); allocated one after another they are adjacent,
 * and freed they merge into one free block, as large as the narrowing's
 * largest table needs.
 */
#define WARM_BLOCK ((size_t)128 << 20)
#define WARM_BLOCKS 8
/*
 * Faulted in a slice at a time: the kernel holds the process's memory map
 * while it faults a range in, and the load's own thread, growing the
 * heap or mapping a file, would wait for a whole block.
 */
#define WARM_SLICE ((size_t)2 << 20)

struct warm {
	void *block[WARM_BLOCKS];
	size_t size[WARM_BLOCKS];
	int n;
	pthread_mutex_t lock;
	int ready, released;	/* the one that sets the second frees W */
};

static void
warm_free(struct warm *w)
{
	int k;

	for (k = 0; k < w->n; k++)
		free(w->block[k]);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/* Sets *FLAG; frees W if the other flag was set first. */
static void
warm_mark(struct warm *w, int *flag)
{
	int both;

	pthread_mutex_lock(&w->lock);
	*flag = 1;
	both = w->ready && w->released;
	pthread_mutex_unlock(&w->lock);
	if (both)
		warm_free(w);
}

static void *
warm_run(void *arg)
{
	struct warm *w = arg;
	size_t at;
	int k;

	helper_lower_priority();
	for (k = 0; k < w->n; k++)
		for (at = 0; at < w->size[k]; at += WARM_SLICE)
			mem_populate((char *)w->block[k] + at,
			    w->size[k] - at < WARM_SLICE ? w->size[k] - at : WARM_SLICE);
	warm_mark(w, &w->ready);
	return NULL;
}

struct warm *
warm_start(size_t bytes)
{
	size_t avail = sysmem_available();
	struct warm *w;
	pthread_attr_t attr;
	pthread_t t;
	int started = 0;

	/* Not where the memory is short: the x may never come, and the kernel would have to reclaim. */
	if (bytes < WARM_MIN || (avail != 0 && bytes > avail / 4) || (w = calloc(1, sizeof *w)) == NULL)
		return NULL;
	while (bytes > 0 && w->n < WARM_BLOCKS) {
		size_t s = bytes < WARM_BLOCK ? bytes : WARM_BLOCK;

		if ((w->block[w->n] = mem_unfaulted(s)) == NULL)
			break;
		w->size[w->n++] = s;
		bytes -= s;
	}
	pthread_mutex_init(&w->lock, NULL);
	if (pthread_attr_init(&attr) == 0) {
		started = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
		    pthread_create(&t, &attr, warm_run, w) == 0;
		pthread_attr_destroy(&attr);
	}
	if (!started) {
		warm_free(w);
		return NULL;
	}
	return w;
}

void
warm_release(struct warm *w)
{
	if (w != NULL)
		warm_mark(w, &w->released);
}
