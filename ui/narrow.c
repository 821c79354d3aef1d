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
 * takes about 300 MB, and making one again a fifth of a second.  The
 * analysis shown is freed before the next is made, so that one
 * analysis's memory serves them all (main keeps freed memory).
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
 * Frees the analysis shown, if a narrowed one, with what is made of it
 * but the flat pane's rows (flat_keep()): the browser shows BASE.
 */
static void
drop(struct tui *t, const struct profile *base)
{
	int i;

	for (i = PANE_GRAPH; i < NPANES; i++) {
		t->pane[i].nrows = t->pane[i].sel = t->pane[i].top = 0;
		t->pane[i].ops->release(&t->pane[i]);
	}
	report_free(t->r);
	t->r = NULL;
	profile_free(t->owned);
	t->owned = NULL;
	t->p = base;
}

/*
 * In a comparison (tgprof --diff): the old profile narrowed as the new
 * one (the symspecs name functions, found in each), and the two compared
 * again; with no narrowing, the comparison the browser was given.
 * 0; or -1 with a message (then that comparison).
 */
static int
compare_again(struct tui *t, size_t n)
{
	struct diag d;
	int rc = 0;

	diff_free(t->own_diff);
	profile_free(t->own_old);
	t->own_diff = NULL;
	t->own_old = NULL;
	t->diff = t->o->diff;
	if (n == 0 || t->owned == NULL)
		return 0;
	diag_init(&d);
	if (profile_narrow(t->o->old, t->spec, 2 * n, &t->own_old, &d) != 0 ||
	    diff_profiles(t->own_old, t->p, &t->own_diff, &d) != 0) {
		snprintf(t->message, sizeof t->message, "cannot compare again: %s",
		    d.n > 0 ? d.msg[d.n - 1].text : "out of memory");
		rc = -1;
	} else {
		t->diff = t->own_diff;
	}
	diag_release(&d);
	return rc;
}

/*
 * Shows the analysis with the first N narrowings (0: the profile the
 * browser was given); the function shown stays (by address).  The one
 * shown is freed first: its memory serves the next, of the same size.
 * 0; or -1 with a message, showing the profile without narrowings.
 */
static int
apply(struct tui *t, size_t n)
{
	const struct profile *base = t->owned != NULL ? t->base : t->p;
	struct pane *fp = &t->pane[PANE_FLAT];
	struct profile *p = NULL;
	struct diag d;
	uint64_t addr = t->cur != PF_NONE && t->cur < t->p->nsyms ? t->p->sym[t->cur].addr : 0;
	int rc = 0;

	drop(t, base);
	diag_init(&d);
	if (n > 0 && (t->o->reload == NULL ||
	    t->o->reload(t->o->reload_ctx, t->spec, 2 * n, &p, &d) != 0)) {
		snprintf(t->message, sizeof t->message, "cannot analyse again: %s",
		    d.n > 0 ? d.msg[d.n - 1].text : "no way to");
		rc = -1;
	}
	diag_release(&d);
	t->owned = p;
	t->base = base;
	t->p = p != NULL ? p : base;
	if ((t->r = report_new(t->p, &t->ro)) == NULL) {
		snprintf(t->message, sizeof t->message, "out of memory");
		t->quit = 1;	/* nothing left to show the profile with */
		return -1;
	}
	if (t->o->diff != NULL && compare_again(t, n) != 0)
		rc = -1;
	t->cur = addr != 0 ? profile_lookup(t->p, addr) : PF_NONE;
	t->nback = t->nfwd = 0;	/* ids of the old analysis */
	t->tree_view = TREE_WHOLE;	/* its root too */
	t->flat_gen++;
	t->flat_seen = t->flat_gen;	/* keep cur */
	if (flat_keep(t, fp) != 0) {
		fp->nrows = fp->sel = fp->top = 0;
		fp->ops->release(fp);
	}
	if (list_fill(t, fp) == 0)
		flat_select(fp, t->cur);
	return rc;
}

/* After narrowing with N + 1 failed: back to the N before, if they can be made again, else none. */
static void
fall_back(struct tui *t, size_t n)
{
	char message[sizeof t->message];

	memcpy(message, t->message, sizeof message);
	if (n > 0 && apply(t, n) == 0)
		free_names(t, n);
	else
		free_names(t, 0);
	memcpy(t->message, message, sizeof message);
}

void
narrow_push(struct tui *t, uint32_t fn, int focus)
{
	size_t n = t->nnarrow;
	const char *name;

	if (fn == PF_NONE || fn >= t->p->nsyms) {
		snprintf(t->message, sizeof t->message, "select a function first");
		return;
	}
	if (n == UI_NARROW) {
		snprintf(t->message, sizeof t->message, "%d at most; u undoes one", UI_NARROW);
		return;
	}
	name = t->p->sym[fn].name;
	if ((t->spec_name[n] = strdup(name)) == NULL)
		return;
	t->spec[2 * n].text = t->spec[2 * n + 1].text = t->spec_name[n];
	t->spec[2 * n].table = focus ? SPEC_INCL_TIME : SPEC_EXCL_TIME;
	t->spec[2 * n + 1].table = focus ? SPEC_INCL_GRAPH : SPEC_EXCL_GRAPH;
	t->nnarrow = n + 1;
	if (apply(t, n + 1) != 0 && !t->quit)
		fall_back(t, n);
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
	else
		free_names(t, 0);	/* the profile without narrowings is shown */
}

void
narrow_free(struct tui *t)
{
	diff_free(t->own_diff);
	profile_free(t->own_old);
	t->own_diff = NULL;
	t->own_old = NULL;
	free_names(t, 0);
	profile_free(t->owned);
	t->owned = NULL;
}
