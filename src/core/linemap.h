/* linemap: what profile_lines() reads, gathered while a profile loads: the text's line spans and the call sites. */
#ifndef TGPROF_LINEMAP_H
#define TGPROF_LINEMAP_H

#include <stddef.h>
#include <stdint.h>

struct profile;
struct pf_private;

/*
 * With pf_opts.source_lines: the text's source lines.  From span[i].lo to
 * span[i + 1].lo (the last: to END) the code is line LINE of file FILE
 * (PF_NONE: no line there).
 */
struct pf_linespan {
	uint64_t lo;
	uint32_t file, line;
};

struct pf_linemap {
	struct pf_linespan *span;
	size_t n, cap;
	uint64_t end;
	int kept;		/* built: profile_lines() may read it */
};

/*
 * A call site: COUNT calls to symbol CHILD with return address FROM (one
 * gmon arc record); AT is the call instruction's last byte (callsite.h).
 */
struct pf_site {
	uint64_t from, at, count;
	uint32_t child;
};

/*
 * Adds the span starting at LO (after the last one added, or at its
 * address: then it replaces it); merged with the last when the line is
 * the same.  0, or -1 when out of memory.
 */
int linemap_add(struct pf_linemap *m, uint64_t lo, uint32_t file, uint32_t line);

/* Records a call site of one arc record; 0 or -1 (memory). */
int linemap_add_site(struct profile *p, uint64_t from, uint32_t child, uint64_t count);

/* After the arcs are read: each site's call instruction, the sites sorted by it; 0 or -1. */
int linemap_finish(struct profile *p);

/* Frees the spans and the sites (pv->lines, pv->site). */
void linemap_release(struct pf_private *pv);

#endif
