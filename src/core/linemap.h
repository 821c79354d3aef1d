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

/* A call site as one gmon arc record gives it: COUNT calls to symbol CHILD with return address FROM. */
struct pf_site_rec {
	uint64_t from, count;
	uint32_t child;
};

/* A call site once loaded: COUNT calls made by the call instruction whose last byte is AT (callsite.h). */
struct pf_site {
	uint64_t at, count;
};

/*
 * Adds the span starting at LO (after the last one added, or at its
 * address: then it replaces it); merged with the last when the line is
 * the same.  0, or -1 when out of memory.
 */
int linemap_add(struct pf_linemap *m, uint64_t lo, uint32_t file, uint32_t line);

/* Room for N call sites, as address space (pages are used as sites are added); 0 or -1. */
int linemap_reserve_sites(struct profile *p, size_t n);

/* Records a call site of one arc record in pv->site_rec; 0 or -1 (memory). */
int linemap_add_site(struct profile *p, uint64_t from, uint32_t child, uint64_t count);

/*
 * After the arcs are read: each site's call instruction; the records
 * become pv->site (in their memory), sorted by it.  0 or -1.
 */
int linemap_finish(struct profile *p);

/* Frees the spans and the sites (pv->lines, pv->site or pv->site_rec). */
void linemap_release(struct pf_private *pv);

#endif
