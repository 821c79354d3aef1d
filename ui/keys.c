/* keys: the browser's keys, one table that makes the dispatcher, the hints and the help pane's rows. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/flame.h"
#include "model/treetext.h"
#include "term.h"
#include "ui.h"

#define NO_STACKS "no call stacks: a program linked with libtgmon records them beside gmon.out (libtgmon(3))"

/*
 * What the keys do.  Each action gets the code of the key pressed; it
 * changes the browser's state and never draws (tui.c draws before the
 * next key).  The table below says which key runs which.
 */

/* The pane the moving keys move: the help while it is up, the thread view while it is, else the focused pane. */
static struct pane *
moving(struct tui *t)
{
	return t->help ? &t->help_pane : t->threads ? &t->threads_pane : &t->pane[t->focus];
}

void
keys_follow(struct tui *t, struct pane *pn)
{
	if (pn == &t->pane[t->slot] && pn->nrows > 0 && pn->ops->target(t, pn, pn->sel) != PF_NONE)
		t->cur = pn->ops->target(t, pn, pn->sel);
}

/* Key C offered to pane PN's own keys (pane_ops.key): 1 if it took it. */
static int
offer(struct tui *t, struct pane *pn, int c)
{
	return pn->ops->key != NULL && pn->ops->key(t, pn, c);
}

enum { ROW, PAGE, HALF_PAGE };

/* N rows, pages (what the pane showed, less a row) or half pages down (up if N < 0). */
static void
step(struct tui *t, long n, int unit)
{
	struct pane *pn = moving(t);
	long page = pn->height > 1 ? pn->height - 1 : 1, half = page / 2 > 0 ? page / 2 : 1;

	list_move(pn, n * (unit == PAGE ? page : unit == HALF_PAGE ? half : 1));
	keys_follow(t, pn);
}

static void
down(struct tui *t, int c)
{
	step(t, 1, ROW);
}

static void
up(struct tui *t, int c)
{
	step(t, -1, ROW);
}

static void
page_down(struct tui *t, int c)
{
	step(t, 1, PAGE);
}

static void
page_up(struct tui *t, int c)
{
	step(t, -1, PAGE);
}

static void
half_down(struct tui *t, int c)
{
	step(t, 1, HALF_PAGE);
}

static void
half_up(struct tui *t, int c)
{
	step(t, -1, HALF_PAGE);
}

static void
first_row(struct tui *t, int c)
{
	struct pane *pn = moving(t);

	list_to(pn, 0);
	keys_follow(t, pn);
}

static void
last_row(struct tui *t, int c)
{
	struct pane *pn = moving(t);

	list_to(pn, pn->nrows > 0 ? pn->nrows - 1 : 0);
	keys_follow(t, pn);
}

/* The panes shown: the one in the flat profile's place, the call graph and the source. */
static int
shown(const struct tui *t, int pane)
{
	return pane == t->slot || pane == PANE_GRAPH || pane == PANE_SOURCE;
}

static void
next_pane(struct tui *t, int c)
{
	do
		t->focus = (t->focus + 1) % NPANES;
	while (!shown(t, t->focus));
}

static void
previous_pane(struct tui *t, int c)
{
	do
		t->focus = (t->focus + NPANES - 1) % NPANES;
	while (!shown(t, t->focus));
}

/* The function of the selected row, in the call-graph pane. */
static void
open_selected(struct tui *t, int c)
{
	struct pane *pn = &t->pane[t->focus];
	uint32_t fn = pn->nrows > 0 ? pn->ops->target(t, pn, pn->sel) : PF_NONE;

	if (fn == PF_NONE)
		return;
	tui_open(t, fn);
	flat_select(&t->pane[PANE_FLAT], fn);
	t->focus = PANE_GRAPH;
}

/* Back in the history. */
static void
back(struct tui *t, int c)
{
	tui_go(t, -1);
}

static void
forward(struct tui *t, int c)
{
	tui_go(t, 1);
}

static void
show_source(struct tui *t, int c)
{
	t->focus = PANE_SOURCE;
}

/* H, ], [: the source pane, at its hottest line, or the next or previous hot line (source.c). */
static void
hot_line(struct tui *t, int c)
{
	struct pane *pn = &t->pane[PANE_SOURCE];

	t->focus = PANE_SOURCE;
	list_fill(t, pn);
	source_hot(t, pn, c == 'H' ? 0 : c == ']' ? 1 : -1);
}

/* o: the source pane's file in the user's editor, at its line (editor.c). */
static void
edit_source(struct tui *t, int c)
{
	const struct pane *pn = &t->pane[PANE_SOURCE];

	editor_open(t, source_path(pn), pn->sel + 1);
}

void
keys_search(struct tui *t, int dir, int from_sel)
{
	struct pane *pn = &t->pane[t->focus];
	long i = list_find(t, pn, t->needle, dir, from_sel);

	if (i < 0) {
		snprintf(t->message, sizeof t->message, "\"%.200s\": no match in this pane", t->needle);
		return;
	}
	list_to(pn, (size_t)i);
	keys_follow(t, pn);	/* as moving there with j or k would */
}

static void
search_next(struct tui *t, int c)
{
	keys_search(t, 1, 0);
}

static void
search_previous(struct tui *t, int c)
{
	keys_search(t, -1, 0);
}

static void
end_search(struct tui *t, int c)
{
	t->needle[0] = '\0';
}

/*
 * s: the next sort column of the flat profile (the measured inclusive
 * time's too, with stacks), or, in a comparison, of the comparison (its
 * own), whether or not the tree or the flame graph covers it.
 */
static void
sort_next(struct tui *t, int c)
{
	if (offer(t, &t->pane[tui_home(t)], c))
		return;
	t->view.sort_key = (t->view.sort_key + 1) % FLAT_NSORT;
	if (t->view.sort_key == FLAT_BY_MEASURED && !tui_measured(t))
		t->view.sort_key = FLAT_BY_TIME;	/* nothing measured shown to sort by (no stacks, m, x, f) */
	t->view.gen++;
}

static void
sort_reverse(struct tui *t, int c)
{
	t->view.sort_rev = !t->view.sort_rev;
	t->view.gen++;
}

/*
 * What x and f act on: the function of the focused pane's selected row
 * (a caller, a callee, a cycle's member), else the function shown.
 */
static uint32_t
acted_on(struct tui *t)
{
	struct pane *pn = &t->pane[t->focus];
	uint32_t fn = pn->nrows > 0 ? pn->ops->target(t, pn, pn->sel) : PF_NONE;

	return fn < t->s->p->nsyms ? fn : t->cur;
}

static void
exclude(struct tui *t, int c)
{
	change_narrow(t, acted_on(t), 0);
}

static void
focus_only(struct tui *t, int c)
{
	change_narrow(t, acted_on(t), 1);
}

static void
undo(struct tui *t, int c)
{
	change_undo(t);
}

/* m: times measured from the call stacks shown beside gprof's estimates, or hidden. */
static void
toggle_measured(struct tui *t, int c)
{
	if (t->s->measure == NULL) {
		snprintf(t->message, sizeof t->message, "%s", NO_STACKS);
		return;
	}
	if (t->s->nfunc > 0) {
		snprintf(t->message, sizeof t->message, "estimated while narrowed: the stacks know "
		    "nothing of x and f (u undoes)");
		return;
	}
	t->estimates = !t->estimates;
	t->view.gen++;	/* a sort by measured time becomes one by time, or again */
}

/* Names demangled or raw. */
static void
toggle_demangle(struct tui *t, int c)
{
	struct report_opts ro = t->s->ro;

	ro.demangle = !ro.demangle;
	change_names(t, &ro);
}

/* C++ template arguments in full or as <…>. */
static void
toggle_templates(struct tui *t, int c)
{
	struct report_opts ro = t->s->ro;

	ro.template_dots = ro.template_dots != NULL ? NULL : MB_CUR_MAX > 1 ? "\u2026" : "...";
	change_names(t, &ro);
}

/* <, >: the focused pane's rows scrolled left or right by a quarter of its width. */
static void
scroll_sideways(struct tui *t, int c)
{
	struct pane *pn = moving(t);
	int by = pn->box_w / 4 > 8 ? pn->box_w / 4 : 8;

	if (c == '<')
		pn->hscroll = pn->hscroll > by ? pn->hscroll - by : 0;
	else if (pn->hscroll < UI_HSCROLL_MAX)
		pn->hscroll += by;
}

/* z: the focused pane alone on the screen, or back to the layout. */
static void
zoom(struct tui *t, int c)
{
	t->zoom = !t->zoom;
}

/* Whether the call tree is in the flat profile's place, or under the flame graph there. */
static int
tree_placed(const struct tui *t)
{
	return t->slot == PANE_TREE || (t->slot == PANE_FLAME && t->under == PANE_TREE);
}

/* The call tree in the flat profile's place, focused. */
static void
place_tree(struct tui *t)
{
	t->slot = t->under = t->focus = PANE_TREE;
}

/* t: the call tree in the flat profile's place, focused; again, what it covers (the tree: whole). */
static void
toggle_tree(struct tui *t, int c)
{
	if (t->slot != PANE_TREE) {
		place_tree(t);
		return;
	}
	t->slot = t->under = tui_home(t);
	t->tree.view = TREE_WHOLE;
	if (t->focus == PANE_TREE)
		t->focus = t->slot;
}

/* F: the flame graph in the flat profile's place, focused; again, what it covers. */
static void
toggle_flame(struct tui *t, int c)
{
	if (t->s->measure == NULL) {
		snprintf(t->message, sizeof t->message, "%s", NO_STACKS);
		return;
	}
	if (t->slot != PANE_FLAME) {
		t->under = t->slot;
		t->slot = t->focus = PANE_FLAME;
		return;
	}
	t->slot = t->under;
	if (t->focus == PANE_FLAME)
		t->focus = t->slot;
}

/*
 * r, b: the call tree of the function shown, its callees (r) or callers
 * (b); on the tree's root again, the whole program.
 */
static void
tree_of(struct tui *t, int c)
{
	int view = c == 'r' ? TREE_ROOTED : TREE_INVERTED;

	if (tree_placed(t) && t->tree.view == view && t->cur == t->tree.root) {
		t->tree.view = TREE_WHOLE;
	} else if (t->cur == PF_NONE) {
		snprintf(t->message, sizeof t->message, "select a function first");
		return;
	} else {
		t->tree.view = view;
		t->tree.root = t->cur;
	}
	place_tree(t);
}

/* R: recursion in the trees of call stacks (the tree, the flame graph) collapsed through others, all, or none. */
static void
recursion(struct tui *t, int c)
{
	static const int next[] = { FLAME_RECURSION_INDIRECT, FLAME_RECURSION_ALL, FLAME_RECURSION_SHOWN };

	if (t->s->measure == NULL) {
		snprintf(t->message, sizeof t->message, "%s", NO_STACKS);
		return;
	}
	t->tree.recursion = next[t->tree.recursion];
	snprintf(t->message, sizeof t->message, "trees of call stacks: %s", treetext_recursion(t->tree.recursion));
}

/* O: with stacks, the time in libraries as rows of the flat profile of their own, out of their callers'. */
static void
library_rows(struct tui *t, int c)
{
	if (t->s->measure == NULL) {
		snprintf(t->message, sizeof t->message, "%s", NO_STACKS);
		return;
	}
	t->view.libraries = !t->view.libraries;
	t->view.gen++;
	if (t->view.libraries && t->s->nfunc > 0)
		snprintf(t->message, sizeof t->message, "library rows: the whole program's stacks, "
		    "shown once u undoes x and f");
}

/* %: the profiler's own time in the times and shares, or out of them (the default). */
static void
profiler_time(struct tui *t, int c)
{
	struct truth_opts o = t->s->truth;

	if (o.raw) {
		snprintf(t->message, sizeof t->message, "--raw: the times are as sampled, the profiler's counted");
		return;
	}
	o.with_profiler = !o.with_profiler;
	change_truth(t, &o);
}

/* I elsewhere than in the flame graph (icicle.c takes it there). */
static void
flame_only(struct tui *t, int c)
{
	snprintf(t->message, sizeof t->message, "%c: in the flame graph (F shows it)", c);
}

/* The call tree's + - * E C, elsewhere (the tree pane takes them itself). */
static void
fold(struct tui *t, int c)
{
	snprintf(t->message, sizeof t->message, "%c: in the call tree (t shows it)", c);
}

static void
show_info(struct tui *t, int c)
{
	t->info = 1;
}

/* p: the thread view over the panes, or not. */
static void
show_threads(struct tui *t, int c)
{
	if (t->s->measure == NULL)
		snprintf(t->message, sizeof t->message, "%s", NO_STACKS);
	else
		threadview_toggle(t);
}

static void
show_help(struct tui *t, int c)
{
	t->help = 1;
	list_fill(t, &t->help_pane);
}

static void
quit(struct tui *t, int c)
{
	t->quit = 1;
}

/* The terminal's size changed: everything is drawn anew. */
static void
resized(struct tui *t, int c)
{
	clearok(curscr, TRUE);
}

/* Click selects (and focuses the pane), double click opens, the wheel scrolls. */
static void
mouse(struct tui *t, int c)
{
	int y, x, b, i;

	term_mouse(&y, &x, &b);
	for (i = 0; i < NPANES; i++) {
		struct pane *pn = &t->pane[i];

		if (pn->box_h <= 0 || y < pn->box_y || y >= pn->box_y + pn->box_h ||
		    x < pn->box_x || x >= pn->box_x + pn->box_w)
			continue;	/* not drawn (tui.c's layout), or not there */
		if (b == 4 || b == 5) {
			t->focus = i;
			if (t->help || !offer(t, pn, b == 4 ? KEY_UP : KEY_DOWN))
				step(t, b == 4 ? -3 : 3, ROW);
		} else if (pn->ops->at != NULL && (b == 1 || b == 2)) {
			long row = pn->ops->at(t, pn, y, x);

			if (row < 0)
				return;
			t->focus = i;
			list_to(pn, (size_t)row);
			keys_follow(t, pn);
			if (b == 2 && !offer(t, pn, '\r'))
				open_selected(t, '\r');
		} else if ((b == 1 || b == 2) && y >= pn->rows_y &&
		    pn->top + (size_t)(y - pn->rows_y) < pn->nrows) {
			t->focus = i;
			list_to(pn, pn->top + (size_t)(y - pn->rows_y));
			keys_follow(t, pn);
			if (b == 2 && !offer(t, pn, '\r'))
				open_selected(t, '\r');
		}
		return;
	}
}

/*
 * The key table.  A binding is a row of the help: keys that go together,
 * each with its own action, the help's text, and the binding's hint on
 * the bottom line.  A key code is in one binding only.  A pane's own
 * keys (pane_ops.key: the flame graph's moves, the tree's folds, the
 * comparison's sort) are here too, for the help, the manual and the
 * hints; their action here is what they do elsewhere.
 */
enum {
	MOVES = 1,		/* moves the help too while it is up (else a key closes it) */
	OVER = 2,		/* runs over the help and the information overlay too */
	TYPING = 4		/* runs while a line is typed too (else the key is text) */
};

struct key {
	int code;		/* as term_key() gives it; 0 ends a binding's keys */
	/*
	 * As the help shows it; the manual names it so too (tests/ui.sh
	 * checks), and a script's "key NAME" (term.c), but for the mouse.
	 * NULL: not shown: another code of the key before (Enter sends \r,
	 * \n or KEY_ENTER), or a synonym (M-Left for Left).
	 */
	const char *name;
	void (*run)(struct tui *t, int c);
};

#define NKEYS 7			/* keys in a binding at most */

struct binding {
	struct key key[NKEYS];	/* up to a code 0, or NKEYS */
	const char *help;	/* the help's text ('\n' starts a line more); NULL: not in the help */
	unsigned flags;		/* MOVES, OVER, TYPING */
	const char *hint;	/* on the bottom line, in the panes that name its keys (pane_ops.hints) */
};

static const struct binding bindings[] = {
	{ .key = { { 'j', "j", down }, { 'k', "k", up }, { KEY_DOWN, "Down", down },
	      { KEY_UP, "Up", up } },
	  .help = "move", .flags = MOVES },
	{ .key = { { KEY_NPAGE, "PgDn", page_down }, { KEY_PPAGE, "PgUp", page_up },
	      { ' ', "Space", page_down } },
	  .help = "page down, up", .flags = MOVES },
	{ .key = { { 4, "C-d", half_down }, { 21, "C-u", half_up } },
	  .help = "half a page down, up", .flags = MOVES },
	{ .key = { { 'g', "g", first_row }, { 'G', "G", last_row }, { KEY_HOME, "Home", first_row },
	      { KEY_END, "End", last_row } },
	  .help = "first, last row", .flags = MOVES },
	{ .key = { { '\t', "Tab", next_pane }, { KEY_BTAB, "BTab", previous_pane } },
	  .help = "next, previous pane",
	  .hint = "Tab:pane" },
	{ .key = { { '\r', "Enter", open_selected }, { '\n', NULL, open_selected },
	      { KEY_ENTER, NULL, open_selected }, { 'l', "l", open_selected },
	      { KEY_RIGHT, "Right", open_selected } },
	  .help = "open the selected function's call graph\n(on a cycle member's own line: the cycle)",
	  .hint = "Enter:open" },
	{ .key = { { KEY_BACKSPACE, "Backspace", back }, { 127, NULL, back }, { 8, NULL, back },
	      { 'h', "h", back }, { KEY_LEFT, "Left", back }, { TERM_ALT_LEFT, NULL, back } },
	  .help = "back to the function before",
	  .hint = "Backspace:back" },
	{ .key = { { TERM_ALT_RIGHT, "M-Right", forward } },
	  .help = "forward again" },
	{ .key = { { 'a', "a", show_source } },
	  .help = "the source of the function" },
	{ .key = { { 'H', "H", hot_line }, { ']', "]", hot_line }, { '[', "[", hot_line } },
	  .help = "source: the hottest line, the next, previous hot line",
	  .hint = "H ]:hot" },
	{ .key = { { 'o', "o", edit_source } },
	  .help = "$EDITOR at the source line",
	  .hint = "o:edit" },
	{ .key = { { '/', "/", prompt_search }, { 'n', "n", search_next }, { 'N', "N", search_previous } },
	  .help = "search the pane, next, previous match",
	  .hint = "/:search" },
	{ .key = { { '\\', "\\", prompt_filter } },
	  .help = "flat profile: only names with ...",
	  .hint = "\\:names" },
	{ .key = { { 'L', "L", prompt_limit } },
	  .help = "flat profile: hide rows under ... %",
	  .hint = "L:limit" },
	{ .key = { { 's', "s", sort_next }, { 'S', "S", sort_reverse } },
	  .help = "flat profile: next sort column, reverse",
	  .hint = "s:sort" },
	{ .key = { { 'x', "x", exclude }, { 'f', "f", focus_only }, { 'u', "u", undo } },
	  .help = "without / only the selected function (-E, -F); undo",
	  .hint = "x/f:without/only" },
	{ .key = { { ':', ":", prompt_index } },
	  .help = "go to call-graph index [N]" },
	{ .key = { { 'p', "p", show_threads } },
	  .help = "threads: CPU time, samples, share; Space marks, Enter narrows\nevery pane to their stacks (calls stay all threads'); u undoes",
	  .hint = "p:threads" },
	{ .key = { { 'm', "m", toggle_measured } },
	  .help = "measured times (from call stacks) beside gprof's estimates, or not" },
	{ .key = { { 'd', "d", toggle_demangle } },
	  .help = "demangle C++ names or not" },
	{ .key = { { 'T', "T", toggle_templates } },
	  .help = "C++ template arguments in full or as <...>" },
	{ .key = { { '<', "<", scroll_sideways }, { '>', ">", scroll_sideways } },
	  .help = "scroll the pane left, right (long names)", .flags = MOVES },
	{ .key = { { 'z', "z", zoom } },
	  .help = "the pane alone on the screen, or not" },
	{ .key = { { 'P', "P", prompt_write } },
	  .help = "write the pane as text to a file" },
	{ .key = { { 'W', "W", prompt_save } },
	  .help = "export the profile shown: callgrind, dot... (tgprof --export)" },
	{ .key = { { 'i', "i", show_info } },
	  .help = "what the profile files hold" },
	{ .key = { { 27, "Esc", end_search } },
	  .help = "cancel the search" },
	{ .key = { { '?', "?", show_help }, { KEY_F(1), "F1", show_help } },
	  .help = "this help",
	  .hint = "?:help" },
	{ .key = { { 'q', "q", quit } },
	  .help = "close the help, or quit" },
	{ .key = { { 'Q', "Q", quit } },
	  .help = "quit", .flags = OVER },
	{ .key = { { KEY_MOUSE, "mouse", mouse } },
	  .help = "click selects, double click opens, wheel" },
	{ .key = { { 't', "t", toggle_tree } },
	  .help = "the call tree in the flat profile's place, or back",
	  .hint = "t:tree" },
	{ .key = { { '+', "+", fold }, { '-', "-", fold }, { '*', "*", fold } },
	  .help = "call tree: open/close; close (or up); open all below",
	  .hint = "+-*:fold" },
	{ .key = { { 'E', "E", fold }, { 'C', "C", fold } },
	  .help = "call tree: open, close every node" },
	{ .key = { { 'r', "r", tree_of }, { 'b', "b", tree_of } },
	  .help = "call tree of the function: its callees, its callers\n"
	      "(bottom-up); again on its root: the whole program",
	  .hint = "r/b:callees/callers" },
	{ .key = { { 'F', "F", toggle_flame } },
	  .help = "the flame graph of the call stacks in the flat profile's place, or\n"
	      "back; in it Enter zooms into a frame, Backspace out, h l siblings,\n"
	      "j k a child, the parent",
	  .hint = "F:flame" },
	{ .key = { { 'R', "R", recursion } },
	  .help = "call stacks' trees and flame graph: recursion collapsed through\n"
	      "other functions (the default), all of it, or none" },
	{ .key = { { 'O', "O", library_rows } },
	  .help = "flat profile, with call stacks: the time in libraries as rows of\n"
	      "its own (memcpy@libc.so.6), out of the functions that called them" },
	{ .key = { { 'w', "w", change_clock } },
	  .help = "the measured times (the measured column, trees, flame graph, and the\n"
	      "flat profile's self times): CPU time, wall-clock time (CPU and waits\n"
	      "off CPU), or waits alone, in turn; the waits libtgmon recorded" },
	{ .key = { { '%', "%", profiler_time } },
	  .help = "the profiler's own functions in the times and shares, or out of\n"
	      "them (the default: shown, counted in no total nor inclusive time)" },
	{ .key = { { 'I', "I", flame_only } },
	  .help = "flame graph: bottom-up (each frame's callers under it), or top-down" },
	{ .key = { { 'c', "c", watch_interval } },
	  .help = "tgprof top: the last interval between two snapshots (the default: calls\n"
	      "a second beside each function), or the whole run so far" },
	{ .key = { { 'Z', "Z", watch_pause } },
	  .help = "tgprof top: pause the refresh at each snapshot, or go on" },
	/* Not in the help: */
	{ .key = { { TERM_END, NULL, quit } }, .flags = OVER | TYPING },
	{ .key = { { KEY_RESIZE, NULL, resized } } },
};

#define NBINDINGS (sizeof bindings / sizeof *bindings)

/* The binding of key code C and, in *K, the key; NULL if none. */
static const struct binding *
find(int c, const struct key **k)
{
	size_t i, j;

	for (i = 0; i < NBINDINGS; i++)
		for (j = 0; j < NKEYS && bindings[i].key[j].code != 0; j++)
			if (bindings[i].key[j].code == c) {
				*k = &bindings[i].key[j];
				return &bindings[i];
			}
	return NULL;
}

/*
 * Runs key C as the table says, but: while a line is typed, C is text
 * (unless TYPING); over the information overlay, C closes it and runs
 * only if OVER; over the help, C closes it unless MOVES or OVER.
 */
void
keys_run(struct tui *t, int c)
{
	const struct key *k = NULL;
	const struct binding *b = find(c, &k);
	unsigned flags = b != NULL ? b->flags : 0;

	t->message[0] = '\0';
	if (t->prompt.key != 0 && !(flags & TYPING)) {
		prompt_key(t, c);
		return;
	}
	if (t->info) {
		t->info = 0;
		if (!(flags & OVER))
			return;
	}
	if (t->help && !(flags & (MOVES | OVER))) {
		t->help = 0;
		return;
	}
	if (!t->help && t->threads) {	/* the thread view's keys, then moving ones, u, ? and p */
		if (offer(t, &t->threads_pane, c))
			return;
		if (!(flags & (MOVES | OVER)) && k != NULL && k->run != undo && k->run != show_help &&
		    k->run != show_threads) {
			t->threads = 0;
			return;
		}
		if (k != NULL)
			k->run(t, c);
		return;
	}
	if (!t->help && offer(t, &t->pane[t->focus], c))
		return;
	if (k != NULL)
		k->run(t, c);
}

/* The binding with a key named NAME, or NULL. */
static const struct binding *
named(const char *name)
{
	size_t i, j;

	for (i = 0; i < NBINDINGS; i++)
		for (j = 0; j < NKEYS && bindings[i].key[j].code != 0; j++)
			if (bindings[i].key[j].name != NULL && strcmp(bindings[i].key[j].name, name) == 0)
				return &bindings[i];
	return NULL;
}

/* Pane PN's hints, blank-separated: its own, then those of the keys it names. */
void
keys_hints(const struct pane *pn, struct sbuf *sb)
{
	const struct binding *b;
	size_t i, n = 0;

	if (pn->ops->own_hint != NULL)
		sbuf_puts(sb, pn->ops->own_hint), n++;
	for (i = 0; i < sizeof pn->ops->hints / sizeof *pn->ops->hints && pn->ops->hints[i] != NULL; i++)
		if ((b = named(pn->ops->hints[i])) != NULL && b->hint != NULL)
			sbuf_printf(sb, "%s%s", n++ > 0 ? " " : "", b->hint);
}

/* The lines of help text S. */
static size_t
nlines(const char *s)
{
	size_t n = 1;

	while ((s = strchr(s, '\n')) != NULL)
		s++, n++;
	return n;
}

/* B's key names, blank-separated, into BUF. */
static void
key_names(const struct binding *b, char *buf, size_t size)
{
	size_t k, n = 0;

	buf[0] = '\0';
	for (k = 0; k < NKEYS && b->key[k].code != 0; k++)
		if (b->key[k].name != NULL && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n > 0 ? " " : "", b->key[k].name);
}

/*
 * The help has a row for each binding with help text and one for each
 * line more of it.  Row I: its text (up to a '\n' or the end), with the
 * key names in NAMES on a binding's first line ("" on the others); NULL
 * past the last row.
 */
const char *
keys_help_row(size_t i, char *names, size_t size)
{
	size_t k, n, line;
	const char *s;

	names[0] = '\0';
	for (k = 0; k < NBINDINGS; k++) {
		if ((s = bindings[k].help) == NULL)
			continue;
		if (i < (n = nlines(s)))
			break;
		i -= n;
	}
	if (k == NBINDINGS)
		return NULL;
	if (i == 0)
		key_names(&bindings[k], names, size);
	for (line = 0; line < i; line++)
		s = strchr(s, '\n') + 1;
	return s;
}
