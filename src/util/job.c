/* job: a function run on a helper thread where one can be started, else at once on the caller's. */
#include "job.h"

#include <stddef.h>

#include "helper.h"

static void *
run(void *arg)
{
	struct job *j = arg;

	helper_lower_priority();
	j->rc = j->fn(j->arg);
	return NULL;
}

int
job_try_start(struct job *j, int (*fn)(void *), void *arg)
{
	j->fn = fn;
	j->arg = arg;
	j->rc = 0;
	j->started = pthread_create(&j->tid, NULL, run, j) == 0;
	return j->started ? 0 : -1;
}

void
job_start(struct job *j, int (*fn)(void *), void *arg)
{
	if (job_try_start(j, fn, arg) != 0)
		j->rc = fn(arg);
}

int
job_join(struct job *j)
{
	if (j->started)
		pthread_join(j->tid, NULL);
	j->started = 0;
	return j->rc;
}
