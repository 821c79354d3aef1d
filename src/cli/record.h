/* record: tgprof record [-o FILE] -- PROG ARGS, a -pg program run under libtgmon. */
#ifndef TGPROF_RECORD_H
#define TGPROF_RECORD_H

#include <stddef.h>
#include <sys/types.h>

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
 * The parts of a run, for tgprof top too (CMD names the command in
 * messages).  record_prepare: the program PROG found (into R->image), and
 * into LIB (SIZE bytes) libtgmon.so's path if it must be preloaded, else
 * ""; 0, or -1 with the reason in D.
 */
int record_prepare(const char *prog, const char *cmd, struct recording *r, char *lib, size_t size,
    struct diag *d);
/*
 * The program of ARGV (IMAGE, as found) started with its files going to
 * the directory DIR, LIB preloaded unless NULL, TGMON_SIGNALS=1, and
 * TGMON_INTERVAL=INTERVAL unless NULL.  Until record_reap() says it
 * ended, tgprof ignores SIGINT and SIGQUIT (the terminal sends them to
 * the program as well) and passes SIGTERM on to it.  Its pid, or -1.
 */
pid_t record_start(char *const *argv, const char *image, const char *dir, const char *lib, const char *interval);
/*
 * Waits for the program PID (NOHANG: only looks); -2 if it still runs,
 * else its exit status (128 + a signal's number), or -1 if PID is -1;
 * tgprof's signals are then as before record_start().
 */
int record_reap(pid_t pid, int nohang);
/*
 * The files a run wrote in DIR moved as record does: gmon.out to OUT,
 * its stacks to OUT.stacks, the others beside it (each said in D); DIR
 * removed.  Whether gmon.out was there.
 */
int record_collect(const char *dir, const char *out, struct diag *d);

/*
 * After the report: the run's own copy of its profile and stacks removed
 * (kept until then when -o FILE is not a regular file: a device, a FIFO,
 * a terminal, which the profile was written through to, never replaced).
 */
void record_finish(struct recording *r);

#endif
