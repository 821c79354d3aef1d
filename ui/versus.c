/* versus: the comparison pane of tgprof --diff, in the flat profile's place: each function old, new and the change. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/diffout.h"
#include "ui.h"

/*
 * The rows are core/diff.h's, those whose names pass the filter (\),
 * sorted by the comparison's key (s, S reverses).  The browser shows the
 * new profile: a row's function is the new side's, and one only in the
 * old profile opens nothing.  Significant growth is hot, significant
 * shrinking warm (red and green), changes within sampling error dim.
 */

const char *const versus_sort_names[CMP_NSORT] = {
	"change of self time", "change of inclusive time", "change of calls", "name"
};

struct cmp {
	uint32_t *row;		/* indices into the diff's rows */
	size_t n;
	unsigned gen;		/* the flat view's generation they were made for (t->view.gen) */
	unsigned sgen;		/* the session's generation of the diff */
};

static void
compare_release(struct pane *pn)
{
	struct cmp *c = pn->data;

	if (c != NULL)
		free(c->row);
	free(c);
	pn->data = NULL;
}

static unsigned long long
calls(const struct pf_diff_side *s)
{
	return (unsigned long long)s->calls + s->self_calls;
}

/* Row W's name as the flat profile prints it, into SB (demangled by the old profile where only there). */
static void
row_name(struct tui *t, const struct pf_diff_row *w, struct sbuf *sb)
{
	char *dm;

	if (w->side[DIFF_NEW].id != PF_NONE) {
		report_name_only(t->s->r, sb, w->side[DIFF_NEW].id);
		return;
	}
	dm = t->s->ro.demangle ? profile_demangle(t->s->old, w->name) : NULL;
	sbuf_puts(sb, dm != NULL ? dm : w->name);
	free(dm);
}

/* The sort key's value of diff row W: bigger first. */
static double
key(const struct tui *t, const struct pf_diff_row *w)
{
	const struct pf_diff_side *a = &w->side[DIFF_OLD], *b = &w->side[DIFF_NEW];

	switch (t->view.cmp_sort) {
	case CMP_BY_INCL: return fabs(b->incl - a->incl);
	case CMP_BY_CALLS: return fabs((double)calls(b) - (double)calls(a));
	default: return fabs(b->self - a->self);
	}
}

static int
cmp_rows(const void *x, const void *y, void *ctx)
{
	const struct tui *sorting = ctx;
	const struct pf_diff_row *r = sorting->s->diff->row;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	double a, b;
	int c;

	if (sorting->view.cmp_sort == CMP_BY_NAME) {
		c = strcmp(r[i].name, r[j].name);
	} else {
		a = key(sorting, &r[i]);
		b = key(sorting, &r[j]);
		c = a > b ? -1 : a < b;
	}
	if (sorting->view.sort_rev)
		c = -c;
	return c != 0 ? c : i < j ? -1 : i > j;	/* ties in the diff's order */
}

/* Pane PN's rows: those of the diff that pass the filter, in the sort key's order; 0 or -1. */
static int
make_rows(struct tui *t, struct pane *pn)
{
	const struct pf_diff *df = t->s->diff;
	struct cmp *c;
	size_t i;

	if ((c = calloc(1, sizeof *c)) == NULL || (c->row = calloc(df->n + 1, sizeof *c->row)) == NULL) {
		free(c);
		return -1;
	}
	pn->data = c;
	c->gen = t->view.gen;
	c->sgen = t->s->gen;
	for (i = 0; i < df->n; i++) {
		if (t->view.filter[0] != '\0') {
			sbuf_reset(&t->sb);
			row_name(t, &df->row[i], &t->sb);
			if (!list_matches(sbuf_str(&t->sb), t->view.filter))
				continue;
		}
		c->row[c->n++] = (uint32_t)i;
	}
	if (t->view.cmp_sort != CMP_BY_SELF || t->view.sort_rev)
		qsort_r(c->row, c->n, sizeof *c->row, cmp_rows, t);
	pn->nrows = c->n;
	return 0;
}

/*
 * The rows, made again when the view or the diff changes, the same row
 * selected (after a new diff: the function shown's).
 */
static int
compare_fill(struct tui *t, struct pane *pn)
{
	const struct pf_diff *df = t->s->diff;
	struct cmp *c = pn->data;
	int same = c != NULL && c->sgen == t->s->gen;
	uint32_t keep = same && pn->sel < c->n ? c->row[pn->sel] : UINT32_MAX;
	size_t i;

	if (same && c->gen == t->view.gen)
		return 0;
	compare_release(pn);
	pn->nrows = pn->sel = pn->top = 0;
	if (df == NULL)
		return 0;
	if (make_rows(t, pn) != 0)
		return -1;
	c = pn->data;
	for (i = 0; i < c->n; i++)	/* the same diff's row, or the function shown's in a new diff */
		if (same ? c->row[i] == keep : t->cur != PF_NONE && df->row[c->row[i]].side[DIFF_NEW].id == t->cur)
			pn->sel = i;
	return 0;
}

static void
compare_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	const struct pf_diff *df = t->s->diff;
	const struct cmp *c = pn->data;

	if (df == NULL)
		return;
	sbuf_printf(sb, "Comparison: %.2f s -> %.2f s (%+.2f s, %s), %zu functions, by %s%s",
	    df->total[DIFF_OLD], df->total[DIFF_NEW], df->total[DIFF_NEW] - df->total[DIFF_OLD],
	    df->total_significant ? "significant" : "within sampling error", c != NULL ? c->n : 0,
	    versus_sort_names[t->view.cmp_sort], t->view.sort_rev ? " (reversed)" : "");
	if (t->view.filter[0] != '\0')
		sbuf_printf(sb, ", names with \"%s\"", t->view.filter);
	sbuf_putc(sb, '\n');
	diffout_columns(sb);
}

/* Growth beyond the noise hot, shrinking warm (red, green), noise dim. */
static int
heat(const struct pf_diff_row *w)
{
	double d = w->side[DIFF_NEW].self - w->side[DIFF_OLD].self;
	double e = w->side[DIFF_NEW].incl - w->side[DIFF_OLD].incl;

	if (w->self_significant)
		return d > 0 ? UI_HOT : UI_WARM;
	if (w->incl_significant)
		return e > 0 ? UI_HOT : UI_WARM;
	return calls(&w->side[DIFF_OLD]) != calls(&w->side[DIFF_NEW]) ? 0 : UI_DIM;
}

/* Row I: the batch table's row (print/diffout.h), the function named as the flat profile names it. */
static void
compare_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct cmp *c = pn->data;
	const struct pf_diff_row *w = &t->s->diff->row[c->row[i]];
	struct sbuf name;

	sbuf_init(&name);
	row_name(t, w, &name);
	diffout_row(sb, w, name.failed ? w->name : sbuf_str(&name));
	sbuf_release(&name);
	*attr = heat(w);
}

static int
compare_match(struct tui *t, struct pane *pn, size_t i, const char *needle)
{
	const struct cmp *c = pn->data;
	struct sbuf name;
	int m;

	sbuf_init(&name);
	row_name(t, &t->s->diff->row[c->row[i]], &name);
	m = name.failed ? -1 : list_matches(sbuf_str(&name), needle);
	sbuf_release(&name);
	return m;
}

/* Row I's function in the new profile (the one browsed), or PF_NONE where it is only in the old. */
static uint32_t
compare_target(struct tui *t, struct pane *pn, size_t i)
{
	const struct cmp *c = pn->data;

	return c != NULL && i < c->n && c->sgen == t->s->gen ?
	    t->s->diff->row[c->row[i]].side[DIFF_NEW].id : PF_NONE;
}

/* s: the comparison's own sort keys. */
static int
compare_key(struct tui *t, struct pane *pn, int c)
{
	if (c != 's')
		return 0;
	t->view.cmp_sort = (t->view.cmp_sort + 1) % CMP_NSORT;
	t->view.gen++;
	return 1;
}

static const struct pane_ops compare_ops = {
	.name = "compare",
	.fill = compare_fill,
	.header = compare_header,
	.row = compare_row,
	.match = compare_match,
	.target = compare_target,
	.release = compare_release,
	.key = compare_key,
	.hints = { "Enter", "s", "\\", "x", "?" },
};

void
versus_init(struct pane *pn)
{
	pn->ops = &compare_ops;
}
