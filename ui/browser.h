/* browser: the interface between main and the interactive browser in ui/ (which implements it). */
#ifndef TGPROF_BROWSER_H
#define TGPROF_BROWSER_H

#include <stddef.h>

#include "util/diag.h"
#include "core/diff.h"
#include "core/measure.h"
#include "core/profile.h"
#include "print/report.h"

struct browser_opts {
	const char *image;		/* the executable, for the top line */
	const char *const *gmon;	/* the profile files */
	size_t ngmon;
	struct report_opts ro;		/* names and listing as the command line asked */
	char *const *search;		/* where sources are looked for (-I, GPROF_PATH) */
	size_t nsearch;
	int mouse;			/* take mouse events */
	int tabstop;			/* the source's tab stops: every N columns (1 to 64) */
	/* Times measured from libtgmon's call stacks for the profile browsed, or NULL. */
	const struct pf_measure *measure;
	/* tgprof --diff: the profile browsed is the new one, OLD the old, DIFF their comparison; or NULL. */
	const struct profile *old;
	const struct pf_diff *diff;
	/*
	 * A file of keys and commands to run instead of reading the terminal
	 * (TGPROF_SCRIPT; see ui/term.c), on a virtual screen of COLS columns
	 * and LINES lines (80 and 24 where 0), or NULL.
	 */
	const char *script;
	int cols, lines;
	/*
	 * The profile analysed again with symspecs added to the command
	 * line's (the browser's exclude and focus keys: -E and -F).  Returns
	 * 0 with a new profile the caller frees, or -1 with the reason in D.
	 */
	int (*reload)(void *ctx, const struct pf_spec *extra, size_t n, struct profile **out,
	    struct diag *d);
	void *reload_ctx;
};

/*
 * Whether the terminal can show the browser (TERM names a type that can
 * move the cursor, /dev/tty gives keys): 1, or 0 with the reason in WHY
 * (SIZE bytes), and then the report is better printed.
 */
int browser_usable(char *why, size_t size);

/*
 * Browses P until the user quits.  The terminal is restored on return, on
 * a fatal signal and at exit.  Returns 0, or -1 with the reason in D (no
 * terminal, out of memory).
 */
int browser_run(const struct profile *p, const struct browser_opts *o, struct diag *d);

#endif
