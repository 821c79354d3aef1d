/* altbad: sigaltstack() asked to write its answer to a bad address, as the C library would be. */
/*
 * Prints "bad old: R errno E": glibc gives -1 and EFAULT (14), the
 * kernel having checked the address; libtgmon's sigaltstack() wrapper
 * wrote the answer itself, and the program died of SIGSEGV.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>

__attribute__((noinline)) int
leaf(int x)
{
	return x + 1;
}

int
main(void)
{
	int r;

	leaf(1);
	r = sigaltstack(NULL, (stack_t *)8);
	printf("bad old: %d errno %d\n", r, errno);
	return 0;
}
