/* graph: the call-graph pane, the selected function's entry in gprof's layout (rows from report.h). */
#include <stdlib.h>

#include "ui.h"

#define MEASURED_HEAD "measured "	/* over the column of times measured from call stacks */
#define MEASURED_BLANK "         "
/* tgprof --diff: over the old profile's calls and time (an arc's propagated, a function's total). */
#define OLD_HEAD "old calls old time "
#define OLD_BLANK "                   "
#define OLD_NONE "        -        - "

enum kind { SPONTANEOUS, CALLER, PRIMARY, CALLEE, CYCLE, MEMBER };

struct grow {
	enum kind kind;
	uint32_t ref;		/* CALLER, CALLEE: an arc; PRIMARY, MEMBER: a function; CYCLE: the cycle */
	uint32_t pos;		/* by_measure(): its place in gprof's order, for ties */
};

struct graph {
	struct grow *row;
	size_t n;
	uint32_t shown;		/* the function the rows are for */
	unsigned gen;		/* the session's generation they are of */
	int measured;		/* ordered by the measured times (tui_measured()) */
};

static void
add(struct graph *g, enum kind k, uint32_t ref)
{
	g->row[g->n].kind = k;
	g->row[g->n++].ref = ref;
}

/* A cycle as a whole: the cycle line and its members. */
static int
fill_cycle(struct tui *t, struct graph *g, uint32_t id)
{
	uint32_t *m = NULL;
	size_t n = report_cg_members(t->s->r, id, &m), i;

	if (m == NULL)
		return -1;
	if ((g->row = calloc(n + 1, sizeof *g->row)) == NULL) {
		free(m);
		return -1;
	}
	add(g, CYCLE, id);
	for (i = 0; i < n; i++)
		add(g, MEMBER, m[i]);
	free(m);
	return 0;
}

static void
graph_release(struct pane *pn)
{
	struct graph *g = pn->data;

	if (g != NULL)
		free(g->row);
	free(g);
	pn->data = NULL;
}

/* How cmp_arcs() orders: by the times M measured, least first (DIR 1) or most (-1). */
struct order {
	const struct pf_measure *m;
	int dir;
};

/* By the time measured along the rows' arcs, as CTX says; ties in gprof's order (their pos). */
static int
cmp_arcs(const void *a, const void *b, void *ctx)
{
	const struct order *o = ctx;
	const struct grow *ra = a, *rb = b;
	double x = o->m->arc_incl[ra->ref], y = o->m->arc_incl[rb->ref];

	if (x != y)
		return (x < y ? -1 : 1) * o->dir;
	return ra->pos < rb->pos ? -1 : ra->pos > rb->pos;
}

/*
 * With the times measured: the callers in ROW[0 .. PRIMARY) least time
 * first (the most nearest the function, as gprof orders them), and the
 * callees after it most first.
 */
static void
by_measure(const struct pf_measure *m, struct grow *row, size_t primary, size_t n)
{
	struct order up = { m, 1 }, down = { m, -1 };
	size_t i;

	for (i = 0; i < n; i++)
		row[i].pos = (uint32_t)i;
	if (primary > 0 && row[0].kind == CALLER)
		qsort_r(row, primary, sizeof *row, cmp_arcs, &up);
	if (n > primary + 1)
		qsort_r(row + primary + 1, n - primary - 1, sizeof *row, cmp_arcs, &down);
}

/*
 * gprof's entry for the function shown: its callers (or <spontaneous>),
 * the function (selected), its callees; for a cycle, fill_cycle()'s rows.
 */
static int
graph_fill(struct tui *t, struct pane *pn)
{
	const struct profile *p = t->s->p;
	struct graph *g = pn->data;
	uint32_t id = t->cur, i, nc, ne;

	if (g != NULL && g->shown == id && g->gen == t->s->gen && g->measured == tui_measured(t) &&
	    g->row != NULL)
		return 0;
	graph_release(pn);
	if ((g = calloc(1, sizeof *g)) == NULL)
		return -1;
	pn->data = g;
	g->shown = id;
	g->gen = t->s->gen;
	g->measured = tui_measured(t);
	pn->nrows = pn->sel = pn->top = 0;
	if (id == PF_NONE || p->caller_start == NULL)
		return 0;
	if (id >= p->nsyms) {
		if (fill_cycle(t, g, id) != 0)
			return -1;
	} else {
		nc = p->caller_start[id + 1] - p->caller_start[id];
		ne = p->callee_start[id + 1] - p->callee_start[id];
		if ((g->row = calloc((size_t)nc + ne + 2, sizeof *g->row)) == NULL)
			return -1;
		if (nc == 0)
			add(g, SPONTANEOUS, 0);
		for (i = p->caller_start[id]; i < p->caller_start[id + 1]; i++)
			add(g, CALLER, p->caller_arc[i]);
		pn->sel = g->n;
		add(g, PRIMARY, id);
		for (i = p->callee_start[id]; i < p->callee_start[id + 1]; i++)
			add(g, CALLEE, p->callee_arc[i]);
		if (g->measured)
			by_measure(t->s->measure, g->row, pn->sel, g->n);
	}
	pn->nrows = g->n;
	return 0;
}

/* Whether gprof splits the function's time among its callers by their calls (it has several). */
static int
callers_estimated(const struct profile *p, uint32_t id)
{
	return id < p->nsyms && p->caller_start != NULL &&
	    p->caller_start[id + 1] - p->caller_start[id] > 1;
}

static void
graph_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	const struct profile *p = t->s->p;
	const struct pf_diff *diff = t->s->diff;
	struct report *r = t->s->r;
	uint32_t id = t->cur;
	struct sbuf cols;

	sbuf_puts(sb, "Call graph: ");
	if (p->caller_start == NULL)
		sbuf_puts(sb, "none in the profile files (no call counts: was it linked with -pg?)");
	else if (id == PF_NONE)
		sbuf_puts(sb, "no function selected");
	else if (id >= p->nsyms)	/* a cycle has no name of its own */
		sbuf_printf(sb, "<cycle %d as a whole> [%d]", p->sym[id].cycle, p->sym[id].index);
	else
		report_name(r, sb, id);
	if (id != PF_NONE && diff != NULL)
		sbuf_puts(sb, "; old calls and time first");
	if (id != PF_NONE && tui_measured(t))
		sbuf_puts(sb, "; measured (first column) beside gprof's estimates");
	else if (id != PF_NONE && callers_estimated(p, id))
		sbuf_puts(sb, "; callers' self and children: estimated, by calls");
	sbuf_putc(sb, '\n');
	if (!tui_measured(t) && diff == NULL) {
		report_cg_columns(r, sb);
		return;
	}
	sbuf_init(&cols);
	report_cg_columns(r, &cols);
	if (!cols.failed && tui_measured(t))
		draw_prefix_lines(sb, cols.s, diff != NULL ? OLD_HEAD MEASURED_HEAD : MEASURED_HEAD,
		    diff != NULL ? OLD_BLANK MEASURED_BLANK : MEASURED_BLANK);
	else if (!cols.failed)
		draw_prefix_lines(sb, cols.s, OLD_HEAD, OLD_BLANK);
	sbuf_release(&cols);
}

/*
 * The old profile's arc from PARENT to CHILD (new ids) into SB: its count
 * and the time propagated along it (gprof's self and children), "-" if
 * it had none.
 */
static void
old_arc(struct tui *t, uint32_t parent, uint32_t child, struct sbuf *sb)
{
	const struct profile *o = t->s->old;
	uint32_t op = session_old_id(t->s, parent), oc = session_old_id(t->s, child), k;
	double hz = o->hz > 0 ? (double)o->hz : 1;

	if (op != PF_NONE && oc != PF_NONE && o->callee_start != NULL)
		for (k = o->callee_start[op]; k < o->callee_start[op + 1]; k++) {
			const struct pf_arc *a = &o->arc[o->callee_arc[k]];

			if (a->child == oc) {
				sbuf_printf(sb, "%9llu %8.2f ", (unsigned long long)a->count,
				    (a->time + a->child_time) / hz);
				return;
			}
		}
	sbuf_puts(sb, OLD_NONE);
}

/* tgprof --diff: the row's calls in the old profile (an arc's, or a function's from others). */
static void
old_column(struct tui *t, const struct grow *r, struct sbuf *sb)
{
	const struct profile *o = t->s->old;
	uint32_t id;

	switch (r->kind) {
	case CALLER:
	case CALLEE:
		old_arc(t, t->s->p->arc[r->ref].parent, t->s->p->arc[r->ref].child, sb);
		return;
	case PRIMARY:
	case MEMBER:
		if ((id = session_old_id(t->s, r->ref)) != PF_NONE)
			sbuf_printf(sb, "%9llu %8.2f ", (unsigned long long)o->sym[id].ncalls,
			    (o->sym[id].prop_self + o->sym[id].prop_child) / (o->hz > 0 ? (double)o->hz : 1));
		else
			sbuf_puts(sb, OLD_NONE);
		return;
	default:
		sbuf_puts(sb, OLD_BLANK);
	}
}

/*
 * The row's time measured from the call stacks, in seconds: samples in
 * which the caller called the callee (an arc's line), or with the
 * function or cycle on the stack.
 */
static void
measured_column(struct tui *t, const struct grow *r, struct sbuf *sb)
{
	const struct pf_measure *m = t->s->measure;
	double hz = m->hz > 0 ? (double)m->hz : 1, n;

	switch (r->kind) {
	case CALLER:
	case CALLEE:
		n = m->arc_incl[r->ref];
		break;
	case PRIMARY:
	case CYCLE:
	case MEMBER:
		n = m->incl[r->ref];
		break;
	default:
		sbuf_puts(sb, MEASURED_BLANK);
		return;
	}
	sbuf_printf(sb, "%8.2f ", n / hz);
}

static void
graph_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct graph *g = pn->data;
	const struct grow *r = &g->row[i];
	struct report *rp = t->s->r;

	if (t->s->diff != NULL)
		old_column(t, r, sb);
	if (tui_measured(t))
		measured_column(t, r, sb);
	switch (r->kind) {
	case SPONTANEOUS:
		report_cg_spontaneous(rp, sb);
		*attr = UI_DIM;
		break;
	case CALLER:
		report_cg_parent(rp, sb, g->shown, r->ref);
		if (callers_estimated(t->s->p, g->shown))
			*attr = UI_ESTIMATE;
		break;
	case PRIMARY:
		report_cg_primary(rp, sb, r->ref);
		*attr = UI_STRONG;
		break;
	case CALLEE:
		report_cg_child(rp, sb, g->shown, r->ref);
		break;
	case CYCLE:
		report_cg_cycle(rp, sb, r->ref);
		*attr = UI_STRONG;
		break;
	case MEMBER:
		report_cg_member(rp, sb, r->ref);
		break;
	}
}

static uint32_t
graph_target(struct tui *t, struct pane *pn, size_t i)
{
	const struct graph *g = pn->data;
	const struct profile *p = t->s->p;

	if (g == NULL || i >= g->n || g->gen != t->s->gen)
		return PF_NONE;	/* none, or rows of another analysis */
	switch (g->row[i].kind) {
	case CALLER: return p->arc[g->row[i].ref].parent;
	case CALLEE: return p->arc[g->row[i].ref].child;
	case MEMBER: return g->row[i].ref;
	case PRIMARY:	/* a cycle member's line opens the cycle as a whole */
		return p->sym[g->shown].cycle != 0 ? p->sym[g->shown].cyc_head : PF_NONE;
	default: return PF_NONE;
	}
}

static const struct pane_ops graph_ops = {
	.name = "graph",
	.hints = { "Enter", "Backspace", "Tab", "/", "?" },
	.fill = graph_fill,
	.header = graph_header,
	.row = graph_row,
	.target = graph_target,
	.release = graph_release,
};

void
graph_init(struct pane *pn)
{
	pn->ops = &graph_ops;
}
