/* test-busguard: busguard_run() on a mapped file cut short, in threads, nested, and a SIGBUS outside it. */
/*
 * Usage: test-busguard DIR.  A file in DIR is mapped and cut to one page:
 * a guarded read past the page comes back as BUSGUARD_SHRANK (in this
 * thread, in four at once, in a guard inside another), a guarded read
 * within it as the function's answer; a read past it outside any guard
 * reaches the handler the program had before (here one that jumps back
 * to the test), and so does one after that program put its handler back
 * (the guard takes SIGBUS again when it next runs).  Prints the failures;
 * exit 1 if any.
 */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/busguard.h"

#define SIZE (64 * 4096)

static volatile unsigned char *map;
static sigjmp_buf back;
static volatile int theirs;	/* SIGBUSes the program's own handler saw */

/* Says what failed; 1. */
static int
fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	return 1;
}

static void
their_handler(int sig)
{
	(void)sig;
	theirs++;
	siglongjmp(back, 1);
}

static int
read_at(void *arg)
{
	return map[(size_t)arg] + 1;	/* (never 0: a read that worked) */
}

static int
nested(void *arg)
{
	int rc = busguard_run(read_at, arg);

	return rc == BUSGUARD_SHRANK ? 7 : -1;	/* the inner guard caught it: the outer one goes on */
}

static void *
thread(void *arg)
{
	long bad = 0;
	int i;

	for (i = 0; i < 200; i++)
		bad += busguard_run(read_at, (void *)(size_t)(4096 + (size_t)i * 997 % (SIZE - 4096))) !=
		    BUSGUARD_SHRANK;
	return (void *)bad;
}

/* A read past the page outside any guard: the program's handler, once. */
static int
unguarded(void)
{
	int before = theirs;

	if (sigsetjmp(back, 1) == 0)
		(void)map[SIZE - 1];
	return theirs == before + 1;
}

int
main(int argc, char **argv)
{
	char path[4096];
	struct sigaction sa;
	pthread_t t[4];
	int fd, fails = 0, i;
	void *r;

	if (argc != 2)
		return fprintf(stderr, "usage: test-busguard DIR\n"), 2;
	snprintf(path, sizeof path, "%s/busguard.bin", argv[1]);
	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0 || ftruncate(fd, SIZE) != 0 ||
	    (map = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED || ftruncate(fd, 4096) != 0)
		return perror(path), 2;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = their_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	if (busguard_run(read_at, (void *)(size_t)100) != 1)
		fails += fail("a read within the file: not the function's answer\n");
	if (busguard_run(read_at, (void *)(size_t)(SIZE - 1)) != BUSGUARD_SHRANK)
		fails += fail("a read past the end: not BUSGUARD_SHRANK\n");
	if (busguard_run(nested, (void *)(size_t)(SIZE - 1)) != 7)
		fails += fail("a guard inside another: the outer one did not go on\n");
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, thread, NULL);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		if (r != NULL)
			fails += fail("thread %d: %ld reads past the end not caught\n", i, (long)r);
	}
	if (!unguarded())
		fails += fail("outside a guard: the program's handler not called\n");
	sigaction(SIGBUS, &sa, NULL);	/* the program puts its own back */
	if (!unguarded())
		fails += fail("the program's handler again: not called\n");
	if (busguard_run(read_at, (void *)(size_t)(SIZE - 1)) != BUSGUARD_SHRANK)
		fails += fail("after the program's handler came back: not caught\n");
	if (!unguarded())
		fails += fail("outside a guard, after: the program's handler not called\n");
	close(fd);
	unlink(path);
	printf("test-busguard: %d failures\n", fails);
	return fails != 0;
}
