/* addrspace: 16 MiB of text and 8 threads, then a 300 MiB allocation, for a limit on the address space. */
/*
 * Eight threads (argv[1] of them, 8 by default) call leaf() 1000 times
 * each, from a call site past the 16 MiB of code that is never run, wait
 * until all have, and end; main then allocates 300 MiB and touches it, and prints "malloc
 * ok" (or "malloc failed", status 1).  Under ulimit -v 1600000 that is
 * enough without a profiler.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;
static pthread_barrier_t all_called;

__attribute__((noinline)) void
leaf(int i)
{
	sink += (unsigned long)i;
}

/* 16 MiB of code never run, between main's text and the callers' */
__attribute__((noinline)) void
filler(void)
{
	__asm__ volatile("jmp 1f\n\t.skip 16777216, 0x90\n1:");
}

__attribute__((noinline)) void
caller(void)
{
	for (int i = 0; i < 1000; i++)
		leaf(i);
}

static void *
worker(void *arg)
{
	caller();
	pthread_barrier_wait(&all_called);
	return arg;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8;
	pthread_t t[64];
	char *p;

	if (n > 64)
		n = 64;
	pthread_barrier_init(&all_called, NULL, (unsigned)n);
	for (int k = 0; k < n; k++)
		if (pthread_create(&t[k], NULL, worker, NULL) != 0) {
			printf("pthread_create failed\n");
			return 1;
		}
	for (int k = 0; k < n; k++)
		pthread_join(t[k], NULL);
	caller();
	if ((p = malloc(300u << 20)) == NULL) {
		printf("malloc failed\n");
		return 1;
	}
	memset(p, 1, 300u << 20);
	printf("malloc ok\n");
	free(p);
	return 0;
}
