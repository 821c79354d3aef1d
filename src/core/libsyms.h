/* libsyms: the function symbols of a shared library a stacks file names, to name its frames. */
#ifndef TGPROF_LIBSYMS_H
#define TGPROF_LIBSYMS_H

#include <stdint.h>

struct libsyms;

/*
 * The functions of the library at PATH, a path read from a stacks file:
 * only a regular file is opened (not a device or a FIFO).  Those of its
 * detached debugging file under DEBUG_DIR (by build ID, as perf and gdb
 * find it; DEBUG_DIR NULL: not looked for), else its .symtab's, else
 * (stripped) its .dynsym's exported ones; NULL if it is not ELF or has
 * none of them.
 */
struct libsyms *libsyms_open(const char *path, const char *debug_dir);
void libsyms_close(struct libsyms *l);

/*
 * The raw name of the function at OFF (an address less the library's
 * load base), or NULL: in none of the functions it knows (a stripped
 * library's own, unexported code).
 */
const char *libsyms_at(const struct libsyms *l, uint64_t off);

#endif
