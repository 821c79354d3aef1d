/* exits: calls work() 3000 times, then leaves as argv[1] says: return, _exit, term (SIGTERM), chdir, fork. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
work(int i)
{
	sink += (unsigned long)i;
}

__attribute__((noinline)) void
child_work(int i)
{
	sink ^= (unsigned long)i;
}

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "return";
	pid_t pid;

	for (int i = 0; i < 3000; i++)
		work(i);
	if (strcmp(how, "_exit") == 0)
		_exit(0);
	if (strcmp(how, "term") == 0)
		raise(SIGTERM);
	if (strcmp(how, "chdir") == 0 && chdir(argc > 2 ? argv[2] : "/") != 0)
		return 1;
	if (strcmp(how, "fork") == 0) {
		if ((pid = fork()) == 0) {
			for (int i = 0; i < 500; i++)
				child_work(i);
			exit(0);
		}
		waitpid(pid, NULL, 0);
		printf("%ld\n", (long)pid);
		for (int i = 0; i < 1000; i++)
			work(i);
	}
	return 0;
}
