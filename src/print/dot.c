/* dot: the call graph as a graphviz digraph, drawn as gprof2dot draws gprof's output. */
#include "dot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "threadlist.h"

/*
 * A name's bytes at most, escaped doubles them: a label's (the rest
 * elided), and a tooltip's, within graphviz's 16 KiB a string.
 */
#define DOT_LABEL_MAX 1024
#define DOT_TOOLTIP_MAX 8000

struct dot {
	FILE *f;
	struct report *r;
	const struct profile *p;
	const struct pf_measure *m;	/* the times measured from the stacks, or NULL */
	double total;			/* the call graph's time: ticks, or the stacks' samples */
	uint8_t *keep;			/* per symbol: it is drawn */
	struct sbuf sb;
};

/* Function ID's total (self and children) and self time, and ARC's: ticks, or samples. */
static double
node_total(const struct dot *g, uint32_t id)
{
	const struct pf_sym *s = &g->p->sym[id];

	return g->m != NULL ? g->m->incl[id] : s->prop_self + s->prop_child;
}

static double
node_self(const struct dot *g, uint32_t id)
{
	return g->m != NULL ? g->m->self[id] : g->p->sym[id].prop_self;
}

static double
arc_total(const struct dot *g, uint32_t arc)
{
	const struct pf_arc *a = &g->p->arc[arc];

	return g->m != NULL ? g->m->arc_incl[arc] : a->time + a->child_time;
}

static double
share(const struct dot *g, double t)
{
	double w = g->total > 0 ? t / g->total : 0;

	return w > 0 ? (w < 1 ? w : 1) : 0;
}

/* CSS's HSL to RGB, for one channel at hue H. */
static double
hue(double m1, double m2, double h)
{
	h = h < 0 ? h + 1 : h > 1 ? h - 1 : h;
	if (h * 6 < 1)
		return m1 + (m2 - m1) * h * 6;
	if (h * 2 < 1)
		return m2;
	if (h * 3 < 2)
		return m1 + (m2 - m1) * (2.0 / 3 - h) * 6;
	return m1;
}

/* gprof2dot's "color" theme at weight W (0 to 1): from dark blue (2/3, 0.8, 0.25) to red (0, 1, 0.5) in HSL. */
static void
color(char out[8], double w)
{
	double h = 2.0 / 3 * (1 - w), s = 0.8 + 0.2 * w, l = 0.25 + 0.25 * w;
	double m2 = l <= 0.5 ? l * (s + 1) : l + s - l * s, m1 = 2 * l - m2;
	double c[3] = { hue(m1, m2, h + 1.0 / 3), hue(m1, m2, h), hue(m1, m2, h - 1.0 / 3) };
	int k;

	out[0] = '#';
	for (k = 0; k < 3; k++)
		snprintf(out + 1 + 2 * k, 3, "%02x", c[k] <= 0 ? 0 : c[k] >= 1 ? 255 : (int)(255 * c[k] + 0.5));
}

/* Bytes S[FROM .. TO) inside a dot string: '"' and '\' escaped, no control characters. */
static void
put_bytes(struct dot *g, const char *s, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			putc('\\', g->f);
		putc(c < 0x20 || c == 0x7f ? '?' : c, g->f);
	}
}

/* I moved back to the start of a UTF-8 character of S. */
static size_t
char_start(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

/*
 * Function ID's name as the flat profile prints it, inside a dot string
 * (put_bytes()), at most MAX bytes of it: a longer one keeps its first
 * and last MAX / 2, an ellipsis between (graphviz refuses a string over
 * 16 KiB, and a C++ name can be longer).  Whether it was cut.
 */
static int
put_name(struct dot *g, uint32_t id, size_t max)
{
	const char *s;
	size_t n;

	sbuf_reset(&g->sb);
	report_name_only(g->r, &g->sb, id);
	s = sbuf_str(&g->sb);
	n = strlen(s);
	if (n <= max) {
		put_bytes(g, s, 0, n);
		return 0;
	}
	put_bytes(g, s, 0, char_start(s, max / 2));
	fputs("\xe2\x80\xa6", g->f);
	put_bytes(g, s, char_start(s, n - max / 2), n);
	return 1;
}

static void
put_node(struct dot *g, uint32_t id)
{
	const struct pf_sym *s = &g->p->sym[id];
	double w = share(g, node_total(g, id));
	char rgb[8];
	int cut;

	color(rgb, w);
	fprintf(g->f, "\tf%lu [color=\"%s\", fontcolor=\"#ffffff\", fontsize=\"%.2f\", label=\"",
	    (unsigned long)id, rgb, fmax(w * w * 10, 10));
	cut = put_name(g, id, DOT_LABEL_MAX);
	fprintf(g->f, "\\n%.2f%%\\n(%.2f%%)", 100 * w, 100 * share(g, node_self(g, id)));
	if (s->ncalls != 0)	/* calls from other functions, as the flat profile counts them */
		fprintf(g->f, "\\n%llu\xc3\x97", (unsigned long long)s->ncalls);
	if (cut) {	/* the name in full where it can be: the tooltip (SVG's title) */
		fputs("\", tooltip=\"", g->f);
		put_name(g, id, DOT_TOOLTIP_MAX);
	}
	fputs("\"];\n", g->f);
}

static void
put_edge(struct dot *g, uint32_t arc)
{
	const struct pf_arc *a = &g->p->arc[arc];
	double w = share(g, arc_total(g, arc)), pen = fmax(w * 4, 0.5);
	char rgb[8];

	color(rgb, w);
	fprintf(g->f, "\tf%lu -> f%lu [arrowsize=\"%.2f\", color=\"%s\", fontcolor=\"%s\", "
	    "fontsize=\"%.2f\", label=\"%.2f%%\\n%llu\xc3\x97\", labeldistance=\"%.2f\", "
	    "penwidth=\"%.2f\"];\n", (unsigned long)a->parent, (unsigned long)a->child,
	    0.5 * sqrt(pen), rgb, rgb, fmax(w * w * 10, 10), 100 * w,
	    (unsigned long long)a->count, pen, pen);
}

/* Whether ARC is drawn: both ends are, and it carries enough time or is inside a cycle. */
static int
edge_drawn(const struct dot *g, uint32_t arc, double edge_pct)
{
	const struct pf_arc *a = &g->p->arc[arc];
	const struct pf_sym *from = &g->p->sym[a->parent], *to = &g->p->sym[a->child];

	if (!g->keep[a->parent] || !g->keep[a->child])
		return 0;
	return g->total <= 0 || 100 * share(g, arc_total(g, arc)) >= edge_pct ||
	    (from->cycle != 0 && from->cycle == to->cycle);
}

/* Each cycle with members drawn: a cluster of them. */
static void
put_clusters(struct dot *g)
{
	const struct profile *p = g->p;
	const uint32_t *m;
	uint32_t c, n;
	size_t nm, k;

	for (c = p->nsyms; c < p->nsyms + p->ncycles; c++) {
		m = profile_cycle_members(p, c, &nm);
		for (n = 0, k = 0; k < nm; k++)
			n += g->keep[m[k]];
		if (n == 0)
			continue;
		fprintf(g->f, "\tsubgraph cluster_%d {\n\t\tlabel=\"<cycle %d>\";\n", p->sym[c].cycle,
		    p->sym[c].cycle);
		for (k = 0; k < nm; k++)
			if (g->keep[m[k]])
				fprintf(g->f, "\t\tf%lu;\n", (unsigned long)m[k]);
		fputs("\t}\n", g->f);
	}
}

/* Which functions are drawn: those the call graph lists with enough time (with no time at all, all of them). */
static void
choose(struct dot *g, double node_pct)
{
	uint32_t id;

	for (id = 0; id < g->p->nsyms; id++)
		g->keep[id] = report_cg_listed(g->r, id) &&
		    (g->total <= 0 || 100 * share(g, node_total(g, id)) >= node_pct);
}

int
dot_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d)
{
	const struct profile *p = report_profile(r);
	struct dot g = { f, r, p, eo->measured ? eo->stacks : NULL, 0, NULL, { 0 } };
	uint32_t id, a;

	if (p->caller_start == NULL) {
		diag_add(d, DIAG_ERROR, "--export=dot: no call graph in the profile files");
		return -1;
	}
	if ((g.keep = calloc((size_t)p->nsyms + 1, 1)) == NULL)
		return diag_oom(d);
	sbuf_init(&g.sb);
	g.total = g.m != NULL ? g.m->total : p->print_time > 0 ? report_cg_total(r) : 0;
	choose(&g, eo->node_pct);
	if (g.m != NULL)
		report_measure_note(&g.sb, g.m);
	if (g.m != NULL && g.m->chosen != NULL) {
		size_t at;

		if (g.sb.len > 0)
			sbuf_puts(&g.sb, "; ");
		for (threadlist_note(&g.sb, g.m), at = 0; !g.sb.failed && at < g.sb.len; at++)
			if (g.sb.s[at] == '"' || g.sb.s[at] == '\\')	/* a thread's name, in a quoted string */
				g.sb.s[at] = '\'';
	}
	fprintf(f, "digraph {\n\tgraph [fontname=Arial, nodesep=0.125, ranksep=0.25, comment=\"tgprof: %s%s%s\"];\n",
	    g.m != NULL ? "times measured from libtgmon's call stacks" :
	    "times estimated by gprof's rule (a callee's time shared by calls)", g.sb.len > 0 ? "; " : "",
	    g.sb.len > 0 ? sbuf_str(&g.sb) : "");
	fputs("\tnode [fontcolor=white, fontname=Arial, height=0, shape=box, style=\"filled,rounded\", "
	    "width=0];\n\tedge [fontname=Arial];\n", f);
	put_clusters(&g);
	for (id = 0; id < p->nsyms; id++)
		if (g.keep[id])
			put_node(&g, id);
	for (id = 0; id < p->nsyms; id++)
		for (a = p->callee_start[id]; g.keep[id] && a < p->callee_start[id + 1]; a++)
			if (edge_drawn(&g, p->callee_arc[a], eo->edge_pct))
				put_edge(&g, p->callee_arc[a]);
	fputs("}\n", f);
	free(g.keep);
	if (g.sb.failed) {
		sbuf_release(&g.sb);
		return diag_oom(d);
	}
	sbuf_release(&g.sb);
	if (ferror(f)) {
		diag_add(d, DIAG_ERROR, "%s", strerror(errno));
		return -1;
	}
	return 0;
}
