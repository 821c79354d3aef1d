/* test-fmt: sbuf_fixed/sbuf_uint/sbuf_field must print exactly what glibc's printf prints. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"
#include "util/sbuf.h"

static unsigned long failures;

static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
check_fixed(double x, int width, int prec)
{
	struct sbuf sb;
	char want[512];

	sbuf_init(&sb);
	sbuf_fixed(&sb, x, width, prec);
	snprintf(want, sizeof want, "%*.*f", width, prec, x);
	if (strcmp(sbuf_str(&sb), want) != 0 && failures++ < 10)
		printf("fixed %a (%d.%d): got '%s' want '%s'\n", x, width, prec, sbuf_str(&sb), want);
	sbuf_release(&sb);
}

static void
check_uint(unsigned long v, int width, int left)
{
	struct sbuf sb;
	char want[64];

	sbuf_init(&sb);
	sbuf_uint(&sb, v, width, left);
	snprintf(want, sizeof want, left ? "%-*lu" : "%*lu", width, v);
	if (strcmp(sbuf_str(&sb), want) != 0 && failures++ < 10)
		printf("uint %lu: got '%s' want '%s'\n", v, sbuf_str(&sb), want);
	sbuf_release(&sb);
}

static void
check_field(const char *s, int width, int left)
{
	struct sbuf sb;
	char want[64];

	sbuf_init(&sb);
	sbuf_field(&sb, s, width, left);
	snprintf(want, sizeof want, left ? "%-*.*s" : "%*.*s", width, width, s);
	if (strcmp(sbuf_str(&sb), want) != 0 && failures++ < 10)
		printf("field '%s': got '%s' want '%s'\n", s, sbuf_str(&sb), want);
	sbuf_release(&sb);
}

int
main(int argc, char **argv)
{
	static const double edge[] = {
		0.0, -0.0, 0.005, 0.015, 0.125, 0.375, 2.675, 1.005, 99.995, 100.16, 0.045,
		1e-300, 5e-324, 1e15, 1e17, 1.8e19, 1e22, -0.004, -2.5, 0.25, 0.75, 1.5,
		HUGE_VAL, -HUGE_VAL, NAN, -NAN, 123456789.125, 9007199254740993.0,
	};
	long n = argc > 1 ? atol(argv[1]) : 2000000, i;
	uint64_t s = 88172645463325252ULL;
	size_t k;
	int w, p;

	for (k = 0; k < sizeof edge / sizeof edge[0]; k++)
		for (w = 0; w <= 10; w += 5)
			for (p = 0; p <= 3; p++)
				check_fixed(edge[k], w, p);
	for (i = 0; i < n; i++) {
		uint64_t r = next(&s);
		double x;

		switch (i % 4) {
		case 0:	/* any double */
			memcpy(&x, &r, sizeof x);
			break;
		case 1:	/* values like the profile's: ticks / hz */
			x = (double)(r % 10000000) / 100.0 / (double)(1 + next(&s) % 1000);
			break;
		case 2:	/* exact ties at the rounding digit */
			x = (double)(r % 100000) / 1000.0 + 0.005;
			x = ldexp(round(ldexp(x, 20)), -20);
			break;
		default:	/* percentages */
			x = 100.0 * (double)(r % 100000) / (double)(1 + next(&s) % 100000);
		}
		check_fixed(x, (int)(r >> 60), (int)((r >> 58) & 3));
		check_uint((unsigned long)(r >> (r & 63)), (int)(r >> 59), (int)(r & 1));
	}
	check_field("", 6, 0);
	check_field("[12]", 6, 1);
	check_field("[100000]", 6, 1);
	check_field("seconds", 9, 0);
	check_field("called", 7, 0);
	printf("test-fmt: %lu failures\n", failures);
	return failures != 0;
}
