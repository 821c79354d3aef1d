/* afile: files written whole or not at all, with the mode fopen() would give them; devices and pipes written through. */
#ifndef TGPROF_AFILE_H
#define TGPROF_AFILE_H

#include <limits.h>
#include <stdio.h>

/*
 * A file being written: a new temporary file beside PATH (an
 * unpredictable name, created exclusively, so a planted file or FIFO is
 * never opened), renamed over PATH once complete.  Its mode is 0666 less
 * the umask, as the kernel applies it: what fopen(PATH, "w") would give.
 * A PATH that is there and is not a regular file (a device such as
 * /dev/null, a terminal, a FIFO or pipe such as /dev/stdout) is written
 * through instead, never replaced: a FIFO without a reader is refused
 * (ENXIO) rather than waited for.
 */
struct afile {
	FILE *f;			/* write here */
	int direct;			/* PATH itself is written (not a regular file) */
	char tmp[PATH_MAX];
	char path[PATH_MAX];
};

/* Creates the temporary file for PATH; 0, or -1 with errno set (ENAMETOOLONG for a long PATH). */
int afile_open(struct afile *a, const char *path);

/*
 * Flushes, syncs and closes the file and renames it to PATH; 0, or -1
 * with errno set (the temporary file is removed).
 */
int afile_commit(struct afile *a);

/* Closes and removes the temporary file: PATH is left as it was. */
void afile_abort(struct afile *a);

#endif
