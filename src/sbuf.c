/* sbuf: a growing text buffer that rows are formatted into. */
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int
room(struct sbuf *sb, size_t n)
{
	if (sb->failed || n > (size_t)-1 - sb->len - 1 ||
	    mem_reserve(&sb->s, &sb->cap, sb->len + n + 1, 1) != 0) {
		sb->failed = 1;
		return -1;
	}
	return 0;
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
