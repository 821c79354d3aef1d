/* libwalk: C library time where a stack search goes wrong (stale return addresses, a tail call, a callback, deep printf); prints each phase's CPU time. */
/*
 * Usage: libwalk [SECONDS]   (1.5 by default)
 *
 * main runs five phases, each until the process has used its share of
 * SECONDS of CPU time, each in a function of its own that spends nearly
 * all of it in the C library (built without frame pointers):
 *
 *   parse_heavy   strtod on long numbers (25%)
 *   format_heavy  snprintf of doubles (20%)
 *   sort_heavy    qsort of doubles, by cmp_double (15%)
 *   alloc_heavy   realloc and free through alloc_tail, which jumps to
 *                 realloc (a tail call: it has no frame left) and calls
 *                 free (20%)
 *   print_heavy   fprintf of doubles with many digits to /dev/null (20%)
 *
 * Before each batch of library calls, leave_stale() recurses 48 calls
 * deep, calling strlen at every depth, over the stack the library's
 * frames are about to take: its return addresses (after a call into the
 * C library, as the live one's) stay in the slots the library leaves
 * unwritten, and so do its frame pointers.  A sample in the library
 * belongs to the phase's function; none to leave_stale, whose own time
 * is a few per cent of the phases at most.  Prints "parse P format F sort
 * S alloc A print R" (each phase's CPU time, s) and a checksum.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STALE_DEPTH 48
#define NSORT 4096

static FILE *null_out;
static double sorted[NSORT];
char stale_buf[64] = "the stack is left with return addresses";	/* not static: strlen is called */

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Recurses DEPTH calls deep, then calls strlen at every depth on the way
 * back: each frame's last call is into the C library, its return address
 * left below the caller's stack pointer, and the frame pointers saved
 * below lead from one to the next up to the caller's frame.
 */
__attribute__((noinline)) long
leave_stale(int depth)
{
	volatile char pad[24];
	long n = 0;

	pad[0] = (char)depth;
	if (depth > 0)
		n = leave_stale(depth - 1);
	n += (long)strlen(stale_buf) + pad[0];
	__asm__ volatile ("" : "+r" (n));	/* no tail call */
	return n;
}

/* Forty numbers of 40 digits converted: strtod's time. */
__attribute__((noinline)) long
parse_heavy(int round)
{
	static char num[40][64];
	double sum = 0;

	for (int k = 0; k < 40; k++)	/* before leave_stale: snprintf would write over the stack */
		snprintf(num[k], sizeof num[k], "%d.%d3456789012345678901234567890123e-%d", round + k, k, k % 300);
	leave_stale(STALE_DEPTH);
	for (int k = 0; k < 40; k++)
		sum += strtod(num[k], NULL);
	return (long)sum & 0xffff;
}

/* Four hundred doubles formatted: snprintf's time. */
__attribute__((noinline)) long
format_heavy(int round)
{
	char buf[64];
	long sum = 0;

	leave_stale(STALE_DEPTH);
	for (int k = 0; k < 400; k++)
		sum += snprintf(buf, sizeof buf, "%.17g", (round * 400 + k) / 7.0);
	return sum;
}

/* qsort's comparator: a callback from the C library. */
__attribute__((noinline)) int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* NSORT doubles sorted: qsort's time and cmp_double's under it. */
__attribute__((noinline)) long
sort_heavy(int round)
{
	unsigned long x = (unsigned long)round * 2654435761u + 1;

	for (int k = 0; k < NSORT; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sorted[k] = (double)(x & 0xfffff);
	}
	leave_stale(STALE_DEPTH);
	qsort(sorted, NSORT, sizeof *sorted, cmp_double);
	return (long)sorted[NSORT / 2];
}

/* realloc, or free for size 0: tail calls, so that no frame of alloc_tail is left under them. */
__attribute__((noinline)) void *
alloc_tail(void *p, size_t n)
{
	if (n == 0) {
		free(p);
		return NULL;
	}
	return realloc(p, n);
}

/* Blocks of changing sizes made, grown and freed: malloc's time, under alloc_tail's caller. */
__attribute__((noinline)) long
alloc_heavy(int round)
{
	void *p[16] = { 0 };
	long sum = 0;

	leave_stale(STALE_DEPTH);
	for (int k = 0; k < 2000; k++) {
		int i = (k * 7 + round) & 15;
		size_t n = (size_t)((k * 2654435761u + (unsigned)round) % 60000) + 1100;

		p[i] = alloc_tail(p[i], k % 5 == 4 ? 0 : n);
		if (p[i] != NULL)
			sum += ((char *)p[i])[0] = (char)k;
	}
	for (int i = 0; i < 16; i++)
		alloc_tail(p[i], 0);
	return sum;
}

/* A hundred doubles printed with many digits: printf's deepest formatting. */
__attribute__((noinline)) long
print_heavy(int round)
{
	long sum = 0;

	leave_stale(STALE_DEPTH);
	for (int k = 0; k < 100; k++)
		sum += fprintf(null_out, "%.60f %.40e %14.3f\n", (round * 100 + k) * 1e250 / 7.0,
		    (round + k) / 3.0, (double)k / 7);
	return sum;
}

/*
 * Rounds of phase K until the process has used SECS more of CPU time,
 * in batches sized from the time the last took (the clock is a system
 * call: read a dozen times, not per round).
 */
static long
phase(int k, double secs, int *round)
{
	static long (*const f[])(int) = { parse_heavy, format_heavy, sort_heavy, alloc_heavy, print_heavy };
	double t0 = cpu_now(), used = 0;
	long sum = 0, done = 0, n = 1;

	while (used < secs) {
		for (long i = 0; i < n; i++, done++)
			sum += f[k](*round);
		++*round;
		used = cpu_now() - t0;
		n = used > 0 ? (long)((secs - used) / (used / done)) + 1 : 2 * n;
		n = n > 2 * done ? 2 * done : n;
	}
	return sum;
}

int
main(int argc, char **argv)
{
	static const char *const name[] = { "parse", "format", "sort", "alloc", "print" };
	static const double share[] = { 0.25, 0.2, 0.15, 0.2, 0.2 };
	double secs = argc > 1 ? atof(argv[1]) : 1.5, t[6];
	long sum = 0;
	int round = 0;

	if ((null_out = fopen("/dev/null", "w")) == NULL)
		return 1;
	mallopt(M_TRIM_THRESHOLD, 64 << 20);	/* malloc's time in user space: no brk() back and forth */
	for (int k = 0; k < 5; k++) {
		t[k] = cpu_now();
		sum += phase(k, share[k] * secs, &round);
	}
	t[5] = cpu_now();
	for (int k = 0; k < 5; k++)
		printf("%s %.3f ", name[k], t[k + 1] - t[k]);
	printf("sum %ld\n", sum);
	return 0;
}
