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

int
tui_measured(struct tui *t)
{
	return t->o->measure != NULL && !t->estimates && t->owned == NULL;
}

/* Whether measured times are shown beside gprof's, or why not: narrowed, or (m) hidden. */
static void
times_note(struct tui *t)
{
	const struct pf_measure *m = t->o->measure;

	if (m == NULL)
		return;
	if (tui_measured(t))
		sbuf_printf(&t->sb, " | measured: %llu stacks, %.0f%% complete (m)",
		    (unsigned long long)m->samples,
		    m->samples > 0 ? 100.0 * (double)m->root / (double)m->samples : 0.0);
	else
		sbuf_puts(&t->sb, t->owned != NULL ? " | estimated while narrowed" :
		    " | gprof's estimates only (m: measured)");
}

/*
 * The samples of the profiler's own functions (report_profiler_own()),
 * counted once: x and f change propagated times, never a function's self
 * time, and the names are the same.
 */
static double
overhead(struct tui *t)
{
	uint32_t k;

	if (!t->own_counted) {
		t->own_counted = 1;
		t->own = 0;
		for (k = 0; k < t->p->nsyms; k++)	/* the names of those with samples */
			if (t->p->sym[k].time > 0 && report_profiler_own(t->r, k))
				t->own += t->p->sym[k].time;
	}
	return t->own;
}

/* What the profile holds, what narrows it, then the files (cut first on a narrow screen). */
static void
top_line(struct tui *t)
{
	const struct profile *p = t->p;
	double hz = p->hz > 0 ? (double)p->hz : 1, own;

	sbuf_reset(&t->sb);
	if (p->nhist == 0)
		sbuf_puts(&t->sb, " tgprof: no histogram: no time");
	else
		sbuf_printf(&t->sb, " tgprof: %.2f s in %.0f samples of %.2g s", p->total_time / hz,
		    p->total_time, 1 / hz);
	if (p->narcs == 0)
		sbuf_puts(&t->sb, " | no call graph");
	if (p->total_time > 0 && (own = overhead(t)) > 0)
		sbuf_printf(&t->sb, " | profiling %.1f%% ([profiling] rows)", 100 * own / p->total_time);
	if (!t->ro.demangle)
		sbuf_puts(&t->sb, " | raw names");
	else if (t->ro.template_dots != NULL)
		sbuf_printf(&t->sb, " | templates <%s> (T)", t->ro.template_dots);
	if (t->sort_key != FLAT_BY_TIME || t->sort_rev)
		sbuf_printf(&t->sb, " | sort: %s%s", flat_sort_names[t->sort_key],
		    t->sort_rev ? ", reversed" : "");
	if (t->filter[0] != '\0')
		sbuf_printf(&t->sb, " | names with \"%s\"", t->filter);
	if (t->limit > 0)
		sbuf_printf(&t->sb, " | %g%% or more", t->limit);
	times_note(t);
	if (t->zoom)
		sbuf_puts(&t->sb, " | one pane (z)");
	if (t->nfolded > 0)
		sbuf_printf(&t->sb, " | %u clone%s folded (--clones=gprof: as --batch)", t->nfolded,
		    t->nfolded > 1 ? "s" : "");
	if (t->nwarn > 0)
		sbuf_printf(&t->sb, " | %zu warning%s (i)", t->nwarn, t->nwarn > 1 ? "s" : "");
	if (t->nnarrow > 0)
		sbuf_printf(&t->sb, " | %s %s%s (u undoes)",
		    t->spec[2 * t->nnarrow - 2].table == SPEC_INCL_TIME ? "only" : "without",
		    t->spec_name[t->nnarrow - 1], t->nnarrow > 1 ? " and more" : "");
	if (t->o->diff != NULL)
		sbuf_puts(&t->sb, " | compared with the old profile (the comparison: old -> new)");
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
	/* The flat, tree and flame rows stay while the function shown changes. */
	uint32_t cur = t->focus == PANE_FLAT || t->focus == PANE_TREE || t->focus == PANE_FLAME ||
	    t->focus == PANE_COMPARE ? PF_NONE : t->cur;

	if (t->needle[0] == '\0')
		return 0;
	if (strcmp(t->count.needle, t->needle) != 0 || t->count.focus != t->focus ||
	    t->count.cur != cur || t->count.nrows != pn->nrows ||
	    t->count.demangle != t->ro.demangle || t->count.tree_gen != t->tree_gen) {
		memcpy(t->count.needle, t->needle, sizeof t->needle);
		t->count.focus = t->focus;
		t->count.cur = cur;
		t->count.nrows = pn->nrows;
		t->count.demangle = t->ro.demangle;
		t->count.tree_gen = t->tree_gen;
		t->count.n = list_count(t, pn, t->needle);	/* uses t->sb */
	}
	return t->count.n;
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
	double n = t->p->sym[id].time, hz = (double)t->p->hz;
	char num[128], *name;
	int room;

	if (n > 0)
		snprintf(num, sizeof num, ": %.2f s %s %.2f s (%.0f samples)%s", n / hz,
		    MB_CUR_MAX > 1 ? "\u00b1" : "+-", sqrt(n) / hz, n,
		    n < UI_FEW_SAMPLES ? ", too few to trust" : "");
	else
		snprintf(num, sizeof num, ": no samples");
	sbuf_reset(&t->sb);
	report_name_only(t->r, &t->sb, id);
	if (t->sb.failed || (name = strdup(sbuf_str(&t->sb))) == NULL)
		return;
	room = w - draw_width(num);
	sbuf_reset(&t->sb);
	draw_elide(&t->sb, name, room > 24 ? room : 24);
	free(name);
	sbuf_printf(&t->sb, "%s   ", num);
	keys_hints(t->focus, &t->sb);
}

/* What is asked and what is typed; when too wide, the end of it, where the cursor is. */
static void
prompt_line(struct tui *t, int w)
{
	const char *s;

	sbuf_printf(&t->sb, "%s%s", t->prompt_text, t->input);
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
	struct pane *pn = &t->pane[t->focus];
	size_t matches = match_count(t);
	char pos[64] = "";
	int w;

	if (pn->nrows > 0 && t->prompt == 0)
		snprintf(pos, sizeof pos, pn->hscroll > 0 ? " %s %zu/%zu, from column %d " : " %s %zu/%zu ",
		    pn->ops->name, pn->sel + 1, pn->nrows, pn->hscroll + 1);
	w = COLS - (int)strlen(pos);
	sbuf_reset(&t->sb);
	if (t->prompt != 0)
		prompt_line(t, COLS);
	else if (t->message[0] != '\0')
		sbuf_puts(&t->sb, t->message);
	else if (t->needle[0] != '\0')
		sbuf_printf(&t->sb, "/%s: %zu matches (n N: next, previous; Esc: done)",
		    t->needle, matches);
	else if (t->cur != PF_NONE && t->cur < t->p->nsyms && t->p->hz > 0)
		sampling_error(t, t->cur, w);
	else
		keys_hints(t->focus, &t->sb);
	draw_text(LINES - 1, 0, w > 0 ? w : 0, sbuf_str(&t->sb), t->colors ? COLOR_PAIR(3) : A_BOLD);
	if (w > 0)
		draw_text(LINES - 1, w, COLS - w, pos, t->colors ? COLOR_PAIR(3) : A_BOLD);
	if (t->prompt != 0) {
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
	for (k = 0; k < t->nwarn && y < LINES - 2; k++) {
		snprintf(line, sizeof line, "  %s", t->warn[k].text);
		draw_text(y++, 0, w, line, A_NORMAL);
	}
	draw_text(y, 0, w, "", A_NORMAL);
}

/*
 * Wide: flat (or the call tree) | graph above, source below.  Narrow: the focused pane alone.
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
	if (COLS >= WIDE && h >= 12 && !t->zoom) {
		int top = h * 3 / 5, left = COLS / 2;
		int slot = t->flame ? PANE_FLAME : t->tree ? PANE_TREE : t->compare ? PANE_COMPARE : PANE_FLAT;

		list_draw(t, &t->pane[slot], 1, 0, top, left - 1, t->focus == slot);
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

/* The old profile's function named NAME (the first, by raw name), or PF_NONE. */
static uint32_t
old_named(const struct profile *old, const char *name)
{
	size_t lo = 0, hi = old->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(old->sym[old->name_order[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < old->nsyms && strcmp(old->sym[old->name_order[lo]].name, name) == 0 ?
	    old->name_order[lo] : PF_NONE;
}

/*
 * tgprof --diff: the comparison in the flat profile's place, focused, and
 * each function's match in the old profile: the comparison's where it has
 * one (statics by file), else by name; 0 or -1.
 */
static int
compare_start(struct tui *t)
{
	const struct pf_diff *df = t->o->diff;
	size_t i;

	if ((t->old_of = malloc(((size_t)t->p->nsyms + 1) * sizeof *t->old_of)) == NULL)
		return -1;
	for (i = 0; i < t->p->nsyms; i++)
		t->old_of[i] = t->p->sym[i].name != NULL ? old_named(t->o->old, t->p->sym[i].name) : PF_NONE;
	for (i = 0; i < df->n; i++)
		if (df->row[i].side[DIFF_NEW].id != PF_NONE)
			t->old_of[df->row[i].side[DIFF_NEW].id] = df->row[i].side[DIFF_OLD].id;
	t->compare = 1;
	t->diff = df;
	t->focus = PANE_COMPARE;
	return 0;
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
	uint32_t k;

	memset(&t, 0, sizeof t);
	t.p = p;
	t.o = o;
	t.ro = o->ro;
	t.cur = PF_NONE;
	for (k = 0; k < p->nsyms; k++)
		t.nfolded += p->sym[k].fold != PF_NONE;
	t.warn = d->msg;	/* the load's: nothing is added to D while browsing */
	t.nwarn = d->n;
	if (t.nwarn > 0)
		snprintf(t.message, sizeof t.message, "%s%s", d->msg[0].text,
		    d->n > 1 ? " (i: all warnings)" : "");
	sbuf_init(&t.sb);
	flat_init(&t.pane[PANE_FLAT]);
	graph_init(&t.pane[PANE_GRAPH]);
	source_init(&t.pane[PANE_SOURCE]);
	help_init(&t.help_pane);
	tree_init(&t.pane[PANE_TREE]);
	flame_init(&t.pane[PANE_FLAME]);
	compare_init(&t.pane[PANE_COMPARE]);
	if ((t.r = report_new(p, &t.ro)) == NULL || (o->diff != NULL && compare_start(&t) != 0))
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
	free(t.old_of);
	sbuf_release(&t.sb);
	return rc;
}
