/* topview: tgprof top in the browser, a running program's snapshots followed by a live session. */
#ifndef TGPROF_TOPVIEW_H
#define TGPROF_TOPVIEW_H

#include "util/diag.h"

/*
 * Whether top should browse rather than print tables: a script
 * (TGPROF_SCRIPT), or a terminal the browser can use (else it says on
 * standard error why it prints instead).  0 when built without ncursesw.
 */
int topview_wanted(void);

/*
 * The browser on the snapshots BASE (gmon.out.live) of the program
 * IMAGE, refreshed as they come, while MORE(CTX) says another may come
 * (it is asked often: it must not block); it starts once the first
 * snapshot is there (waiting up to WAIT_SECS for it).  Returns once the
 * user quits (q; or SIGINT, SIGTERM: then *SIGNO is that signal, else
 * 0): 0, or -1 with the reason in D.
 */
int topview_run(const char *image, const char *base, double wait_secs, int (*more)(void *ctx), void *ctx,
    int *signo, struct diag *d);

#endif
