/* fsize: a program under a small file-size limit (RLIMIT_FSIZE of 1 KiB), its output on standard output. */
/*
 * Calls work() 3000 times, lowers RLIMIT_FSIZE to 1024 bytes, prints
 * "out N" for N from 1 to 20 (buffered: standard output is a pipe or a
 * file; stdio flushes it after libtgmon's write at exit), then leaves as
 * argv[1] says:
 *   exit      returns from main
 *   handler   the same, with a SIGXFSZ handler of its own that says
 *             "SIGXFSZ" (the program itself never writes past the limit)
 *   _exit     flushes, then _exit(0)
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
work(int i)
{
	sink += (unsigned long)i;
}

static void
on_xfsz(int sig)
{
	(void)!write(1, "SIGXFSZ\n", 8);
}

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "exit";
	struct rlimit rl = { 1024, 1024 };

	for (int i = 0; i < 3000; i++)
		work(i);
	if (strcmp(how, "handler") == 0)
		signal(SIGXFSZ, on_xfsz);
	if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
		return 1;
	for (int i = 1; i <= 20; i++)
		printf("out %d\n", i);
	if (strcmp(how, "_exit") == 0) {
		fflush(stdout);
		_exit(0);
	}
	return 0;
}
