/* sbuf: a growing text buffer that rows are formatted into. */
#include "sbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "mem.h"

void
sbuf_init(struct sbuf *sb)
{
	sb->s = NULL;
	sb->len = sb->cap = 0;
	sb->failed = 0;
}

void
sbuf_release(struct sbuf *sb)
{
	free(sb->s);
	sbuf_init(sb);
}

void
sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->s != NULL)
		sb->s[0] = '\0';
}

void
sbuf_cut(struct sbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->s[len] = '\0';
	}
}

static int
grow(struct sbuf *sb, size_t n)
{
	if (sb->failed || n > (size_t)-1 - sb->len - 1 ||
	    mem_reserve(&sb->s, &sb->cap, sb->len + n + 1, 1) != 0) {
		sb->failed = 1;
		return -1;
	}
	return 0;
}

/* Room for N more bytes and the NUL. */
static inline int
room(struct sbuf *sb, size_t n)
{
	return sb->len + n < sb->cap && !sb->failed ? 0 : grow(sb, n);
}

void
sbuf_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || room(sb, (size_t)n) != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void
sbuf_puts(struct sbuf *sb, const char *s)
{
	size_t n = strlen(s);

	if (room(sb, n) != 0)
		return;
	memcpy(sb->s + sb->len, s, n + 1);
	sb->len += n;
}

void
sbuf_putc(struct sbuf *sb, char c)
{
	if (room(sb, 1) != 0)
		return;
	sb->s[sb->len++] = c;
	sb->s[sb->len] = '\0';
}

const char *
sbuf_str(const struct sbuf *sb)
{
	return sb->s != NULL ? sb->s : "";
}

char *
sbuf_begin(struct sbuf *sb, size_t max)
{
	return room(sb, max) == 0 ? sb->s + sb->len : NULL;
}

void
sbuf_end(struct sbuf *sb, char *end)
{
	if (end == NULL)
		return;
	sb->len = (size_t)(end - sb->s);
	sb->s[sb->len] = '\0';
}

void
sbuf_fixed(struct sbuf *sb, double x, int width, int prec)
{
	sbuf_end(sb, fmt_fixed(sbuf_begin(sb, FMT_FIXED_MAX + (width > 0 ? (size_t)width : 0)),
	    x, width, prec));
}

void
sbuf_uint(struct sbuf *sb, unsigned long v, int width, int left)
{
	char *p = sbuf_begin(sb, 24 + (width > 0 ? (size_t)width : 0));

	if (p != NULL)
		sbuf_end(sb, fmt_uint(p, v, width, left));
}

void
sbuf_field(struct sbuf *sb, const char *s, int width, int left)
{
	size_t n = strnlen(s, width > 0 ? (size_t)width : 0);
	char *p = sbuf_begin(sb, width > 0 ? (size_t)width : 0);

	if (p == NULL)
		return;
	if (!left)
		p = fmt_blanks(p, width - (int)n);
	p = fmt_str(p, s, n);
	if (left)
		p = fmt_blanks(p, width - (int)n);
	sbuf_end(sb, p);
}
