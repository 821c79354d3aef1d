/* change: the keys that change what the session holds (x f u d T % W, the thread view's Enter, a live refresh), and the view following it. */
#include <stdio.h>
#include <string.h>

#include "ui.h"

#define EXPORT_DEFAULT "callgrind callgrind.out.tgprof"

/* The address of the function shown, to find it again in another analysis (0: none, or a cycle). */
static uint64_t
shown_at(const struct tui *t)
{
	return t->cur != PF_NONE && t->cur < t->s->p->nsyms ? t->s->p->sym[t->cur].addr : 0;
}

/* A pane of the flat profile's place that the session no longer has (a comparison ended): the home pane. */
static int
still_there(const struct tui *t, int pane)
{
	return pane == PANE_COMPARE && t->s->diff == NULL ? tui_home(t) : pane;
}

/*
 * After an operation on the session: the function shown before (at
 * ADDR) found again, the history and the tree's root dropped (ids of the
 * analysis before), and every pane's rows made anew at once: keys typed
 * ahead run before the next drawing, and must not meet rows of the
 * analysis that is gone.  The flat pane's selection follows the function
 * shown.  Out of memory (the session unusable), nothing is made.
 */
static void
follow(struct tui *t, uint64_t addr)
{
	int i;

	if (t->seen == t->s->gen)
		return;
	if (!session_usable(t->s)) {	/* nothing to show: the rows of what is gone go too */
		for (i = 0; i < NPANES; i++)
			t->pane[i].ops->release(&t->pane[i]);
		return;
	}
	t->seen = t->s->gen;
	t->cur = addr != 0 ? profile_lookup(t->s->p, addr) : PF_NONE;
	t->hist.nback = t->hist.nfwd = 0;
	t->tree.view = TREE_WHOLE;
	t->slot = still_there(t, t->slot);
	t->under = still_there(t, t->under);
	t->focus = still_there(t, t->focus);
	for (i = 0; i < NPANES; i++)
		if (list_fill(t, &t->pane[i]) != 0)
			snprintf(t->message, sizeof t->message, "out of memory");
	flat_select(&t->pane[PANE_FLAT], t->cur);
}

/*
 * An operation failed: its reason (the last of D) on the bottom line; an
 * analysis tried says what is shown instead (session_narrow(): the
 * narrowings before it, or none).
 */
static void
failed(struct tui *t, const struct diag *d, unsigned gen)
{
	const char *why = d->n > 0 ? d->msg[d->n - 1].text : "out of memory";

	if (!session_usable(t->s)) {
		snprintf(t->message, sizeof t->message, "out of memory");
		t->quit = 1;	/* nothing left to show the profile with */
	} else if (gen != t->s->gen) {
		snprintf(t->message, sizeof t->message, "cannot analyse again: %s; %s", why,
		    t->s->nnarrow > 0 ? "the narrowings before it stay" : "the profile is shown whole");
	} else {
		snprintf(t->message, sizeof t->message, "%s", why);
	}
}

/* What a refresh keeps of the view: functions by address (ids of the analysis before), rows by position. */
struct kept {
	uint64_t back[UI_HISTORY], fwd[UI_HISTORY], root;
	size_t sel[NPANES], top[NPANES];
};

static uint64_t
addr_of(const struct tui *t, uint32_t id)
{
	return id < t->s->p->nsyms ? t->s->p->sym[id].addr : 0;
}

/* ADDR's function in the profile shown now, or PF_NONE. */
static uint32_t
id_of(const struct tui *t, uint64_t addr)
{
	return addr != 0 ? profile_lookup(t->s->p, addr) : PF_NONE;
}

static void
keep(const struct tui *t, struct kept *k)
{
	size_t i;

	for (i = 0; i < t->hist.nback; i++)
		k->back[i] = addr_of(t, t->hist.back[i]);
	for (i = 0; i < t->hist.nfwd; i++)
		k->fwd[i] = addr_of(t, t->hist.fwd[i]);
	k->root = addr_of(t, t->tree.root);
	for (i = 0; i < NPANES; i++)
		k->sel[i] = t->pane[i].sel, k->top[i] = t->pane[i].top;
}

/* After follow(): the history and the tree's root found again (a cycle's are lost), each pane where it was. */
static void
restore(struct tui *t, const struct kept *k, size_t nback, size_t nfwd, int view)
{
	size_t i;

	for (i = 0; i < nback; i++)
		if ((t->hist.back[t->hist.nback] = id_of(t, k->back[i])) != PF_NONE)
			t->hist.nback++;
	for (i = 0; i < nfwd; i++)
		if ((t->hist.fwd[t->hist.nfwd] = id_of(t, k->fwd[i])) != PF_NONE)
			t->hist.nfwd++;
	if (view != TREE_WHOLE && (t->tree.root = id_of(t, k->root)) != PF_NONE) {
		t->tree.view = view;
		list_fill(t, &t->pane[PANE_TREE]);
	}
	for (i = 0; i < NPANES; i++) {
		struct pane *pn = &t->pane[i];

		if (i == PANE_FLAT || pn->nrows == 0)
			continue;	/* (the flat pane follows the function shown) */
		pn->sel = k->sel[i] < pn->nrows ? k->sel[i] : pn->nrows - 1;
		pn->top = k->top[i] <= pn->sel ? k->top[i] : pn->sel;
	}
}

void
change_live(struct tui *t, struct profile *p, struct pf_measure *m)
{
	uint64_t addr = shown_at(t);
	size_t nback = t->hist.nback, nfwd = t->hist.nfwd;
	int view = t->tree.view;
	unsigned gen = t->s->gen;
	struct kept k;
	struct diag d;

	keep(t, &k);
	diag_init(&d);
	if (session_replace(t->model, p, m, &d) != 0)
		failed(t, &d, gen);
	diag_release(&d);
	follow(t, addr);
	if (session_usable(t->s))
		restore(t, &k, nback, nfwd, view);
}

void
change_narrow(struct tui *t, uint32_t fn, int focus)
{
	uint64_t addr = shown_at(t);
	unsigned gen = t->s->gen;
	struct diag d;

	diag_init(&d);
	if (session_narrow(t->model, fn, focus, &d) != 0)
		failed(t, &d, gen);
	diag_release(&d);
	follow(t, addr);
}

void
change_threads(struct tui *t, const unsigned char *chosen)
{
	uint64_t addr = shown_at(t);
	unsigned gen = t->s->gen;
	struct diag d;

	diag_init(&d);
	if (session_threads(t->model, chosen, &d) != 0)
		failed(t, &d, gen);
	diag_release(&d);
	follow(t, addr);
}

void
change_undo(struct tui *t)
{
	uint64_t addr = shown_at(t);
	unsigned gen = t->s->gen;
	struct diag d;

	diag_init(&d);
	if (session_undo(t->model, &d) != 0)
		failed(t, &d, gen);
	diag_release(&d);
	follow(t, addr);
}

void
change_names(struct tui *t, const struct report_opts *ro)
{
	if (session_names(t->model, ro) != 0) {
		snprintf(t->message, sizeof t->message, "out of memory");
		return;
	}
	t->view.gen++;	/* the name filter's rows */
}

/* What is taken out of the times becomes O (%): the same functions, other times. */
void
change_truth(struct tui *t, const struct truth_opts *o)
{
	unsigned gen = t->s->gen;
	struct diag d;

	diag_init(&d);
	if (session_truth(t->model, o, &d) != 0)
		failed(t, &d, gen);
	diag_release(&d);
	t->seen = t->s->gen;	/* ids are the same: the view, its history and the tree's root stay */
	t->view.gen++;		/* the flat profile's times */
}

/*
 * w (the key C): the measured times' clock, in turn the threads' CPU
 * time, wall-clock time (CPU time and waits off CPU), and waits alone;
 * where no waits were recorded, why not.
 */
void
change_clock(struct tui *t, int c)
{
	static const char *const said[] = { "CPU time (the samples)", "waits off CPU alone",
	    "wall-clock time: CPU time and waits off CPU" };
	struct truth_opts o = t->s->truth;
	const char *why;

	if (t->s->measure == NULL) {
		snprintf(t->message, sizeof t->message, "%c: no call stacks, no waits (libtgmon(3) records both)", c);
		return;
	}
	if ((why = measure_waits_why(t->s->measure)) != NULL) {
		snprintf(t->message, sizeof t->message, "%c: no waits: %s", c, why);
		return;
	}
	o.clock = o.clock == TRUTH_CPU ? TRUTH_WALL : o.clock == TRUTH_WALL ? TRUTH_WAIT : TRUTH_CPU;
	change_truth(t, &o);
	if (t->message[0] == '\0')
		snprintf(t->message, sizeof t->message, "measured times: %s", said[o.clock]);
}

/* LINE's format and file ("FORMAT FILE"), the file in *PATH; NULL with a message if there is none. */
static const struct export_format *
parse(struct tui *t, const char *line, const char **path)
{
	char name[32];
	size_t n = strcspn(line, " ");
	const struct export_format *ef;
	struct sbuf sb;

	*path = line + n + strspn(line + n, " ");
	snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), line);
	if ((ef = export_find(name)) != NULL && **path != '\0')
		return ef;
	sbuf_init(&sb);
	export_names(&sb);
	snprintf(t->message, sizeof t->message, "%s: give a format (%s) and a file",
	    ef == NULL ? "no such format" : "no file", sb.s != NULL ? sb.s : "");
	sbuf_release(&sb);
	return NULL;
}

/* W: the profile shown, narrowings and all, as the command line's --export would write it. */
void
change_export(struct tui *t, const char *line)
{
	const struct export_format *ef;
	const char *path;
	struct diag d;

	if ((ef = parse(t, line[0] != '\0' ? line : EXPORT_DEFAULT, &path)) == NULL)
		return;
	diag_init(&d);
	if (session_export(t->s, ef, &t->o->export, path, &d) != 0)
		snprintf(t->message, sizeof t->message, "%s",
		    d.n > 0 ? d.msg[d.n - 1].text : "cannot write");
	else
		snprintf(t->message, sizeof t->message, "exported as %s to %.200s%s", ef->name, path,
		    t->s->nnarrow > 0 ? " (narrowed)" : "");
	diag_release(&d);
}
