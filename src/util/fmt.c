/* fmt: numbers and fields written into a caller's buffer exactly as printf would, without printf. */
#include "fmt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * round(X * 10^PREC) with ties to even, computed on X's exact binary
 * value (X = M * 2^E); -1 if it does not fit in 64 bits.
 */
static int
scaled_round(double x, int prec, uint64_t *out)
{
	static const uint64_t pow10[] = { 1, 10, 100, 1000 };
	uint64_t bits, m, mm, q, rem, half;
	int e, k;

	if (x == 0.0) {
		*out = 0;
		return 0;
	}
	memcpy(&bits, &x, sizeof bits);		/* X = M * 2^E, M < 2^53 */
	e = (int)(bits >> 52 & 0x7ff);
	m = bits & ((UINT64_C(1) << 52) - 1);
	if (e == 0) {
		e = -1074;
	} else {
		m |= UINT64_C(1) << 52;
		e -= 1075;
	}
	mm = m * pow10[prec];			/* < 2^63 */
	if (e >= 0) {
		if (e >= 63 || mm > (UINT64_MAX >> e))
			return -1;
		*out = mm << e;
		return 0;
	}
	k = -e;
	if (k >= 64) {				/* below 0.5: rounds to 0 */
		*out = 0;
		return 0;
	}
	q = mm >> k;
	rem = mm & ((UINT64_C(1) << k) - 1);
	half = UINT64_C(1) << (k - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	*out = q;
	return 0;
}

char *
fmt_blanks(char *p, int n)
{
	while (n-- > 0)
		*p++ = ' ';
	return p;
}

char *
fmt_str(char *p, const char *s, size_t n)
{
	if (n > 16) {
		memcpy(p, s, n);
		return p + n;
	}
	while (n-- > 0)
		*p++ = *s++;
	return p;
}

/* Writes V's decimal digits ending at END, two at a time. */
static void
put_digits(char *end, uint64_t v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	    "8081828384858687888990919293949596979899";

	while (v >= 100) {
		unsigned k = (unsigned)(v % 100) * 2;

		v /= 100;
		*--end = pairs[k + 1];
		*--end = pairs[k];
	}
	if (v >= 10) {
		*--end = pairs[v * 2 + 1];
		*--end = pairs[v * 2];
	} else {
		*--end = (char)('0' + v);
	}
}

static int
ndigits(uint64_t v)
{
	int n = 1;

	if (v >= UINT64_C(10000000000000000)) {
		n += 16;
		v /= UINT64_C(10000000000000000);
	}
	if (v >= 100000000) {
		n += 8;
		v /= 100000000;
	}
	if (v >= 10000) {
		n += 4;
		v /= 10000;
	}
	if (v >= 100) {
		n += 2;
		v /= 100;
	}
	return n + (v >= 10);
}

char *
fmt_uint(char *p, unsigned long v, int width, int left)
{
	int n = ndigits(v);

	if (!left)
		p = fmt_blanks(p, width - n);
	put_digits(p + n, v);
	p += n;
	return left ? fmt_blanks(p, width - n) : p;
}

char *
fmt_fixed(char *p, double x, int width, int prec)
{
	static const uint64_t pow10[] = { 1, 10, 100, 1000 };
	uint64_t n, ip, fp;
	int i, neg = signbit(x) != 0, len;

	if (!isfinite(x) || prec < 0 || prec > 3 ||
	    scaled_round(neg ? -x : x, prec, &n) != 0)
		return p + snprintf(p, FMT_FIXED_MAX, "%*.*f", width, prec, x);
	ip = n / pow10[prec];
	fp = n % pow10[prec];
	len = neg + ndigits(ip) + (prec > 0) + prec;
	p = fmt_blanks(p, width - len);
	if (neg)
		*p++ = '-';
	put_digits(p + (len - neg - (prec > 0) - prec), ip);
	p += len - neg - (prec > 0) - prec;
	if (prec > 0) {
		*p++ = '.';
		for (i = prec; i-- > 0; fp /= 10)
			p[i] = (char)('0' + fp % 10);
		p += prec;
	}
	return p;
}
