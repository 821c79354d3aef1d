/* stackmix: stacks through libc (a qsort comparator), a signal handler, and a 100,000-deep recursion (argv[1]). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
burn(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i ^ (sink >> 3);
}

/* qsort's comparator: called from libc, which keeps no frame pointers. */
__attribute__((noinline)) int
cmp(const void *a, const void *b)
{
	burn(2000);
	return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) void
sort(void)
{
	int v[4000];

	for (int i = 0; i < 4000; i++)
		v[i] = (i * 7919) % 4000;
	qsort(v, 4000, sizeof *v, cmp);
}

static volatile sig_atomic_t ticks;

/* A handler that burns: its samples are on a signal frame above whatever it interrupted. */
__attribute__((noinline)) void
on_alarm(int sig)
{
	burn(2000000);
	ticks++;
}

/*
 * A wall-clock timer: a CPU-time one (ITIMER_PROF) fires on the same
 * kernel tick as libtgmon's, so its handler would run just after each
 * sample and never be sampled.
 */
__attribute__((noinline)) void
signals(void)
{
	struct itimerval it = { { 0, 5000 }, { 0, 5000 } };

	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &it, NULL);
	while (ticks < 100)
		burn(1000);
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
}

__attribute__((noinline)) long
deep(long n)
{
	if (n == 0) {
		burn(200000000);
		return 0;
	}
	return deep(n - 1) + 1;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "qsort") == 0)
		sort();
	else if (argc > 1 && strcmp(argv[1], "signal") == 0)
		signals();
	else if (argc > 1 && strcmp(argv[1], "deep") == 0)
		return (int)(deep(100000) != 100000);
	return 0;
}
