/* ahead: the later half of a gmon file's arc records judged on a helper thread while the earlier half is tallied. */
#include "ahead.h"

#include <stdlib.h>

#include "core.h"
#include "util/busguard.h"
#include "util/job.h"
#include "util/mem.h"

/* Below this many arc records a file is read on one thread: a thread costs more than it saves. */
#define AHEAD_MIN 65536

struct ahead {
	const struct profile *p;
	const struct gmon_file *f;
	struct gmon_layout lay;
	size_t start, size;	/* the records judged are at start + k * size ... */
	size_t n, done;		/* ... for k below done (of n asked): at done the run ended */
	struct arc_verdict *v;	/* each one's verdict */
	struct job job;
	int waited;
};

/* The helper: N records from START, a batch at a time; where no arc record can be, the run ends. */
static int
judge_records(void *arg)
{
	struct ahead *a = arg;
	uint64_t from[ARCS_BATCH], self[ARCS_BATCH];
	size_t k = 0;
	unsigned i;

	while (k < a->n) {
		for (i = 0; i < ARCS_BATCH && k + i < a->n; i++)
			if (gmon_arc_at(a->f, &a->lay, a->start + (k + i) * a->size, &from[i], &self[i]) != 0)
				break;
		arcs_judge(a->p, from, self, i, &a->v[k]);
		k += i;
		if (i < ARCS_BATCH && k < a->n)
			break;
	}
	a->done = k;
	return 0;
}

/* judge_records() guarded: if the file is cut short meanwhile none is judged (the load reads them, and says so). */
static int
judge_all(void *arg)
{
	busguard_run(judge_records, arg);
	return 0;
}

struct ahead *
ahead_start(const struct profile *p, const struct gmon_file *f, const struct gmon_layout *lay)
{
	struct ahead *a;
	size_t half = f->narcs / 2;

	if (f->narcs < AHEAD_MIN || f->first_arc == 0 || p->priv->fact == NULL ||
	    p->priv->calls == NULL || (a = mem_calloc(1, sizeof *a)) == NULL)
		return NULL;
	a->p = p;
	a->f = f;
	a->lay = *lay;
	a->size = gmon_arc_size(lay);
	a->start = f->first_arc + half * a->size;
	a->n = f->narcs - half;
	if ((a->v = mem_unfaulted(a->n * sizeof *a->v)) == NULL) {
		free(a);
		return NULL;
	}
	job_start(&a->job, judge_all, a);
	return a;
}

const struct arc_verdict *
ahead_verdict(struct ahead *a, size_t at)
{
	size_t k;

	if (a == NULL || at < a->start)
		return NULL;
	if (!a->waited) {
		job_join(&a->job);
		a->waited = 1;
	}
	k = (at - a->start) / a->size;
	return (at - a->start) % a->size == 0 && k < a->done ? &a->v[k] : NULL;
}

void
ahead_free(struct ahead *a)
{
	if (a == NULL)
		return;
	if (!a->waited)
		job_join(&a->job);
	free(a->v);
	free(a);
}
