/* debuglink: the separate debug files libbfd would open for an executable, checked before it may. */
#ifndef TGPROF_DEBUGLINK_H
#define TGPROF_DEBUGLINK_H

#include <stddef.h>

/*
 * An executable's .gnu_debuglink or .gnu_debugaltlink section names a
 * file that libbfd looks for, when the executable has no DWARF of its
 * own, in the places libbfd 2.40's find_separate_debug_file() tries:
 * beside the executable (as named, and its realpath's directory under
 * /usr/lib/debug and /usr/lib/debug/usr), and in a .debug folder beside it.
 * libbfd opens each candidate that exists and, for a debuglink, reads it
 * to its end for a checksum: a FIFO there blocks it in open() and a device
 * such as /dev/zero never ends.
 *
 * Checks every candidate for NAME, the link's text (BYTES bytes, not
 * necessarily terminated), of the executable EXE: 0 when each is missing
 * or a regular file, so that libbfd may follow the link; -1 otherwise,
 * with the reason in BAD (BADSIZE bytes: "PATH is not a regular file").
 * A name that is empty, unterminated or longer than PATH_MAX is refused.
 */
int debuglink_check(const char *exe, const char *name, size_t bytes, char *bad, size_t badsize);

#endif
