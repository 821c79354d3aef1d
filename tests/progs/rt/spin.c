/* spin: about a second of CPU in a loop of two instructions, so that one 4-byte bin passes 65535 samples. */
#include <stdio.h>
#include <sys/resource.h>

__attribute__((noinline)) void
spin(unsigned long n)
{
	__asm__ volatile(".p2align 3\n1:\tdec %0\n\tjnz 1b" : "+r"(n));
}

int
main(void)
{
	struct rusage ru;

	spin(3000000000UL);
	getrusage(RUSAGE_SELF, &ru);
	printf("%.3f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	    ru.ru_stime.tv_usec / 1e6);
	return 0;
}
