/* threadrec: named threads of known CPU time, for libtgmon's thread records (tests/runtime.sh). */
/*
 * Three workers burn 1, 2 and 3 units of CPU time, each along a path of
 * its own (workK calls burnK calls spin), and are named three ways:
 * "w-self" by itself (prctl), "w-other" by main (pthread_setname_np on
 * another thread), "w-late" by itself, renamed "w-final" once its work
 * is done.  A fourth, "w-alive", burns one unit and then waits forever:
 * it still runs when main returns.  Each worker prints, as it ends,
 * "cpu NAME TID NS TICKS": its CPU time by its clock and in /proc's
 * clock ticks (utime + stime).  A unit is ARGV[1] spin rounds (default
 * 40000000, about 0.1 s).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static long unit = 40000000;
static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t named;
static sem_t alive;

__attribute__((noinline)) void
spin(long n)
{
	volatile unsigned long own = 0;

	for (long i = 0; i < n; i++)
		own += (unsigned long)i ^ (own >> 5);
	sink += own;
}

/* The calling thread's utime + stime in clock ticks, from /proc; -1 if unreadable. */
static long
proc_ticks(pid_t tid)
{
	char path[64], buf[1024], *p;
	unsigned long ut, st;
	FILE *f;

	snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	p = fgets(buf, sizeof buf, f);
	fclose(f);
	if (p == NULL || (p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (long)(ut + st);
}

static void
report(void)
{
	struct timespec ts;
	char name[16];
	pid_t tid = gettid();

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	prctl(PR_GET_NAME, name);
	pthread_mutex_lock(&out);
	printf("cpu %s %d %lld %ld\n", name, (int)tid, (long long)ts.tv_sec * 1000000000 + ts.tv_nsec,
	    proc_ticks(tid));
	fflush(stdout);
	pthread_mutex_unlock(&out);
}

#define PATH(k, units) \
	__attribute__((noinline)) void burn##k(void) { for (int r = 0; r < (units); r++) spin(unit); sink++; }
PATH(1, 1)
PATH(2, 2)
PATH(3, 3)
PATH(4, 1)

__attribute__((noinline)) void *
work1(void *arg)
{
	prctl(PR_SET_NAME, "w-self");
	pthread_barrier_wait(&named);
	burn1();
	report();
	return arg;
}

__attribute__((noinline)) void *
work2(void *arg)
{
	pthread_barrier_wait(&named);	/* main names it meanwhile */
	burn2();
	report();
	return arg;
}

__attribute__((noinline)) void *
work3(void *arg)
{
	pthread_setname_np(pthread_self(), "w-late");
	pthread_barrier_wait(&named);
	burn3();
	pthread_setname_np(pthread_self(), "w-final");
	report();
	return arg;
}

__attribute__((noinline)) void *
work4(void *arg)
{
	pthread_setname_np(pthread_self(), "w-alive");
	pthread_barrier_wait(&named);
	burn4();
	report();
	sem_post(&alive);
	for (;;)
		pause();
	return arg;
}

int
main(int argc, char **argv)
{
	void *(*f[4])(void *) = { work1, work2, work3, work4 };
	pthread_t t[4];

	if (argc > 1)
		unit = atol(argv[1]);
	pthread_barrier_init(&named, NULL, 5);
	sem_init(&alive, 0, 0);
	for (int k = 0; k < 4; k++)
		pthread_create(&t[k], NULL, f[k], NULL);
	pthread_setname_np(t[1], "w-other");
	pthread_barrier_wait(&named);
	for (int k = 0; k < 3; k++)
		pthread_join(t[k], NULL);
	while (sem_wait(&alive) != 0)
		;
	spin(unit / 4);
	printf("%lu\n", sink);
	return 0;
}
