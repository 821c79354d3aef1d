/* libsyms: the function symbols of a shared library a stacks file names, to name its frames. */
#ifndef TGPROF_LIBSYMS_H
#define TGPROF_LIBSYMS_H

#include <stdint.h>

struct libsyms;

/*
 * The functions of the library at PATH, a path read from a stacks file:
 * only a regular file is opened (not a device or a FIFO), and one libbfd
 * cannot read, or without symbols (a stripped library), gives NULL.
 */
struct libsyms *libsyms_open(const char *path);
void libsyms_close(struct libsyms *l);

/* The raw name of the function at OFF (an address less the library's load base), or NULL. */
const char *libsyms_at(const struct libsyms *l, uint64_t off);

#endif
