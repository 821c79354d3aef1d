/* cpu: runs a command and prints the CPU time (user + system, s) it used, for timings on a busy machine. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: cpu command [args...]  (stdout of the command goes to /dev/null)\n", stderr);
		return 2;
	}
	if ((pid = fork()) == 0) {
		if (freopen("/dev/null", "w", stdout) == NULL)
			_exit(127);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 2;
	printf("%.3f\n", ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}
