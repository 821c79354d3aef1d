/* jump: a signal handler that calls profiled code and siglongjmps out of libtgmon's slow path. */
/*
 * Calls work() 3000 times, then arms jumphook.c's mmap() and calls
 * far(), whose call to leaf() is the first from its 4 KiB of text (of a
 * text over 2 MiB, filler's): the
 * slow path asks mmap() for the slots of that text, and SIGUSR1 comes
 * there.  Its handler calls in_handler() (a new arc, while the slow path
 * is running: not counted) and siglongjmps back to main, leaving the slow
 * path for good.  Then, as argv[1] says:
 *   main     after() 1000 times from main, far() (and so leaf()) 1000 times
 *   deep     the same from 40 frames deeper (deep()), over where the
 *            slow path's frame was
 *   onstack  as main, the handler on an alternate stack of its own
 * and prints "jumped" (or "not interrupted" if the handler never ran).
 * Run with TGMON_HZ=1: no sample handler meets SIGUSR1.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern volatile sig_atomic_t jump_armed;
static volatile unsigned long sink;
static sigjmp_buf back;

__attribute__((noinline)) void
work(int i)
{
	sink += (unsigned long)i;
}

__attribute__((noinline)) void
leaf(int i)
{
	sink ^= (unsigned long)i;
}

__attribute__((noinline)) void
after(int i)
{
	sink += (unsigned long)i * 3;
}

__attribute__((noinline)) void
in_handler(int i)
{
	sink -= (unsigned long)i;
}

/*
 * 2 MiB of code never run: a text over libtgmon's 1 MiB of flat slots
 * (TGMON_FLAT_MAX), whose slots come in chunks, by mmap().
 */
__attribute__((noinline)) void
filler(void)
{
	__asm__ volatile("jmp 1f\n\t.skip 2097152, 0x90\n1:");
}

/* Alone in its 4 KiB of text: its call to leaf() is the first from there. */
__attribute__((noinline, aligned(4096))) void
far(void)
{
	leaf(1);
	sink++;	/* a call, not a jump */
}

static void
on_usr1(int sig)
{
	in_handler(sig);
	siglongjmp(back, 1);
}

/* after() and far(), 1000 times each. */
__attribute__((noinline)) void
calls(void)
{
	for (int i = 0; i < 1000; i++) {
		after(i);
		far();
	}
}

/* calls(), N frames down. */
__attribute__((noinline)) void
deep(int n)
{
	if (n > 0)
		deep(n - 1);
	else
		calls();
	sink++;
}

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "main";
	stack_t ss = { .ss_sp = malloc(65536), .ss_size = 65536 };
	struct sigaction sa;

	for (int i = 0; i < 3000; i++)
		work(i);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	if (strcmp(how, "onstack") == 0) {
		sa.sa_flags = SA_ONSTACK;
		if (ss.ss_sp == NULL || sigaltstack(&ss, NULL) != 0)
			return 1;
	}
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		return 1;
	if (sigsetjmp(back, 1) == 0) {
		jump_armed = 1;
		far();
		printf("not interrupted\n");
	} else {
		printf("jumped\n");
	}
	if (strcmp(how, "deep") == 0)
		deep(40);
	else
		calls();
	return 0;
}
