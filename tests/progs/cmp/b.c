/* cmp's second file: a static function with the same name as one in main.c, renamed in V2. */
#include "work.h"

#ifdef V2
static __attribute__((noinline)) void helper2(void) { WORK(30); }
#else
static __attribute__((noinline)) void helper(void) { WORK(30); }
#endif

__attribute__((noinline)) void
file_b(void)
{
#ifdef V2
	helper2();
#else
	helper();
#endif
}
