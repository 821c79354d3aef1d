/* tui: the browser's event loop: layout, status lines, keys, history (implements browser.h). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* The bottom line's reminder of the focused pane's keys. */
static const char *const pane_hints[NPANES] = {
	"Enter:open s:sort \\:names L:limit x/f:without/only ?:help",
	"Enter:open Backspace:back Tab:pane /:search ?:help",
	"o:edit Backspace:back Tab:pane /:search ?:help",
};

/*
 * The selected function's self time with its sampling error: n samples
 * are good to about sqrt(n) (the gprof manual's rule of thumb).
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
	sbuf_printf(&t->sb, "   %s", pane_hints[t->focus]);
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
		sbuf_puts(&t->sb, pane_hints[t->focus]);
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

/* Wide: flat | graph above, source below.  Narrow: the focused pane alone. */
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
		help_info(t);
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

/* Back (DIR -1) or forward (1) in the history. */
static void
go(struct tui *t, int dir)
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

/* Enter: the function of the selected row, in the call-graph pane. */
static void
open_selected(struct tui *t)
{
	struct pane *pn = &t->pane[t->focus];
	uint32_t fn = pn->nrows > 0 ? pn->ops->target(t, pn, pn->sel) : PF_NONE;

	if (fn == PF_NONE)
		return;
	tui_open(t, fn);
	flat_select(&t->pane[PANE_FLAT], fn);
	t->focus = PANE_GRAPH;
}

/* ":N": the function or cycle with call-graph index N. */
static void
goto_index(struct tui *t, const char *s)
{
	long n = strtol(s, NULL, 10);
	uint32_t i;

	for (i = 0; n > 0 && i < t->p->nsyms + t->p->ncycles; i++) {
		if (t->p->sym[i].index == n && report_cg_listed(t->r, i)) {
			tui_open(t, i);
			flat_select(&t->pane[PANE_FLAT], i);
			t->focus = PANE_GRAPH;
			return;
		}
	}
	snprintf(t->message, sizeof t->message, "no call-graph entry [%s]", s);
}

static void
search(struct tui *t, int dir, int from_sel)
{
	struct pane *pn = &t->pane[t->focus];
	long i = list_find(t, pn, t->needle, dir, from_sel);

	if (i < 0)
		snprintf(t->message, sizeof t->message, "\"%s\": no match in this pane", t->needle);
	else
		list_to(pn, (size_t)i);
}

/* P: the focused pane as text into FILE (by default tgprof-PANE.txt). */
static void
write_pane(struct tui *t, const char *file)
{
	struct pane *pn = &t->pane[t->focus];
	char name[256];

	if (file[0] == '\0') {
		snprintf(name, sizeof name, "tgprof-%s.txt", pn->ops->name);
		file = name;
	}
	if (list_write(t, pn, file) != 0)
		snprintf(t->message, sizeof t->message, "%.200s: cannot write it", file);
	else
		snprintf(t->message, sizeof t->message, "wrote %zu rows to %.200s", pn->nrows, file);
}

/* A typed line is complete: what it is for depends on the key that asked for it. */
static void
prompt_done(struct tui *t, char kind, const char *text)
{
	char *end;
	double v;

	switch (kind) {
	case '/':
		snprintf(t->needle, sizeof t->needle, "%s", text);
		search(t, 1, 1);
		break;
	case ':':
		goto_index(t, text);
		break;
	case '\\':
		snprintf(t->filter, sizeof t->filter, "%s", text);
		t->flat_gen++;
		break;
	case 'L':
		v = strtod(text, &end);
		if (end == text || v < 0 || v > 100) {
			snprintf(t->message, sizeof t->message, "a percent from 0 to 100, please");
			return;
		}
		t->limit = v;
		t->flat_gen++;
		break;
	case 'P':
		write_pane(t, text);
		break;
	}
}

/* A key while a line is typed after /, :, \\, L or P. */
static void
prompt_key(struct tui *t, int c)
{
	size_t n = strlen(t->input);

	if (c == 27) {
		t->prompt = 0;
	} else if (c == '\r' || c == '\n' || c == KEY_ENTER) {
		char kind = t->prompt;

		t->prompt = 0;
		prompt_done(t, kind, t->input);
	} else if (c == KEY_BACKSPACE || c == 127 || c == 8) {
		if (n > 0)
			t->input[n - 1] = '\0';
		else
			t->prompt = 0;
	} else if (c >= ' ' && c < 256 && n + 1 < sizeof t->input) {
		t->input[n] = (char)c;
		t->input[n + 1] = '\0';
	}
}

/* Keys that move within pane PN; 1 if C was one. */
static int
pane_move(struct pane *pn, int c)
{
	long page = pn->height > 1 ? pn->height - 1 : 1;

	switch (c) {
	case 'j': case KEY_DOWN: list_move(pn, 1); break;
	case 'k': case KEY_UP: list_move(pn, -1); break;
	case KEY_NPAGE: case ' ': list_move(pn, page); break;
	case KEY_PPAGE: list_move(pn, -page); break;
	case 4: list_move(pn, page / 2 > 0 ? page / 2 : 1); break;	/* C-d */
	case 21: list_move(pn, -(page / 2 > 0 ? page / 2 : 1)); break;	/* C-u */
	case 'g': case KEY_HOME: list_to(pn, 0); break;
	case 'G': case KEY_END: list_to(pn, pn->nrows > 0 ? pn->nrows - 1 : 0); break;
	default: return 0;
	}
	return 1;
}

/* Keys that move within the focused pane; 1 if C was one. */
static int
move_key(struct tui *t, int c)
{
	struct pane *pn = &t->pane[t->focus];

	if (!pane_move(pn, c))
		return 0;
	/* In the flat pane the selection is the function shown. */
	if (t->focus == PANE_FLAT && pn->nrows > 0)
		t->cur = pn->ops->target(t, pn, pn->sel);
	return 1;
}

/* While the help is up: it moves, Q quits, anything else closes it. */
static void
help_key(struct tui *t, int c)
{
	if (c != TERM_END_OF_SCRIPT && pane_move(&t->help_pane, c))
		return;
	t->help = 0;
	t->quit = c == TERM_END_OF_SCRIPT;
}

/*
 * o: $EDITOR (or vi) at the source pane's line: the screen is handed over
 * and taken back.
 */
static void
edit_source(struct tui *t)
{
	const struct pane *pn = &t->pane[PANE_SOURCE];
	const char *path = source_path(pn), *editor = getenv("EDITOR");
	char line[32];
	pid_t pid;
	int status;

	if (path == NULL) {
		snprintf(t->message, sizeof t->message, "no source to edit");
		return;
	}
	if (editor == NULL || editor[0] == '\0')
		editor = "vi";
	snprintf(line, sizeof line, "+%zu", pn->sel + 1);
	def_prog_mode();
	endwin();
	if ((pid = fork()) == 0) {
		execlp(editor, editor, line, path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 127)
		snprintf(t->message, sizeof t->message, "%s %s %s: failed", editor, line, path);
	reset_prog_mode();
	clearok(curscr, TRUE);
}

/* Click selects (and focuses the pane), double click opens, the wheel scrolls. */
static void
mouse(struct tui *t)
{
	int y, x, b, i;

	term_mouse(&y, &x, &b);
	for (i = 0; i < NPANES; i++) {
		struct pane *pn = &t->pane[i];

		if (pn->box_h <= 0 || y < pn->box_y || y >= pn->box_y + pn->box_h ||
		    x < pn->box_x || x >= pn->box_x + pn->box_w)
			continue;
		if ((COLS < WIDE || LINES < 14) && i != t->focus)
			continue;	/* one pane at a time: only the focused one is up */
		if (b == 4 || b == 5) {
			t->focus = i;
			move_key(t, b == 4 ? 'k' : 'j');
			move_key(t, b == 4 ? 'k' : 'j');
			move_key(t, b == 4 ? 'k' : 'j');
			return;
		}
		if ((b == 1 || b == 2) && y >= pn->rows_y && pn->top + (size_t)(y - pn->rows_y) < pn->nrows) {
			t->focus = i;
			list_to(pn, pn->top + (size_t)(y - pn->rows_y));
			if (i == PANE_FLAT)
				t->cur = pn->ops->target(t, pn, pn->sel);
			if (b == 2)
				open_selected(t);
		}
		return;
	}
}

/* d: names demangled or raw; the report caches names, so it is made anew. */
static void
toggle_demangle(struct tui *t)
{
	struct report *r;

	t->ro.demangle = !t->ro.demangle;
	if ((r = report_new(t->p, &t->ro)) == NULL) {
		t->ro.demangle = !t->ro.demangle;
		snprintf(t->message, sizeof t->message, "out of memory");
		return;
	}
	report_free(t->r);
	t->r = r;
	t->flat_gen++;
}

static void
key(struct tui *t, int c)
{
	t->message[0] = '\0';
	if (t->prompt != 0) {
		prompt_key(t, c);
		return;
	}
	if (t->info) {
		t->info = 0;
		if (c != 'Q')
			return;
	}
	if (t->help && c != 'Q') {
		help_key(t, c);
		return;
	}
	if (move_key(t, c))
		return;
	switch (c) {
	case '\t': t->focus = (t->focus + 1) % NPANES; break;
	case KEY_BTAB: t->focus = (t->focus + NPANES - 1) % NPANES; break;
	case '\r': case '\n': case KEY_ENTER: case 'l': case KEY_RIGHT: open_selected(t); break;
	case KEY_BACKSPACE: case 127: case 8: case 'h': case KEY_LEFT: case TERM_ALT_LEFT:
		go(t, -1);
		break;
	case TERM_ALT_RIGHT: go(t, 1); break;
	case 'a': t->focus = PANE_SOURCE; break;
	case '/': case ':': case '\\': case 'L': case 'P':
		t->prompt = (char)c;
		t->input[0] = '\0';
		break;
	case 's': t->sort_key = (t->sort_key + 1) % FLAT_NSORT; t->flat_gen++; break;
	case 'S': t->sort_rev = !t->sort_rev; t->flat_gen++; break;
	case 'i': t->info = 1; break;
	case 'o': edit_source(t); break;
	case 'x': narrow_push(t, 0); break;
	case 'f': narrow_push(t, 1); break;
	case 'u': narrow_pop(t); break;
	case 'n': search(t, 1, 0); break;
	case 'N': search(t, -1, 0); break;
	case 27: t->needle[0] = '\0'; break;
	case 'd': toggle_demangle(t); break;
	case '?': case KEY_F(1):
		t->help = 1;
		list_fill(t, &t->help_pane);
		break;
	case 'q': case 'Q': case TERM_END_OF_SCRIPT: t->quit = 1; break;
	case KEY_RESIZE: clearok(curscr, TRUE); break;
	case KEY_MOUSE: mouse(t); break;
	default: break;
	}
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

/*
 * Keys until q.  With TGPROF_KEYTIMES naming a file, the time each key
 * takes (handled and the screen redrawn) is measured and the slowest and
 * the mean written there at the end, for make bench.
 */
static void
loop(struct tui *t)
{
	const char *times = getenv("TGPROF_KEYTIMES");
	double slowest = 0, sum = 0, t0;
	unsigned long n = 0;
	FILE *f;

	while (!t->quit) {
		int c = term_key(draw, t);

		t0 = now();
		key(t, c);
		if (times == NULL || c == TERM_END_OF_SCRIPT || t->quit)
			continue;
		draw(t);
		t0 = now() - t0;
		sum += t0;
		slowest = t0 > slowest ? t0 : slowest;
		n++;
	}
	if (times != NULL && (f = fopen(times, "w")) != NULL) {
		fprintf(f, "%lu keys, slowest %.1f ms, mean %.1f ms\n", n, slowest * 1e3,
		    n > 0 ? sum / (double)n * 1e3 : 0.0);
		fclose(f);
	}
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
