/* measure: measured inclusive times from libtgmon's call stacks, beside the call graph's estimates. */
#include "measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/gmon_out.h"
#include "libsyms.h"
#include "input/stacks.h"
#include "util/mem.h"
#include "util/u64map.h"

struct builder {
	const struct profile *p;
	struct pf_measure *m;
	const char *debug_dir;		/* libraries' debugging files (measure_load) */
	struct u64map arcs;		/* parent << 32 | child -> arc id */
	uint32_t *stamp;		/* per symbol and cycle: the last stack (1..) that counted it */
	uint32_t *arc_stamp;		/* per arc, likewise */
	size_t framecap, stackcap;
	/* The current stacks file's libraries, read at their first frame. */
	struct libsyms *lib[TGSTACKS_MAX_MODULES];
	unsigned char tried[TGSTACKS_MAX_MODULES];
};

void
measure_free(struct pf_measure *m)
{
	uint32_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nother; i++) {
		free(m->other[i]);
		free(m->other_lib[i]);
	}
	free(m->other);
	free(m->other_lib);
	free(m->other_self);
	free(m->lib_charged);
	free(m->incl);
	free(m->self);
	free(m->arc_incl);
	free(m->arc_self);
	free(m->stack);
	free(m->frame);
	free(m);
}

/* Room for one more frame outside the program; 0, or -1 when out of memory. */
static int
more_other(struct pf_measure *m)
{
	char **o, **l;
	double *t;

	if (m->nother >= PF_FRAME_OTHER_MAX)
		return -1;
	if ((o = realloc(m->other, (m->nother + 1) * sizeof *o)) != NULL)
		m->other = o;
	if ((l = realloc(m->other_lib, (m->nother + 1) * sizeof *l)) != NULL)
		m->other_lib = l;
	if ((t = realloc(m->other_self, (m->nother + 1) * sizeof *t)) != NULL)
		m->other_self = t;
	return o != NULL && l != NULL && t != NULL ? 0 : -1;
}

/*
 * The id of the frame named NAME in library LIB, outside the program,
 * made the first time; PF_FRAME_UNKNOWN if out of memory.
 */
static uint32_t
other_id(struct pf_measure *m, const char *name, const char *lib)
{
	uint32_t i;

	for (i = 0; i < m->nother; i++)	/* few: libraries, and their functions sampled */
		if (strcmp(m->other[i], name) == 0 && strcmp(m->other_lib[i], lib) == 0)
			return PF_FRAME_OTHER + i;
	if (more_other(m) != 0)
		return PF_FRAME_UNKNOWN;
	m->other[m->nother] = strdup(name);
	m->other_lib[m->nother] = strdup(lib);
	m->other_self[m->nother] = 0;
	if (m->other[m->nother] == NULL || m->other_lib[m->nother] == NULL) {
		free(m->other[m->nother]);
		free(m->other_lib[m->nother]);
		return PF_FRAME_UNKNOWN;
	}
	return PF_FRAME_OTHER + m->nother++;
}

/* Address OFF of library module I: its function's name, else "[name.so]". */
static uint32_t
lib_frame(struct builder *b, const struct stacks_file *sf, uint32_t i, uint64_t off)
{
	const char *path = sf->mod[i].name, *base = strrchr(path, '/'), *lib = base != NULL ? base + 1 : path;
	const char *fn;
	char *dem, *name;
	uint32_t id;

	if (!b->tried[i]) {
		b->tried[i] = 1;
		b->lib[i] = libsyms_open(path, b->debug_dir);
	}
	if (b->lib[i] != NULL && (fn = libsyms_at(b->lib[i], off)) != NULL) {
		dem = profile_demangle(b->p, fn);
		id = other_id(b->m, dem != NULL ? dem : fn, lib);
		free(dem);
		return id;
	}
	if ((name = malloc(strlen(lib) + 3)) == NULL)
		return PF_FRAME_UNKNOWN;
	snprintf(name, strlen(lib) + 3, "[%s]", lib);
	id = other_id(b->m, name, lib);
	free(name);
	return id;
}

/* What address A of a stack in SF stands for (the innermost, K 0, is the PC itself). */
static uint32_t
resolve(struct builder *b, const struct stacks_file *sf, uint64_t a, uint32_t k)
{
	uint32_t i;

	if (k > 0)
		a--;	/* a return address: the call is just before it */
	for (i = 0; i < sf->nmod; i++) {
		const struct stacks_module *mod = &sf->mod[i];

		if (a < mod->lowpc || a >= mod->highpc)
			continue;
		if (i == 0)
			return profile_lookup(b->p, a - mod->base);
		return lib_frame(b, sf, i, a - mod->base);
	}
	return PF_FRAME_UNKNOWN;
}

/* Room for N more frames and a stack; 0 or -1. */
static int
room(struct builder *b, size_t n)
{
	struct pf_measure *m = b->m;
	size_t used = m->nstack == 0 ? 0 : m->stack[m->nstack - 1].first + m->stack[m->nstack - 1].depth;

	if (mem_reserve(&m->frame, &b->framecap, used + n, sizeof *m->frame) != 0)
		return -1;
	return mem_reserve(&m->stack, &b->stackcap, m->nstack + 1, sizeof *m->stack);
}

/* Counts symbol S (and its cycle) once for stack STAMP. */
static void
count_sym(struct builder *b, uint32_t s, uint32_t stamp, uint64_t count)
{
	const struct profile *p = b->p;
	uint32_t h;

	if (s >= p->nsyms || b->stamp[s] == stamp)
		return;
	b->stamp[s] = stamp;
	b->m->incl[s] += (double)count;
	h = p->sym[s].cyc_head;
	if (h != s && h < p->nsyms + p->ncycles && b->stamp[h] != stamp) {
		b->stamp[h] = stamp;
		b->m->incl[h] += (double)count;
	}
}

/* The stack just added: its functions and arcs counted once each. */
static void
count_stack(struct builder *b, const struct pf_mstack *st)
{
	const uint32_t *f = b->m->frame + st->first;
	uint32_t k, stamp = (uint32_t)b->m->nstack, arc;

	for (k = 0; k < st->depth; k++) {
		count_sym(b, f[k], stamp, st->count);
		if (k == 0 || f[k - 1] >= b->p->nsyms || f[k] >= b->p->nsyms)
			continue;
		arc = u64map_get(&b->arcs, (uint64_t)f[k - 1] << 32 | f[k]);
		if (arc == U64MAP_NONE || b->arc_stamp[arc] == stamp)
			continue;
		b->arc_stamp[arc] = stamp;
		b->m->arc_incl[arc] += (double)st->count;
		if (k + 1 == st->depth)
			b->m->arc_self[arc] += (double)st->count;
	}
	if (st->depth > 0 && (k = f[st->depth - 1]) < b->p->nsyms) {
		b->m->in_program += st->count;
		b->m->self[k] += (double)st->count;
		if (b->p->sym[k].cyc_head != k)
			b->m->self[b->p->sym[k].cyc_head] += (double)st->count;
	} else if (st->depth > 0 && f[st->depth - 1] >= PF_FRAME_OTHER &&
	    f[st->depth - 1] - PF_FRAME_OTHER < b->m->nother) {
		b->m->other_self[f[st->depth - 1] - PF_FRAME_OTHER] += (double)st->count;
		for (k = st->depth; k-- > 0 && f[k] >= b->p->nsyms;)	/* the innermost in the program */
			;
		if (k < st->depth)
			b->m->lib_charged[f[k]] += (double)st->count;
	}
}

/* The records of SF resolved, outermost first, and counted; 0 or -1 (out of memory). */
static int
add_file(struct builder *b, const struct stacks_file *sf)
{
	struct pf_measure *m = b->m;
	size_t i;
	uint32_t k;

	for (i = 0; i < sf->nrec; i++) {
		const struct stacks_rec *r = &sf->rec[i];
		struct pf_mstack *st;

		if (room(b, r->depth) != 0 || m->nstack >= UINT32_MAX - 1)
			return -1;
		st = &m->stack[m->nstack];
		st->count = r->count;
		st->depth = r->depth;
		st->flags = r->flags;
		st->first = m->nstack == 0 ? 0 : st[-1].first + st[-1].depth;
		for (k = 0; k < r->depth; k++)
			m->frame[st->first + r->depth - 1 - k] = resolve(b, sf, stacks_addr(r, k), k);
		m->nstack++;
		count_stack(b, st);
	}
	return 0;
}

/* Stacks file PATH, checked against gmon file K of the profile, added; 0 or -1 with a message. */
static int
read_one(struct builder *b, const char *path, size_t k, struct diag *d)
{
	const struct profile *p = b->p;
	struct stacks_file sf;
	int rc = 0, i;

	if (stacks_read(path, &sf, d) != 0)
		return -1;
	if (k >= p->ngmon || p->gmon[k].counts.runid == 0 || sf.runid != p->gmon[k].counts.runid) {
		diag_add(d, DIAG_ERROR, "%s: not from the run that wrote %s (run identifiers differ)",
		    path, k < p->ngmon ? p->gmon[k].path : "its gmon file");
		rc = -1;
	} else if (sf.rate == 0) {
		diag_add(d, DIAG_ERROR, "%s: damaged stacks file (a sampling rate of 0)", path);
		rc = -1;
	} else if (b->m->hz != 0 && (long)sf.rate != b->m->hz) {
		diag_add(d, DIAG_ERROR, "%s: sampled at %u a second, the others at %ld", path, sf.rate,
		    b->m->hz);
		rc = -1;
	} else {
		b->m->hz = (long)sf.rate;
		b->m->samples += sf.samples;
		b->m->root += sf.root;
		b->m->truncated += sf.truncated;
		b->m->lost += sf.lost;
		b->m->signals += sf.signals;
		if (add_file(b, &sf) != 0)
			rc = diag_oom(d);
	}
	for (i = 0; i < TGSTACKS_MAX_MODULES; i++) {
		libsyms_close(b->lib[i]);
		b->lib[i] = NULL;
		b->tried[i] = 0;
	}
	stacks_free(&sf);
	return rc;
}

/* The arcs by (parent, child), and the per-symbol and per-arc arrays; 0 or -1. */
static int
prepare(struct builder *b)
{
	const struct profile *p = b->p;
	size_t nid = (size_t)p->nsyms + p->ncycles;
	uint32_t a;

	u64map_init(&b->arcs);
	b->m->incl = mem_calloc(nid + 1, sizeof *b->m->incl);
	b->m->self = mem_calloc(nid + 1, sizeof *b->m->self);
	b->m->arc_incl = mem_calloc((size_t)p->narcs + 1, sizeof *b->m->arc_incl);
	b->m->arc_self = mem_calloc((size_t)p->narcs + 1, sizeof *b->m->arc_self);
	b->m->lib_charged = mem_calloc(nid + 1, sizeof *b->m->lib_charged);
	b->stamp = mem_calloc(nid + 1, sizeof *b->stamp);
	b->arc_stamp = mem_calloc((size_t)p->narcs + 1, sizeof *b->arc_stamp);
	if (b->m->incl == NULL || b->m->self == NULL || b->m->arc_incl == NULL || b->m->arc_self == NULL ||
	    b->m->lib_charged == NULL || b->stamp == NULL || b->arc_stamp == NULL || u64map_reserve(&b->arcs, p->narcs) != 0)
		return -1;
	for (a = 0; a < p->narcs; a++)
		if (u64map_put(&b->arcs, (uint64_t)p->arc[a].parent << 32 | p->arc[a].child, a) != 0)
			return -1;
	return 0;
}

int
measure_load(const struct profile *p, const char *const *paths, size_t n,
    const char *debug_dir, struct pf_measure **out, struct diag *d)
{
	struct builder b;
	size_t k;
	int rc = 0;

	*out = NULL;
	memset(&b, 0, sizeof b);
	b.p = p;
	b.debug_dir = debug_dir;
	if ((b.m = mem_calloc(1, sizeof *b.m)) == NULL || prepare(&b) != 0)
		rc = diag_oom(d);
	for (k = 0; rc == 0 && k < n; k++)
		rc = read_one(&b, paths[k], k, d);
	u64map_release(&b.arcs);
	free(b.stamp);
	free(b.arc_stamp);
	if (rc != 0)
		measure_free(b.m);
	else
		*out = b.m;
	return rc;
}
