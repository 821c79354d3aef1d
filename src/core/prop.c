/* prop: gprof's propagation of print flags, time fractions and times, over the call graph in topological order. */
#include "prop.h"

#include <stdlib.h>
#include <string.h>

#include "core.h"

/*
 * gprof walks its symbols in topological order and, for each, the arcs
 * of linked lists: on a large graph nearly every step is a cache miss in
 * the 128-byte symbols and 40-byte arcs.  Here the sweeps read compact
 * arrays in node order, and only the node at the other end of an arc at
 * random.  Every sum is made in gprof's order, with the same operands,
 * so the results are gprof's to the bit.
 */

void
prop_release(struct prop_graph *g)
{
	free(g->id);
	free(g->node);
	free(g->addr);
	free(g->time);
	free(g->head);
	free(g->divides);
	free(g->mem_start);
	free(g->mem);
	free(g->in_start);
	free(g->in);
	free(g->out_start);
	free(g->out);
	free(g->arc_slot);
	memset(g, 0, sizeof *g);
}

/* The symbols by topological number, ties by id (a stable counting sort), then the headers. */
static int
place_nodes(struct prop_graph *g, const struct profile *p)
{
	uint32_t *node_of = g->node;
	uint32_t i, max = 0, *count;

	for (i = 0; i < p->nsyms; i++)
		if ((uint32_t)p->sym[i].top_order > max)
			max = (uint32_t)p->sym[i].top_order;
	if ((count = mem_calloc((size_t)max + 2, sizeof *count)) == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++)
		count[(uint32_t)p->sym[i].top_order + 1]++;
	for (i = 1; i <= max + 1; i++)
		count[i] += count[i - 1];
	for (i = 0; i < p->nsyms; i++) {
		node_of[i] = count[p->sym[i].top_order]++;
		g->id[node_of[i]] = i;
	}
	for (i = p->nsyms; i < g->n; i++)
		g->id[i] = node_of[i] = i;
	free(count);
	return 0;
}

/*
 * What the build reads and counts of a symbol or header at random, by id:
 * half a cache line for an arc's end, the counters beside what is read.
 */
struct fact {
	uint64_t head_calls;	/* its cycle header's calls (or its own) */
	uint32_t node, head;	/* its node, its cycle header's node (or its own) */
	int top, cycle;
	uint32_t fill_in, fill_out;	/* its callers, callees; then where the next goes */
};

/*
 * The nodes' facts, read from the symbols in id order, and the members of
 * each cycle in gprof's order (cyc_next from the header).  0 or -1.
 */
static int
node_facts(struct prop_graph *g, const struct profile *p, struct fact *f)
{
	uint32_t i, k, m, nmem = 0, *next = mem_array((size_t)g->n + 1, sizeof *next);

	if (next == NULL)
		return -1;
	for (i = 0; i < g->n; i++) {
		const struct pf_sym *s = &p->sym[i];
		uint32_t x = g->node[i];

		next[i] = s->cyc_next;
		if (x < g->nsyms) {
			g->addr[x] = s->addr;
			g->time[x] = s->time;
			nmem += s->cyc_head != i;
		}
		g->head[x] = g->node[s->cyc_head];
		g->divides[x] = s->ncalls != 0;
		f[i].head_calls = p->sym[s->cyc_head].ncalls;
		f[i].node = x;
		f[i].head = g->head[x];
		f[i].top = s->top_order;
		f[i].cycle = s->cycle;
		f[i].fill_in = f[i].fill_out = 0;
	}
	if ((g->mem = mem_array((size_t)nmem + 1, sizeof *g->mem)) == NULL) {
		free(next);
		return -1;
	}
	/* The lists are walked in a compact copy: a walk is a chain of reads at random. */
	for (nmem = 0, k = 0; k < g->n - g->nsyms; k++) {
		g->mem_start[k] = nmem;
		for (m = next[g->nsyms + k]; m < g->n && nmem < g->nsyms; m = next[m])
			g->mem[nmem++] = g->node[m];
	}
	g->mem_start[k] = nmem;
	free(next);
	return 0;
}

static double
ratio(uint64_t count, uint64_t calls)
{
	return calls != 0 ? (double)count / (double)calls : 0.0;
}

/*
 * Whether the callee of arc A inherits from its caller, gprof's
 * inherit_flags(): a symbol outside cycles from its callers but itself,
 * a cycle (through each member) from its callers outside it.
 */
static int
inherits(const struct pf_arc *a, const struct fact *f)
{
	const struct fact *c = &f[a->child];

	return c->head == c->node ? a->parent != a->child : f[a->parent].head != c->head;
}

/*
 * Whether time flows along arc A in gprof's propagate_time(), whatever
 * the fractions: 1, or 2 where gprof only warns ("toporder botches"); 0
 * for an arc without calls, to itself, within a cycle, or into a callee
 * or cycle without calls.  *GIVER: the node of the callee, or its cycle's.
 */
static int
flows(const struct pf_arc *a, const struct fact *f, uint32_t *giver)
{
	const struct fact *par = &f[a->parent], *c = &f[a->child];

	*giver = c->head;
	if (a->count == 0 || a->parent == a->child)
		return 0;
	if (c->head != c->node)
		return par->cycle != c->cycle && c->head_calls != 0;
	if (par->top <= c->top)
		return 2;
	return c->head_calls != 0;
}

/* How many arcs ahead the walks over all arcs ask for their ends' facts. */
#define AHEAD 16

/* The facts of arc A's ends asked of the cache (arcs name them all over). */
static void
ask_facts(const struct pf_arc *a, const struct fact *f)
{
	__builtin_prefetch(&f[a->parent]);
	__builtin_prefetch(&f[a->child]);
}

/* Room in the lists for the callers and callees make_room() counted into F (by node, ID: its symbol). */
static void
room(struct fact *f, const uint32_t *id, uint32_t x, size_t *nin)
{
	uint32_t c = f[id[x]].fill_in;

	f[id[x]].fill_in = (uint32_t)*nin;
	*nin += c;
}

/*
 * Room in both lists: a symbol's callers in its own range (empty for a
 * member), a cycle's those of its members one after the other in member
 * order; where each node's next caller and callee go, into F's fill_in
 * and fill_out.  0 or -1.
 */
static int
make_room(struct prop_graph *g, const struct profile *p, struct fact *f)
{
	uint32_t a, x, k, c, giver;
	size_t nin = 0, nout = 0;

	for (a = 0; a < p->narcs; a++) {
		if (a + AHEAD < p->narcs)
			ask_facts(&p->arc[a + AHEAD], f);
		f[p->arc[a].child].fill_in += (uint32_t)inherits(&p->arc[a], f);
		f[p->arc[a].parent].fill_out += flows(&p->arc[a], f, &giver) != 0;
	}
	for (x = 0; x < g->n; x++) {
		if (x + AHEAD < g->n)
			__builtin_prefetch(&f[g->id[x + AHEAD]]);
		g->in_start[x] = (uint32_t)nin;
		if (x >= g->nsyms) {	/* a cycle: its members' callers, member by member */
			for (k = g->mem_start[x - g->nsyms]; k < g->mem_start[x - g->nsyms + 1]; k++)
				room(f, g->id, g->mem[k], &nin);
		} else if (g->head[x] == x)
			room(f, g->id, x, &nin);
		g->out_start[x] = (uint32_t)nout;
		c = f[g->id[x]].fill_out;
		f[g->id[x]].fill_out = (uint32_t)nout;
		nout += c;
		if (nin >= UINT32_MAX || nout >= UINT32_MAX)
			return -1;
	}
	g->in_start[g->n] = (uint32_t)nin;
	g->out_start[g->n] = (uint32_t)nout;
	g->nout = (uint32_t)nout;
	g->in = mem_array(nin + 1, sizeof *g->in);
	g->out = mem_array(nout + 1, sizeof *g->out);
	g->arc_slot = mem_array((size_t)p->narcs + 1, sizeof *g->arc_slot);
	return !g->in || !g->out || !g->arc_slot ? -1 : 0;
}

/*
 * Both lists, arc by arc from the newest: each list comes newest first,
 * as gprof's lists of parents and children.  0 or -1.
 */
static int
make_lists(struct prop_graph *g, const struct profile *p, struct fact *f)
{
	uint32_t a, k, giver;
	int how;

	if (make_room(g, p, f) != 0)
		return -1;
	for (a = p->narcs; a-- > 0;) {
		const struct pf_arc *arc = &p->arc[a];

		if (a >= AHEAD)
			ask_facts(&p->arc[a - AHEAD], f);
		if (inherits(arc, f)) {
			k = f[arc->child].fill_in++;
			g->in[k].from = f[arc->parent].node;
			g->in[k].ratio = ratio(arc->count, f[arc->child].head_calls);
		}
		g->arc_slot[a] = PF_NONE;
		if ((how = flows(arc, f, &giver)) != 0) {
			k = f[arc->parent].fill_out++;
			g->out[k].to = f[arc->child].node;
			g->out[k].botch = how == 2;
			g->out[k].ratio = how == 2 ? 0.0 : ratio(arc->count, f[arc->child].head_calls);
			g->arc_slot[a] = k;
		}
	}
	return 0;
}

int
prop_build(struct prop_graph *g, const struct profile *p)
{
	uint32_t n = p->nsyms + p->ncycles;
	struct fact *f = mem_lines((size_t)n + 1, sizeof *f);	/* (two facts a line) */

	memset(g, 0, sizeof *g);
	g->n = n;
	g->nsyms = p->nsyms;
	g->narcs = p->narcs;
	g->id = mem_array((size_t)n + 1, sizeof *g->id);
	g->node = mem_array((size_t)n + 1, sizeof *g->node);
	g->addr = mem_array((size_t)p->nsyms + 1, sizeof *g->addr);
	g->time = mem_array((size_t)p->nsyms + 1, sizeof *g->time);
	g->head = mem_array((size_t)n + 1, sizeof *g->head);
	g->divides = mem_array((size_t)n + 1, sizeof *g->divides);
	g->mem_start = mem_array((size_t)p->ncycles + 1, sizeof *g->mem_start);
	g->in_start = mem_array((size_t)n + 1, sizeof *g->in_start);
	g->out_start = mem_array((size_t)n + 1, sizeof *g->out_start);
	if (!f || !g->id || !g->node || !g->addr || !g->time || !g->head || !g->divides ||
	    !g->mem_start || !g->in_start || !g->out_start || place_nodes(g, p) != 0 ||
	    node_facts(g, p, f) != 0 || make_lists(g, p, f) != 0) {
		free(f);
		prop_release(g);
		return -1;
	}
	free(f);
	return 0;
}

void
prop_arcs(const struct prop_graph *g, const double *slot_time, const struct pf_arc *from,
    struct pf_arc *to, uint32_t n)
{
	uint32_t a, k;

	for (a = 0; a < n; a++) {
		if (a + 16 < g->narcs && g->arc_slot[a + 16] != PF_NONE)
			__builtin_prefetch(&slot_time[2 * (size_t)g->arc_slot[a + 16]]);
		if (from != to)	/* (in place, the rest is read beside: the narrowing plan) */
			to[a] = from[a];
		k = a < g->narcs ? g->arc_slot[a] : PF_NONE;
		to[a].time = k != PF_NONE ? slot_time[2 * (size_t)k] : 0.0;
		to[a].child_time = k != PF_NONE ? slot_time[2 * (size_t)k + 1] : 0.0;
	}
}

/*
 * What the sweeps compute, per node: arrays apart, as the sweeps read the
 * fractions, flags and child times at random (the smaller the array, the
 * fewer misses).
 */
struct prop_result {
	const struct prop_graph *g;
	uint8_t *flag;		/* print_flag */
	double *fract, *self, *child, *child_time;	/* self, child: prop_self, prop_child */
	double *cycle_time;	/* per cycle: its members' time (gprof's hist.time of the header) */
	double print_time;
	double *slot_time;	/* prop_run()'s */
};

/* gprof's inherit_flags() for node X: a symbol outside cycles, or a header. */
static void
inherit(struct prop_result *w, uint32_t x)
{
	const struct prop_graph *g = w->g;
	uint32_t k;
	uint8_t flag = 0;
	double fract = 0.0;

	for (k = g->in_start[x]; k < g->in_start[x + 1]; k++) {
		flag |= w->flag[g->in[k].from];
		if (g->divides[x])
			fract += w->fract[g->in[k].from] * g->in[k].ratio;
	}
	w->flag[x] = flag;
	w->fract[x] = fract;
}

/* -f/-e/-F/-E/-n/-N and friends, on top of what node X inherited. */
static void
apply_specs(struct prop_result *w, const struct symspecs *ss, uint32_t x)
{
	uint64_t addr = w->g->addr[x];

	if (!w->flag[x])
		w->flag[x] = (uint8_t)symspec_chosen(ss, SPEC_INCL_GRAPH, addr);
	else if (symspec_refused(ss, SPEC_INCL_GRAPH, addr))
		w->flag[x] = 0;
	if (w->fract[x] == 0.0)
		w->fract[x] = symspec_chosen(ss, SPEC_INCL_TIME, addr) ? 1.0 : 0.0;
	else if (symspec_refused(ss, SPEC_INCL_TIME, addr))
		w->fract[x] = 0.0;
}

/* What cycle H inherited, to each of its members. */
static void
to_members(struct prop_result *w, uint32_t h)
{
	const struct prop_graph *g = w->g;
	uint32_t k;

	for (k = g->mem_start[h - g->nsyms]; k < g->mem_start[h - g->nsyms + 1]; k++) {
		w->flag[g->mem[k]] = w->flag[h];
		w->fract[g->mem[k]] = w->fract[h];
	}
}

/* gprof's propagate_flags(): from the topological top (callers) down. */
static void
sweep_flags(struct prop_result *w, const struct symspecs *ss)
{
	const struct prop_graph *g = w->g;
	uint32_t old_head = PF_NONE, x;

	for (x = g->nsyms; x-- > 0;) {
		uint32_t h = g->head[x];

		if (h != old_head) {	/* the next symbol outside cycles, or the next cycle */
			old_head = h;
			inherit(w, h);
			if (h != x)
				to_members(w, h);
		}
		apply_specs(w, ss, x);
		w->self[x] = g->time[x] * w->fract[x];
		w->print_time += w->self[x];
	}
}

/* gprof's cycle_time(): a cycle's time is that of its members that propagate some. */
static void
sweep_cycles(struct prop_result *w)
{
	const struct prop_graph *g = w->g;
	uint32_t c, k;

	for (c = 0; c < g->n - g->nsyms; c++) {
		double t = 0.0;

		for (k = g->mem_start[c]; k < g->mem_start[c + 1]; k++)
			if (w->fract[g->mem[k]] != 0.0)
				t += g->time[g->mem[k]];
		w->cycle_time[c] = t;
		w->self[g->nsyms + c] = w->fract[g->nsyms + c] * t;
	}
}

/*
 * gprof's propagate_time() for node X: its share of each callee's time,
 * by calls; its arcs' times into slot_time (0 where none flows).
 */
static void
take_time(struct prop_result *w, uint32_t x, struct diag *d)
{
	const struct prop_graph *g = w->g;
	double fract = w->fract[x], *st = w->slot_time;
	uint32_t k, b = g->out_start[x], e = g->out_start[x + 1];

	memset(st + 2 * (size_t)b, 0, 2 * (size_t)(e - b) * sizeof *st);
	if (fract == 0.0)
		return;
	for (k = b; k < e; k++) {
		uint32_t to = g->out[k].to, giver = g->head[to];
		double t, ct, share, prop_share;

		if (w->fract[to] == 0.0)
			continue;
		if (g->out[k].botch) {
			diag_add(d, DIAG_WARN, "[propagate] toporder botches");
			continue;
		}
		t = (giver < g->nsyms ? g->time[giver] : w->cycle_time[giver - g->nsyms]) *
		    g->out[k].ratio;
		ct = w->child_time[giver] * g->out[k].ratio;
		share = t + ct;
		w->child_time[x] += share;
		prop_share = fract * share;
		w->child[x] += prop_share;
		st[2 * (size_t)k] = t * fract;
		st[2 * (size_t)k + 1] = ct * fract;
		if (g->head[x] != x) {
			w->child_time[g->head[x]] += share;
			w->child[g->head[x]] += prop_share;
		}
	}
}

/* The reads write_back() will make at random, started early. */
static void
prefetch(const struct prop_result *w, uint32_t x)
{
	mem_ask(&w->flag[x]);
	mem_ask(&w->fract[x]);
	mem_ask(&w->self[x]);
	mem_ask(&w->child[x]);
	mem_ask(&w->child_time[x]);
}

/*
 * Into the symbols in id order, the sweep's arrays read at random: each
 * written whole from FROM, but for P's own (the flat profile's order,
 * beside, reads what the sweeps do not write).
 */
static void
write_back(const struct prop_result *w, const struct pf_sym *from, struct profile *p, double *total)
{
	const struct prop_graph *g = w->g;
	uint32_t i;

	for (i = 0; i < g->n; i++) {
		struct pf_sym *s = &p->sym[i];
		uint32_t x = g->node[i];

		if (i + 16 < g->n)
			prefetch(w, g->node[i + 16]);
		if (from != p->sym)
			*s = from[i];
		s->print_flag = w->flag[x];
		s->fract = w->fract[x];
		s->prop_self = w->self[x];
		s->prop_child = w->child[x];
		s->child_time = w->child_time[x];
		if (x >= g->nsyms)
			s->time = w->cycle_time[x - g->nsyms];
		if (total != NULL)
			total[i] = s->prop_self + s->prop_child;
	}
	p->print_time = w->print_time;
}

/* Frees W's arrays and W. */
void
prop_done(struct prop_result *w)
{
	if (w == NULL)
		return;
	free(w->flag);
	free(w->fract);
	free(w->self);
	free(w->child);
	free(w->child_time);
	free(w->cycle_time);
	free(w);
}

struct prop_result *
prop_sweep(const struct prop_graph *g, const struct symspecs *ss, double *slot_time,
    struct diag *d)
{
	struct prop_result *w = mem_calloc(1, sizeof *w);
	uint32_t x;

	if (w == NULL) {
		diag_oom(d);
		return NULL;
	}
	w->g = g;
	w->slot_time = slot_time;
	w->flag = mem_calloc((size_t)g->n + 1, sizeof *w->flag);
	w->fract = mem_calloc((size_t)g->n + 1, sizeof *w->fract);
	w->self = mem_calloc((size_t)g->n + 1, sizeof *w->self);
	w->child = mem_calloc((size_t)g->n + 1, sizeof *w->child);
	w->child_time = mem_calloc((size_t)g->n + 1, sizeof *w->child_time);
	w->cycle_time = mem_calloc((size_t)(g->n - g->nsyms) + 1, sizeof *w->cycle_time);
	if (!w->flag || !w->fract || !w->self || !w->child || !w->child_time || !w->cycle_time) {
		prop_done(w);
		diag_oom(d);
		return NULL;
	}
	sweep_flags(w, ss);
	sweep_cycles(w);
	for (x = 0; x < g->nsyms; x++)
		take_time(w, x, d);
	return w;
}

void
prop_write(const struct prop_result *w, const struct pf_sym *from, struct profile *p, double *total)
{
	write_back(w, from, p, total);
}

int
prop_run(const struct prop_graph *g, const struct pf_sym *from, struct profile *p,
    const struct symspecs *ss, double *slot_time, double *total, struct diag *d)
{
	struct prop_result *w = prop_sweep(g, ss, slot_time, d);

	if (w == NULL)
		return -1;
	prop_write(w, from, p, total);
	prop_done(w);
	return 0;
}
