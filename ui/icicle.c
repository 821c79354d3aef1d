/* icicle: the flame graph pane, the call stacks' frames as an icicle: roots at the top, widths by samples. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/flame.h"
#include "model/treetext.h"
#include "term.h"
#include "ui.h"

/*
 * The tree (core/flame.h) is made once from the stacks.  What is drawn is
 * a layout of it for the pane's width: the zoomed node across the whole
 * width on the first level, and under each box its children side by side,
 * each as wide as its share of the samples, most first; a frame narrower
 * than a column is left out, and so is all under it.  The boxes, level by
 * level and left to right, are the pane's rows: the selection, the search
 * (list.c) and P go through them; the keys move in two dimensions
 * (flame_key()).
 */

#define FLAME_ZOOMS 64		/* zooms Backspace goes back through */

/* The flame graph's moves (go()): to the parent frame, the widest child, a sibling; zooms. */
enum { FLAME_UP, FLAME_DOWN, FLAME_LEFT, FLAME_RIGHT, FLAME_IN, FLAME_OUT };
#define FLAME_HOT 0.20		/* a frame with this share of the zoomed one is hot */
#define FLAME_WARM 0.05

struct box {
	uint32_t node;
	uint32_t level;		/* depth below the zoomed node */
	uint32_t up;		/* the box it is under (the first: itself) */
	double x0, x1;		/* columns from the pane's left, not rounded */
};

struct flame {
	struct pf_flame *tree;	/* NULL without call stacks */
	uint32_t zoom;		/* the node across the whole width */
	uint32_t zooms[FLAME_ZOOMS];
	size_t nzooms;
	int width;		/* of the layout */
	uint32_t top;		/* the first level shown */
	struct box *box;
	size_t nbox, cap;
	struct sbuf name;	/* flame_match()'s */
	unsigned loaded;	/* the session's loaded profile whose measure it is made of */
	int up, recursion;	/* the view it is of (tree_view's flame_up, recursion) */
	struct {		/* the search's matches among all the frames under the zoom (found()) */
		char *needle;
		uint32_t zoom;
		unsigned names;
		int width;
		size_t n, drawn;
		double share;
	} found;
};

static void
flame_release(struct pane *pn)
{
	struct flame *fl = pn->data;

	if (fl != NULL) {
		flame_free(fl->tree);
		free(fl->box);
		free(fl->found.needle);
		sbuf_release(&fl->name);
	}
	free(fl);
	pn->data = NULL;
}

/* Appends a box under box UP; 0, or -1 when out of memory. */
static int
add_box(struct flame *fl, uint32_t node, uint32_t up, uint32_t level, double x0, double x1)
{
	if (fl->nbox == fl->cap) {
		size_t cap = fl->cap > 0 ? 2 * fl->cap : 256;
		struct box *b = realloc(fl->box, cap * sizeof *b);

		if (b == NULL)
			return -1;
		fl->box = b;
		fl->cap = cap;
	}
	fl->box[fl->nbox++] = (struct box){ node, level, up, x0, x1 };
	return 0;
}

/* The boxes for WIDTH columns, level by level; 0, or -1 when out of memory. */
static int
layout(struct flame *fl, int width)
{
	const struct pf_flame_node *n = fl->tree->node;
	size_t i;

	fl->nbox = 0;
	fl->width = width;
	if (add_box(fl, fl->zoom, 0, 0, 0, width) != 0)
		return -1;
	for (i = 0; i < fl->nbox; i++) {	/* the boxes appended are the next level's */
		struct box b = fl->box[i];
		double scale = n[b.node].total > 0 ? (b.x1 - b.x0) / n[b.node].total : 0, x = b.x0;
		uint32_t c;

		for (c = n[b.node].child; c != PF_NONE; c = n[c].next) {
			double w = n[c].total * scale;

			if (w < 1)	/* the children come widest first */
				break;
			if (fl->nbox >= UINT32_MAX || add_box(fl, c, (uint32_t)i, b.level + 1, x, x + w) != 0)
				return -1;
			x += w;
		}
	}
	return 0;
}

/* The row of NODE's box, or 0 (the zoomed node) if it has none. */
static size_t
row_of(const struct flame *fl, uint32_t node)
{
	size_t i;

	for (i = 0; i < fl->nbox; i++)
		if (fl->box[i].node == node)
			return i;
	return 0;
}

/* A new layout (zoom or width changed), the selection kept on its node if it is still drawn. */
static int
relayout(struct pane *pn, struct flame *fl, int width)
{
	uint32_t keep = pn->sel < fl->nbox ? fl->box[pn->sel].node : fl->zoom;

	if (layout(fl, width) != 0) {
		fl->nbox = 0;
		pn->nrows = pn->sel = 0;
		return -1;
	}
	pn->nrows = fl->nbox;
	pn->sel = row_of(fl, keep);
	return 0;
}

/* While the flame graph is in the flat profile's place: the tree, made once a measure, and a layout. */
static int
flame_fill(struct tui *t, struct pane *pn)
{
	struct flame *fl = pn->data;
	struct diag d;

	if (fl != NULL && (fl->loaded != t->s->loaded || fl->up != t->tree.flame_up ||
	    fl->recursion != t->tree.recursion)) {
		flame_release(pn);	/* of another profile's stacks, or another view of them */
		fl = NULL;
		pn->nrows = pn->sel = pn->top = 0;
	}
	if (t->slot != PANE_FLAME || fl != NULL)
		return 0;
	if ((fl = calloc(1, sizeof *fl)) == NULL)
		return -1;
	pn->data = fl;
	fl->loaded = t->s->loaded;
	fl->up = t->tree.flame_up;
	fl->recursion = t->tree.recursion;
	sbuf_init(&fl->name);
	pn->nrows = 1;	/* a note, without stacks */
	pn->sel = pn->top = 0;
	pn->gen++;
	if (t->s->measure == NULL)
		return 0;
	diag_init(&d);
	if (flame_build_view(t->s->measure, &(struct flame_view){ PF_NONE, fl->up, fl->recursion },
	    &fl->tree, &d) != 0) {
		diag_release(&d);
		return -1;
	}
	diag_release(&d);
	return relayout(pn, fl, pn->box_w > 0 ? pn->box_w : 80);
}

/* NODE's frame as --folded names it: a function as the flat profile does. */
static void
frame_name(struct tui *t, const struct flame *fl, uint32_t node, struct sbuf *sb)
{
	const struct pf_measure *m = t->s->measure;
	uint32_t f = fl->tree->node[node].frame;

	if (node == 0)
		sbuf_puts(sb, "all");
	else if (f == FLAME_INCOMPLETE)
		sbuf_puts(sb, "[incomplete]");
	else if (f == FLAME_TRUNCATED)
		sbuf_puts(sb, "[truncated]");
	else if (f < t->s->p->nsyms)
		report_name_only(t->s->r, sb, f);
	else if (f >= PF_FRAME_OTHER && f - PF_FRAME_OTHER < m->nother)
		sbuf_puts(sb, m->other[f - PF_FRAME_OTHER]);
	else
		sbuf_puts(sb, "[unknown]");
}

/*
 * NODE's samples: "N samples, P% of all[, Q% of ZOOM]"; under another
 * clock than the CPU's (w), its time in seconds, and how much of it is
 * waiting.
 */
static void
samples(struct tui *t, const struct flame *fl, uint32_t node, struct sbuf *sb)
{
	const struct pf_flame_node *n = fl->tree->node;
	const struct pf_measure *m = t->s->measure;
	double all = n[0].total > 0 ? n[0].total : 1, z = n[fl->zoom].total > 0 ? n[fl->zoom].total : 1;

	if (m != NULL && m->truth.clock != TRUTH_CPU && m->hz > 0)
		sbuf_printf(sb, "%.3f s, %.1f%% of all", n[node].total / (double)m->hz, 100 * n[node].total / all);
	else
		sbuf_printf(sb, "%.0f samples, %.1f%% of all", n[node].total, 100 * n[node].total / all);
	if (fl->zoom != 0) {
		sbuf_printf(sb, ", %.1f%% of ", 100 * n[node].total / z);
		frame_name(t, fl, fl->zoom, sb);
	}
	if (n[node].wait > 0)
		sbuf_printf(sb, "; %.1f%% of it waiting off CPU", 100 * n[node].wait / n[node].total);
}

/*
 * The search's matches among all the frames under the zoomed node, drawn
 * or too narrow to be, and their share of its samples, each counted once
 * (a match under another adds nothing: its samples are in it); of them,
 * those drawn.  Counted again when the search, the zoom, the width or
 * the names change.
 */
static void
found(struct tui *t, struct pane *pn, struct flame *fl)
{
	const struct pf_flame_node *n = fl->tree->node;
	uint32_t *stack, c, x;
	size_t depth = 0, i;
	double sum = 0;

	if (fl->found.needle != NULL && strcmp(fl->found.needle, t->needle) == 0 && fl->found.zoom == fl->zoom &&
	    fl->found.names == t->s->names && fl->found.width == fl->width)
		return;
	free(fl->found.needle);
	fl->found.needle = strdup(t->needle);
	fl->found.zoom = fl->zoom;
	fl->found.names = t->s->names;
	fl->found.width = fl->width;
	fl->found.n = fl->found.drawn = 0;
	fl->found.share = 0;
	if (fl->found.needle == NULL || (stack = malloc((fl->tree->n + 1) * sizeof *stack)) == NULL)
		return;
	stack[depth++] = fl->zoom << 1;	/* a node, and whether a match is above it */
	while (depth > 0) {
		x = stack[--depth];
		sbuf_reset(&fl->name);
		frame_name(t, fl, x >> 1, &fl->name);
		if ((x >> 1) != 0 && list_matches(sbuf_str(&fl->name), t->needle)) {
			fl->found.n++;
			sum += (x & 1) ? 0 : n[x >> 1].total;
			x |= 1;
		}
		for (c = n[x >> 1].child; c != PF_NONE; c = n[c].next)
			stack[depth++] = c << 1 | (x & 1);
	}
	free(stack);
	for (i = 0; i < fl->nbox; i++)
		fl->found.drawn += pn->ops->match(t, pn, i, t->needle) == 1;
	fl->found.share = n[fl->zoom].total > 0 ? sum / n[fl->zoom].total : 0;
}

static void
flame_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	struct flame *fl = pn->data;

	sbuf_puts(sb, "Flame graph: ");
	if (fl == NULL || fl->tree == NULL) {
		sbuf_puts(sb, "no call stacks\n");
		return;
	}
	sbuf_printf(sb, "%.0f samples%s", fl->tree->node[0].total, fl->up ? ", bottom-up (I)" : "");
	if (fl->recursion != FLAME_RECURSION_INDIRECT)
		sbuf_printf(sb, ", %s (R)", treetext_recursion(fl->recursion));
	if (fl->zoom != 0) {
		sbuf_puts(sb, ", zoomed into ");
		frame_name(t, fl, fl->zoom, sb);
		sbuf_puts(sb, " (Backspace: out)");
	} else {
		sbuf_puts(sb, " (Enter: zoom into a frame)");
	}
	if (pn->sel < fl->nbox) {
		sbuf_puts(sb, "\n");
		frame_name(t, fl, fl->box[pn->sel].node, sb);
		sbuf_puts(sb, ": ");
		samples(t, fl, fl->box[pn->sel].node, sb);
	}
	if (t->needle[0] != '\0') {
		found(t, pn, fl);
		sbuf_printf(sb, " | /%s: %zu frame%s, %.1f%%", t->needle, fl->found.n,
		    fl->found.n == 1 ? "" : "s", 100 * fl->found.share);
		if (fl->found.drawn < fl->found.n)
			sbuf_printf(sb, ", %zu too narrow to draw", fl->found.n - fl->found.drawn);
	}
	sbuf_putc(sb, '\n');
}

/* Row I as text (P writes them): indented by level, the name and the samples. */
static void
flame_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	struct flame *fl = pn->data;

	if (fl == NULL || fl->tree == NULL) {
		sbuf_puts(sb, "no call stacks: a program linked with libtgmon records them beside "
		    "gmon.out (libtgmon(3)); --stacks=FILE names them");
		*attr = UI_NOTE;
		return;
	}
	sbuf_printf(sb, "%*s", 2 * (int)fl->box[i].level, "");
	frame_name(t, fl, fl->box[i].node, sb);
	sbuf_puts(sb, "  ");
	samples(t, fl, fl->box[i].node, sb);
}

static int
flame_match(struct tui *t, struct pane *pn, size_t i, const char *needle)
{
	struct flame *fl = pn->data;

	if (fl == NULL || fl->tree == NULL || i >= fl->nbox)
		return 0;
	sbuf_reset(&fl->name);
	frame_name(t, fl, fl->box[i].node, &fl->name);
	return fl->name.failed ? -1 : list_matches(sbuf_str(&fl->name), needle);
}

/* The function of row I's frame, or PF_NONE (the root, a library's frame, a pseudo-frame). */
static uint32_t
flame_target(struct tui *t, struct pane *pn, size_t i)
{
	struct flame *fl = pn->data;
	uint32_t f;

	if (fl == NULL || fl->tree == NULL || i >= fl->nbox || fl->box[i].node == 0 ||
	    fl->loaded != t->s->loaded)
		return PF_NONE;
	f = fl->tree->node[fl->box[i].node].frame;
	return f < t->s->p->nsyms ? f : PF_NONE;
}

/* Box B's columns [*C0, *C1) in a pane W wide. */
static void
columns(const struct box *b, int w, int *c0, int *c1)
{
	*c0 = (int)floor(b->x0 + 0.5);
	*c1 = (int)floor(b->x1 + 0.5);
	*c0 = *c0 < 0 ? 0 : *c0 > w ? w : *c0;
	*c1 = *c1 < *c0 ? *c0 : *c1 > w ? w : *c1;
}

/* Box I on screen line Y (the pane's left at X, W wide): its name, a blank at its end, heat by share. */
static void
draw_box(struct tui *t, struct pane *pn, size_t i, int y, int x, int w, int focused)
{
	struct flame *fl = pn->data;
	const struct pf_flame_node *n = fl->tree->node;
	double share = n[fl->zoom].total > 0 ? n[fl->box[i].node].total / n[fl->zoom].total : 0;
	int c0, c1, attr;

	columns(&fl->box[i], w, &c0, &c1);
	if (c1 <= c0)
		return;
	attr = draw_attr(t, 2 * n[fl->box[i].node].wait > n[fl->box[i].node].total ? UI_WAIT :
	    share >= FLAME_HOT ? UI_HOT : share >= FLAME_WARM ? UI_WARM : 0, focused && i == pn->sel);
	if (!focused && i == pn->sel)
		attr |= A_BOLD;
	if (t->needle[0] != '\0' && flame_match(t, pn, i, t->needle) == 1)
		attr |= A_UNDERLINE | A_BOLD;
	sbuf_reset(&t->sb);
	frame_name(t, fl, fl->box[i].node, &t->sb);
	draw_text(y, x + c0, c1 - c0 > 1 ? c1 - c0 - 1 : 1, sbuf_str(&t->sb), attr);
}

/* The header's lines (the first bold, the others underlined) from line Y; the line after them. */
static int
draw_header(struct tui *t, struct pane *pn, int y, int x, int h, int w, int focused)
{
	char *line, *next;
	int row = y;

	sbuf_reset(&t->sb);
	sbuf_puts(&t->sb, focused ? "> " : "  ");
	flame_header(t, pn, &t->sb);
	if (t->sb.failed)
		return y;
	for (line = t->sb.s; *line != '\0' && row < y + h; line = next + 1, row++) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next = '\0';
		draw_text(row, x, w, line, row == y ? A_BOLD : A_UNDERLINE);
		if (next == NULL) {
			row++;
			break;
		}
	}
	return row;
}

/* The icicle: the header, then a level a line, from the first level shown, the selection's in sight. */
static void
flame_draw(struct tui *t, struct pane *pn, int y, int x, int h, int w, int focused)
{
	struct flame *fl = pn->data;
	int row, shown, k;
	size_t i;

	if (fl != NULL && fl->tree != NULL && w != fl->width && relayout(pn, fl, w) != 0)
		snprintf(t->message, sizeof t->message, "out of memory");
	row = draw_header(t, pn, y, x, h, w, focused);
	pn->box_y = y, pn->box_x = x, pn->box_h = h, pn->box_w = w, pn->rows_y = row;
	pn->height = shown = y + h - row;
	for (k = 0; k < shown; k++)
		draw_text(row + k, x, w, "", A_NORMAL);
	if (fl == NULL || fl->tree == NULL || fl->nbox == 0) {
		int attr = 0;

		sbuf_reset(&t->sb);
		flame_row(t, pn, 0, &t->sb, &attr);
		if (shown > 0)
			draw_text(row, x, w, sbuf_str(&t->sb), draw_attr(t, attr, 0));
		return;
	}
	if (fl->box[pn->sel].level < fl->top)
		fl->top = fl->box[pn->sel].level;
	else if (shown > 0 && fl->box[pn->sel].level >= fl->top + (uint32_t)shown)
		fl->top = fl->box[pn->sel].level - (uint32_t)shown + 1;
	for (i = 0; i < fl->nbox; i++)
		if (fl->box[i].level >= fl->top && fl->box[i].level < fl->top + (uint32_t)shown)
			draw_box(t, pn, i, row + (int)(fl->box[i].level - fl->top), x, w, focused);
}

/* The row of the box at screen (Y, X), or -1 (the mouse). */
static long
flame_at(struct tui *t, struct pane *pn, int y, int x)
{
	struct flame *fl = pn->data;
	uint32_t level;
	int c0, c1;
	size_t i;

	if (fl == NULL || fl->tree == NULL || y < pn->rows_y)
		return -1;
	level = fl->top + (uint32_t)(y - pn->rows_y);
	for (i = 0; i < fl->nbox; i++) {
		columns(&fl->box[i], pn->box_w, &c0, &c1);
		if (fl->box[i].level == level && x - pn->box_x >= c0 && x - pn->box_x < c1)
			return (long)i;
	}
	return -1;
}

/* Zooms into the selected frame (IN), or back out to the zoom before. */
static void
zoom(struct tui *t, struct pane *pn, struct flame *fl, int in)
{
	if (in) {
		if (fl->box[pn->sel].node == fl->zoom)
			return;
		if (fl->nzooms == FLAME_ZOOMS)
			memmove(fl->zooms, fl->zooms + 1, (FLAME_ZOOMS - 1) * sizeof *fl->zooms);
		fl->zooms[fl->nzooms < FLAME_ZOOMS ? fl->nzooms++ : FLAME_ZOOMS - 1] = fl->zoom;
		fl->zoom = fl->box[pn->sel].node;
		pn->sel = 0;
	} else if (fl->nzooms == 0) {
		snprintf(t->message, sizeof t->message, "not zoomed: Enter zooms into the selected frame");
		return;
	} else {
		fl->zoom = fl->zooms[--fl->nzooms];
	}
	fl->top = 0;
	pn->gen++;
	if (relayout(pn, fl, fl->width) != 0)
		snprintf(t->message, sizeof t->message, "out of memory");
}

/* MOVE (FLAME_*) from the selected frame: to its parent, its widest child, a sibling; a zoom. */
static void
go(struct tui *t, struct pane *pn, int move)
{
	struct flame *fl = pn->data;
	size_t i = pn->sel, k;

	if (fl == NULL || fl->tree == NULL || i >= fl->nbox)
		return;
	if (move == FLAME_IN || move == FLAME_OUT) {
		zoom(t, pn, fl, move == FLAME_IN);
		return;
	}
	if (move == FLAME_UP && i > 0)
		pn->sel = fl->box[i].up;
	else if (move == FLAME_LEFT && i > 0 && fl->box[i - 1].level == fl->box[i].level)
		pn->sel = i - 1;
	else if (move == FLAME_RIGHT && i + 1 < fl->nbox && fl->box[i + 1].level == fl->box[i].level)
		pn->sel = i + 1;
	else if (move == FLAME_DOWN)
		for (k = i + 1; k < fl->nbox; k++)	/* its first child, the widest */
			if (fl->box[k].up == i) {
				pn->sel = k;
				break;
			}
}

/*
 * The flame graph's own keys, in two dimensions: Enter zooms into the
 * frame, Backspace out; h l (Left Right) to a sibling; j k (Down Up) to
 * the widest child, the parent; I turns it upside down (bottom-up).
 */
static int
flame_key(struct tui *t, struct pane *pn, int c)
{
	int m;

	switch (c) {
	case '\r': case '\n': case KEY_ENTER: m = FLAME_IN; break;
	case KEY_BACKSPACE: case 127: case 8: case TERM_ALT_LEFT: m = FLAME_OUT; break;
	case 'h': case KEY_LEFT: m = FLAME_LEFT; break;
	case 'l': case KEY_RIGHT: m = FLAME_RIGHT; break;
	case 'j': case KEY_DOWN: m = FLAME_DOWN; break;
	case 'k': case KEY_UP: m = FLAME_UP; break;
	case 'I':
		t->tree.flame_up = !t->tree.flame_up;	/* flame_fill() makes the other view */
		return 1;
	default: return 0;
	}
	go(t, pn, m);
	keys_follow(t, pn);
	return 1;
}

/*
 * The bottom line on row I: its frame's time in the stacks through it,
 * not the function's own samples (main has none, and its frame holds all).
 */
static int
flame_status(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb)
{
	const struct flame *fl = pn->data;
	double n, hz = t->s->measure != NULL ? (double)t->s->measure->hz : 0;
	uint32_t node;

	if (fl == NULL || fl->tree == NULL || i >= fl->nbox || hz <= 0)
		return 0;
	node = fl->box[i].node;
	n = fl->tree->node[node].total;
	frame_name(t, fl, node, sb);
	/* (The samples' sampling error: a wait's length is measured, not sampled.) */
	sbuf_printf(sb, ": %.2f s %s %.2f s in its stacks (", n / hz, MB_CUR_MAX > 1 ? "\u00b1" : "+-",
	    sqrt(tui_per_signal(t) * (n - fl->tree->node[node].wait)) / hz);
	samples(t, fl, node, sb);
	sbuf_puts(sb, ")   ");
	return 1;
}

static const struct pane_ops flame_ops = {
	.name = "flame",
	.fill = flame_fill,
	.header = flame_header,
	.row = flame_row,
	.match = flame_match,
	.target = flame_target,
	.status = flame_status,
	.release = flame_release,
	.draw = flame_draw,
	.at = flame_at,
	.key = flame_key,
	.own_hint = "Enter Backspace:zoom",
	.hints = { "/", "F", "?" },
};

void
icicle_init(struct pane *pn)
{
	pn->ops = &flame_ops;
}
