/* cycles: recursion, mutual recursion (cycles of 2, 3 and 5 functions), a root cycle, statics. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

void
burn(int n)
{
	for (int i = 0; i < n * 2000; i++)
		sink += (unsigned long)i ^ sink;
}

static int is_odd(int n);
static int is_even(int n) { burn(1); return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(int n) { burn(1); return n == 0 ? 0 : is_even(n - 1); }

int tri_b(int n);
int tri_c(int n);
int tri_a(int n) { burn(2); return n <= 0 ? 0 : tri_b(n - 1) + 1; }
int tri_b(int n) { burn(1); return n <= 0 ? 0 : tri_c(n - 1) + 1; }
int tri_c(int n) { burn(3); return n <= 0 ? 0 : tri_a(n - 1) + 1; }

int ring(int k, int n);
int ring1(int n) { return ring(1, n); }
int ring2(int n) { return ring(2, n); }
int ring3(int n) { return ring(3, n); }
int ring4(int n) { return ring(4, n); }
int ring(int k, int n)
{
	burn(k);
	if (n <= 0)
		return k;
	switch (k) {
	case 0: return ring1(n - 1);
	case 1: return ring2(n - 1);
	case 2: return ring3(n - 1);
	case 3: return ring4(n - 1);
	default: return ring(0, n - 1);
	}
}

long fact(int n) { burn(1); return n <= 1 ? 1 : n * fact(n - 1); }
long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

void leaf_a(void) { burn(4); }
void leaf_b(void) { burn(6); }
static void mid(void) { leaf_a(); }
void top(void) { mid(); leaf_b(); }
void never_called(void) { burn(1); }
void unused_but_sampled(void) { }

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1500;
	long total = 0;

	for (int i = 0; i < rounds; i++) {
		total += is_even(12) + tri_a(9) + ring(0, 14) + fact(12) + fib(18);
		top();
		if (i % 7 == 0)
			leaf_a();
	}
	printf("%ld %lu\n", total, sink);
	return 0;
}
