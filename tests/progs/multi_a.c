/* multi_a: a static function named like one in multi_b.c, calls across files. */
#include <stdio.h>
#include <stdlib.h>

static volatile double acc;

static void
helper(int n)
{
	for (int i = 0; i < n * 3000; i++)
		acc += i * 0.5;
}

void b_entry(int n);
void b_work(int n);

void
a_work(int n)
{
	helper(n);
	if (n > 1)
		b_work(n - 1);
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3000;

	for (int i = 0; i < rounds; i++) {
		a_work(3);
		b_entry(2);
	}
	printf("%f\n", acc);
	return 0;
}
