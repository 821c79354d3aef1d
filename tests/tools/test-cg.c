/* test-cg: runs the call-graph math on a graph read from text and prints what it computed. */
/*
 * Input (stdin), one item per line, '#' starts a comment:
 *   sym NAME [TICKS]        a function, in address order, with self time
 *   arc CALLER CALLEE COUNT a call arc, in the order a gmon file lists it
 *   spec TABLE TEXT         a symspec: TABLE is one of incl_graph excl_graph
 *                           incl_time excl_time (-f -e -F/-n -E/-N)
 * Output: every symbol and cycle in call-graph order, then every arc.
 * Times are printed with 4 decimals; hz is 1.  The order (order_cg(),
 * linear) must be gprof's own sort's (order_cg_sorted()): else exit 1.
 *
 * test-cg --random N SEED: no input, no output; N symbols of few distinct
 * times, names with and without '_', duplicates among them, arcs of few
 * counts making cycles (every third seed, some past 2^62): all ties;
 * exit 1 where the orders differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arcs.h"
#include "core/cg.h"
#include "core/core.h"
#include "core/names.h"
#include "core/order.h"

#define MAXLINE 512

struct input {
	char names[4096][32];
	double ticks[4096];
	uint32_t n;
	struct { uint32_t from, to; uint64_t count; } arc[16384];
	uint32_t narcs;
	struct pf_spec spec[64];
	char spectext[64][64];
	size_t nspec;
};

static uint32_t
sym_id(const struct input *in, const char *name)
{
	uint32_t i;

	for (i = 0; i < in->n; i++)
		if (strcmp(in->names[i], name) == 0)
			return i;
	fprintf(stderr, "test-cg: unknown symbol %s\n", name);
	exit(2);
}

static enum spec_table
table_named(const char *t)
{
	static const struct { const char *name; enum spec_table t; } tab[] = {
		{ "incl_graph", SPEC_INCL_GRAPH }, { "excl_graph", SPEC_EXCL_GRAPH },
		{ "incl_time", SPEC_INCL_TIME }, { "excl_time", SPEC_EXCL_TIME },
	};
	size_t i;

	for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (strcmp(tab[i].name, t) == 0)
			return tab[i].t;
	fprintf(stderr, "test-cg: unknown table %s\n", t);
	exit(2);
}

static void
parse(struct input *in)
{
	char line[MAXLINE], a[64], b[64];
	unsigned long long c;
	double t;

	while (fgets(line, sizeof line, stdin) != NULL) {
		char *hash = strchr(line, '#');

		if (hash != NULL)
			*hash = '\0';
		if (sscanf(line, "sym %31s %lf", a, &t) >= 1 && strncmp(line, "sym", 3) == 0) {
			strcpy(in->names[in->n], a);
			in->ticks[in->n++] = sscanf(line, "sym %31s %lf", a, &t) == 2 ? t : 0.0;
		} else if (sscanf(line, "arc %63s %63s %llu", a, b, &c) == 3) {
			in->arc[in->narcs].from = sym_id(in, a);
			in->arc[in->narcs].to = sym_id(in, b);
			in->arc[in->narcs++].count = c;
		} else if (sscanf(line, "spec %63s %63s", a, b) == 2) {
			strcpy(in->spectext[in->nspec], b);
			in->spec[in->nspec].text = in->spectext[in->nspec];
			in->spec[in->nspec].table = table_named(a);
			in->nspec++;
		}
	}
}

/* A profile as syms_load() would leave it: symbol i at address 0x1000 + 16 i. */
static struct profile *
build(const struct input *in, struct symtab *tab)
{
	struct profile *p = calloc(1, sizeof *p);
	struct symtab_ent *ent = calloc(in->n, sizeof *ent);
	uint64_t *addr = calloc(in->n, sizeof *addr);
	uint32_t i;

	p->priv = calloc(1, sizeof *p->priv);
	srcfiles_init(&p->priv->files);
	for (i = 0; i < in->n; i++) {
		ent[i].addr = addr[i] = 0x1000 + 16 * (uint64_t)i;
		ent[i].name = in->names[i];
		ent[i].is_func = 1;
		ent[i].file = SYMTAB_NONE;
		ent[i].aux = SYMTAB_NONE;
	}
	symtab_finalize(tab, ent, in->n, 0x1000 + 16 * (uint64_t)in->n - 1);
	symindex_build(&p->priv->index, addr, in->n);
	free(addr);
	p->priv->symcap = in->n + in->n / 2 + 1;	/* room for cycle headers, as syms.c */
	p->sym = calloc(p->priv->symcap, sizeof *p->sym);
	p->nsyms = in->n;
	for (i = 0; i < in->n; i++) {
		struct pf_sym *s = &p->sym[i];

		s->addr = tab->ent[i].addr;
		s->end_addr = tab->ent[i].end_addr;
		s->name = in->names[i];
		s->is_func = 1;
		s->file = PF_NONE;
		s->time = in->ticks[i];
		s->cyc_head = i;
		s->cyc_next = s->parents = s->children = s->fold = PF_NONE;
	}
	p->hz = 1;
	return p;
}

static void
print(const struct profile *p)
{
	uint32_t k, a;

	printf("total %.4f\n", p->print_time);
	for (k = 0; k < p->nsyms + p->ncycles; k++) {
		const struct pf_sym *s = &p->sym[p->cg_order[k]];

		if (s->name != NULL)
			printf("[%d] %s cycle=%d topo=%d", s->index, s->name, s->cycle, s->top_order);
		else
			printf("[%d] <cycle %d> members", s->index, s->cycle);
		for (a = s->name == NULL ? s->cyc_next : PF_NONE; a != PF_NONE; a = p->sym[a].cyc_next)
			printf(" %s", p->sym[a].name);
		printf(" calls=%lu+%lu self=%.4f child=%.4f print=%d\n", (unsigned long)s->ncalls,
		    (unsigned long)s->self_calls, s->prop_self, s->prop_child, s->print_flag);
	}
	for (a = 0; a < p->narcs; a++)
		printf("arc %s -> %s count=%lu time=%.4f child=%.4f\n", p->sym[p->arc[a].parent].name,
		    p->sym[p->arc[a].child].name, (unsigned long)p->arc[a].count, p->arc[a].time,
		    p->arc[a].child_time);
}

/* An input all ties (see the usage): N symbols, about 2 N arcs, from SEED. */
static void
random_input(struct input *in, uint32_t n, unsigned seed)
{
	static const char *stem[] = { "a", "_a", "b", "__b", "c" };
	uint32_t i;

	srand(seed);
	for (in->n = 0; in->n < n; in->n++) {
		snprintf(in->names[in->n], sizeof in->names[in->n], "%s%d", stem[rand() % 5], rand() % (int)(n / 2 + 1));
		in->ticks[in->n] = rand() % 3 == 0 ? 0.0 : (double)(rand() % 3);
	}
	for (i = 0; i < 2 * n; i++) {
		in->arc[i].from = (uint32_t)rand() % n;
		in->arc[i].to = (uint32_t)rand() % n;
		in->arc[i].count = (uint64_t)(rand() % 3);
		if (seed % 3 == 0 && rand() % 8 == 0)	/* calls past 2^62: the keys do not pack */
			in->arc[i].count += (uint64_t)1 << 62;
	}
	in->narcs = 2 * n;
}

/* Whether P's cg_order and indexes are those of gprof's own sort. */
static int
gprof_order(struct profile *p)
{
	uint32_t n = p->nsyms + p->ncycles, *fast = p->cg_order, k;
	int same = 1, *index = malloc((n + 1) * sizeof *index);

	for (k = 0; index != NULL && k < n; k++)
		index[k] = p->sym[k].index;
	p->cg_order = NULL;
	if (index == NULL || order_cg_sorted(p) != 0)
		return 0;
	same = memcmp(fast, p->cg_order, n * sizeof *fast) == 0;
	for (k = 0; k < n && same; k++)
		same = index[k] == p->sym[k].index;
	if (!same)
		fprintf(stderr, "test-cg: order_cg() is not gprof's sort's order\n");
	free(fast);
	free(index);
	return same;
}

int
main(int argc, char **argv)
{
	static struct input in;
	struct diag d;
	struct symtab tab;
	struct profile *p;
	uint32_t i;
	int quiet = argc == 4 && strcmp(argv[1], "--random") == 0;

	if (quiet)
		random_input(&in, (uint32_t)atoi(argv[2]) % 4000 + 2, (unsigned)atoi(argv[3]));
	else if (argc != 1)
		return 2;
	else
		parse(&in);
	diag_init(&d);
	p = build(&in, &tab);
	if (symspec_build(&p->priv->specs, in.spec, in.nspec, &tab, &p->priv->files, 0,
	    0x1000 + 16 * (uint64_t)in.n - 1) != 0)
		return 2;
	symtab_release(&tab);
	for (i = 0; i < in.narcs; i++)
		arcs_tally(p, p->sym[in.arc[i].from].addr, p->sym[in.arc[i].to].addr, in.arc[i].count, &d);
	cg_recursion(p);
	if (names_sort(p) != 0 || cg_assemble(p, NULL, &d) != 0 || order_cg(p) != 0)
		return 2;
	if (!gprof_order(p))
		return 1;
	if (!quiet)
		print(p);
	diag_release(&d);
	profile_free(p);
	return 0;
}
