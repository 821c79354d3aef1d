/* busguard: a mapped file that shrinks under its reader turned from SIGBUS into an error. */
#ifndef TGPROF_BUSGUARD_H
#define TGPROF_BUSGUARD_H

/* busguard_run()'s answer when FN was stopped by SIGBUS. */
#define BUSGUARD_SHRANK (-100)

/*
 * FN(ARG) run with SIGBUS caught: one raised in this thread while FN runs
 * (a read past the end of a mapped file that shrank meanwhile: a program
 * run again truncates its gmon.out in place) ends FN there, and
 * busguard_run() returns BUSGUARD_SHRANK; else FN's answer.  FN must
 * hold nothing a jump out of it would leak or leave locked: what it makes
 * is reachable from ARG.  A SIGBUS elsewhere goes to the handler that was
 * there before, or kills the process as it would have.  Threads may run
 * guards at once, and a guard may run inside another.
 */
int busguard_run(int (*fn)(void *), void *arg);

#endif
