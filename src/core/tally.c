/* tally: a measure's times from its stacks: each stack weighed (the profiler's out, -pg's calls' cost out), then counted. */
#include "tally.h"

#include <stdlib.h>
#include <string.h>

#include "input/gmon_out.h"
#include "util/mem.h"
#include "util/u64map.h"

struct counter {
	const struct profile *p;
	struct pf_measure *m;
	struct u64map arcs;		/* parent << 32 | child -> arc id */
	uint32_t *stamp;		/* per symbol and cycle: the last stack (1..) that counted it */
	uint32_t *arc_stamp;		/* per arc, likewise */
};

/* The innermost frame of stack S that is a function of the program, or PF_NONE. */
static uint32_t
innermost(const struct pf_measure *m, const struct pf_mstack *s, uint32_t nsyms)
{
	const uint32_t *f = m->frame + s->first;
	uint32_t k;

	for (k = s->depth; k-- > 0;)
		if (f[k] < nsyms)
			return f[k];
	return PF_NONE;
}

/* Whether stack S's innermost frame is in the program (a function's own code, not a library's). */
static int
in_program(const struct pf_measure *m, const struct pf_mstack *s, uint32_t nsyms)
{
	return s->depth > 0 && m->frame[s->first + s->depth - 1] < nsyms;
}

/*
 * Stack S's time under clock CLOCK, in samples of M's rate: a wait's
 * nanoseconds as samples, a sample's count; 0 for the other clock's.
 */
static double
clock_count(const struct pf_measure *m, const struct pf_mstack *s, enum truth_clock clock)
{
	if (s->flags & TGSTACKS_WAIT)
		return clock == TRUTH_CPU ? 0 : (double)s->count * (double)m->hz / 1e9;
	return clock == TRUTH_WAIT ? 0 : (double)s->count;
}

/*
 * Every stack's weight under O: the profiler's stacks 0 unless they
 * count; a function's own stacks scaled by (own - calls x cost) / own,
 * OWN scratch for the functions' own samples.
 */
static void
weigh(struct pf_measure *m, const struct profile *p, const struct truth_opts *o, double *own)
{
	double cost = o->raw || m->hz <= 0 ? 0 : m->call_ps * 1e-12 * (double)m->hz;	/* samples a call */
	size_t i;
	uint32_t f;

	for (i = 0; i < m->nstack; i++)
		if (in_program(m, &m->stack[i], p->nsyms) && !(m->stack[i].flags & TGSTACKS_WAIT))
			own[m->frame[m->stack[i].first + m->stack[i].depth - 1]] += (double)m->stack[i].count;
	m->total = m->profiler = m->calls = m->wait_total = 0;
	for (i = 0; i < m->nstack; i++) {
		struct pf_mstack *s = &m->stack[i];
		double c = clock_count(m, s, o->clock);

		f = innermost(m, s, p->nsyms);
		s->weight = c;
		if (f != PF_NONE && truth_is_profiler(p, f)) {
			m->profiler += c;
			s->weight = truth_counts(p, f, o) ? c : 0;
		} else if (s->flags & TGSTACKS_WAIT) {
			;	/* a wait: no call's cost in it */
		} else if (cost > 0 && f != PF_NONE && in_program(m, s, p->nsyms) && own[f] > 0) {
			double left = own[f] - cost * (double)truth_calls(p, f);

			s->weight = left > 0 ? c * left / own[f] : 0;
			m->calls += c - s->weight;
		}
		m->total += s->weight;
		m->wait_total += s->flags & TGSTACKS_WAIT ? s->weight : 0;
	}
}

/* Counts symbol S (and its cycle) once for stack STAMP. */
static void
count_sym(struct counter *b, uint32_t s, uint32_t stamp, double w)
{
	const struct profile *p = b->p;
	uint32_t h;

	if (s >= p->nsyms || b->stamp[s] == stamp)
		return;
	b->stamp[s] = stamp;
	b->m->incl[s] += w;
	h = p->sym[s].cyc_head;
	if (h != s && h < p->nsyms + p->ncycles && b->stamp[h] != stamp) {
		b->stamp[h] = stamp;
		b->m->incl[h] += w;
	}
}

/* Stack ST's innermost frame: its self time, or a library's and the function it is charged to. */
static void
count_self(struct counter *b, const struct pf_mstack *st)
{
	struct pf_measure *m = b->m;
	const uint32_t *f = m->frame + st->first;
	uint32_t k, in = st->depth > 0 ? f[st->depth - 1] : PF_NONE;

	if (in < b->p->nsyms) {
		m->in_program += st->flags & TGSTACKS_WAIT ? 0 : st->count;
		m->self[in] += st->weight;
		if (b->p->sym[in].cyc_head != in)
			m->self[b->p->sym[in].cyc_head] += st->weight;
	} else if (in >= PF_FRAME_OTHER && in - PF_FRAME_OTHER < m->nother) {
		m->other_self[in - PF_FRAME_OTHER] += st->weight;
		if ((k = innermost(m, st, b->p->nsyms)) != PF_NONE)
			m->lib_charged[k] += st->weight;
	}
}

/* Stack I: its functions and arcs counted once each, with its weight. */
static void
count_stack(struct counter *b, size_t i)
{
	const struct pf_mstack *st = &b->m->stack[i];
	const uint32_t *f = b->m->frame + st->first;
	uint32_t k, stamp = (uint32_t)i + 1, arc;

	for (k = 0; k < st->depth; k++) {
		count_sym(b, f[k], stamp, st->weight);
		if (k == 0 || f[k - 1] >= b->p->nsyms || f[k] >= b->p->nsyms)
			continue;
		arc = u64map_get(&b->arcs, (uint64_t)f[k - 1] << 32 | f[k]);
		if (arc == U64MAP_NONE || b->arc_stamp[arc] == stamp)
			continue;
		b->arc_stamp[arc] = stamp;
		b->m->arc_incl[arc] += st->weight;
		if (k + 1 == st->depth)
			b->m->arc_self[arc] += st->weight;
	}
	count_self(b, st);
}

/* M's per-symbol, per-arc and per-frame arrays, zeroed; the arcs by (parent, child); 0 or -1. */
static int
prepare(struct counter *b)
{
	const struct profile *p = b->p;
	struct pf_measure *m = b->m;
	size_t nid = (size_t)p->nsyms + p->ncycles;
	uint32_t a;

	free(m->incl);
	free(m->self);
	free(m->arc_incl);
	free(m->arc_self);
	free(m->lib_charged);
	free(m->other_self);
	m->incl = mem_calloc(nid + 1, sizeof *m->incl);
	m->self = mem_calloc(nid + 1, sizeof *m->self);
	m->arc_incl = mem_calloc((size_t)p->narcs + 1, sizeof *m->arc_incl);
	m->arc_self = mem_calloc((size_t)p->narcs + 1, sizeof *m->arc_self);
	m->lib_charged = mem_calloc(nid + 1, sizeof *m->lib_charged);
	m->other_self = mem_calloc((size_t)m->nother + 1, sizeof *m->other_self);
	b->stamp = mem_calloc(nid + 1, sizeof *b->stamp);
	b->arc_stamp = mem_calloc((size_t)p->narcs + 1, sizeof *b->arc_stamp);
	if (m->incl == NULL || m->self == NULL || m->arc_incl == NULL || m->arc_self == NULL ||
	    m->lib_charged == NULL || m->other_self == NULL || b->stamp == NULL || b->arc_stamp == NULL ||
	    u64map_reserve(&b->arcs, p->narcs) != 0)
		return -1;
	for (a = 0; a < p->narcs; a++)
		if (u64map_put(&b->arcs, (uint64_t)p->arc[a].parent << 32 | p->arc[a].child, a) != 0)
			return -1;
	return 0;
}

int
tally_count(struct pf_measure *m, const struct profile *p, const struct truth_opts *o)
{
	struct counter b;
	size_t i;
	int rc = -1;

	memset(&b, 0, sizeof b);
	b.p = p;
	b.m = m;
	u64map_init(&b.arcs);
	m->truth = *o;
	m->in_program = 0;
	if (m->nstack < UINT32_MAX && prepare(&b) == 0) {
		weigh(m, p, o, m->self);	/* the own samples in self's room, then zeroed */
		memset(m->self, 0, ((size_t)p->nsyms + p->ncycles) * sizeof *m->self);
		for (i = 0; i < m->nstack; i++)
			count_stack(&b, i);
		rc = 0;
	}
	u64map_release(&b.arcs);
	free(b.stamp);
	free(b.arc_stamp);
	return rc;
}
