/* flat: the flat profile pane, gprof's flat rows (shared with batch output through report.h). */
#include <stdlib.h>

#include "ui.h"

struct flat {
	uint32_t *id;		/* listed functions in gprof's order */
	double *accum;		/* cumulative time at each row */
	size_t n;
	struct report_unit unit;
};

static int
flat_fill(struct tui *t, struct pane *pn)
{
	const struct profile *p = t->p;
	struct flat *f = pn->data;
	double accum = 0;
	uint32_t k;

	if (f != NULL)
		return 0;	/* the flat profile does not follow the selection */
	if ((f = calloc(1, sizeof *f)) == NULL)
		return -1;
	pn->data = f;
	f->id = calloc(p->nsyms + 1, sizeof *f->id);
	f->accum = calloc(p->nsyms + 1, sizeof *f->accum);
	if (f->id == NULL || f->accum == NULL)
		return -1;
	for (k = 0; k < p->nsyms; k++) {
		uint32_t id = p->flat_order[k];

		if (!report_flat_listed(t->r, id))
			continue;
		accum += p->sym[id].time;
		f->id[f->n] = id;
		f->accum[f->n++] = accum;
	}
	f->unit = report_flat_unit(t->r);
	pn->nrows = f->n;
	return 0;
}

static void
flat_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	const struct flat *f = pn->data;

	sbuf_printf(sb, "Flat profile: %zu functions\n", f != NULL ? f->n : 0);
	if (f != NULL)
		report_flat_columns(t->r, sb, &f->unit);
}

static void
flat_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct flat *f = pn->data;
	double total = report_flat_total(t->r), pct = 100 * t->p->sym[f->id[i]].time / total;

	report_flat_row(t->r, sb, f->id[i], f->accum[i], total, &f->unit);
	*attr = pct >= 5 ? UI_HOT : pct > 0.5 ? UI_WARM : 0;
}

static uint32_t
flat_target(struct tui *t, struct pane *pn, size_t i)
{
	const struct flat *f = pn->data;

	return i < f->n ? f->id[i] : PF_NONE;
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

void
flat_free(struct pane *pn)
{
	struct flat *f = pn->data;

	if (f != NULL) {
		free(f->id);
		free(f->accum);
		free(f);
	}
	pn->data = NULL;
}

void
flat_init(struct pane *pn)
{
	pn->name = "flat";
	pn->fill = flat_fill;
	pn->header = flat_header;
	pn->row = flat_row;
	pn->target = flat_target;
}
