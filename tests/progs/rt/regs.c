/* regs: arguments in vector registers and a nested function's static chain survive the stubs. */
#include <stdio.h>

__attribute__((noinline)) double
mix(double a, double b, double c, double d, double e, double f, double g, double h)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

#ifndef __clang__
/* GCC's nested functions get their parent's frame in r10, live across the stub. */
__attribute__((noinline)) int
outer(int k)
{
	int base = k * 10;
	__attribute__((noinline)) int inner(int x) { return base + x; }

	return inner(1) + inner(2);
}
#else
static int outer(int k) { return 20 * k + 3; }	/* clang has no nested functions */
#endif

int
main(void)
{
	double s = 0;
	int bad = 0;

	for (int i = 0; i < 100; i++) {
		double v = mix(i, 1, 2, 3, 4, 5, 6, 7);

		if (v != i + 2.0 * 1 + 3.0 * 2 + 4.0 * 3 + 5.0 * 4 + 6.0 * 5 + 7.0 * 6 + 8.0 * 7)
			bad++;
		if (outer(i) != 20 * i + 3)
			bad++;
		s += v;
	}
	printf("%s %g\n", bad ? "BAD" : "ok", s);
	return bad != 0;
}
