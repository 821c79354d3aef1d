/* treetext: the call tree's rows as text, for the browser's tree pane and for text drivers alike. */
#include "treetext.h"

#include <stdio.h>
#include <string.h>

#define TREE_INDENT 16		/* levels indented; deeper rows show their depth instead */

/*
 * A node's name: a function's as gprof prints it, a cycle's as its call
 * graph's cycle line does (M NULL: an arc tree); in a stack tree (M), a
 * library's frame by M's name for it, the markers in brackets.
 */
static void
node_name(struct sbuf *sb, struct report *r, const struct pf_measure *m, uint32_t id)
{
	const struct profile *p = report_profile(r);
	const struct pf_sym *s = &p->sym[id < p->nsyms + p->ncycles ? id : 0];

	if (id < p->nsyms)
		report_name(r, sb, id);
	else if (m == NULL && id < p->nsyms + p->ncycles)
		sbuf_printf(sb, "<cycle %d as a whole> %c%d%c", s->cycle, s->print_flag ? '[' : '(',
		    s->index, s->print_flag ? ']' : ')');
	else if (id == CALLTREE_SELF)
		sbuf_puts(sb, "[self]");
	else if (id == FLAME_INCOMPLETE)
		sbuf_puts(sb, "[incomplete]");
	else if (id == FLAME_TRUNCATED)
		sbuf_puts(sb, "[truncated]");
	else if (m != NULL && id >= PF_FRAME_OTHER && id - PF_FRAME_OTHER < m->nother)
		sbuf_puts(sb, m->other[id - PF_FRAME_OTHER]);
	else
		sbuf_puts(sb, "[unknown]");
}

const char *
treetext_recursion(int collapse)
{
	return collapse == FLAME_RECURSION_ALL ? "recursion collapsed" :
	    collapse == FLAME_RECURSION_INDIRECT ? "recursion through others collapsed" : "recursion shown";
}

void
treetext_header(struct sbuf *sb, struct report *r, uint32_t root, int inverted, int measured,
    int collapse)
{
	sbuf_puts(sb, "Call tree: ");
	if (root == PF_NONE) {
		sbuf_puts(sb, inverted ? "the whole program, bottom-up" : "the whole program");
	} else {
		node_name(sb, r, NULL, root);
		sbuf_puts(sb, inverted ? " and its callers (bottom-up)" : " and what it calls");
	}
	if (measured)
		sbuf_printf(sb, "; measured from call stacks, %s\n", treetext_recursion(collapse));
	else
		sbuf_puts(sb, "; ~: estimated, split by calls\n");
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

/* The node's mark: open, closed, recursive or a leaf. */
static const char *
mark(unsigned flags, int utf8)
{
	if (flags & CALLTREE_RECURSIVE)
		return utf8 ? "\u21ba " : "@ ";
	if (flags & CALLTREE_OPEN)
		return utf8 ? "\u25bc " : "- ";
	if (flags & CALLTREE_KIDS)
		return utf8 ? "\u25b6 " : "+ ";
	return "  ";
}

void
treetext_row(struct sbuf *sb, const struct calltree *ct, struct report *r, size_t i, int utf8)
{
	const struct calltree_node *x = calltree_row(ct, i);
	const struct pf_measure *m = calltree_measure(ct);
	double hz = m != NULL ? (double)m->hz : (double)report_profile(r)->hz;
	double total = m != NULL ? m->total : report_cg_total(r);

	number(sb, 7, 1, 100 * x->time / (total > 0 ? total : 1), x->flags);
	number(sb, 11, 2, x->time / (hz > 0 ? hz : 1), x->flags);
	if (x->calls > 0 || x->arc != PF_NONE)
		sbuf_uint(sb, (unsigned long)x->calls, 11, 0);
	else
		sbuf_field(sb, "", 11, 0);
	sbuf_puts(sb, "  ");
	indent(sb, x->depth);
	sbuf_puts(sb, mark(x->flags, utf8));
	node_name(sb, r, m, x->id);
	if (x->flags & CALLTREE_RECURSIVE)
		sbuf_puts(sb, " (recursive)");
}
