/* job: a function run on a helper thread where one can be started, else at once on the caller's. */
#ifndef TGPROF_JOB_H
#define TGPROF_JOB_H

#include <pthread.h>

/* Zeroed, a job that never started: job_join() gives 0. */
struct job {
	int (*fn)(void *);
	void *arg;
	pthread_t tid;
	int started, rc;
};

/* FN(ARG) on a helper thread (helper.h's priority), or here and now if none can be started. */
void job_start(struct job *j, int (*fn)(void *), void *arg);

/* FN(ARG) on a helper thread: 0; -1 (FN not run) where none can be started. */
int job_try_start(struct job *j, int (*fn)(void *), void *arg);

/* J done: what its function returned. */
int job_join(struct job *j);

#endif
