/* test-flame: stacks of numbered frames from standard input merged by flame_build(), printed as a tree and checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/flame.h"

/*
 * Input: "COUNT FLAGS F1;F2;...", frames outermost first as numbers
 * (symbol ids), FLAGS 1 (reached the root) + 2 (truncated); '#' lines
 * are comments; a line "view ROOT CALLERS RECURSION" asks for another
 * view than the whole program top-down, recursion shown (ROOT a frame or
 * -, CALLERS 0 or 1, RECURSION shown, indirect or all: flame_build_view()).
 * Output: each node in preorder, "DEPTH-indented FRAME total self", then
 * "ok" or what breaks the tree's rules: a node's total is its self plus
 * its children's, the root's the samples of the view (all of them for
 * the whole program), children most first.
 */

static struct pf_measure m;
static struct flame_view view = { PF_NONE, 0, FLAME_RECURSION_SHOWN };

/* "view ROOT CALLERS RECURSION"; 0, or -1 if the line is not one. */
static int
set_view(const char *line)
{
	static const char *const how[] = { "shown", "indirect", "all" };
	char root[32], rec[32];
	int callers, k;

	if (sscanf(line, "view %31s %d %31s", root, &callers, rec) != 3)
		return -1;
	view.root = strcmp(root, "-") == 0 ? PF_NONE : (uint32_t)strtoul(root, NULL, 10);
	view.callers = callers;
	for (k = 0; k < 3; k++)
		if (strcmp(rec, how[k]) == 0)
			view.collapse = k;
	return 0;
}
static size_t cap_stack, cap_frame;

static void
add(unsigned long long count, unsigned flags, char *frames)
{
	struct pf_mstack *s;
	char *f;

	if (m.nstack == cap_stack)
		m.stack = realloc(m.stack, (cap_stack = 2 * cap_stack + 8) * sizeof *m.stack);
	s = &m.stack[m.nstack++];
	s->count = count;
	s->weight = (double)count;
	s->flags = flags;
	s->first = (uint32_t)cap_frame;
	s->depth = 0;
	for (f = strtok(frames, ";\n"); f != NULL; f = strtok(NULL, ";\n")) {
		m.frame = realloc(m.frame, (cap_frame + 1) * sizeof *m.frame);
		m.frame[cap_frame++] = (uint32_t)strtoul(f, NULL, 10);
		s->depth++;
	}
	m.samples += count;
	m.total += (double)count;
}

/* Prints the tree from node 0, iteratively; the number of rules broken. */
static int
walk(const struct pf_flame *t)
{
	uint32_t k = 0, c;
	int bad = 0;

	while (k != PF_NONE) {
		const struct pf_flame_node *x = &t->node[k];
		double sum = x->self;

		printf("%*s", 2 * (int)x->depth, "");
		if (k == 0 || x->frame >= FLAME_INCOMPLETE)
			printf("%s", k == 0 ? "all" : x->frame == FLAME_INCOMPLETE ? "[incomplete]" : "[truncated]");
		else
			printf("%u", x->frame);
		printf(" total %.0f self %.0f\n", x->total, x->self);
		for (c = x->child; c != PF_NONE; c = t->node[c].next) {
			sum += t->node[c].total;
			if (t->node[c].next != PF_NONE && t->node[t->node[c].next].total > t->node[c].total)
				bad += printf("bad order under node %u\n", k) > 0;
		}
		if (sum != x->total)
			bad += printf("bad total at node %u: %.0f, children and self %.0f\n", k, x->total, sum) > 0;
		if (x->child != PF_NONE) {	/* the next in preorder */
			k = x->child;
			continue;
		}
		while (k != PF_NONE && t->node[k].next == PF_NONE)
			k = t->node[k].parent;
		k = k != PF_NONE ? t->node[k].next : PF_NONE;
	}
	return bad;
}

int
main(void)
{
	char line[4096], frames[4096];
	unsigned long long count;
	unsigned flags;
	struct pf_flame *t;
	struct diag d;
	int bad;

	while (fgets(line, sizeof line, stdin) != NULL)
		if (line[0] != '#' && set_view(line) != 0 && sscanf(line, "%llu %u %4095s", &count, &flags, frames) == 3)
			add(count, flags, frames);
	diag_init(&d);
	if (flame_build_view(&m, &view, &t, &d) != 0) {
		printf("flame_build_view failed\n");
		return 1;
	}
	bad = walk(t);
	if (view.root == PF_NONE && (double)m.samples != t->node[0].total)
		bad += printf("root %.0f, samples %llu\n", t->node[0].total, (unsigned long long)m.samples) > 0;
	printf("%s\n", bad ? "BROKEN" : "ok");
	flame_free(t);
	diag_release(&d);
	free(m.stack);
	free(m.frame);
	return bad != 0;
}
