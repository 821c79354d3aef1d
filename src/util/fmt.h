/* fmt: numbers and fields written into a caller's buffer exactly as printf would, without printf. */
#ifndef TGPROF_FMT_H
#define TGPROF_FMT_H

#include <stddef.h>

/*
 * Each writes one field at P, which must have room for it, and returns
 * the end of what it wrote (no NUL).  sbuf_begin() gives such room.
 */
#define FMT_FIXED_MAX 400	/* the most fmt_fixed() writes ("%.3f" of DBL_MAX and width) */
char *fmt_fixed(char *p, double x, int width, int prec);	/* as sbuf_fixed() */
char *fmt_uint(char *p, unsigned long v, int width, int left);	/* as sbuf_uint(), width < 64 */
char *fmt_blanks(char *p, int n);
char *fmt_str(char *p, const char *s, size_t n);		/* N bytes of S */

#endif
