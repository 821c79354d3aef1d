/* rowpipe: formats a long list of rows on two threads and writes them out in order. */
#include "rowpipe.h"

#include <pthread.h>

/* The worker's single chunk buffer, handed back and forth. */
struct shared {
	const struct rowpipe_job *job;
	uint32_t nchunks;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct sbuf buf;	/* the worker's formatted chunk */
	uint32_t ready;		/* chunk number in BUF, or UINT32_MAX while empty */
	int failed;		/* the worker's chunks': under LOCK */
};

static void
format_chunk(const struct rowpipe_job *job, struct sbuf *sb, uint32_t k, int thread)
{
	uint32_t from = k * job->chunk, to = from + job->chunk;

	job->format(job->ctx, sb, from, to < job->n ? to : job->n, thread);
}

static void *
worker(void *arg)
{
	struct shared *sh = arg;
	struct sbuf sb;
	uint32_t k;

	sbuf_init(&sb);
	for (k = 1; k < sh->nchunks; k += 2) {
		sbuf_reset(&sb);
		format_chunk(sh->job, &sb, k, 1);
		pthread_mutex_lock(&sh->lock);
		while (sh->ready != UINT32_MAX)
			pthread_cond_wait(&sh->cond, &sh->lock);
		/* Swap buffers: the main thread writes this one, we fill the other. */
		struct sbuf t = sh->buf;
		sh->buf = sb;
		sb = t;
		sh->ready = k;
		sh->failed |= sh->buf.failed;
		pthread_cond_broadcast(&sh->cond);
		pthread_mutex_unlock(&sh->lock);
	}
	sbuf_release(&sb);
	return NULL;
}

/* Writes the worker's chunk K once it is there, and hands the buffer back. */
static void
write_worker_chunk(FILE *out, struct shared *sh, uint32_t k)
{
	pthread_mutex_lock(&sh->lock);
	while (sh->ready != k)
		pthread_cond_wait(&sh->cond, &sh->lock);
	fwrite(sbuf_str(&sh->buf), 1, sh->buf.len, out);
	sh->ready = UINT32_MAX;
	pthread_cond_broadcast(&sh->cond);
	pthread_mutex_unlock(&sh->lock);
}

static int
run_alone(FILE *out, const struct rowpipe_job *job, uint32_t nchunks)
{
	struct sbuf sb;
	uint32_t k;
	int failed = 0;

	sbuf_init(&sb);
	for (k = 0; k < nchunks; k++) {
		sbuf_reset(&sb);
		format_chunk(job, &sb, k, 0);
		failed |= sb.failed;
		fwrite(sbuf_str(&sb), 1, sb.len, out);
	}
	sbuf_release(&sb);
	return failed ? -1 : 0;
}

int
rowpipe_run(FILE *out, const struct rowpipe_job *job)
{
	struct shared sh;
	struct sbuf sb;
	pthread_t tid;
	uint32_t nchunks = job->chunk ? (job->n + job->chunk - 1) / job->chunk : 0, k;
	int failed = 0;		/* this thread's chunks' */

	if (nchunks < 2)
		return run_alone(out, job, nchunks);
	sh.job = job;
	sh.nchunks = nchunks;
	sh.ready = UINT32_MAX;
	sh.failed = 0;
	sbuf_init(&sh.buf);
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.cond, NULL);
	if (pthread_create(&tid, NULL, worker, &sh) != 0) {
		pthread_mutex_destroy(&sh.lock);
		pthread_cond_destroy(&sh.cond);
		return run_alone(out, job, nchunks);
	}
	sbuf_init(&sb);
	for (k = 0; k < nchunks; k++) {
		if (k % 2 == 1) {
			write_worker_chunk(out, &sh, k);
			continue;
		}
		sbuf_reset(&sb);
		format_chunk(job, &sb, k, 0);
		failed |= sb.failed;
		fwrite(sbuf_str(&sb), 1, sb.len, out);
	}
	pthread_join(tid, NULL);
	sbuf_release(&sb);
	sbuf_release(&sh.buf);
	pthread_mutex_destroy(&sh.lock);
	pthread_cond_destroy(&sh.cond);
	return failed || sh.failed ? -1 : 0;
}
