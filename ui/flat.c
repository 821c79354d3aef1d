/* flat: the flat profile pane, gprof's flat rows (shared with batch output through report.h). */
#include <stdlib.h>

#include "ui.h"

struct flat {
	uint32_t *id;		/* the rows' functions */
	double *accum;		/* cumulative time at each row */
	size_t n;
	struct report_unit unit;
	unsigned gen;		/* the tui's flat_gen they were made for */
};

const char *const flat_sort_names[FLAT_NSORT] = {
	"time", "calls", "self/call", "total/call", "name"
};

/* What a row is sorted by (higher first), under the tui's sort key. */
static double
sort_value(const struct tui *t, uint32_t id)
{
	const struct pf_sym *s = &t->p->sym[id];

	switch (t->sort_key) {
	case FLAT_BY_CALLS: return (double)s->ncalls;
	case FLAT_BY_SELF: return s->ncalls ? s->time / (double)s->ncalls : 0;
	case FLAT_BY_TOTAL: return s->ncalls ? (s->time + s->child_time) / (double)s->ncalls : 0;
	case FLAT_BY_NAME: return -(double)t->p->name_rank[id];
	default: return 0;
	}
}

struct keyed {
	double v;
	size_t pos;		/* in gprof's order: ties keep it */
	uint32_t id;
};

static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->v != y->v)
		return x->v > y->v ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sorts the rows by the tui's key (gprof's order is the default), reversed with S. */
static int
sort_rows(const struct tui *t, struct flat *f)
{
	struct keyed *k;
	size_t i;

	if (t->sort_key != FLAT_BY_TIME) {
		if ((k = calloc(f->n + 1, sizeof *k)) == NULL)
			return -1;
		for (i = 0; i < f->n; i++) {
			k[i].v = sort_value(t, f->id[i]);
			k[i].pos = i;
			k[i].id = f->id[i];
		}
		qsort(k, f->n, sizeof *k, cmp_keyed);
		for (i = 0; i < f->n; i++)
			f->id[i] = k[i].id;
		free(k);
	}
	for (i = 0; t->sort_rev && i < f->n / 2; i++) {
		uint32_t x = f->id[i];

		f->id[i] = f->id[f->n - 1 - i];
		f->id[f->n - 1 - i] = x;
	}
	return 0;
}

/* The function passes the name filter and the percent limit. */
static int
shown(struct tui *t, uint32_t id, double total)
{
	if (t->limit > 0 && 100 * t->p->sym[id].time / total < t->limit)
		return 0;
	if (t->filter[0] == '\0')
		return 1;
	sbuf_reset(&t->sb);
	report_name_only(t->r, &t->sb, id);
	return list_matches(sbuf_str(&t->sb), t->filter);
}

static void
flat_release(struct pane *pn)
{
	struct flat *f = pn->data;

	if (f != NULL) {
		free(f->id);
		free(f->accum);
		free(f);
	}
	pn->data = NULL;
}

/*
 * The functions gprof's flat profile lists, in its order or the sort
 * key's, those the filter and the limit let through; made again when
 * flat_gen changes, with the function selected kept selected.
 */
static int
flat_fill(struct tui *t, struct pane *pn)
{
	const struct profile *p = t->p;
	struct flat *f = pn->data;
	double accum = 0, total = report_flat_total(t->r);
	uint32_t k, keep = f != NULL && pn->sel < f->n ? f->id[pn->sel] : PF_NONE;
	size_t i;

	if (f != NULL && f->gen == t->flat_gen)
		return 0;	/* the flat profile does not follow the selection */
	flat_release(pn);
	if ((f = calloc(1, sizeof *f)) == NULL)
		return -1;
	pn->data = f;
	f->gen = t->flat_gen;
	f->id = calloc(p->nsyms + 1, sizeof *f->id);
	f->accum = calloc(p->nsyms + 1, sizeof *f->accum);
	if (f->id == NULL || f->accum == NULL)
		return -1;
	if (p->hz <= 0 || p->nhist == 0) {
		pn->nrows = 1;	/* a note: without samples the rows mean nothing */
		return 0;
	}
	for (k = 0; k < p->nsyms; k++)
		if (report_flat_listed(t->r, p->flat_order[k]) && shown(t, p->flat_order[k], total))
			f->id[f->n++] = p->flat_order[k];
	if (sort_rows(t, f) != 0)
		return -1;
	for (i = 0; i < f->n; i++)
		f->accum[i] = accum += p->sym[f->id[i]].time;
	f->unit = report_unit_each;	/* batch keeps gprof's one unit */
	pn->nrows = f->n > 0 ? f->n : 1;	/* none: a note says why */
	pn->sel = pn->top = 0;
	flat_select(pn, keep);
	return 0;
}

static void
flat_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	const struct flat *f = pn->data;

	sbuf_printf(sb, "Flat profile: %zu functions, by %s%s", f != NULL ? f->n : 0,
	    flat_sort_names[t->sort_key], t->sort_rev ? " (reversed)" : "");
	if (t->filter[0] != '\0')
		sbuf_printf(sb, ", names with \"%s\"", t->filter);
	if (t->limit > 0)
		sbuf_printf(sb, ", %g%% or more", t->limit);
	sbuf_putc(sb, '\n');
	if (f != NULL)
		report_flat_columns(t->r, sb, &f->unit);
}

/* Why the flat profile has no row: one sentence. */
static const char *
empty_note(const struct tui *t)
{
	if (t->p->hz <= 0 || t->p->nhist == 0)
		return "no histogram in the profile files, so no time: see the call graph";
	if (t->filter[0] != '\0' || t->limit > 0)
		return "no function passes the name filter (\\) and the limit (L)";
	if (t->p->narcs == 0)
		return "no sample or call in this program's functions: is this its profile? (i)";
	return "no function has samples or calls (-z lists them all)";
}

static void
flat_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct flat *f = pn->data;
	double total = report_flat_total(t->r), pct;

	if (f->n == 0) {
		sbuf_puts(sb, empty_note(t));
		*attr = UI_NOTE;
		return;
	}
	pct = 100 * t->p->sym[f->id[i]].time / total;
	report_flat_row(t->r, sb, f->id[i], f->accum[i], total, &f->unit);
	*attr = pct >= 5 ? UI_HOT : pct > 0.5 ? UI_WARM : 0;
	if (t->p->sym[f->id[i]].time > 0 && t->p->sym[f->id[i]].time < UI_FEW_SAMPLES)
		*attr |= UI_DIM;	/* too few samples to trust */
	if (report_profiler_own(t->r, f->id[i])) {
		sbuf_puts(sb, "  [profiling]");
		*attr = UI_DIM;
	}
}

static uint32_t
flat_target(struct tui *t, struct pane *pn, size_t i)
{
	const struct flat *f = pn->data;

	return f != NULL && i < f->n ? f->id[i] : PF_NONE;
}

/* Selects the row of function ID, if it has one. */
void
flat_select(struct pane *pn, uint32_t id)
{
	const struct flat *f = pn->data;
	size_t i;

	for (i = 0; f != NULL && i < f->n; i++)
		if (f->id[i] == id)
			list_to(pn, i);
}

static const struct pane_ops flat_ops = {
	.name = "flat",
	.fill = flat_fill,
	.header = flat_header,
	.row = flat_row,
	.target = flat_target,
	.release = flat_release,
};

void
flat_init(struct pane *pn)
{
	pn->ops = &flat_ops;
}
