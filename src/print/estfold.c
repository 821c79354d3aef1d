/* estfold: folded stacks estimated from the call graph, for flame graphs of profiles without call stacks. */
#include "estfold.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "util/mem.h"

struct est {
	struct report *r;
	const struct profile *p;
	estfold_fn fn;			/* given each stack */
	void *ctx;
	uint32_t path[ESTFOLD_DEPTH];	/* from the sampled function up */
	size_t depth;
	uint8_t *on;			/* per symbol: on the path */
	/* Per cycle k (from 0): the arcs into it from outside, most calls first. */
	uint32_t *entry, *entry_start;
	double carry;			/* what the counts so far were rounded by, carried to the next */
	double dropped;			/* samples left under half a sample */
	int failed;
};

/*
 * The path with W samples to the walker's function, rounded with the
 * error carried on (so that the counts add up to the samples, to one).
 */
static void
add_line(struct est *e, double w)
{
	double v = w + e->carry;
	unsigned long long c = v >= 0.5 ? (unsigned long long)llround(v) : 0;

	e->carry = v - (double)c;
	if (c == 0)
		e->dropped += w;
	else if (!e->failed && e->fn(e->ctx, e->path, e->depth, c) != 0)
		e->failed = 1;
}

static void climb(struct est *e, double w);

/* Pushes ID on the path if there is room and it is not on it; 1 if it was pushed. */
static int
push(struct est *e, uint32_t id)
{
	if (e->depth >= ESTFOLD_DEPTH || e->on[id])
		return 0;
	e->on[id] = 1;
	e->path[e->depth++] = id;
	return 1;
}

static void
pop(struct est *e, size_t to)
{
	while (e->depth > to)
		e->on[e->path[--e->depth]] = 0;
}

/*
 * Climbs SHARE of the path's samples through caller PARENT (and, first,
 * MEMBER when it is not the path's last function: the cycle member
 * called); 1 if it could (neither is on the path, there is room).
 */
static int
climb_via(struct est *e, uint32_t member, uint32_t parent, double share)
{
	size_t at = e->depth;

	if (e->on[parent] || (member != e->path[e->depth - 1] && !push(e, member)) || !push(e, parent)) {
		pop(e, at);
		return 0;
	}
	climb(e, share);
	pop(e, at);
	return 1;
}

/*
 * W samples of X, a member of a cycle: as gprof, the cycle's time goes to
 * its callers from outside by their calls into it (the member called
 * joins the path before the caller).  The entries come most calls first:
 * those of half a sample or more climb, and what the others would carry
 * goes with the first.  What is left (callers on the path) is returned.
 */
static double
climb_cycle(struct est *e, double w, uint32_t x)
{
	const struct profile *p = e->p;
	const struct pf_sym *head = &p->sym[p->sym[x].cyc_head];
	uint32_t k = (uint32_t)head->cycle - 1, i, big;
	double rest = w, small = w;

	if (head->ncalls == 0)
		return w;
	for (big = e->entry_start[k]; big < e->entry_start[k + 1]; big++) {
		double share = w * (double)p->arc[e->entry[big]].count / (double)head->ncalls;

		if (share < 0.5 && big > e->entry_start[k])
			break;
		small -= share;
	}
	for (i = e->entry_start[k]; i < big; i++) {
		const struct pf_arc *a = &p->arc[e->entry[i]];
		double share = w * (double)a->count / (double)head->ncalls;

		if (i == e->entry_start[k] && small > 0)
			share += small;	/* the small entries' */
		if (climb_via(e, a->child, a->parent, share))
			rest -= share;
	}
	return rest;
}

/*
 * W samples of X, in no cycle: shared among its callers by their calls;
 * shares under half a sample go with the caller with the most calls, so
 * that stacks reach a root.  What is left (calls from code not profiled,
 * callers on the path) is returned.
 */
static double
climb_callers(struct est *e, double w, uint32_t x)
{
	const struct profile *p = e->p;
	uint32_t k, best = PF_NONE;
	double rest = w, small = 0;

	if (p->sym[x].ncalls == 0)
		return w;
	for (k = p->caller_start[x]; k < p->caller_start[x + 1]; k++) {
		const struct pf_arc *a = &p->arc[p->caller_arc[k]];

		if (a->parent == x || a->parent >= p->nsyms || e->on[a->parent])
			continue;
		if (best == PF_NONE || a->count > p->arc[best].count)
			best = p->caller_arc[k];
		if (w * (double)a->count / (double)p->sym[x].ncalls < 0.5)
			small += w * (double)a->count / (double)p->sym[x].ncalls;
	}
	for (k = p->caller_start[x]; best != PF_NONE && k < p->caller_start[x + 1]; k++) {
		const struct pf_arc *a = &p->arc[p->caller_arc[k]];
		double share = w * (double)a->count / (double)p->sym[x].ncalls;

		if (a->parent == x || a->parent >= p->nsyms || e->on[a->parent])
			continue;
		if (p->caller_arc[k] == best)
			share += share < 0.5 ? small - share : small;	/* the small ones' */
		else if (share < 0.5)
			continue;
		if (climb_via(e, x, a->parent, share))
			rest -= share;
	}
	return rest;
}

/* W samples of the path's last function: shared up (the depth bounded), the rest ending there. */
static void
climb(struct est *e, double w)
{
	uint32_t x = e->path[e->depth - 1];
	double rest = e->p->sym[x].cycle != 0 ? climb_cycle(e, w, x) : climb_callers(e, w, x);

	add_line(e, rest > 0 ? rest : 0);
}

static int
cmp_entry(const void *a, const void *b, void *ctx)
{
	const struct pf_arc *arc = ctx;
	uint64_t x = arc[*(const uint32_t *)a].count, y = arc[*(const uint32_t *)b].count;

	return x > y ? -1 : x < y;
}

/* The arcs into each cycle from outside it, most calls first; 0, or -1 when out of memory. */
static int
entries(struct est *e)
{
	const struct profile *p = e->p;
	uint32_t a, k, *fill;

	e->entry = mem_array((size_t)p->narcs + 1, sizeof *e->entry);
	e->entry_start = calloc((size_t)p->ncycles + 2, sizeof *e->entry_start);
	fill = calloc((size_t)p->ncycles + 1, sizeof *fill);
	if (e->entry == NULL || e->entry_start == NULL || fill == NULL) {
		free(fill);
		return -1;
	}
	for (a = 0; a < p->narcs; a++) {
		const struct pf_sym *c = &p->sym[p->arc[a].child];

		if (c->cycle > 0 && (uint32_t)c->cycle <= p->ncycles && p->sym[p->arc[a].parent].cycle != c->cycle)
			e->entry_start[c->cycle]++;
	}
	for (k = 1; k <= p->ncycles; k++)
		e->entry_start[k] += e->entry_start[k - 1];
	for (a = 0; a < p->narcs; a++) {
		const struct pf_sym *c = &p->sym[p->arc[a].child];

		if (c->cycle > 0 && (uint32_t)c->cycle <= p->ncycles && p->sym[p->arc[a].parent].cycle != c->cycle)
			e->entry[e->entry_start[c->cycle - 1] + fill[c->cycle - 1]++] = a;
	}
	for (k = 0; k < p->ncycles; k++)
		qsort_r(e->entry + e->entry_start[k], e->entry_start[k + 1] - e->entry_start[k],
		    sizeof *e->entry, cmp_entry, p->arc);
	free(fill);
	return 0;
}

/* Every function's samples climbed; 0, or -1 when out of memory. */
static int
estimate(struct est *e)
{
	const struct profile *p = e->p;
	uint32_t id;

	if ((e->on = calloc((size_t)p->nsyms + 1, 1)) == NULL ||
	    (p->caller_start != NULL && entries(e) != 0))
		return -1;
	for (id = 0; id < p->nsyms && !e->failed; id++) {
		if (!(p->sym[id].time > 0) || !report_flat_listed(e->r, id))
			continue;
		e->path[0] = id;
		e->depth = 1;
		e->on[id] = 1;
		if (p->caller_start != NULL)
			climb(e, p->sym[id].time);
		else
			add_line(e, p->sym[id].time);
		e->on[id] = 0;
	}
	return e->failed ? -1 : 0;
}

int
estfold_walk(struct report *r, estfold_fn fn, void *ctx, double *dropped)
{
	struct est e;
	int rc;

	memset(&e, 0, sizeof e);
	e.r = r;
	e.p = report_profile(r);
	e.fn = fn;
	e.ctx = ctx;
	rc = estimate(&e);
	free(e.on);
	free(e.entry);
	free(e.entry_start);
	*dropped = e.carry > 0 ? e.carry : 0;	/* what no count holds in the end */
	return rc;
}

/* The folded text of estfold_write(): a line a stack, outermost first. */
struct text {
	struct report *r;
	struct sbuf sb;		/* the stacks' texts, NUL-ended */
	struct folded_line *line;
	size_t n, cap;
};

static int
add_text(void *ctx, const uint32_t *path, size_t depth, unsigned long long count)
{
	struct text *t = ctx;
	size_t k, start;

	if (mem_reserve(&t->line, &t->cap, t->n + 1, sizeof *t->line) != 0)
		return -1;
	t->line[t->n].off = t->sb.len;
	t->line[t->n++].count = count;
	for (k = depth; k-- > 0;) {
		start = t->sb.len;
		report_name_only(t->r, &t->sb, path[k]);
		folded_clean(&t->sb, start);
		if (k > 0)
			sbuf_putc(&t->sb, ';');
	}
	sbuf_putc(&t->sb, '\0');
	return t->sb.failed ? -1 : 0;
}

int
estfold_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d)
{
	struct text t = { r, { 0 }, NULL, 0, 0 };
	double dropped;
	int rc = 0;

	if (eo->stacks != NULL && eo->measured)
		return folded_write_threads(f, r, eo->stacks, eo->thread_frames, d);
	sbuf_init(&t.sb);
	if (estfold_walk(r, add_text, &t, &dropped) != 0) {
		rc = diag_oom(d);
	} else {
		fprintf(f, "# tgprof: stacks estimated from the call graph (%s):"
		    " each function's samples split among its callers by their calls, as gprof"
		    " estimates; %.0f samples left under half a sample were dropped\n",
		    eo->stacks != NULL ? "--estimated, though call stacks were recorded" :
		    "no call stacks were recorded", dropped);
		if (folded_emit(f, t.sb.s != NULL ? t.sb.s : "", t.line, t.n) != 0) {
			diag_add(d, DIAG_ERROR, "cannot write the stacks: %s", strerror(errno));
			rc = -1;
		}
	}
	free(t.line);
	sbuf_release(&t.sb);
	return rc;
}
