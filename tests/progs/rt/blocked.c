/* blocked: a program that blocks every signal for a second of CPU time: the sampling signals waiting meanwhile, and the CPU time. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
work(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i * 7;
}

/* The signals queued for this user now (the first number of /proc/self/status's SigQ), or -1. */
static long
queued(void)
{
	char line[256];
	long n = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f != NULL && fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "SigQ:", 5) == 0)
			sscanf(line + 5, "%ld", &n);
	if (f != NULL)
		fclose(f);
	return n;
}

int
main(void)
{
	sigset_t all, old;
	struct rusage ru;
	long before, during;

	work(1000);
	before = queued();
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	work(3000000000L);
	during = queued();
	sigprocmask(SIG_SETMASK, &old, NULL);
	work(1000);
	getrusage(RUSAGE_SELF, &ru);
	printf("queued %ld %ld cpu %.3f\n", before, during, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
