/* topcmd: tgprof top --batch, a running program's call rates and CPU shares, interval by interval, from libtgmon's snapshots. */
#ifndef TGPROF_TOPCMD_H
#define TGPROF_TOPCMD_H

#include "util/diag.h"

/*
 * Whether ARGV (tgprof's, ARGC of them) asks for top: "top", options,
 * then "--" and a program, or -p PID.  Anything else is gprof's command
 * line (an executable may be called "top").
 */
int topcmd_wanted(int argc, char **argv);

/*
 * tgprof top --batch [-d SECONDS] [-n COUNT] [-o FILE] -- PROG ARGS, or
 * tgprof top --batch [-d SECONDS] [-n COUNT] -p PID: a table on standard
 * output for each interval (man/tgprof.1).  The exit status: the
 * program's when top ran it and it ended by itself (128 + a signal's
 * number), 0 when COUNT tables were printed or the program watched with
 * -p ended, 1 with the reason in D.
 */
int topcmd_run(int argc, char **argv, struct diag *d);

#endif
