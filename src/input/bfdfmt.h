/* bfdfmt: libbfd's messages formatted as libbfd formats them: its own %pA and %pB, then printf's. */
#ifndef TGPROF_BFDFMT_H
#define TGPROF_BFDFMT_H

#include <stdarg.h>
#include <stddef.h>

/*
 * FMT with AP into BUF (SIZE bytes, NUL-ended, cut if longer), as
 * libbfd's _bfd_doprnt() does for its error handler: %pA is a section's
 * name, %pB a bfd's file name; every other conversion is printf's
 * (flags, width and precision, '*' too, and the length modifiers).  An
 * unknown conversion is copied as it is, and ends the arguments read.
 */
void bfdfmt(char *buf, size_t size, const char *fmt, va_list ap);

#endif
