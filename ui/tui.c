/* tui: the browser's loop (browser.h): the screen's layout, its top and bottom lines, the history. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "browser.h"
#include "core/flame.h"
#include "term.h"
#include "ui.h"

#define WIDE 120		/* from this width, panes side by side */
#define NAME_MIN 12		/* a name's columns at least, in each of two panes side by side */

int
tui_measured(const struct tui *t)
{
	return t->s->measure != NULL && !t->estimates && t->s->nfunc == 0;
}

double
tui_per_signal(const struct tui *t)
{
	const struct pf_measure *m = t->s->measure;

	return m != NULL && m->signals > 0 && m->samples > m->signals ? (double)m->samples / (double)m->signals : 1;
}

int
tui_home(const struct tui *t)
{
	return t->s->diff != NULL ? PANE_COMPARE : PANE_FLAT;
}

/* Whether measured times are shown beside gprof's, or why not: narrowed, or (m) hidden. */
static void
times_note(struct tui *t)
{
	const struct pf_measure *m = t->s->measure;

	if (m == NULL)
		return;
	if (tui_measured(t))
		sbuf_printf(&t->sb, " | measured: %llu stacks, %.0f%% complete (m)",
		    (unsigned long long)m->samples,
		    m->samples > 0 ? 100.0 * (double)m->root / (double)m->samples : 0.0);
	else
		sbuf_puts(&t->sb, t->s->nfunc > 0 ? " | estimated while narrowed" :
		    " | gprof's estimates only (m: measured)");
}

/* The last narrowing, and whether there are more: "only f", "without g and more". */
static void
narrowed(struct tui *t)
{
	size_t n = t->s->nnarrow;
	int focus;
	const char *name;

	if (n == 0)
		return;
	name = session_narrowing(t->s, n - 1, &focus);
	sbuf_printf(&t->sb, " | %s %s%s (u undoes)", focus ? "only" : "without", name,
	    n > 1 ? " and more" : "");
	if (t->s->measure != NULL && t->s->measure->chosen != NULL)
		sbuf_puts(&t->sb, " | calls, gprof's estimates: all threads");
}

/* What is taken out of the times (the key %), if anything could be. */
static void
truth_note(struct tui *t)
{
	struct sbuf note;

	sbuf_init(&note);
	report_truth_note(&note, &t->s->sums, &t->s->truth);
	if (note.len > 0 && !note.failed)
		sbuf_printf(&t->sb, " | %s (%%)", sbuf_str(&note));
	sbuf_release(&note);
}

/* What the profile holds, what narrows it, then the files (cut first on a narrow screen). */
static void
top_line(struct tui *t)
{
	const struct session *s = t->s;
	const struct profile *p = s->p;
	double hz = p->hz > 0 ? (double)p->hz : 1;

	sbuf_reset(&t->sb);
	watch_note(t, &t->sb);
	if (p->nhist == 0)
		sbuf_puts(&t->sb, " tgprof: no histogram: no time");
	else
		sbuf_printf(&t->sb, " tgprof: %.2f s in %.0f samples of %.2g s", p->total_time / hz,
		    p->total_time, 1 / hz);
	/* First what changes the numbers (cut last on a narrow screen), then how they are shown. */
	narrowed(t);
	if (t->warn->n > 0)	/* "is this its profile?" */
		sbuf_printf(&t->sb, " | %zu warning%s (i)", t->warn->n, t->warn->n > 1 ? "s" : "");
	if (s->diff != NULL)
		sbuf_puts(&t->sb, " | compared with the old profile (the comparison: old -> new)");
	if (p->narcs == 0)
		sbuf_puts(&t->sb, " | no call graph");
	truth_note(t);
	times_note(t);
	if (t->view.libraries && s->measure != NULL && s->nfunc == 0)
		sbuf_puts(&t->sb, " | libraries as rows (O)");
	if (t->view.filter[0] != '\0')
		sbuf_printf(&t->sb, " | names with \"%s\"", t->view.filter);
	if (t->view.limit > 0)
		sbuf_printf(&t->sb, " | %g%% or more", t->view.limit);
	if (flat_sort_key(t) != FLAT_BY_TIME || t->view.sort_rev)
		sbuf_printf(&t->sb, " | sort: %s%s", flat_sort_names[flat_sort_key(t)],
		    t->view.sort_rev ? ", reversed" : "");
	if (!s->ro.demangle)
		sbuf_puts(&t->sb, " | raw names");
	else if (s->ro.template_dots != NULL)
		sbuf_printf(&t->sb, " | templates <%s> (T)", s->ro.template_dots);
	if (t->zoom)
		sbuf_puts(&t->sb, " | one pane (z)");
	if (s->nfolded > 0)
		sbuf_printf(&t->sb, " | %u clone%s folded (--clones=gprof: as --batch)", s->nfolded,
		    s->nfolded > 1 ? "s" : "");
	sbuf_printf(&t->sb, " | %s", t->o->image);
	if (t->o->ngmon > 0)
		sbuf_printf(&t->sb, " %s%s", t->o->gmon[0], t->o->ngmon > 1 ? " ..." : "");
	draw_text(0, 0, COLS, sbuf_str(&t->sb), t->colors ? COLOR_PAIR(3) : A_BOLD);
}

/* The matches of the search in the focused pane, counted again only when they may change. */
static size_t
match_count(struct tui *t)
{
	struct pane *pn = &t->pane[t->focus];
	struct match_count *c = &t->count;
	/* The rows in the flat profile's place stay while the function shown changes. */
	uint32_t cur = t->focus == t->slot ? PF_NONE : t->cur;

	if (t->needle[0] == '\0')
		return 0;
	if (strcmp(c->needle, t->needle) != 0 || c->focus != t->focus || c->cur != cur ||
	    c->nrows != pn->nrows || c->pane_gen != pn->gen || c->view_gen != t->view.gen ||
	    c->gen != t->s->gen || c->names != t->s->names) {
		memcpy(c->needle, t->needle, sizeof t->needle);
		c->focus = t->focus;
		c->cur = cur;
		c->nrows = pn->nrows;
		c->pane_gen = pn->gen;
		c->view_gen = t->view.gen;
		c->gen = t->s->gen;
		c->names = t->s->names;
		c->n = list_count(t, pn, t->needle);	/* uses t->sb */
	}
	return c->n;
}

/*
 * The selected function's self time with its sampling error (n samples
 * are good to about sqrt(n), the gprof manual's rule of thumb), then the
 * focused pane's hints, in W columns.  A long name loses its middle, not
 * its end (where a C++ method's name is), so that the numbers show.
 */
static void
sampling_error(struct tui *t, uint32_t id, int w)
{
	double n = t->s->p->sym[id].time, hz = (double)t->s->p->hz, per = tui_per_signal(t);
	char num[160], *name;
	int room;

	if (n > 0)
		snprintf(num, sizeof num, ": %.2f s %s %.2f s (%.0f samples%s)%s", n / hz,
		    MB_CUR_MAX > 1 ? "\u00b1" : "+-", sqrt(per * n) / hz, n,
		    per > 1.05 ? ", several a signal" : "", n / per < UI_FEW_SAMPLES ? ", too few to trust" : "");
	else
		snprintf(num, sizeof num, ": no samples");
	sbuf_reset(&t->sb);
	report_name_only(t->s->r, &t->sb, id);
	if (t->sb.failed || (name = strdup(sbuf_str(&t->sb))) == NULL)
		return;
	room = w - draw_width(num);
	sbuf_reset(&t->sb);
	draw_elide(&t->sb, name, room > 24 ? room : 24);
	free(name);
	sbuf_printf(&t->sb, "%s   ", num);
	keys_hints(&t->pane[t->focus], &t->sb);
}

/* What is asked and what is typed; when too wide, the end of it, where the cursor is. */
static void
prompt_line(struct tui *t, int w)
{
	const char *s;

	sbuf_printf(&t->sb, "%s%s", t->prompt.text, t->prompt.input);
	if (t->sb.failed || draw_width(sbuf_str(&t->sb)) < w)
		return;
	s = draw_tail(sbuf_str(&t->sb), w - 2);
	memmove(t->sb.s + 1, s, strlen(s) + 1);
	t->sb.s[0] = '<';
	t->sb.len = strlen(t->sb.s);
}

/* Hints, the search or a message on the left; the position in the focused pane on the right. */
static void
bottom_line(struct tui *t)
{
	struct pane *pn = t->threads && !t->help ? &t->threads_pane : &t->pane[t->focus];
	size_t matches = match_count(t);
	char pos[64] = "";
	int w;

	if (pn->nrows > 0 && t->prompt.key == 0)
		snprintf(pos, sizeof pos, pn->hscroll > 0 ? " %s %zu/%zu, from column %d " : " %s %zu/%zu ",
		    pn->ops->name, pn->sel + 1, pn->nrows, pn->hscroll + 1);
	w = COLS - (int)strlen(pos);
	sbuf_reset(&t->sb);
	if (t->prompt.key != 0)
		prompt_line(t, COLS);
	else if (t->message[0] != '\0')
		sbuf_puts(&t->sb, t->message);
	else if (t->needle[0] != '\0')
		sbuf_printf(&t->sb, "/%s: %zu matches (n N: next, previous; Esc: done)",
		    t->needle, matches);
	else if (pn->ops->status != NULL && pn->sel < pn->nrows && pn->ops->status(t, pn, pn->sel, &t->sb))
		keys_hints(pn, &t->sb);
	else if (pn != &t->threads_pane && t->cur != PF_NONE && t->cur < t->s->p->nsyms && t->s->p->hz > 0)
		sampling_error(t, t->cur, w);
	else
		keys_hints(pn, &t->sb);
	draw_text(LINES - 1, 0, w > 0 ? w : 0, sbuf_str(&t->sb), t->colors ? COLOR_PAIR(3) : A_BOLD);
	if (w > 0)
		draw_text(LINES - 1, w, COLS - w, pos, t->colors ? COLOR_PAIR(3) : A_BOLD);
	if (t->prompt.key != 0) {
		curs_set(1);
		move(LINES - 1, draw_width(sbuf_str(&t->sb)));
	} else {
		curs_set(0);
	}
}

/* i: what the profile files held, as gprof -i counts it, and the histogram's ranges. */
static void
info_overlay(struct tui *t)
{
	const struct profile *p = t->s->p;
	int y = 2, w = COLS;
	char line[512];
	size_t k;

	draw_text(y++, 0, w, "  Profile files (any key closes this)", A_BOLD);
	draw_text(y++, 0, w, "", A_NORMAL);
	for (k = 0; k < p->ngmon && y < LINES - 4; k++) {
		const struct pf_gmon_info *g = &p->gmon[k];

		snprintf(line, sizeof line, "  %s: version %d, %d histogram records, %d call-graph "
		    "records, %d basic-block records", g->path, g->counts.version, g->counts.nhist,
		    g->counts.narcs, g->counts.nbbs);
		draw_text(y++, 0, w, line, A_NORMAL);
	}
	for (k = 0; k < p->nhist && y < LINES - 3; k++) {
		snprintf(line, sizeof line, "  histogram %#llx-%#llx, %u bins of %g bytes",
		    (unsigned long long)p->hist[k].lowpc, (unsigned long long)p->hist[k].highpc,
		    p->hist[k].num_bins, 2 * p->hist_scale);
		draw_text(y++, 0, w, line, A_NORMAL);
	}
	snprintf(line, sizeof line, "  %ld samples a second (%s); %u functions, %u arcs, %u cycles",
	    p->hz, p->dimension, p->nsyms, p->narcs, p->ncycles);
	draw_text(y++, 0, w, line, A_NORMAL);
	for (k = 0; k < t->warn->n && y < LINES - 2; k++) {
		snprintf(line, sizeof line, "  %s", t->warn->msg[k].text);
		draw_text(y++, 0, w, line, A_NORMAL);
	}
	draw_text(y, 0, w, "", A_NORMAL);
}

/*
 * The column where PN's names start: where its last header line says
 * "name", or -1 (no such header).
 */
static int
name_column(struct tui *t, struct pane *pn)
{
	const char *h, *last, *at = NULL, *s;
	int col = -1;

	sbuf_reset(&t->sb);
	pn->ops->header(t, pn, &t->sb);
	if (t->sb.failed)
		return -1;
	while (t->sb.len > 0 && t->sb.s[t->sb.len - 1] == '\n')
		t->sb.s[--t->sb.len] = '\0';
	h = sbuf_str(&t->sb);
	last = strrchr(h, '\n') != NULL ? strrchr(h, '\n') + 1 : h;
	for (s = last; (s = strstr(s, "name")) != NULL; s += 4)
		at = s;
	if (at != NULL) {	/* the header's text up to "name", measured */
		t->sb.len = (size_t)(at - t->sb.s);
		t->sb.s[t->sb.len] = '\0';
		col = draw_width(last);
	}
	return col;
}

/*
 * The flat profile's place's width on a wide screen: the columns left
 * after both panes' numbers shared equally by their names, within a third
 * and two thirds of the screen; 0 when that leaves either pane fewer than
 * NAME_MIN (half the screen when a pane has no name column, and beside
 * the call tree or the flame graph).
 */
static int
left_width(struct tui *t)
{
	int a, b, left;

	if (t->slot != PANE_FLAT && t->slot != PANE_COMPARE)
		return COLS / 2;	/* (a tree's names are indented) */
	a = name_column(t, &t->pane[t->slot]);
	b = name_column(t, &t->pane[PANE_GRAPH]);
	if (a < 0 || b < 0)
		return COLS / 2;
	if (COLS - 1 - a - b < 2 * NAME_MIN)
		return 0;	/* no room for both panes' names side by side */
	left = a + 1 + (COLS - 1 - a - b) / 2;
	return left < COLS / 3 ? COLS / 3 : left > COLS * 2 / 3 ? COLS * 2 / 3 : left;
}

/*
 * Wide: the flat profile's place | graph above, source below; when the
 * two cannot both show names side by side (a comparison at 160
 * columns), the flat profile's place above, the graph (or the source,
 * when focused) below.  Narrow: the focused pane alone.  A pane not drawn has no box (box_h 0): the
 * mouse finds only those drawn.
 */
static void
draw(void *ctx)
{
	struct tui *t = ctx;
	int h = LINES - 2, i, left, wide;

	if (list_fill(t, &t->pane[PANE_FLAT]) != 0)
		snprintf(t->message, sizeof t->message, "out of memory");
	if (t->flat_seen != t->view.gen) {	/* sorted or filtered: follow the selection */
		struct pane *fp = &t->pane[PANE_FLAT];

		t->flat_seen = t->view.gen;
		if (t->focus == PANE_FLAT && fp->nrows > 0)
			t->cur = fp->ops->target(t, fp, fp->sel);
	}
	for (i = PANE_GRAPH; i < NPANES; i++)
		if (list_fill(t, &t->pane[i]) != 0)
			snprintf(t->message, sizeof t->message, "out of memory");
	top_line(t);
	for (i = 0; i < NPANES; i++)
		t->pane[i].box_h = 0;
	wide = COLS >= WIDE && h >= 12 && !t->zoom;
	left = wide ? left_width(t) : 0;
	if (wide && left == 0) {
		int top = h * 3 / 5, below = t->focus == PANE_SOURCE ? PANE_SOURCE : PANE_GRAPH;

		list_draw(t, &t->pane[t->slot], 1, 0, top, COLS, t->focus == t->slot);
		list_draw(t, &t->pane[below], 1 + top, 0, h - top, COLS, t->focus == below);
	} else if (wide) {
		int top = h * 3 / 5;

		list_draw(t, &t->pane[t->slot], 1, 0, top, left - 1, t->focus == t->slot);
		mvvline(1, left - 1, ACS_VLINE, top);
		list_draw(t, &t->pane[PANE_GRAPH], 1, left, top, COLS - left, t->focus == PANE_GRAPH);
		list_draw(t, &t->pane[PANE_SOURCE], 1 + top, 0, h - top, COLS,
		    t->focus == PANE_SOURCE);
	} else if (h > 0) {
		list_draw(t, &t->pane[t->focus], 1, 0, h, COLS, 1);
	}
	if (t->threads && !t->help) {
		if (list_fill(t, &t->threads_pane) != 0)	/* made again after u */
			t->threads = 0;
		else
			list_draw(t, &t->threads_pane, 1, 0, LINES - 2, COLS, 1);
	}
	if (t->help)
		list_draw(t, &t->help_pane, 1, 0, LINES - 2, COLS, 1);
	if (t->info)
		info_overlay(t);
	bottom_line(t);
	refresh();
}

void
tui_open(struct tui *t, uint32_t fn)
{
	struct history *hs = &t->hist;

	if (fn == PF_NONE || fn == t->cur)
		return;
	if (t->cur != PF_NONE) {
		if (hs->nback == UI_HISTORY) {
			memmove(hs->back, hs->back + 1, (UI_HISTORY - 1) * sizeof *hs->back);
			hs->nback--;
		}
		hs->back[hs->nback++] = t->cur;
	}
	hs->nfwd = 0;
	t->cur = fn;
}

void
tui_go(struct tui *t, int dir)
{
	struct history *hs = &t->hist;
	uint32_t *from = dir < 0 ? hs->back : hs->fwd, *to = dir < 0 ? hs->fwd : hs->back;
	size_t *nfrom = dir < 0 ? &hs->nback : &hs->nfwd, *nto = dir < 0 ? &hs->nfwd : &hs->nback;

	if (*nfrom == 0) {
		snprintf(t->message, sizeof t->message, dir < 0 ? "nothing to go back to" :
		    "nothing to go forward to");
		return;
	}
	if (*nto < UI_HISTORY)
		to[(*nto)++] = t->cur;
	t->cur = from[--*nfrom];
	flat_select(&t->pane[PANE_FLAT], t->cur);
}

/*
 * The function first shown, selected in the flat profile: its first row
 * that is the program's (not the profiler's own), else its first, else
 * the first call-graph entry.
 */
static uint32_t
first_function(struct tui *t)
{
	struct pane *pn = &t->pane[PANE_FLAT];
	const struct profile *p = t->s->p;
	uint32_t i, id;
	size_t k;

	for (k = 0; list_fill(t, pn) == 0 && k < pn->nrows; k++)
		if ((id = pn->ops->target(t, pn, k)) != PF_NONE && !report_profiler_own(t->s->r, id)) {
			list_to(pn, k);
			return id;
		}
	if (pn->nrows > 0 && pn->ops->target(t, pn, 0) != PF_NONE)
		return pn->ops->target(t, pn, 0);
	for (i = 0; p->cg_order != NULL && i < p->nsyms + p->ncycles; i++)
		if (report_cg_listed(t->s->r, p->cg_order[i]))
			return p->cg_order[i];
	return PF_NONE;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* KEYTIMES' name of key C: ncurses' (x, ^M, KEY_NPAGE), after the key whose line it was typed in. */
static void
key_label(char *buf, size_t size, int c, char prompt)
{
	const char *name = keyname(c);
	char code[16];

	if (name == NULL) {
		snprintf(code, sizeof code, "%d", c);
		name = code;
	}
	if (prompt != 0)
		snprintf(buf, size, "%c %s", prompt, name);
	else
		snprintf(buf, size, "%s", name);
}

/* TGPROF_KEYTIMES: each key's time (handled and the screen redrawn), the slowest and the mean. */
struct keytimes {
	double slowest, sum;
	unsigned long n;
	char name[64];
	struct sbuf all;
};

/* What T0 (now() when it started) until now took, for the key (or refresh) LABEL, after a drawing. */
static void
timed(struct tui *t, struct keytimes *kt, double t0, const char *label)
{
	draw(t);
	t0 = now() - t0;
	kt->sum += t0;
	sbuf_printf(&kt->all, "%.1f ms %s\n", t0 * 1e3, label);
	if (t0 > kt->slowest)
		snprintf(kt->name, sizeof kt->name, "%s", label);
	kt->slowest = t0 > kt->slowest ? t0 : kt->slowest;
	kt->n++;
}

/*
 * Keys until one quits (q, Q, the end of a script); in a live view, a
 * tick every refresh_ms without a key (watch.c).  With TGPROF_KEYTIMES
 * naming a file, the time each key takes (handled and the screen
 * redrawn) is measured, and each refresh's (a new snapshot, "refresh"),
 * and the slowest (with its name) and the mean written there at the end,
 * then each one's time, for make bench.
 */
static void
loop(struct tui *t)
{
	const char *times = getenv("TGPROF_KEYTIMES");
	struct keytimes kt = { 0, 0, 0, "none", { NULL, 0, 0, 0 } };
	char label[64];
	double t0;
	FILE *f;

	sbuf_init(&kt.all);
	while (!t->quit) {
		int c = t->o->live != NULL ? term_key_wait(draw, t, t->o->refresh_ms) : term_key(draw, t);
		char prompt = t->prompt.key;

		if (c == TERM_TICK && t->o->script != NULL)
			watch_wait(t);	/* (the wait is not the refresh's time) */
		t0 = now();
		if (c == TERM_TICK) {
			if (watch_tick(t) && times != NULL)
				timed(t, &kt, t0, "refresh");
			continue;
		}
		keys_run(t, c);
		if (times == NULL || c == TERM_END || t->quit)
			continue;
		key_label(label, sizeof label, c, prompt);
		timed(t, &kt, t0, label);
	}
	if (times != NULL && (f = fopen(times, "w")) != NULL) {
		fprintf(f, "%lu keys, slowest %.1f ms (%s), mean %.1f ms\n%s", kt.n, kt.slowest * 1e3, kt.name,
		    kt.n > 0 ? kt.sum / (double)kt.n * 1e3 : 0.0, sbuf_str(&kt.all));
		fclose(f);
	}
	sbuf_release(&kt.all);
}

int
browser_signal(void)
{
	return term_stop_signal();
}

int
browser_usable(char *why, size_t size)
{
	return term_usable(why, size);
}

/* The panes made ready for S; the comparison, if any, in the flat profile's place, focused. */
static void
start(struct tui *t, struct session *s, const struct browser_opts *o, const struct diag *d)
{
	memset(t, 0, sizeof *t);
	t->s = t->model = s;
	t->o = o;
	t->seen = s->gen;
	t->cur = PF_NONE;
	t->warn = d;	/* the load's: nothing is added to D while browsing */
	if (d->n > 0)
		snprintf(t->message, sizeof t->message, "%s%s", d->msg[0].text,
		    d->n > 1 ? " (i: all warnings)" : "");
	sbuf_init(&t->sb);
	flat_init(&t->pane[PANE_FLAT]);
	graph_init(&t->pane[PANE_GRAPH]);
	source_init(&t->pane[PANE_SOURCE]);
	tree_init(&t->pane[PANE_TREE]);
	icicle_init(&t->pane[PANE_FLAME]);
	versus_init(&t->pane[PANE_COMPARE]);
	help_init(&t->help_pane);
	threadview_init(&t->threads_pane);
	t->slot = t->under = t->focus = tui_home(t);
	t->tree.recursion = o->recursion;
	t->view.libraries = o->libraries;
}

int
browser_run(struct session *s, const struct browser_opts *o, struct diag *d)
{
	struct tui t;
	int rc = 0, i;

	start(&t, s, o, d);
	if (term_start(o, d) != 0)
		rc = -1;
	if (rc == 0) {
		t.colors = has_colors() && getenv("NO_COLOR") == NULL;
		t.cur = first_function(&t);
		if (s->p->nhist == 0)
			t.focus = PANE_GRAPH;	/* the flat profile has no time to show */
		loop(&t);
		if (term_script_error() != NULL) {	/* a line of the script it could not run */
			diag_add(d, DIAG_ERROR, "%s", term_script_error());
			rc = -1;
		}
		term_stop();
	}
	for (i = 0; i < NPANES; i++)
		t.pane[i].ops->release(&t.pane[i]);
	t.help_pane.ops->release(&t.help_pane);	/* its rows, wrapped for the screen (help.c) */
	t.threads_pane.ops->release(&t.threads_pane);
	sbuf_release(&t.sb);
	return rc;
}
