/* argfile: @FILE arguments (response files) expanded as GNU gprof expands them, with bounds. */
#ifndef TGPROF_ARGFILE_H
#define TGPROF_ARGFILE_H

#include <stddef.h>

#include "util/diag.h"

/* All the @-files read at once may hold at most this many bytes. */
#define ARGFILE_MAX_BYTES ((size_t)64 << 20)
/* As in libiberty: the 2000th argument starting with '@' is refused. */
#define ARGFILE_MAX_FILES 2000
/* A FIFO or pipe @-file must bring all it has within this (a FIFO nobody writes would hang). */
#define ARGFILE_WAIT_MS 5000

/* A command line with its @-files expanded. */
struct argfile {
	int argc;
	char **argv;		/* owned array, NULL-ended; strings are the caller's or in text */
	char **text;		/* owned: each @-file's text, split in place */
	size_t ntext, textcap;
};

/*
 * Expands ARGV as libiberty's expandargv() does for gprof: every argument
 * but argv[0] that starts with '@' names a file whose contents, split as
 * buildargv() splits them (whitespace; '...', "..." and \ quote), take its
 * place, nested @-files included; an @-file that cannot be opened stays an
 * argument.  Unlike libiberty it reads pipes, and it refuses a directory,
 * the ARGFILE_MAX_FILES-th @-file, more than ARGFILE_MAX_BYTES, a FIFO or
 * pipe that is not done within ARGFILE_WAIT_MS, or a read error with a
 * message in D.  Returns 0, or -1 (AF is then empty).
 */
int argfile_expand(struct argfile *af, int argc, char **argv, struct diag *d);
void argfile_release(struct argfile *af);

/*
 * Splits TEXT in place into buildargv()'s arguments, left packed at the
 * start of TEXT one after another, each with its NUL; returns how many.
 * Text of only whitespace has none (as expandargv() treats it).
 */
size_t argfile_split(char *text);

#endif
