/* many: 5,000 short threads, one after another, each calling leaf() 100 times. */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
leaf(int i)
{
	sink += (unsigned long)i;
}

static void *
work(void *arg)
{
	for (int i = 0; i < 100; i++)
		leaf(i);
	return arg;
}

int
main(void)
{
	for (int k = 0; k < 5000; k++) {
		pthread_t t;

		if (pthread_create(&t, NULL, work, NULL) != 0 || pthread_join(t, NULL) != 0)
			return 1;
	}
	printf("%lu\n", sink);
	return 0;
}
