/* tree: the call tree pane (calltree.h's rows): the program top-down, or callers bottom-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"
#include "ui.h"

#define TREE_INDENT 16		/* levels indented; deeper rows show their depth instead */

/* The pane's data: the tree, and the view its rows were made for. */
struct tree {
	struct calltree *ct;	/* NULL without a call graph */
	int made;		/* rows were made: for VIEW and ROOT */
	int view;		/* TREE_* */
	uint32_t root;		/* PF_NONE for the whole program */
	int measured;		/* the times are measured from call stacks (tui_measured()) */
};

void
tree_fold(struct tui *t, struct pane *pn, int how)
{
	struct tree *tr = pn->data;
	size_t i = pn->sel;
	int rc = 0, is_open;

	if (tr == NULL || tr->ct == NULL || i >= calltree_nrows(tr->ct))
		return;
	is_open = (calltree_row(tr->ct, i)->flags & CALLTREE_OPEN) != 0;
	if ((how == TREE_TOGGLE || how == TREE_CLOSE) && is_open)
		calltree_close(tr->ct, i);
	else if (how == TREE_TOGGLE)
		rc = calltree_open(tr->ct, i, 1);
	else if (how == TREE_SUBTREE)
		rc = calltree_open(tr->ct, i, SIZE_MAX);
	else if (how == TREE_CLOSE)
		pn->sel = calltree_parent(tr->ct, i);
	else if (how == TREE_OPEN_ALL)
		rc = calltree_open_all(tr->ct, &pn->sel);
	else if (how == TREE_CLOSE_ALL)
		calltree_close_all(tr->ct, &pn->sel);
	if (rc > 0)
		snprintf(t->message, sizeof t->message, "the call tree stops at %d rows: "
		    "- or C closes nodes", CALLTREE_MAX);
	else if (rc < 0)
		snprintf(t->message, sizeof t->message, "out of memory");
	pn->nrows = calltree_nrows(tr->ct);
	t->tree_gen++;
}

static void
tree_release(struct pane *pn)
{
	struct tree *tr = pn->data;

	if (tr != NULL)
		calltree_free(tr->ct);
	free(tr);
	pn->data = NULL;
}

/*
 * While the tree is shown (t->tree): the rows of the tui's view, made
 * again when the view or its root changes, with the first root open and
 * the function shown selected if it has a row; else kept as they are.
 * Without a call graph, one note.
 */
static int
tree_fill(struct tui *t, struct pane *pn)
{
	const struct profile *p = t->p;
	struct tree *tr = pn->data;
	uint32_t root;
	size_t i;

	if (t->tree_root >= p->nsyms + p->ncycles)
		t->tree_view = TREE_WHOLE;	/* no such function: the whole program */
	root = t->tree_view == TREE_WHOLE ? PF_NONE : t->tree_root;
	if (t->tree && tr != NULL && tr->measured != tui_measured(t)) {
		tree_release(pn);	/* m: the times change, the tree is made again */
		tr = NULL;
	}
	if (!t->tree || (tr != NULL && tr->made && tr->view == t->tree_view && tr->root == root))
		return 0;
	pn->nrows = pn->sel = pn->top = 0;
	t->tree_gen++;
	if (tr == NULL) {
		if ((tr = calloc(1, sizeof *tr)) == NULL)
			return -1;
		pn->data = tr;
		tr->measured = tui_measured(t);
		if (p->caller_start != NULL &&
		    (tr->ct = calltree_new(p, tr->measured ? t->o->measure : NULL)) == NULL) {
			tree_release(pn);
			return -1;
		}
	}
	tr->view = t->tree_view;
	tr->root = root;
	tr->made = 1;
	if (tr->ct == NULL) {
		pn->nrows = 1;	/* a note: no arcs, no tree */
		return 0;
	}
	if (calltree_make(tr->ct, t->r, root, tr->view == TREE_INVERTED) != 0) {
		tr->made = 0;
		return -1;
	}
	pn->nrows = calltree_nrows(tr->ct);
	for (i = 0; i < pn->nrows; i++)	/* the function shown, if it has a row */
		if (calltree_row(tr->ct, i)->id == t->cur) {
			pn->sel = i;
			break;
		}
	return 0;
}

/* A function's name as gprof prints it, or a cycle's as its call graph's cycle line does. */
static void
name(struct tui *t, struct sbuf *sb, uint32_t id)
{
	const struct pf_sym *s = &t->p->sym[id];

	if (id < t->p->nsyms)
		report_name(t->r, sb, id);
	else
		sbuf_printf(sb, "<cycle %d as a whole> %c%d%c", s->cycle, s->print_flag ? '[' : '(',
		    s->index, s->print_flag ? ']' : ')');
}

static void
tree_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	const struct tree *tr = pn->data;

	sbuf_puts(sb, "Call tree: ");
	if (tr == NULL || tr->root == PF_NONE) {
		sbuf_puts(sb, "the whole program");
	} else {
		name(t, sb, tr->root);
		sbuf_puts(sb, tr->view == TREE_INVERTED ? " and its callers (bottom-up)" :
		    " and what it calls");
	}
	sbuf_puts(sb, tr != NULL && tr->measured ? "; measured from call stacks, ~: a share, estimated\n" :
	    "; ~: estimated, split by calls\n");
	sbuf_printf(sb, "%7s%11s%11s  %s", "%time", "inclusive", "calls", "name");
}

/* V (seconds or percent) in W columns, PREC decimals, "~" before it if estimated; recursive: blank. */
static void
number(struct sbuf *sb, int w, int prec, double v, unsigned flags)
{
	size_t at = sb->len, i;

	if (flags & CALLTREE_RECURSIVE) {
		sbuf_field(sb, "", w, 0);
		return;
	}
	if (flags & CALLTREE_ESTIMATED)
		sbuf_putc(sb, '~');
	sbuf_fixed(sb, v, flags & CALLTREE_ESTIMATED ? 0 : w, prec);
	if (sb->failed || !(flags & CALLTREE_ESTIMATED) || sb->len - at >= (size_t)w)
		return;
	i = w - (sb->len - at);	/* right-aligned, "~" and all */
	sbuf_field(sb, "", (int)i, 0);
	if (sb->failed)
		return;
	memmove(sb->s + at + i, sb->s + at, sb->len - at - i);
	memset(sb->s + at, ' ', i);
}

/* Two columns a level, TREE_INDENT levels at most; deeper, the depth in their place: "(17) ". */
static void
indent(struct sbuf *sb, uint32_t depth)
{
	char s[32];

	if (depth <= TREE_INDENT) {
		sbuf_field(sb, "", 2 * (int)depth, 0);
		return;
	}
	snprintf(s, sizeof s, "(%lu) ", (unsigned long)depth);
	sbuf_field(sb, s, 2 * TREE_INDENT, 0);
}

/* The node's mark: open, closed, recursive or a leaf (in a UTF-8 locale, triangles). */
static const char *
mark(unsigned flags)
{
	int utf8 = MB_CUR_MAX > 1;

	if (flags & CALLTREE_RECURSIVE)
		return utf8 ? "\u21ba " : "@ ";
	if (flags & CALLTREE_OPEN)
		return utf8 ? "\u25bc " : "- ";
	if (flags & CALLTREE_KIDS)
		return utf8 ? "\u25b6 " : "+ ";
	return "  ";
}

static void
tree_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct tree *tr = pn->data;
	const struct calltree_node *x;
	const struct pf_measure *m = tr != NULL && tr->measured ? t->o->measure : NULL;
	double hz = m != NULL ? (double)m->hz : (double)t->p->hz, total;

	if (tr == NULL || tr->ct == NULL) {
		sbuf_puts(sb, "no call graph in the profile files, so no call tree");
		*attr = UI_NOTE;
		return;
	}
	x = calltree_row(tr->ct, i);
	total = m != NULL ? (double)m->samples : report_cg_total(t->r);
	number(sb, 7, 1, 100 * x->time / (total > 0 ? total : 1), x->flags);
	number(sb, 11, 2, x->time / (hz > 0 ? hz : 1), x->flags);
	if (x->calls > 0 || x->arc != PF_NONE)
		sbuf_uint(sb, (unsigned long)x->calls, 11, 0);
	else
		sbuf_field(sb, "", 11, 0);
	sbuf_puts(sb, "  ");
	indent(sb, x->depth);
	sbuf_puts(sb, mark(x->flags));
	name(t, sb, x->id);
	if (x->flags & CALLTREE_RECURSIVE)
		sbuf_puts(sb, " (recursive)");
	*attr = (x->depth == 0 ? UI_STRONG : 0) | (x->flags & CALLTREE_ESTIMATED ? UI_ESTIMATE : 0) |
	    (x->flags & CALLTREE_RECURSIVE ? UI_DIM : 0);
}

static uint32_t
tree_target(struct tui *t, struct pane *pn, size_t i)
{
	const struct tree *tr = pn->data;

	return tr != NULL && tr->ct != NULL && i < calltree_nrows(tr->ct) ?
	    calltree_row(tr->ct, i)->id : PF_NONE;
}

static const struct pane_ops tree_ops = {
	.name = "tree",
	.fill = tree_fill,
	.header = tree_header,
	.row = tree_row,
	.target = tree_target,
	.release = tree_release,
};

void
tree_init(struct pane *pn)
{
	pn->ops = &tree_ops;
}
