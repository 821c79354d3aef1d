/* tui: the browser's loop (browser.h): the screen's layout, its top and bottom lines, the history. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "browser.h"
#include "term.h"
#include "ui.h"

#define WIDE 120		/* from this width, panes side by side */

/* What the profile holds, what narrows it, then the files (cut first on a narrow screen). */
static void
top_line(struct tui *t)
{
	const struct profile *p = t->p;
	double hz = p->hz > 0 ? (double)p->hz : 1;

	sbuf_reset(&t->sb);
	if (p->nhist == 0)
		sbuf_puts(&t->sb, " tgprof: no histogram: no time");
	else
		sbuf_printf(&t->sb, " tgprof: %.2f s in %.0f samples of %.2g s", p->total_time / hz,
		    p->total_time, 1 / hz);
	if (p->narcs == 0)
		sbuf_puts(&t->sb, " | no call graph");
	if (!t->ro.demangle)
		sbuf_puts(&t->sb, " | raw names");
	if (t->sort_key != FLAT_BY_TIME || t->sort_rev)
		sbuf_printf(&t->sb, " | sort: %s%s", flat_sort_names[t->sort_key],
		    t->sort_rev ? ", reversed" : "");
	if (t->filter[0] != '\0')
		sbuf_printf(&t->sb, " | names with \"%s\"", t->filter);
	if (t->limit > 0)
		sbuf_printf(&t->sb, " | %g%% or more", t->limit);
	if (t->nnarrow > 0)
		sbuf_printf(&t->sb, " | %s %s%s (u undoes)",
		    t->spec[2 * t->nnarrow - 2].table == SPEC_INCL_TIME ? "only" : "without",
		    t->spec_name[t->nnarrow - 1], t->nnarrow > 1 ? " and more" : "");
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
	uint32_t cur = t->focus == PANE_FLAT ? PF_NONE : t->cur;	/* the flat rows stay */

	if (t->needle[0] == '\0')
		return 0;
	if (strcmp(t->count.needle, t->needle) != 0 || t->count.focus != t->focus ||
	    t->count.cur != cur || t->count.nrows != pn->nrows ||
	    t->count.demangle != t->ro.demangle) {
		memcpy(t->count.needle, t->needle, sizeof t->needle);
		t->count.focus = t->focus;
		t->count.cur = cur;
		t->count.nrows = pn->nrows;
		t->count.demangle = t->ro.demangle;
		t->count.n = list_count(t, pn, t->needle);	/* uses t->sb */
	}
	return t->count.n;
}

/*
 * The selected function's self time with its sampling error (n samples
 * are good to about sqrt(n), the gprof manual's rule of thumb), then the
 * focused pane's hints.
 */
static void
sampling_error(struct tui *t, uint32_t id)
{
	double n = t->p->sym[id].time, hz = (double)t->p->hz;

	report_name_only(t->r, &t->sb, id);
	if (n > 0)
		sbuf_printf(&t->sb, ": %.2f s %s %.2f s (%.0f samples)%s", n / hz,
		    MB_CUR_MAX > 1 ? "\u00b1" : "+-", sqrt(n) / hz, n,
		    n < UI_FEW_SAMPLES ? ", too few to trust" : "");
	else
		sbuf_puts(&t->sb, ": no samples");
	sbuf_puts(&t->sb, "   ");
	keys_hints(t->focus, &t->sb);
}

/* Hints, the search or a message on the left; the position in the focused pane on the right. */
static void
bottom_line(struct tui *t)
{
	struct pane *pn = &t->pane[t->focus];
	size_t matches = match_count(t);
	char pos[64] = "";
	int w;

	sbuf_reset(&t->sb);
	if (t->prompt != 0)
		sbuf_printf(&t->sb, "%c%s", t->prompt, t->input);
	else if (t->message[0] != '\0')
		sbuf_puts(&t->sb, t->message);
	else if (t->needle[0] != '\0')
		sbuf_printf(&t->sb, "/%s: %zu matches (n N: next, previous; Esc: done)",
		    t->needle, matches);
	else if (t->cur != PF_NONE && t->cur < t->p->nsyms && t->p->hz > 0)
		sampling_error(t, t->cur);
	else
		keys_hints(t->focus, &t->sb);
	if (pn->nrows > 0 && t->prompt == 0)
		snprintf(pos, sizeof pos, " %s %zu/%zu ", pn->ops->name, pn->sel + 1, pn->nrows);
	w = COLS - (int)strlen(pos);
	draw_text(LINES - 1, 0, w > 0 ? w : 0, sbuf_str(&t->sb), t->colors ? COLOR_PAIR(3) : A_BOLD);
	if (w > 0)
		draw_text(LINES - 1, w, COLS - w, pos, t->colors ? COLOR_PAIR(3) : A_BOLD);
	if (t->prompt != 0) {
		curs_set(1);
		move(LINES - 1, 1 + (int)strlen(t->input));
	} else {
		curs_set(0);
	}
}

/* i: what the profile files held, as gprof -i counts it, and the histogram's ranges. */
static void
info_overlay(struct tui *t)
{
	const struct profile *p = t->p;
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
	draw_text(y, 0, w, "", A_NORMAL);
}

/*
 * Wide: flat | graph above, source below.  Narrow: the focused pane alone.
 * A pane not drawn has no box (box_h 0): the mouse finds only those drawn.
 */
static void
draw(void *ctx)
{
	struct tui *t = ctx;
	int h = LINES - 2, i;

	if (list_fill(t, &t->pane[PANE_FLAT]) != 0)
		snprintf(t->message, sizeof t->message, "out of memory");
	if (t->flat_seen != t->flat_gen) {	/* sorted or filtered: follow the selection */
		struct pane *fp = &t->pane[PANE_FLAT];

		t->flat_seen = t->flat_gen;
		if (t->focus == PANE_FLAT && fp->nrows > 0)
			t->cur = fp->ops->target(t, fp, fp->sel);
	}
	for (i = PANE_GRAPH; i < NPANES; i++)
		if (list_fill(t, &t->pane[i]) != 0)
			snprintf(t->message, sizeof t->message, "out of memory");
	top_line(t);
	for (i = 0; i < NPANES; i++)
		t->pane[i].box_h = 0;
	if (COLS >= WIDE && h >= 12) {
		int top = h * 3 / 5, left = COLS / 2;

		list_draw(t, &t->pane[PANE_FLAT], 1, 0, top, left - 1, t->focus == PANE_FLAT);
		mvvline(1, left - 1, ACS_VLINE, top);
		list_draw(t, &t->pane[PANE_GRAPH], 1, left, top, COLS - left, t->focus == PANE_GRAPH);
		list_draw(t, &t->pane[PANE_SOURCE], 1 + top, 0, h - top, COLS,
		    t->focus == PANE_SOURCE);
	} else if (h > 0) {
		list_draw(t, &t->pane[t->focus], 1, 0, h, COLS, 1);
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
	if (fn == PF_NONE || fn == t->cur)
		return;
	if (t->cur != PF_NONE) {
		if (t->nback == UI_HISTORY) {
			memmove(t->back, t->back + 1, (UI_HISTORY - 1) * sizeof *t->back);
			t->nback--;
		}
		t->back[t->nback++] = t->cur;
	}
	t->nfwd = 0;
	t->cur = fn;
}

void
tui_go(struct tui *t, int dir)
{
	uint32_t *from = dir < 0 ? t->back : t->fwd, *to = dir < 0 ? t->fwd : t->back;
	size_t *nfrom = dir < 0 ? &t->nback : &t->nfwd, *nto = dir < 0 ? &t->nfwd : &t->nback;

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

/* The function first shown: the top of the flat profile, else the first call-graph entry. */
static uint32_t
first_function(struct tui *t)
{
	struct pane *pn = &t->pane[PANE_FLAT];
	uint32_t i;

	if (list_fill(t, pn) == 0 && pn->nrows > 0 && pn->ops->target(t, pn, 0) != PF_NONE)
		return pn->ops->target(t, pn, 0);
	for (i = 0; t->p->cg_order != NULL && i < t->p->nsyms + t->p->ncycles; i++)
		if (report_cg_listed(t->r, t->p->cg_order[i]))
			return t->p->cg_order[i];
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

/*
 * Keys until one quits (q, Q, the end of a script).  With TGPROF_KEYTIMES
 * naming a file, the time each key takes (handled and the screen redrawn)
 * is measured and the slowest (with its name) and the mean written there
 * at the end, then each key's time, for make bench.
 */
static void
loop(struct tui *t)
{
	const char *times = getenv("TGPROF_KEYTIMES");
	double slowest = 0, sum = 0, t0;
	unsigned long n = 0;
	char name[64] = "none", label[64];
	struct sbuf all;
	FILE *f;

	sbuf_init(&all);
	while (!t->quit) {
		int c = term_key(draw, t);
		char prompt = t->prompt;

		t0 = now();
		keys_run(t, c);
		if (times == NULL || c == TERM_END || t->quit)
			continue;
		draw(t);
		t0 = now() - t0;
		sum += t0;
		key_label(label, sizeof label, c, prompt);
		sbuf_printf(&all, "%.1f ms %s\n", t0 * 1e3, label);
		if (t0 > slowest)
			memcpy(name, label, sizeof name);
		slowest = t0 > slowest ? t0 : slowest;
		n++;
	}
	if (times != NULL && (f = fopen(times, "w")) != NULL) {
		fprintf(f, "%lu keys, slowest %.1f ms (%s), mean %.1f ms\n%s", n, slowest * 1e3, name,
		    n > 0 ? sum / (double)n * 1e3 : 0.0, sbuf_str(&all));
		fclose(f);
	}
	sbuf_release(&all);
}

int
browser_usable(char *why, size_t size)
{
	return term_usable(why, size);
}

int
browser_run(const struct profile *p, const struct browser_opts *o, struct diag *d)
{
	struct tui t;
	int rc = 0, i;

	memset(&t, 0, sizeof t);
	t.p = p;
	t.o = o;
	t.ro = o->ro;
	t.cur = PF_NONE;
	sbuf_init(&t.sb);
	flat_init(&t.pane[PANE_FLAT]);
	graph_init(&t.pane[PANE_GRAPH]);
	source_init(&t.pane[PANE_SOURCE]);
	help_init(&t.help_pane);
	if ((t.r = report_new(p, &t.ro)) == NULL)
		rc = diag_oom(d);
	if (rc == 0 && term_start(o, d) != 0)
		rc = -1;
	if (rc == 0) {
		t.colors = has_colors() && getenv("NO_COLOR") == NULL;
		t.cur = first_function(&t);
		if (p->nhist == 0)
			t.focus = PANE_GRAPH;	/* the flat profile has no time to show */
		loop(&t);
		term_stop();
	}
	for (i = 0; i < NPANES; i++)
		t.pane[i].ops->release(&t.pane[i]);
	report_free(t.r);
	narrow_free(&t);
	sbuf_release(&t.sb);
	return rc;
}
