/* srclines: a function's time and calls, source line by source line (the browser's source pane). */
#ifndef TGPROF_SRCLINES_H
#define TGPROF_SRCLINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"
#include "util/diag.h"

/* One source line with code in a function. */
struct pf_line {
	uint32_t file;		/* profile_file_name() id */
	uint32_t line;
	double ticks;		/* histogram ticks charged to its code, as gprof -l charges lines */
	uint64_t calls;		/* calls made from its code (by the call sites in the arcs) */
};

struct pf_lines {
	uint32_t file;		/* the function's own source file (its entry's), or PF_NONE */
	struct pf_line *line;	/* by file, then line; owned */
	size_t n;
	double ticks;		/* all the function's ticks, those on code without a line too */
	uint64_t calls;		/* all calls made from the function */
};

/*
 * The source lines of symbol SYM (an index into p->sym) from the line
 * table: the ticks of its code and the calls made from it, line by line.
 * The profile must have been loaded with pf_opts.source_lines.  Takes
 * time in the size of the function only.  Returns 0, or -1 with the
 * reason in D; release *OUT with profile_lines_release().
 */
int profile_lines(const struct profile *p, uint32_t sym, struct pf_lines *out, struct diag *d);
void profile_lines_release(struct pf_lines *l);

/*
 * Opens source file NAME (a profile_file_name()) for reading where gprof
 * -A looks for it: as named, then under each directory of the
 * colon-separated lists SEARCH (relative names whole, then any name by its
 * last component).  NULL if it is nowhere.  The path opened goes to PATH
 * (PATHSIZE bytes) unless PATH is NULL.
 */
FILE *profile_source_open(char *const *search, size_t nsearch, const char *name, char *path,
    size_t pathsize);

#endif
