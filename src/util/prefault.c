/* prefault: memory about to be written, faulted in ahead of the writer by a second thread. */
#include "prefault.h"

#include "helper.h"
#include "mem.h"

/* How many slices a block is faulted in, in turn with the others'. */
#define SLICES 64
/* Smaller blocks are left to the writer. */
#define PREFAULT_MIN ((size_t)4 << 20)

void
prefault_init(struct prefault *pf)
{
	pf->n = 0;
	pf->stop = 0;
	pf->running = 0;
}

void
prefault_add(struct prefault *pf, void *p, size_t bytes)
{
	if (p == NULL || bytes < PREFAULT_MIN || pf->n == PREFAULT_RANGES)
		return;
	pf->start[pf->n] = p;
	pf->len[pf->n++] = bytes;
}

static void *
run(void *arg)
{
	struct prefault *pf = arg;
	int s, k;

	helper_lower_priority();
	for (s = 0; s < SLICES; s++)
		for (k = 0; k < pf->n; k++) {
			size_t lo = pf->len[k] / SLICES * (size_t)s;
			size_t hi = s == SLICES - 1 ? pf->len[k] : lo + pf->len[k] / SLICES;

			if (__atomic_load_n(&pf->stop, __ATOMIC_RELAXED))
				return NULL;
			mem_populate((char *)pf->start[k] + lo, hi - lo);
		}
	return NULL;
}

void
prefault_start(struct prefault *pf)
{
	pf->running = pf->n > 0 && pthread_create(&pf->tid, NULL, run, pf) == 0;
}

void
prefault_stop(struct prefault *pf)
{
	if (!pf->running)
		return;
	__atomic_store_n(&pf->stop, 1, __ATOMIC_RELAXED);
	pthread_join(pf->tid, NULL);
	pf->running = 0;
}
