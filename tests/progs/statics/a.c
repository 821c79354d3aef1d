/* statics: two files with a static constructor of the same name, setup(), which no profiled function calls: tgprof --diff must match each with its own file's; a static helper() named as c.c's, which is never called. */
#include <stdio.h>

void init_a(void);
void init_b(void);
volatile int sink;

__attribute__((noinline)) void init_a(void) { sink++; }

static __attribute__((constructor, noinline)) void setup(void) { init_a(); }

static __attribute__((noinline)) void helper(void) { sink++; }

int
main(void)
{
	helper();
	printf("%d\n", sink);
	return 0;
}
