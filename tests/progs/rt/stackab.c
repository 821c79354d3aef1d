/* stackab: main calls a() and c(), which both call b() to burn CPU, a 3 times as long; then does as argv[1] says. */
/*
 *   (none)   returns from main
 *   _exit    leaves by _exit()
 *   fork     forks a child that calls only c(), then prints its pid
 *   calls    only calls leaf() from mid(), 10 times argv[2] times: samples
 *            in the stubs and at leaf's first and last instructions
 *   deep     also burns in b() at the bottom of a 300-deep recursion
 *   clobber  also burns in spin_rbp() (clobber.c, built without -pg and
 *            -fomit-frame-pointer), whose rbp is junk: a small number, a
 *            stack address of junk, and (in a signal handler on an
 *            alternate stack) an address in an unreadable page between
 *            that stack and the thread's
 * argv[2]: the work of each b() call (default 2000000).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

unsigned long spin_rbp(unsigned long n, unsigned long junk);

static volatile unsigned long sink;
static long work = 2000000;

__attribute__((noinline)) void
b(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i ^ (sink >> 3);
}

__attribute__((noinline)) void
a(void)
{
	for (int k = 0; k < 3; k++)
		b(work);
	sink++;
}

__attribute__((noinline)) void
c(void)
{
	b(work);
	sink++;
}

__attribute__((noinline)) void
leaf(void)
{
	sink++;
	sink++;
	sink++;
}

__attribute__((noinline)) void
mid(void)
{
	for (long i = 0; i < work * 10; i++)
		leaf();
	sink++;
}

__attribute__((noinline)) void
rec(int d)
{
	if (d > 0)
		rec(d - 1);
	else
		b(work);
	sink++;
}

static unsigned long guard;	/* an address in the unreadable page above the alternate stack */

static void
on_usr1(int sig)
{
	sink += spin_rbp((unsigned long)work * 150, guard);
}

/* spin_rbp with rbp in an unreadable page, on an alternate stack just below it. */
static void
clobber_altstack(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 17 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct sigaction sa;
	stack_t ss;

	if (m == MAP_FAILED || mprotect(m + 16 * pg, pg, PROT_NONE) != 0)
		exit(3);
	guard = (unsigned long)(m + 16 * pg + 256);
	ss.ss_sp = m;
	ss.ss_size = 16 * pg;
	ss.ss_flags = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0)
		exit(3);
	raise(SIGUSR1);
}

static void
clobber(void)
{
	unsigned long junk[64];

	for (int i = 0; i < 64; i++)
		junk[i] = 0x5a5a5a5a5a5a5a58ul + (unsigned long)i * 8;
	sink += spin_rbp((unsigned long)work * 150, 0x12345670);
	sink += spin_rbp((unsigned long)work * 150, (unsigned long)&junk[8]);
	clobber_altstack();
}

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	pid_t pid;

	if (argc > 2)
		work = atol(argv[2]);
	if (strcmp(how, "calls") == 0) {
		mid();
		return 0;
	}
	for (int r = 0; r < 20; r++) {
		a();
		c();
	}
	if (strcmp(how, "deep") == 0)
		for (int r = 0; r < 20; r++)
			rec(300);
	if (strcmp(how, "clobber") == 0)
		clobber();
	if (strcmp(how, "_exit") == 0)
		_exit(0);
	if (strcmp(how, "fork") == 0) {
		if ((pid = fork()) == 0) {
			for (int r = 0; r < 20; r++)
				c();
			exit(0);
		}
		waitpid(pid, NULL, 0);
		printf("%ld\n", (long)pid);
	}
	return 0;
}
