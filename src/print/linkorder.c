/* linkorder: -r and -R, function and object-file orders for the linker, as GNU gprof suggests them. */
#include "linkorder.h"

#include <stdlib.h>
#include <string.h>

#include "input/mapfile.h"
#include "util/mem.h"
#include "util/msort.h"

/*
 * gprof builds chains of functions greedily along the heaviest arcs: a
 * function not yet in a chain joins the nearer end of the other function's
 * chain.  It finds the ends and distances by walking the chain each time;
 * chains only ever grow by one function at an end, so each function's
 * position in its chain and the chain's ends give the same answers at once.
 */
struct chain {
	uint32_t head, tail;
	int64_t lo, hi;		/* positions of head and tail */
};

struct place {
	const struct profile *p;
	FILE *out;
	uint8_t *sym_placed;	/* gprof's has_been_placed, per symbol */
	uint8_t *arc_placed;	/* and per arc */
	uint32_t *next, *prev;	/* chain links; PF_NONE at the ends */
	uint32_t *in_chain;	/* chain of a symbol, PF_NONE if alone */
	int64_t *pos;		/* its position in the chain */
	struct chain *ch;
	uint32_t nch;
	uint32_t *nuses;	/* -r: how often each is the callee of a heavy arc */
};

static int
alone(const struct place *pl, uint32_t s)
{
	return pl->next[s] == PF_NONE && pl->prev[s] == PF_NONE;
}

static uint32_t
head_of(const struct place *pl, uint32_t s)
{
	return pl->in_chain[s] == PF_NONE ? s : pl->ch[pl->in_chain[s]].head;
}

static uint32_t
tail_of(const struct place *pl, uint32_t s)
{
	return pl->in_chain[s] == PF_NONE ? s : pl->ch[pl->in_chain[s]].tail;
}

/* How far S is from its chain's tail (ahead) and head (behind). */
static int64_t
ahead(const struct place *pl, uint32_t s)
{
	return pl->in_chain[s] == PF_NONE ? 0 : pl->ch[pl->in_chain[s]].hi - pl->pos[s];
}

static int64_t
behind(const struct place *pl, uint32_t s)
{
	return pl->in_chain[s] == PF_NONE ? 0 : pl->pos[s] - pl->ch[pl->in_chain[s]].lo;
}

/* Links A just before B; one of them (or both) was alone. */
static void
link_before(struct place *pl, uint32_t a, uint32_t b)
{
	if (pl->in_chain[a] == PF_NONE && pl->in_chain[b] == PF_NONE) {
		struct chain *c = &pl->ch[pl->nch];

		c->head = a;
		c->tail = b;
		c->lo = pl->pos[a] = 0;
		c->hi = pl->pos[b] = 1;
		pl->in_chain[a] = pl->in_chain[b] = pl->nch++;
	} else if (pl->in_chain[a] == PF_NONE) {
		struct chain *c = &pl->ch[pl->in_chain[b]];

		pl->in_chain[a] = pl->in_chain[b];
		c->lo = pl->pos[a] = pl->pos[b] - 1;
		c->head = a;
	} else {
		struct chain *c = &pl->ch[pl->in_chain[a]];

		pl->in_chain[b] = pl->in_chain[a];
		c->hi = pl->pos[b] = pl->pos[a] + 1;
		c->tail = b;
	}
	pl->next[a] = b;
	pl->prev[b] = a;
}

/* Tries to chain PARENT and CHILD along arc A; 1 if the arc goes unplaced. */
static int
place_arc(struct place *pl, uint32_t a, uint32_t parent, uint32_t child)
{
	uint32_t sym1, sym2;

	if (pl->next[parent] != PF_NONE && pl->prev[parent] != PF_NONE &&
	    pl->next[child] != PF_NONE && pl->prev[child] != PF_NONE)
		return 1;
	if (alone(pl, parent))
		child = ahead(pl, child) < behind(pl, child) ? tail_of(pl, child) : head_of(pl, child);
	else if (alone(pl, child))
		parent = behind(pl, parent) < ahead(pl, parent) ? head_of(pl, parent) :
		    tail_of(pl, parent);
	else
		return 1;
	sym1 = pl->next[parent] != PF_NONE ? tail_of(pl, parent) : head_of(pl, parent);
	sym2 = pl->next[child] != PF_NONE ? tail_of(pl, child) : head_of(pl, child);
	if (sym1 == child && sym2 == parent)
		return 1;	/* it would tie two ends together */
	if (pl->next[parent] != PF_NONE) {
		if (pl->next[child] == PF_NONE)
			link_before(pl, child, parent), pl->arc_placed[a] = 1;
	} else if (pl->prev[parent] != PF_NONE) {
		if (pl->prev[child] == PF_NONE)
			link_before(pl, parent, child), pl->arc_placed[a] = 1;
	} else if (pl->prev[child] != PF_NONE) {
		link_before(pl, child, parent), pl->arc_placed[a] = 1;
	} else {
		link_before(pl, parent, child), pl->arc_placed[a] = 1;
	}
	return 0;
}

static void
put_name(struct place *pl, uint32_t s)
{
	pl->sym_placed[s] = 1;
	fputs(pl->p->sym[s].name, pl->out);
	fputc('\n', pl->out);
}

/*
 * gprof's order_and_dump_functions_by_arcs(): chains along ARCS (all of
 * them, or those within 99% of the total count), prints them, and appends
 * the arcs it could not use to UNPLACED.
 */
static void
order_and_dump(struct place *pl, const uint32_t *arcs, size_t n, int all, uint32_t *unplaced,
    size_t *nunplaced)
{
	const struct pf_arc *arc = pl->p->arc;
	unsigned long long total = 0, tmp = 0;
	size_t i;

	for (i = 0; !all && i < n; i++)
		total += arc[arcs[i]].count;
	for (i = 0; i < n; i++) {
		uint32_t a = arcs[i], parent = arc[a].parent, child = arc[a].child;

		tmp += arc[a].count;
		if (pl->arc_placed[a])
			continue;
		if ((!all && (double)tmp / (double)total > 0.99) || pl->sym_placed[child] ||
		    pl->sym_placed[parent] || place_arc(pl, a, parent, child))
			unplaced[(*nunplaced)++] = a;
	}
	for (i = 0; i < n; i++) {
		uint32_t s = arc[arcs[i]].parent;

		if (pl->sym_placed[s] || pl->sym_placed[arc[arcs[i]].child] || alone(pl, s))
			continue;
		for (s = head_of(pl, s); s != PF_NONE; s = pl->next[s])
			put_name(pl, s);
	}
	for (i = 0; all && i < n; i++)
		if (!pl->sym_placed[arc[arcs[i]].parent] && !pl->sym_placed[arc[arcs[i]].child])
			put_name(pl, arc[arcs[i]].parent);
}

static int
setup(struct place *pl, FILE *out, const struct profile *p)
{
	uint32_t n = p->nsyms, i;

	memset(pl, 0, sizeof *pl);
	pl->p = p;
	pl->out = out;
	pl->sym_placed = mem_calloc(n, 1);
	pl->arc_placed = mem_calloc(p->narcs, 1);
	pl->next = mem_array(n, sizeof *pl->next);
	pl->prev = mem_array(n, sizeof *pl->prev);
	pl->in_chain = mem_array(n, sizeof *pl->in_chain);
	pl->pos = mem_array(n, sizeof *pl->pos);
	pl->ch = mem_array(n / 2 + 1, sizeof *pl->ch);
	pl->nuses = mem_calloc(n, sizeof *pl->nuses);
	if (!pl->sym_placed || !pl->arc_placed || !pl->next || !pl->prev || !pl->in_chain ||
	    !pl->pos || !pl->ch || !pl->nuses)
		return -1;
	for (i = 0; i < n; i++)
		pl->next[i] = pl->prev[i] = pl->in_chain[i] = PF_NONE;
	return 0;
}

static void
release(struct place *pl)
{
	free(pl->sym_placed);
	free(pl->arc_placed);
	free(pl->next);
	free(pl->prev);
	free(pl->in_chain);
	free(pl->pos);
	free(pl->ch);
	free(pl->nuses);
}

/* gprof's arcs[]: every arc but recursive ones, in creation order. */
static uint32_t *
arc_list(const struct profile *p, size_t *n)
{
	uint32_t *v = mem_array(p->narcs, sizeof *v), a;

	*n = 0;
	for (a = 0; v != NULL && a < p->narcs; a++)
		if (p->arc[a].parent != p->arc[a].child)
			v[(*n)++] = a;
	return v;
}

static int
cmp_count(const void *a, const void *b, void *ctx)
{
	const struct pf_arc *arc = ctx;
	uint64_t l = arc[*(const uint32_t *)a].count, r = arc[*(const uint32_t *)b].count;

	return l > r ? -1 : l < r;
}

static int
cmp_nuses(const void *a, const void *b, void *ctx)
{
	const uint32_t *nuses = ctx;
	uint32_t l = nuses[*(const uint32_t *)a], r = nuses[*(const uint32_t *)b];

	return l > r ? -1 : l < r;
}

/*
 * gprof's first step for -r: the callees of the heaviest arcs (90% of all
 * calls) that have many callers, with their arcs.  Returns how many of the
 * USED symbols (sorted by uses) were taken; their arcs go to SCRATCH.
 */
static size_t
popular(struct place *pl, const uint32_t *arcs, size_t narcs, uint32_t *used, size_t nused,
    uint32_t *scratch, size_t *nscratch)
{
	const struct profile *p = pl->p;
	unsigned long long total = 0, tmp = 0;
	size_t i, taken = 0;
	uint32_t a;

	for (i = 0; i < narcs; i++)
		total += p->arc[arcs[i]].count;
	for (i = 0; i < narcs; i++) {
		tmp += p->arc[arcs[i]].count;
		if ((double)tmp / (double)total > 0.90)
			break;
		pl->nuses[p->arc[arcs[i]].child]++;
	}
	if (msort_ids(used, nused, cmp_nuses, pl->nuses) != 0)
		return 0;
	for (i = 0; i < nused / 80; i++) {
		uint32_t s = used[i];

		/* gprof stops at exactly five uses (it meant fewer than five). */
		if (pl->nuses[s] == 5)
			break;
		for (a = p->sym[s].children; a != PF_NONE; a = p->arc[a].next_child) {
			if (p->arc[a].parent != p->arc[a].child)
				scratch[(*nscratch)++] = a;
			pl->arc_placed[a] = 1;
		}
		for (a = p->sym[s].parents; a != PF_NONE; a = p->arc[a].next_parent) {
			if (p->arc[a].parent != p->arc[a].child)
				scratch[(*nscratch)++] = a;
			pl->arc_placed[a] = 1;
		}
		taken = i;	/* gprof remembers the last index, not the count */
		pl->sym_placed[s] = 1;
	}
	return taken;
}

int
ordering_functions(FILE *out, const struct profile *p, struct diag *d)
{
	struct place pl;
	size_t narcs, nused = 0, nunused = 0, nscratch = 0, nhigh = 0, nun = 0, n2 = 0, taken, i;
	uint32_t *arcs = arc_list(p, &narcs), *used = mem_array(p->nsyms, sizeof *used);
	uint32_t *unused = mem_array(p->nsyms, sizeof *unused), *sorted_used = NULL;
	uint32_t *scratch = mem_array(2 * (size_t)p->narcs + 1, sizeof *scratch);
	uint32_t *high = mem_array(2 * (size_t)p->narcs + 1, sizeof *high);
	uint32_t *unplaced = mem_array(2 * (size_t)p->narcs + 1, sizeof *unplaced);
	int rc = -1;

	if (setup(&pl, out, p) != 0 || !arcs || !used || !unused || !scratch || !high || !unplaced)
		goto out;
	for (i = 0; i < p->nsyms; i++) {
		if (p->sym[i].ncalls == 0) {
			unused[nunused++] = (uint32_t)i;
			pl.sym_placed[i] = 1;
		} else {
			used[nused++] = (uint32_t)i;
		}
	}
	if (msort_ids(arcs, narcs, cmp_count, p->arc) != 0 ||
	    (sorted_used = mem_array(nused, sizeof *sorted_used)) == NULL)
		goto out;
	memcpy(sorted_used, used, nused * sizeof *used);
	taken = popular(&pl, arcs, narcs, sorted_used, nused, scratch, &nscratch);
	for (i = 0; i < nscratch; i++) {
		uint32_t a = scratch[i];

		if (pl.sym_placed[p->arc[a].child] && pl.sym_placed[p->arc[a].parent]) {
			high[nhigh++] = a;
			pl.sym_placed[p->arc[a].child] = pl.sym_placed[p->arc[a].parent] = 0;
		}
	}
	for (i = 0; i < taken; i++)
		if (pl.sym_placed[sorted_used[i]])
			fprintf(out, "%s\n", p->sym[sorted_used[i]].name);
	if (msort_ids(high, nhigh, cmp_count, p->arc) != 0)
		goto out;
	order_and_dump(&pl, high, nhigh, 1, unplaced, &nun);
	order_and_dump(&pl, arcs, narcs, 0, unplaced, &nun);
	order_and_dump(&pl, unplaced, nun, 1, scratch, &n2);
	for (i = 0; i < nused; i++)
		if (!pl.sym_placed[used[i]])
			fprintf(out, "%s\n", p->sym[used[i]].name);
	for (i = 0; i < nunused; i++)
		fprintf(out, "%s\n", p->sym[unused[i]].name);
	rc = 0;
out:
	release(&pl);
	free(arcs);
	free(used);
	free(unused);
	free(sorted_used);
	free(scratch);
	free(high);
	free(unplaced);
	return rc != 0 ? diag_oom(d) : 0;
}

static int
cmp_file(const void *a, const void *b, void *ctx)
{
	const struct mapfile_ent *e = ctx;

	return strcmp(e[*(const uint32_t *)a].file, e[*(const uint32_t *)b].file);
}

static int
cmp_symname(const void *a, const void *b, void *ctx)
{
	const struct pf_sym *s = ctx;

	return strcmp(s[*(const uint32_t *)a].name, s[*(const uint32_t *)b].name);
}

/* Whether a symbol of NAMES (sorted ids of N mapped symbols) is called NAME. */
static int
has_name(const struct profile *p, const uint32_t *names, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p->sym[names[mid]].name, name);

		if (c == 0)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Object files of the map with no symbol in the table, by name, once each. */
static int
textless_files(FILE *out, const struct profile *p)
{
	const struct mapfile *m = profile_map(p);
	uint32_t *idx = mem_array(m->n, sizeof *idx), *names = mem_array(p->nsyms, sizeof *names);
	size_t i, nnames = 0;
	const char *last = NULL;
	int rc = -1;

	if (idx == NULL || names == NULL)
		goto out;
	for (i = 0; i < p->nsyms; i++)
		if (p->sym[i].mapped)
			names[nnames++] = (uint32_t)i;
	for (i = 0; i < m->n; i++)
		idx[i] = (uint32_t)i;
	if (msort_ids(names, nnames, cmp_symname, p->sym) != 0 ||
	    msort_ids(idx, m->n, cmp_file, m->ent) != 0)
		goto out;
	for (i = 0; i < m->n; i++) {
		const char *f = m->ent[idx[i]].file;

		if (last != NULL && strcmp(last, f) == 0)
			continue;
		if (!has_name(p, names, nnames, f))
			fprintf(out, "%s\n", f);
		last = f;
	}
	rc = 0;
out:
	free(idx);
	free(names);
	return rc;
}

int
ordering_files(FILE *out, const struct profile *p, struct diag *d)
{
	struct place pl;
	size_t narcs, nun = 0, i;
	uint32_t *arcs = arc_list(p, &narcs), *unplaced = mem_array(narcs + 1, sizeof *unplaced);
	int rc = -1;

	if (setup(&pl, out, p) != 0 || arcs == NULL || unplaced == NULL)
		goto out;
	for (i = 0; i < narcs; i++)
		if (!p->sym[p->arc[arcs[i]].parent].mapped || !p->sym[p->arc[arcs[i]].child].mapped)
			pl.arc_placed[arcs[i]] = 1;
	order_and_dump(&pl, arcs, narcs, 0, unplaced, &nun);
	for (i = 0; i < p->nsyms; i++)
		if (p->sym[i].mapped && !pl.sym_placed[i])
			fprintf(out, "%s\n", p->sym[i].name);
	rc = textless_files(out, p);
out:
	release(&pl);
	free(arcs);
	free(unplaced);
	return rc != 0 ? diag_oom(d) : 0;
}
