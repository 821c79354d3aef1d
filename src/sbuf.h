/* sbuf: a growing text buffer that rows are formatted into. */
#ifndef TGPROF_SBUF_H
#define TGPROF_SBUF_H

#include <stddef.h>

/* Always NUL-terminated once anything was added; FAILED once memory ran out. */
struct sbuf {
	char *s;		/* owned */
	size_t len, cap;
	int failed;
};

void sbuf_init(struct sbuf *sb);
void sbuf_release(struct sbuf *sb);
void sbuf_reset(struct sbuf *sb);	/* empty it, keep the memory */

void sbuf_printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_puts(struct sbuf *sb, const char *s);
void sbuf_putc(struct sbuf *sb, char c);

/* The text so far ("" if empty). */
const char *sbuf_str(const struct sbuf *sb);

#endif
