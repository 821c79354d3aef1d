/* jsonstr: strings written as JSON string literals, whatever bytes they hold. */
#include "jsonstr.h"

#include <math.h>
#include <stddef.h>

/* The length of the valid UTF-8 sequence at S (1 to 4), or 0 if there is none. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned min;
	unsigned long c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

void
jsonstr_put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	if (s == NULL) {
		fputs("null", f);
		return;
	}
	putc('"', f);
	for (; *p != '\0'; p += n) {
		if ((n = utf8_len(p)) == 0) {
			fputs("\\ufffd", f);
			n = 1;
		} else if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
		} else {
			fwrite(p, 1, n, f);
		}
	}
	putc('"', f);
}

void
jsonstr_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.12g", x);	/* 12 digits: more than any time here holds */
	else
		fputs("null", f);
}
