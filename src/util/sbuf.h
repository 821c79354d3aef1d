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
void sbuf_cut(struct sbuf *sb, size_t len);	/* back to its first LEN bytes (LEN <= its length) */

void sbuf_printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_puts(struct sbuf *sb, const char *s);
void sbuf_putc(struct sbuf *sb, char c);

/*
 * printf("%*.*f", WIDTH, PREC, X) for PREC 0..3, without printf: exact
 * (the decimal rounding of X's binary value, ties to even, as glibc),
 * and much faster.  Falls back to snprintf for NaN, infinities and huge X.
 */
void sbuf_fixed(struct sbuf *sb, double x, int width, int prec);

/* printf("%*lu") (LEFT = 0) or printf("%-*lu") (LEFT = 1). */
void sbuf_uint(struct sbuf *sb, unsigned long v, int width, int left);

/* printf("%*.*s") (LEFT = 0) or printf("%-*.*s") (LEFT = 1): padded to and cut at WIDTH. */
void sbuf_field(struct sbuf *sb, const char *s, int width, int left);

/*
 * Row writing without a call per field: sbuf_begin() returns where up to
 * MAX bytes may be written (NULL if memory ran out), the fmt_* functions
 * (fmt.h) write a field there and return the end, sbuf_end() keeps what
 * was written up to END.
 */
char *sbuf_begin(struct sbuf *sb, size_t max);
void sbuf_end(struct sbuf *sb, char *end);

/* The text so far ("" if empty). */
const char *sbuf_str(const struct sbuf *sb);

#endif
