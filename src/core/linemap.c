/* linemap: what profile_lines() reads, gathered while a profile loads: the text's line spans and the call sites. */
#include "linemap.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "core.h"
#include "util/mem.h"
#include "util/rsort.h"

int
linemap_add(struct pf_linemap *m, uint64_t lo, uint32_t file, uint32_t line)
{
	struct pf_linespan *last = m->n > 0 ? &m->span[m->n - 1] : NULL;

	if (last != NULL && last->file == file && last->line == line)
		return 0;
	if (last != NULL && last->lo == lo) {
		last->file = file;
		last->line = line;
		return 0;
	}
	if (mem_reserve(&m->span, &m->cap, m->n + 1, sizeof *m->span) != 0)
		return -1;
	m->span[m->n].lo = lo;
	m->span[m->n].file = file;
	m->span[m->n++].line = line;
	return 0;
}

int
linemap_reserve_sites(struct profile *p, size_t n)
{
	struct pf_private *pv = p->priv;

	return mem_reserve(&pv->site_rec, &pv->sitecap, n, sizeof *pv->site_rec);
}

int
linemap_add_site(struct profile *p, uint64_t from, uint32_t child, uint64_t count)
{
	struct pf_private *pv = p->priv;
	struct pf_site_rec *r;

	if (mem_reserve(&pv->site_rec, &pv->sitecap, pv->nsite + 1, sizeof *pv->site_rec) != 0)
		return -1;
	r = &pv->site_rec[pv->nsite++];
	r->from = from;
	r->count = count;
	r->child = child;
	return 0;
}

/* How many sites ahead linemap_finish() asks for what a site reads. */
#define SITE_AHEAD 16

/*
 * Each call site's call instruction, found in the text; the records made
 * sites in their own memory (site I, smaller than record I, is written
 * once record I is read: memcpy() keeps the compiler from reordering the
 * two), then sorted by it.
 */
int
linemap_finish(struct profile *p)
{
	struct pf_private *pv = p->priv;
	unsigned char *mem = (unsigned char *)pv->site_rec;
	struct pf_site *shrunk;
	struct callsite_text t;
	struct diag quiet;
	size_t i;

	diag_init(&quiet);	/* without the text, return addresses will do */
	t.arch = bin_arch(pv->bin);
	t.text = bin_text(pv->bin, &quiet);
	t.vma = bin_text_vma(pv->bin);
	t.size = bin_text_size(pv->bin);
	t.big_endian = pv->big_endian;
	diag_release(&quiet);
	for (i = 0; i < pv->nsite; i++) {
		struct pf_site_rec r;
		struct pf_site s;

		if (i + SITE_AHEAD < pv->nsite) {	/* the sites are in the files' order: all over */
			const struct pf_site_rec *a = &pv->site_rec[i + SITE_AHEAD];

			__builtin_prefetch(&p->sym[a->child].addr);
			if (t.text != NULL && a->from >= t.vma && a->from - t.vma < t.size)
				__builtin_prefetch(t.text + (a->from - t.vma));
		}
		memcpy(&r, mem + i * sizeof r, sizeof r);
		s.at = callsite_resolve(&t, r.from, p->sym[r.child].addr);
		s.count = r.count;
		memcpy(mem + i * sizeof s, &s, sizeof s);
	}
	pv->site = (struct pf_site *)(void *)mem;
	pv->site_rec = NULL;
	pv->sitecap = 0;	/* (the records' room) */
	if (rsort_records(pv->site, pv->nsite, sizeof *pv->site, offsetof(struct pf_site, at)) != 0)
		return -1;
	/* The records' room a third larger than the sites': the rest back to the heap. */
	if (pv->nsite > 0 && (shrunk = realloc(pv->site, pv->nsite * sizeof *pv->site)) != NULL)
		pv->site = shrunk;
	return 0;
}

void
linemap_release(struct pf_private *pv)
{
	free(pv->lines.span);
	free(pv->site);
	free(pv->site_rec);
	memset(&pv->lines, 0, sizeof pv->lines);
	pv->site = NULL;
	pv->site_rec = NULL;
	pv->nsite = pv->sitecap = 0;
}
