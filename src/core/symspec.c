/* symspec: gprof's symbol specifications (func, file.c, file:line, a/b) turned into address tables. */
#include "symspec.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/msort.h"

#define FILE_ANY	UINT32_MAX		/* the spec names no file */
#define FILE_MISSING	(UINT32_MAX - 1)	/* names a file that does not exist */
#define RIGHT		SPEC_NTABLES		/* the table of right-hand sides of "a/b" */

/* One side of a spec: what a symbol must match. */
struct pattern {
	uint32_t file;		/* FILE_ANY, FILE_MISSING or a file id */
	int line;		/* 0 = any */
	const char *name;	/* NULL = any; points into the owning spec's copy */
};

struct spec {
	char *copy;		/* owned, cut in place at ':' and '/' */
	enum spec_table table;
	int has_right;
	struct pattern side[2];	/* left and right of "a/b" */
	size_t first_run[2];	/* its runs: run[first_run[s] .. first_run[s] + nrun[s]) */
	size_t nrun[2];
};

/*
 * A run of consecutive symbols matching one side of one spec; gprof makes
 * one table entry of each (its extend_match()).
 */
struct run {
	uint32_t start, last;	/* symbol indices */
	uint32_t rank;		/* the spec's place in gprof's processing (newest first) */
	uint32_t side;		/* 0: left, 1: right */
	uint32_t entry;		/* index in its table once placed */
};

/* What symspec_build() works with. */
struct build {
	struct spec *sp;	/* in processing order: the last option first */
	size_t nspec;
	const struct symtab *syms;
	char lead;		/* the target's leading char, ignored in names */
	uint32_t *next_same;	/* next symbol (ascending) with the same name hash */
	struct u64map byname;	/* name hash -> first symbol with it */
	const uint32_t *by_name;	/* or: the symbols by raw name (strcmp), ties ascending */
	uint32_t *cand;		/* with by_name: the symbols a name may match, ascending */
	size_t ncand, candcap;
	struct run *run;	/* in creation order */
	size_t nrun, runcap;
	struct symtab_ent *ent[SPEC_NTABLES + 1];	/* unsorted tables, then RIGHT */
	uint32_t len[SPEC_NTABLES + 1];
};

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static uint32_t
file_of(const struct srcfiles *files, const char *base)
{
	uint32_t f = srcfiles_by_basename(files, base);

	return f == U64MAP_NONE ? FILE_MISSING : f;
}

/* gprof's parse_spec(): FILE:FUNC, FILE:LINE, FILE.c, LINE or FUNC. */
static void
parse_spec(char *s, struct pattern *p, const struct srcfiles *files)
{
	char *colon = strrchr(s, ':');

	p->file = FILE_ANY;
	p->line = 0;
	p->name = NULL;
	if (colon != NULL) {
		*colon = '\0';
		if (colon > s)
			p->file = file_of(files, s);
		s = colon + 1;
		if (is_digit(s[0]))
			p->line = atoi(s);
		else if (s[0] != '\0')
			p->name = s;
	} else if (strchr(s, '.') != NULL) {
		p->file = file_of(files, s);
	} else if (is_digit(s[0])) {
		p->line = atoi(s);
	} else if (s[0] != '\0') {
		p->name = s;
	}
}

/* gprof's parse_id(): SPEC or SPEC/SPEC (split at the first '/'). */
static void
parse_id(struct spec *sp, const struct srcfiles *files)
{
	char *slash = strchr(sp->copy, '/');

	if (slash != NULL) {
		parse_spec(slash + 1, &sp->side[1], files);
		*slash = '\0';
		sp->has_right = 1;
	}
	parse_spec(sp->copy, &sp->side[0], files);
}

/* The symbol name a pattern is compared with: without the target's leading char. */
static const char *
plain_name(const char *name, char lead)
{
	return name[0] != '\0' && name[0] == lead ? name + 1 : name;
}

static int
matches(const struct pattern *p, const struct symtab_ent *e, char lead)
{
	if (p->file != FILE_ANY && p->file != e->file)
		return 0;
	if (p->line != 0 && p->line != e->line)
		return 0;
	return p->name == NULL || strcmp(p->name, plain_name(e->name, lead)) == 0;
}

/* The first 8 bytes of S, as far as its NUL (zeros after): names that differ there are not equal. */
static uint64_t
head8(const char *s)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < 8 && s[i] != '\0'; i++)
		h |= (uint64_t)(unsigned char)s[i] << (8 * i);
	return h;
}

/* Whether HEAD is one of the N heads in WANT (a few: the specs' names). */
static int
wanted_head(const uint64_t *want, size_t n, uint64_t head)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (want[k] == head)
			return 1;
	return 0;
}

/*
 * Chains the symbols by name hash, so a named pattern only looks at its
 * namesakes; only the names some spec looks up (match_runs()) are
 * chained.  A symbol's name is hashed only if it begins as one of them
 * (the names are long, all over memory, and seldom any spec's).
 */
static int
index_names(struct build *b)
{
	struct u64map wanted;
	uint64_t *head = mem_array(2 * b->nspec + 1, sizeof *head);
	const struct symtab_ent *e = b->syms->ent;
	size_t k, nhead = 0;
	uint32_t i;
	int side, rc = head == NULL ? -1 : 0;

	u64map_init(&wanted);
	for (k = 0; rc == 0 && k < b->nspec; k++)
		for (side = 0; rc == 0 && side < 2; side++)
			if (b->sp[k].side[side].name != NULL) {
				head[nhead++] = head8(b->sp[k].side[side].name);
				rc = u64map_put(&wanted, u64map_strhash(b->sp[k].side[side].name), 0);
			}
	b->next_same = mem_array(b->syms->len, sizeof *b->next_same);
	if (rc != 0 || b->next_same == NULL) {
		u64map_release(&wanted);
		free(head);
		return -1;
	}
	for (i = b->syms->len; rc == 0 && nhead > 0 && i-- > 0;) {
		const char *name = plain_name(e[i].name, b->lead);
		uint64_t h;

		if (i >= 16)
			__builtin_prefetch(e[i - 16].name);
		if (!wanted_head(head, nhead, head8(name)) ||
		    u64map_get(&wanted, h = u64map_strhash(name)) == U64MAP_NONE)
			continue;	/* no spec reads its chain */
		b->next_same[i] = u64map_get(&b->byname, h);
		rc = u64map_put(&b->byname, h, i);
	}
	u64map_release(&wanted);
	free(head);
	return rc;
}

static int
add_run(struct build *b, uint32_t start, uint32_t last, uint32_t rank, uint32_t side)
{
	if (mem_reserve(&b->run, &b->runcap, b->nrun + 1, sizeof *b->run) != 0)
		return -1;
	b->run[b->nrun].start = start;
	b->run[b->nrun].last = last;
	b->run[b->nrun].rank = rank;
	b->run[b->nrun].side = side;
	b->nrun++;
	return 0;
}

/* The symbols named KEY (raw), appended to cand in ascending order: an equal range of by_name. */
static int
add_named(struct build *b, const char *key)
{
	const struct symtab_ent *e = b->syms->ent;
	size_t lo = 0, hi = b->syms->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(e[b->by_name[mid]].name, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < b->syms->len && strcmp(e[b->by_name[lo]].name, key) == 0; lo++) {
		if (mem_reserve(&b->cand, &b->candcap, b->ncand + 1, sizeof *b->cand) != 0)
			return -1;
		b->cand[b->ncand++] = b->by_name[lo];
	}
	return 0;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t l = *(const uint32_t *)a, r = *(const uint32_t *)b;

	return l < r ? -1 : l > r;
}

/* With by_name, the symbols whose plain name may be NAME: NAME itself, and with the leading char. */
static int
namesakes(struct build *b, const char *name)
{
	size_t len = strlen(name);
	char *lead;
	int rc;

	b->ncand = 0;
	if (add_named(b, name) != 0)
		return -1;
	if (b->lead == '\0')
		return 0;
	if ((lead = mem_array(len + 2, 1)) == NULL)
		return -1;
	lead[0] = b->lead;
	memcpy(lead + 1, name, len + 1);
	rc = add_named(b, lead);
	free(lead);
	qsort(b->cand, b->ncand, sizeof *b->cand, cmp_u32);
	return rc;
}

/* A run grows while the symbols matching come one after the other. */
struct runs {
	uint32_t start, last;
	int open;
};

static int
visit(struct build *b, struct runs *r, uint32_t i, uint32_t rank, uint32_t side)
{
	if (r->open && i == r->last + 1) {
		r->last = i;
		return 0;
	}
	if (r->open && add_run(b, r->start, r->last, rank, side) != 0)
		return -1;
	r->start = r->last = i;
	r->open = 1;
	return 0;
}

/* The runs of symbols side SIDE of spec RANK matches, in address order. */
static int
match_runs(struct build *b, uint32_t rank, uint32_t side)
{
	const struct pattern *pat = &b->sp[rank].side[side];
	const struct symtab_ent *e = b->syms->ent;
	uint32_t n = b->syms->len, i;
	struct runs r = { 0, 0, 0 };
	size_t k;

	b->sp[rank].first_run[side] = b->nrun;
	if (pat->name != NULL && b->by_name != NULL) {
		if (namesakes(b, pat->name) != 0)
			return -1;
		for (k = 0; k < b->ncand; k++)
			if (matches(pat, &e[b->cand[k]], b->lead) && visit(b, &r, b->cand[k], rank, side) != 0)
				return -1;
	} else {
		i = pat->name != NULL ? u64map_get(&b->byname, u64map_strhash(pat->name)) : 0;
		for (; i < n; i = pat->name != NULL ? b->next_same[i] : i + 1)
			if (matches(pat, &e[i], b->lead) && visit(b, &r, i, rank, side) != 0)
				return -1;
	}
	if (r.open && add_run(b, r.start, r.last, rank, side) != 0)
		return -1;
	b->sp[rank].nrun[side] = b->nrun - b->sp[rank].first_run[side];
	return 0;
}

/*
 * gprof visits the symbols in address order and, for each, the specs in
 * processing order, left before right: a run's entry is made when its
 * first symbol is visited.  That order decides ties in symtab_finalize()
 * and so must be kept.
 */
static int
cmp_run(const void *a, const void *b, void *ctx)
{
	const struct run *run = ctx, *l = &run[*(const uint32_t *)a], *r = &run[*(const uint32_t *)b];

	if (l->start != r->start)
		return l->start < r->start ? -1 : 1;
	if (l->rank != r->rank)
		return l->rank < r->rank ? -1 : 1;
	return l->side < r->side ? -1 : l->side > r->side;
}

static int
table_of(const struct build *b, const struct run *r)
{
	return r->side ? RIGHT : (int)b->sp[r->rank].table;
}

/* Makes the table entries of all runs, in gprof's order. */
static int
place_runs(struct build *b)
{
	uint32_t *order = mem_array(b->nrun, sizeof *order), i;
	int t;

	if (order == NULL)
		return -1;
	for (i = 0; i < b->nrun; i++) {
		order[i] = i;
		b->len[table_of(b, &b->run[i])]++;
	}
	for (t = 0; t <= RIGHT; t++) {
		b->ent[t] = mem_array(b->len[t], sizeof *b->ent[t]);
		if (b->ent[t] == NULL) {
			free(order);
			return -1;
		}
		b->len[t] = 0;
	}
	if (msort_ids(order, b->nrun, cmp_run, b->run) != 0) {
		free(order);
		return -1;
	}
	for (i = 0; i < b->nrun; i++) {
		struct run *r = &b->run[order[i]];
		int tt = table_of(b, r);
		struct symtab_ent *e = &b->ent[tt][b->len[tt]];

		*e = b->syms->ent[r->start];
		e->end_addr = b->syms->ent[r->last].end_addr;
		e->aux = SYMTAB_NONE;
		r->entry = b->len[tt]++;
	}
	free(order);
	return 0;
}

/* gprof's arc_add() on table copies: a new arc unless one already covers the callee. */
static int
add_spec_arc(struct symspecs *ss, struct symtab_ent *left, const struct symtab_ent *right)
{
	uint32_t a;

	for (a = left->aux; a != SYMTAB_NONE; a = ss->arc[a].next)
		if (right->addr >= ss->arc[a].child_addr && right->end_addr <= ss->arc[a].child_end)
			return 0;
	if (mem_reserve(&ss->arc, &ss->arccap, ss->narcs + 1, sizeof *ss->arc) != 0)
		return -1;
	ss->arc[ss->narcs].child_addr = right->addr;
	ss->arc[ss->narcs].child_end = right->end_addr;
	ss->arc[ss->narcs].next = left->aux;
	left->aux = (uint32_t)ss->narcs++;
	return 0;
}

/* "a/b" specs: an arc from every left run to every right run, newest runs first. */
static int
make_arcs(struct symspecs *ss, struct build *b)
{
	size_t k, l, r;

	for (k = 0; k < b->nspec; k++) {
		const struct spec *sp = &b->sp[k];

		if (!sp->has_right)
			continue;
		for (l = sp->nrun[0]; l-- > 0;) {
			const struct run *lr = &b->run[sp->first_run[0] + l];

			for (r = sp->nrun[1]; r-- > 0;) {
				const struct run *rr = &b->run[sp->first_run[1] + r];

				if (add_spec_arc(ss, &b->ent[sp->table][lr->entry],
				    &b->ent[RIGHT][rr->entry]) != 0)
					return -1;
			}
		}
	}
	return 0;
}

/* The specs in gprof's processing order: it prepends each to its list. */
static int
new_specs(struct build *b, const struct pf_spec *req, size_t nreq, const struct srcfiles *files)
{
	size_t k;

	b->sp = mem_calloc(nreq, sizeof *b->sp);
	if (b->sp == NULL)
		return -1;
	b->nspec = nreq;	/* filled from the end: free_build() frees them all, NULL or not */
	for (k = 0; k < nreq; k++) {
		struct spec *sp = &b->sp[nreq - 1 - k];

		sp->copy = mem_strndup(req[k].text, strlen(req[k].text));
		if (sp->copy == NULL)
			return -1;
		sp->table = req[k].table;
		parse_id(sp, files);
	}
	return 0;
}

static void
free_build(struct build *b)
{
	size_t k;
	int t;

	for (t = 0; t <= RIGHT; t++)
		free(b->ent[t]);
	for (k = 0; b->sp != NULL && k < b->nspec; k++)
		free(b->sp[k].copy);
	free(b->sp);
	free(b->run);
	free(b->next_same);
	free(b->cand);
	u64map_release(&b->byname);
}

static int
build_tables(struct symspecs *ss, struct build *b)
{
	uint32_t k;

	if (b->nspec > 0 && b->by_name == NULL && index_names(b) != 0)
		return -1;	/* (no spec, no name to find) */
	for (k = 0; k < b->nspec; k++)
		if (match_runs(b, k, 0) != 0 || (b->sp[k].has_right && match_runs(b, k, 1) != 0))
			return -1;
	return place_runs(b) != 0 || make_arcs(ss, b) != 0 ? -1 : 0;
}

int
symspec_build(struct symspecs *ss, const struct pf_spec *req, size_t nreq,
    const struct symtab *syms, const struct srcfiles *files, char lead, uint64_t text_end)
{
	return symspec_build_sorted(ss, req, nreq, syms, NULL, files, lead, text_end);
}

int
symspec_build_sorted(struct symspecs *ss, const struct pf_spec *req, size_t nreq,
    const struct symtab *syms, const uint32_t *by_name, const struct srcfiles *files, char lead,
    uint64_t text_end)
{
	struct build b;
	int t, rc = -1;

	memset(ss, 0, sizeof *ss);
	memset(&b, 0, sizeof b);
	u64map_init(&b.byname);
	b.syms = syms;
	b.by_name = by_name;
	b.lead = lead;
	if (new_specs(&b, req, nreq, files) != 0 || build_tables(ss, &b) != 0)
		goto out;
	for (t = 0; t < SPEC_NTABLES; t++) {
		struct symtab_ent *ent = b.ent[t];

		b.ent[t] = NULL;	/* symtab_finalize() takes it, and frees it if it fails */
		if (symtab_finalize(&ss->table[t], ent, b.len[t], text_end) != 0)
			goto out;
	}
	rc = 0;
out:
	free_build(&b);
	return rc;
}

void
symspec_release(struct symspecs *ss)
{
	int t;

	for (t = 0; t < SPEC_NTABLES; t++)
		symtab_release(&ss->table[t]);
	free(ss->arc);
	memset(ss, 0, sizeof *ss);
}

int
symspec_has(const struct symspecs *ss, enum spec_table t, uint64_t addr)
{
	return symtab_lookup(ss->table[t].ent, ss->table[t].len, addr) >= 0;
}

int
symspec_empty(const struct symspecs *ss, enum spec_table t)
{
	return ss->table[t].len == 0;
}

int
symspec_arc_present(const struct symspecs *ss, enum spec_table t,
    uint64_t from, uint64_t to, uint64_t to_end)
{
	const struct symtab *tab = &ss->table[t];
	uint32_t i, a;

	for (i = 0; i < tab->len; i++) {
		const struct symtab_ent *e = &tab->ent[i];

		if (from < e->addr || from > e->end_addr)
			continue;
		for (a = e->aux; a != SYMTAB_NONE; a = ss->arc[a].next)
			if (to >= ss->arc[a].child_addr && to_end <= ss->arc[a].child_end)
				return 1;
	}
	return 0;
}

int
symspec_chosen(const struct symspecs *ss, enum spec_table incl, uint64_t addr)
{
	return symspec_has(ss, incl, addr) ||
	    (symspec_empty(ss, incl) && !symspec_has(ss, incl + 1, addr));
}

int
symspec_refused(const struct symspecs *ss, enum spec_table incl, uint64_t addr)
{
	return !symspec_has(ss, incl, addr) && symspec_has(ss, incl + 1, addr);
}

int
symspec_arc_chosen(const struct symspecs *ss, enum spec_table incl,
    uint64_t from, uint64_t to, uint64_t to_end)
{
	return symspec_arc_present(ss, incl, from, to, to_end) ||
	    (symspec_empty(ss, incl) && !symspec_arc_present(ss, incl + 1, from, to, to_end));
}
