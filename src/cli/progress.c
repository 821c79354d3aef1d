/* progress: the load's progress on a terminal, one line on standard error rewritten as each step starts. */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define PROGRESS_AFTER 0.3	/* seconds of loading before anything is said (TGPROF_PROGRESS_AFTER) */

static double
since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* S on standard error, control characters as '?' (a file name reaches the terminal). */
static void
put_name(const char *s)
{
	for (; *s != '\0'; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, stderr);
}

/* pf_opts.progress: the line rewritten, or erased at the end (STEP NULL). */
static void
on_step(void *ctx, const char *step, int permille)
{
	struct progress *pr = ctx;

	if (step == NULL) {
		if (pr->shown)
			fputs("\r\033[K", stderr);
		pr->shown = 0;
		return;
	}
	if (since(&pr->start) < pr->after)
		return;
	fputs("\rtgprof: ", stderr);
	put_name(pr->what);
	fprintf(stderr, ": %s (%d%%)\033[K", step, permille / 10);
	fflush(stderr);
	pr->shown = 1;
}

void
progress_watch(struct progress *pr, struct pf_opts *o, const char *what)
{
	const char *after = getenv("TGPROF_PROGRESS_AFTER");

	pr->what = what;
	pr->shown = 0;
	pr->after = after != NULL && *after != '\0' ? strtod(after, NULL) : PROGRESS_AFTER;
	clock_gettime(CLOCK_MONOTONIC, &pr->start);
	if (!isatty(STDERR_FILENO))
		return;
	o->progress = on_step;
	o->progress_ctx = pr;
}
