/* browser: the interface between main and the interactive browser in ui/ (which implements it). */
#ifndef TGPROF_BROWSER_H
#define TGPROF_BROWSER_H

#include <stddef.h>

#include "util/diag.h"
#include "model/follow.h"
#include "model/session.h"
#include "print/export.h"
#include "print/report.h"

struct browser_opts {
	const char *image;		/* the executable, for the top line */
	const char *const *gmon;	/* the profile files */
	size_t ngmon;
	char *const *search;		/* where sources are looked for (-I, GPROF_PATH) */
	size_t nsearch;
	int mouse;			/* take mouse events */
	int tabstop;			/* the source's tab stops: every N columns (1 to 64) */
	int libraries;			/* the flat profile starts with library time as rows (O) */
	int recursion;			/* the trees' recursion at the start, FLAME_RECURSION_* (R) */
	/* W's exports: the command line's export options (the stacks are the session's). */
	struct export_opts export;
	/*
	 * A file of keys and commands to run instead of reading the terminal
	 * (TGPROF_SCRIPT; see ui/term.c), on a virtual screen of COLS columns
	 * and LINES lines (80 and 24 where 0), or NULL.
	 */
	const char *script;
	int cols, lines;
	/*
	 * tgprof top: the running program's snapshots (model/follow.h), whose
	 * profile is the session's; the browser looks for a new one every
	 * REFRESH_MS.  NULL: a profile that does not change.
	 */
	struct follow *live;
	int refresh_ms;
};

/*
 * Whether the terminal can show the browser (TERM names a type that can
 * move the cursor, /dev/tty gives keys): 1, or 0 with the reason in WHY
 * (SIZE bytes), and then the report is better printed.
 */
int browser_usable(char *why, size_t size);

/*
 * Browses the session S (main's: it outlives the browser, which changes
 * it through its operations) until the user quits; D holds the load's
 * warnings, shown on the bottom line and by i.  With a comparison in S
 * (tgprof --diff), the comparison is shown first.  The terminal is
 * restored on return, on a fatal signal and at exit.  Returns 0, or -1
 * with the reason in D (no terminal, a script that cannot be run, out of
 * memory).
 */
int browser_run(struct session *s, const struct browser_opts *o, struct diag *d);

/* After browser_run() of a live view: the signal (SIGINT, SIGTERM) that ended it as q would, or 0. */
int browser_signal(void);

#endif
