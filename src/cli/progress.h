/* progress: the load's progress on a terminal, one line on standard error rewritten as each step starts. */
#ifndef TGPROF_PROGRESS_H
#define TGPROF_PROGRESS_H

#include <time.h>

#include "core/profile.h"

/* What a line says, and since when (its own until progress_watch() is given another O). */
struct progress {
	const char *what;	/* the file loaded, as named */
	struct timespec start;
	double after;		/* seconds before a line: 0.3, or TGPROF_PROGRESS_AFTER's */
	int shown;		/* a line is on the terminal */
};

/*
 * Has O's load tell its steps on standard error, when that is a
 * terminal, once it has taken 0.3 s (TGPROF_PROGRESS_AFTER seconds when
 * set): "tgprof: WHAT: reading the profile (10%)", erased when the load
 * ends.  PR must outlive the load.
 */
void progress_watch(struct progress *pr, struct pf_opts *o, const char *what);

#endif
