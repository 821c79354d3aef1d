/* firstaid: the usual first mistakes recognised before anything is read, each refused with what to do. */
#ifndef TGPROF_FIRSTAID_H
#define TGPROF_FIRSTAID_H

#include "opts.h"
#include "util/diag.h"

/*
 * Whether O's files are fit to start with: 0, or -1 with one line in D
 * that says what is wrong and what to do, for the mistakes new users make:
 * the program and its profile given the other way round; no program
 * given and no a.out here; no gmon.out yet (the program built with -pg
 * writes it, or tgprof record does; said apart for a program that names
 * no mcount); a script or other text file given as a profile.  Anything
 * else is left to the analysis, which says what it finds.
 */
int firstaid_files(const struct opts *o, struct diag *d);

/*
 * tgprof record without "--" before the program (ARGC, ARGV, the whole
 * command line): 1 with the line that says how in D, or 0 (not that
 * mistake: a file named "record" here is a program, as gprof takes it).
 */
int firstaid_record(int argc, char **argv, struct diag *d);

#endif
