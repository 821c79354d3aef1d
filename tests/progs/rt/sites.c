/* sites: one call site with nine callees, ninety call sites of one callee each, calls from libc: exact counts. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
static unsigned long compared;	/* cmp's calls, as the program counts them */

#ifdef BIG_TEXT
/* 2 MiB of code never run: a text over libtgmon's flat slots (TGMON_FLAT_MAX), in chunks. */
__attribute__((noinline)) void
filler(void)
{
#if defined(__aarch64__)
	__asm__ volatile("b 1f\n\t.skip 2097152\n1:");
#else
	__asm__ volatile("jmp 1f\n\t.skip 2097152, 0x90\n1:");
#endif
}
#endif

#define T(k) __attribute__((noinline)) void t##k(void) { sink += k; }
T(0) T(1) T(2) T(3) T(4) T(5) T(6) T(7) T(8)

static void (*volatile target[9])(void) = { t0, t1, t2, t3, t4, t5, t6, t7, t8 };

/* Called from qsort: its call site is in libc, outside the program's text. */
__attribute__((noinline)) int
cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	compared++;
	return (x > y) - (x < y);
}

/*
 * t_k is called (k + 1) * 1000 times from the one call site below, in an
 * order that keeps changing which callee comes next: 45,000 calls.
 */
static void
indirect(void)
{
	int left[9], k, n = 45000;

	for (k = 0; k < 9; k++)
		left[k] = (k + 1) * 1000;
	for (k = 0; n > 0; k = (k * 4 + 1) % 9) {
		if (left[k] == 0)
			continue;
		left[k]--;
		n--;
		target[k]();
	}
}

/* Each t_k from ten call sites of its own, 100 times: 1,000 calls of each over 90 arcs. */
#define NINE t0(); t1(); t2(); t3(); t4(); t5(); t6(); t7(); t8();
static void
spread(void)
{
	for (int r = 0; r < 100; r++) {
		NINE NINE NINE NINE NINE NINE NINE NINE NINE NINE
	}
}

int
main(void)
{
	int v[5000], i;

	indirect();
	spread();
	srand(7);
	for (i = 0; i < 5000; i++)
		v[i] = rand();
	qsort(v, 5000, sizeof v[0], cmp);
	printf("cmp %lu\n", compared);
	return 0;
}
