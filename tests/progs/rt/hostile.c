/* hostile: a program that is hard on its profiler: calls work() 3000 times, then does as argv[1] says. */
/*
 *   closefds  closes every descriptor above 2, then opens a file (taking
 *             the number a profiler may have kept) and keeps it open
 *   closedir  the same, but what it opens is another directory
 *   ownprof   handles SIGPROF itself with ITIMER_PROF at 100 Hz for 0.5 s
 *             of CPU and prints "signals GOT WANTED"
 *   termexit  at exit, a second thread sends SIGTERM again and again
 *             while the profile is being written
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static volatile sig_atomic_t got;

__attribute__((noinline)) void
work(int i)
{
	sink += (unsigned long)i;
}

/* Burns the CPU time of N ms of this thread. */
__attribute__((noinline)) void
burn(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i * 7;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void
on_prof(int sig)
{
	got++;
}

static void
own_prof(void)
{
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } };

	signal(SIGPROF, on_prof);
	setitimer(ITIMER_PROF, &it, NULL);
	burn(500);
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_PROF, &it, NULL);
	printf("signals %d %d\n", (int)got, 50);
}

static void *
terminator(void *arg)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGTERM);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	for (;;) {
		kill(getpid(), SIGTERM);
		usleep(200);
	}
	return arg;
}

static void
start_terminator(void)
{
	pthread_t t;
	sigset_t s;

	/* the new thread takes the signals; the exiting one must not die of them first */
	sigemptyset(&s);
	sigaddset(&s, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	pthread_create(&t, NULL, terminator, NULL);
}

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";

	for (int i = 0; i < 3000; i++)
		work(i);
	if (strcmp(how, "closefds") == 0 || strcmp(how, "closedir") == 0) {
		closefrom(3);
		if ((strcmp(how, "closefds") == 0 ? open("log.txt", O_WRONLY | O_CREAT, 0644) :
		    open("/", O_RDONLY | O_DIRECTORY)) < 0)
			return 1;
	}
	if (strcmp(how, "ownprof") == 0)
		own_prof();
	if (strcmp(how, "termexit") == 0)
		atexit(start_terminator);
	return 0;
}
