/* record: tgprof record [-o FILE] -- PROG ARGS, a -pg program run under libtgmon. */
#ifndef TGPROF_RECORD_H
#define TGPROF_RECORD_H

#include <stddef.h>

#include "util/diag.h"

/* What a recording made: the program (as found), its profile, how it ended. */
struct recording {
	char image[4096];	/* the executable run */
	char gmon[4096];	/* its gmon.out (with .stacks beside it when recorded) */
	int status;		/* the exit status to pass on: the program's, or 128 + its signal */
	char rundir[4096 + 32];	/* the run's own files, kept for the report (record_finish), or "" */
};

/*
 * Whether ARGV (tgprof's, ARGC of them) asks for a recording: "record",
 * options, then "--" and the program.  Anything else is gprof's command
 * line (an executable may be called "record").
 */
int record_wanted(int argc, char **argv);

/*
 * Runs the program of ARGV (from "record" on) with its arguments, its
 * standard streams and environment as tgprof's, but for libtgmon: LD_PRELOAD
 * of libtgmon.so unless the program has libtgmon linked in (the library
 * is looked for in $TGMON_LIBRARY, beside tgprof's build, then in its
 * installation's lib), its files written to a temporary directory and
 * moved to -o FILE (gmon.out by default) when it ends, or written
 * through to FILE if it is not a regular file (R's gmon is then the
 * run's copy, until record_finish()).  0 with R filled,
 * or -1 with the reason in D (nothing run, or no profile written).
 */
int record_run(int argc, char **argv, struct recording *r, struct diag *d);

/*
 * After the report: the run's own copy of its profile and stacks removed
 * (kept until then when -o FILE is not a regular file: a device, a FIFO,
 * a terminal, which the profile was written through to, never replaced).
 */
void record_finish(struct recording *r);

#endif
