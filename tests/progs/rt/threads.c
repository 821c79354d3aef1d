/* threads: four threads call leaf_thr() 1,000,000 times each while main calls leaf_main() 2,000,000 times. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) void leaf_thr(int i) { sink += (unsigned long)i; }
__attribute__((noinline)) void leaf_main(int i) { sink ^= (unsigned long)i; }
static void *worker(void *arg) { for (int i = 0; i < 1000000; i++) leaf_thr(i); return arg; }
int main(void)
{
	pthread_t t[4];
	for (int k = 0; k < 4; k++) pthread_create(&t[k], NULL, worker, NULL);
	for (int i = 0; i < 2000000; i++) leaf_main(i);
	for (int k = 0; k < 4; k++) pthread_join(t[k], NULL);
	printf("%lu\n", sink);
	return 0;
}
