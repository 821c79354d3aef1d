/* pingpong: two threads pass a byte back and forth through pipes (a switch of context each way), a third computes. */
/*
 * "pinger" and "ponger" make ARGV[1] round trips (default 100000); the
 * spinner burns CPU time without switching.  libtgmon must give up the
 * perf events of the first two (each switch would cost them the event's
 * timer) and keep the spinner's.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int there[2], back[2];
static long trips = 100000;
static volatile unsigned long sink;

__attribute__((noinline)) void
spin(long n)
{
	volatile unsigned long own = 0;

	for (long i = 0; i < n; i++)
		own += (unsigned long)i ^ (own >> 5);
	sink += own;
}

__attribute__((noinline)) void *
spinner(void *arg)
{
	pthread_setname_np(pthread_self(), "spinner");
	spin(300000000);
	return arg;
}

__attribute__((noinline)) void *
ponger(void *arg)
{
	char c;

	pthread_setname_np(pthread_self(), "ponger");
	for (long i = 0; i < trips; i++)
		if (read(there[0], &c, 1) != 1 || write(back[1], &c, 1) != 1)
			exit(2);
	return arg;
}

int
main(int argc, char **argv)
{
	pthread_t p, s;
	char c = 'x';

	if (argc > 1)
		trips = atol(argv[1]);
	if (pipe(there) != 0 || pipe(back) != 0)
		return 2;
	pthread_setname_np(pthread_self(), "pinger");
	pthread_create(&s, NULL, spinner, NULL);
	pthread_create(&p, NULL, ponger, NULL);
	for (long i = 0; i < trips; i++)
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			return 2;
	pthread_join(p, NULL);
	pthread_join(s, NULL);
	printf("%ld\n", trips);
	return 0;
}
