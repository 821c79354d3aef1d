/* demangle: symbol names demangled as libbfd's bfd_demangle() does, bounded, into the caller's buffer. */
#ifndef TGPROF_DEMANGLE_H
#define TGPROF_DEMANGLE_H

#include <stddef.h>

#include "util/sbuf.h"

/* The longest demangled name kept: a few hundred bytes of back-references can make gigabytes. */
#define DEMANGLED_MAX ((size_t)256 << 10)

/*
 * NAME demangled as bfd_demangle(abfd, NAME, DMGL_ANSI | DMGL_PARAMS)
 * demangles it (LEADING: the file format's leading symbol character, or
 * 0), appended to OUT: 1; or 0, OUT as it was, if it does not demangle
 * or its demangling would pass DEMANGLED_MAX bytes (stopped there).  In
 * the styles "auto", "gnu-v3" and "rust" nothing is allocated but OUT's
 * room (threads demangling at once take no lock a name); in the others
 * -1: libbfd's own bfd_demangle() is to answer, after demangle_fits().
 */
int demangle_into(const char *name, char leading, struct sbuf *out);

/* Whether NAME, if an Itanium C++ name, demangles to DEMANGLED_MAX bytes at most. */
int demangle_fits(const char *name);

/* Selects libiberty's demangling style by name (auto, gnu-v3, rust, java, ...); -1 if unknown. */
int demangle_set_style(const char *style);

#endif
