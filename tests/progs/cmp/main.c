/* cmp: a program in two versions (-DV2) for tgprof --diff: one function three times slower, one called twice as often, one removed, one added, a static renamed. */
#include "work.h"

volatile unsigned long sink;

/* The same in both versions. */
__attribute__((noinline)) void steady(void) { WORK(100); }

/* Three times the work in V2: the biggest change. */
#ifdef V2
__attribute__((noinline)) void slower(void) { WORK(300); }
#else
__attribute__((noinline)) void slower(void) { WORK(100); }
#endif

/* The same work a call, called twice as often in V2. */
__attribute__((noinline)) void often(void) { WORK(1); }

#ifdef V2
__attribute__((noinline)) void added(void) { WORK(50); }
#else
__attribute__((noinline)) void removed(void) { WORK(50); }
#endif

/* Its namesake in b.c is renamed in V2: they are told apart by file. */
static __attribute__((noinline)) void helper(void) { WORK(30); }

#ifdef V2
#define OFTEN 200
#else
#define OFTEN 100
#endif

int
main(void)
{
	int i;

	steady();
	slower();
	for (i = 0; i < OFTEN; i++)
		often();
#ifdef V2
	added();
#else
	removed();
#endif
	helper();
	file_b();
	return 0;
}
