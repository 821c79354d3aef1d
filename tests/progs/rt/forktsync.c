/* forktsync: children forked from a program whose threads are busy in profiled code each enter a TSYNC sandbox. */
/*
 * Four threads call mid() -> leaf() for ever; main forks argv[1] children
 * (200 by default), each of which installs an allow-all seccomp filter
 * for every thread (TSYNC) and exits 1 if that took over 50 ms.  Prints
 * "N of M forked children waited over 50 ms in seccomp(TSYNC)": libtgmon
 * waits for the other threads to leave what asks the kernel, and a child
 * has none (it counted the parent's, 190 ms each).
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
leaf(int i)
{
	sink += (unsigned long)i;
}

__attribute__((noinline)) void
mid(int i)
{
	for (int k = 0; k < 100; k++)
		leaf(k + i);
}

static void *
spin(void *arg)
{
	for (;;)
		mid(1);
	return arg;
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The child: the sandbox for all its threads (it has one), timed. */
static void
child(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };
	double t0;

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	t0 = now();
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
	_exit(now() - t0 > 0.05);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200, slow = 0, st;
	pthread_t t;
	pid_t p;

	for (int i = 0; i < 4; i++)
		pthread_create(&t, NULL, spin, NULL);
	usleep(100000);
	for (int i = 0; i < n; i++) {
		if ((p = fork()) == 0)
			child();
		waitpid(p, &st, 0);
		slow += WIFEXITED(st) && WEXITSTATUS(st) == 1;
	}
	printf("%d of %d forked children waited over 50 ms in seccomp(TSYNC)\n", slow, n);
	fflush(stdout);
	_exit(0);
}
