/* narrow: the browser's exclude (x) and focus (f) keys, as -E and -F, stacked and undone with u. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

/*
 * Each narrowing is the command line's analysis with the symspecs of all
 * those stacked (browser_opts.reload: profile_narrow(), which reuses the
 * files read), so u makes the analysis of one fewer, and the last u goes
 * back to the profile the browser was given.  Only that one and the
 * analysis shown are kept: a narrowed analysis of a million functions
 * takes about 300 MB, and making one again a fifth of a second.
 */

/* Drops the narrowings from FROM on. */
static void
free_names(struct tui *t, size_t from)
{
	size_t k;

	for (k = from; k < t->nnarrow; k++)
		free(t->spec_name[k]);
	t->nnarrow = from < t->nnarrow ? from : t->nnarrow;
}

/*
 * Shows the analysis with the first N narrowings (0: the profile the
 * browser was given); the function shown stays (by address).  0, or -1
 * with a message (the analysis shown stays).
 */
static int
apply(struct tui *t, size_t n)
{
	const struct profile *base = t->owned != NULL ? t->base : t->p;
	struct profile *p = NULL;
	struct report *r;
	struct diag d;
	uint64_t addr = t->cur != PF_NONE && t->cur < t->p->nsyms ? t->p->sym[t->cur].addr : 0;
	int i;

	diag_init(&d);
	if (n > 0 && (t->o->reload == NULL ||
	    t->o->reload(t->o->reload_ctx, t->spec, 2 * n, &p, &d) != 0)) {
		snprintf(t->message, sizeof t->message, "cannot analyse again: %s",
		    d.n > 0 ? d.msg[d.n - 1].text : "no way to");
		diag_release(&d);
		return -1;
	}
	diag_release(&d);
	if ((r = report_new(p != NULL ? p : base, &t->ro)) == NULL) {
		snprintf(t->message, sizeof t->message, "cannot analyse again: out of memory");
		profile_free(p);
		return -1;
	}
	for (i = 0; i < NPANES; i++) {
		t->pane[i].nrows = t->pane[i].sel = t->pane[i].top = 0;
		t->pane[i].ops->release(&t->pane[i]);
	}
	report_free(t->r);
	profile_free(t->owned);
	t->r = r;
	t->owned = p;
	t->base = base;
	t->p = p != NULL ? p : base;
	t->cur = addr != 0 ? profile_lookup(t->p, addr) : PF_NONE;
	t->nback = t->nfwd = 0;	/* ids of the old analysis */
	t->flat_gen++;
	t->flat_seen = t->flat_gen;	/* keep cur */
	if (list_fill(t, &t->pane[PANE_FLAT]) == 0)
		flat_select(&t->pane[PANE_FLAT], t->cur);
	return 0;
}

void
narrow_push(struct tui *t, int focus)
{
	size_t n = t->nnarrow;
	const char *name;

	if (t->cur == PF_NONE || t->cur >= t->p->nsyms) {
		snprintf(t->message, sizeof t->message, "select a function first");
		return;
	}
	if (n == UI_NARROW) {
		snprintf(t->message, sizeof t->message, "%d at most; u undoes one", UI_NARROW);
		return;
	}
	name = t->p->sym[t->cur].name;
	if ((t->spec_name[n] = strdup(name)) == NULL)
		return;
	t->spec[2 * n].text = t->spec[2 * n + 1].text = t->spec_name[n];
	t->spec[2 * n].table = focus ? SPEC_INCL_TIME : SPEC_EXCL_TIME;
	t->spec[2 * n + 1].table = focus ? SPEC_INCL_GRAPH : SPEC_EXCL_GRAPH;
	t->nnarrow = n + 1;
	if (apply(t, n + 1) != 0)
		free_names(t, n);
}

void
narrow_pop(struct tui *t)
{
	size_t n = t->nnarrow;

	if (n == 0) {
		snprintf(t->message, sizeof t->message, "nothing to undo");
		return;
	}
	if (apply(t, n - 1) == 0)
		free_names(t, n - 1);
}

void
narrow_free(struct tui *t)
{
	free_names(t, 0);
	profile_free(t->owned);
	t->owned = NULL;
}
