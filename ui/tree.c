/* tree: the call tree pane (model/calltree.h's rows, model/treetext.h's text): the program top-down, or callers bottom-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/calltree.h"
#include "model/treetext.h"
#include "ui.h"

/* The pane's data: the tree, and the view its rows were made for. */
struct tree {
	struct calltree *ct;	/* NULL without a call graph */
	int made;		/* rows were made: for VIEW and ROOT */
	int view;		/* TREE_* */
	uint32_t root;		/* PF_NONE for the whole program */
	int measured;		/* the times are measured from call stacks (tui_measured()) */
	int recursion;		/* with stacks, as the view collapsed it */
	unsigned gen;		/* the session's generation the tree is of */
};

/* How a fold key opens or closes the selected node (fold()). */
enum { TREE_TOGGLE, TREE_SUBTREE, TREE_CLOSE, TREE_OPEN_ALL, TREE_CLOSE_ALL };

/*
 * Opens or closes the selected node: HOW is TREE_TOGGLE (its children),
 * TREE_SUBTREE (all below it), TREE_CLOSE (or, closed, selects its
 * parent), TREE_OPEN_ALL, TREE_CLOSE_ALL.
 */
static void
fold(struct tui *t, struct pane *pn, int how)
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
		snprintf(t->message, sizeof t->message, "the call tree stops short at %zu rows "
		    "(%d at most): - or C closes nodes", calltree_nrows(tr->ct), CALLTREE_MAX);
	else if (rc < 0)
		snprintf(t->message, sizeof t->message, "out of memory");
	pn->nrows = calltree_nrows(tr->ct);
	pn->gen++;
}

/* The tree's own keys: + - * E C fold, while it has the focus. */
static int
tree_key(struct tui *t, struct pane *pn, int c)
{
	static const char keys[] = "+*-EC";
	static const int how[] = { TREE_TOGGLE, TREE_SUBTREE, TREE_CLOSE, TREE_OPEN_ALL, TREE_CLOSE_ALL };
	const char *k = c > 0 && c < 128 ? strchr(keys, c) : NULL;

	if (k == NULL)
		return 0;
	fold(t, pn, how[k - keys]);
	keys_follow(t, pn);
	return 1;
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

/* The tree of the session's profile, for the times shown: made (the rows not yet); 0 or -1. */
static int
new_tree(struct tui *t, struct pane *pn)
{
	const struct profile *p = t->s->p;
	struct tree *tr;

	if ((tr = calloc(1, sizeof *tr)) == NULL)
		return -1;
	pn->data = tr;
	tr->measured = tui_measured(t);
	tr->gen = t->s->gen;
	if (p->caller_start != NULL &&
	    (tr->ct = calltree_new(p, tr->measured ? t->s->measure : NULL)) == NULL) {
		tree_release(pn);
		return -1;
	}
	return 0;
}

/*
 * While the tree is in the flat profile's place: the rows of the view,
 * made again when the view, its root or the analysis changes, with the
 * first root open and the function shown selected if it has a row; else
 * kept as they are.  Without a call graph, one note.  A tree of another
 * analysis goes even when the tree is not shown.
 */
static int
tree_fill(struct tui *t, struct pane *pn)
{
	const struct profile *p = t->s->p;
	struct tree *tr = pn->data;
	uint32_t root;
	size_t i;

	if (tr != NULL && (tr->gen != t->s->gen || tr->measured != tui_measured(t))) {
		tree_release(pn);	/* another analysis, or m: other times */
		tr = NULL;
		pn->nrows = pn->sel = pn->top = 0;
	}
	if (t->tree.root >= p->nsyms + p->ncycles)
		t->tree.view = TREE_WHOLE;	/* no such function: the whole program */
	if (t->tree.root >= p->nsyms && t->tree.view != TREE_WHOLE && tui_measured(t)) {
		t->tree.view = TREE_WHOLE;	/* the stacks have its members' frames, not its own */
		snprintf(t->message, sizeof t->message, "a cycle is on no call stack: its members are "
		    "(r or b on one of them)");
	}
	root = t->tree.view == TREE_WHOLE ? PF_NONE : t->tree.root;
	if (t->slot != PANE_TREE || (tr != NULL && tr->made && tr->view == t->tree.view && tr->root == root &&
	    (!tr->measured || tr->recursion == t->tree.recursion)))
		return 0;
	pn->nrows = pn->sel = pn->top = 0;
	pn->gen++;
	if (tr == NULL && new_tree(t, pn) != 0)
		return -1;
	tr = pn->data;
	tr->view = t->tree.view;
	tr->root = root;
	tr->recursion = t->tree.recursion;
	tr->made = 1;
	if (tr->ct == NULL) {
		pn->nrows = 1;	/* a note: no arcs, no tree */
		return 0;
	}
	if (calltree_make(tr->ct, t->s->r, root, tr->view == TREE_INVERTED, tr->recursion) != 0) {
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

static void
tree_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	const struct tree *tr = pn->data;

	if (tr == NULL)
		treetext_header(sb, t->s->r, PF_NONE, 0, 0, 0);
	else
		treetext_header(sb, t->s->r, tr->root, tr->view == TREE_INVERTED, tr->measured,
		    tr->recursion);
}

static void
tree_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct tree *tr = pn->data;
	const struct calltree_node *x;

	if (tr == NULL || tr->ct == NULL) {
		sbuf_puts(sb, "no call graph in the profile files, so no call tree");
		*attr = UI_NOTE;
		return;
	}
	x = calltree_row(tr->ct, i);
	treetext_row(sb, tr->ct, t->s->r, i, MB_CUR_MAX > 1);
	*attr = (x->depth == 0 ? UI_STRONG : 0) | (x->flags & CALLTREE_ESTIMATED ? UI_ESTIMATE : 0) |
	    (x->flags & CALLTREE_RECURSIVE ? UI_DIM : 0);
}

static uint32_t
tree_target(struct tui *t, struct pane *pn, size_t i)
{
	const struct tree *tr = pn->data;

	uint32_t id;

	if (tr == NULL || tr->ct == NULL || tr->gen != t->s->gen || i >= calltree_nrows(tr->ct))
		return PF_NONE;
	id = calltree_row(tr->ct, i)->id;	/* a function, a cycle; in a stack tree maybe no function */
	return id < t->s->p->nsyms + (tr->measured ? 0 : t->s->p->ncycles) ? id : PF_NONE;
}

static const struct pane_ops tree_ops = {
	.name = "tree",
	.fill = tree_fill,
	.header = tree_header,
	.row = tree_row,
	.target = tree_target,
	.release = tree_release,
	.key = tree_key,
	.hints = { "Enter", "+", "r", "t", "?" },
};

void
tree_init(struct pane *pn)
{
	pn->ops = &tree_ops;
}
