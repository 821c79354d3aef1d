/* symspec: gprof's symbol specifications (func, file.c, file:line, a/b) turned into address tables. */
#include "symspec.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

#define FILE_ANY	UINT32_MAX		/* the spec names no file */
#define FILE_MISSING	(UINT32_MAX - 1)	/* names a file that does not exist */

/* One side of a spec: what a symbol must match. */
struct pattern {
	uint32_t file;		/* FILE_ANY, FILE_MISSING or a file id */
	int line;		/* 0 = any */
	const char *name;	/* NULL = any; points into the owning spec's copy */
};

/* Runs of consecutive matching symbols become one table entry each. */
struct match {
	long prev;		/* index of the previous matching symbol */
	long prev_entry;	/* table index of the run being extended */
	uint32_t first;		/* newest run: SYMTAB_NONE-terminated via chain[] */
};

struct spec {
	char *copy;		/* owned, cut in place at ':' and '/' */
	enum spec_table table;
	int has_right;
	struct pattern left, right;
	struct match lm, rm;
};

/* Tables under construction (unsorted) plus the right-hand sides of arcs. */
struct build {
	struct symtab_ent *ent[SPEC_NTABLES + 1];	/* the last one: right-hand sides */
	uint32_t len[SPEC_NTABLES + 1];
	uint32_t *chain[SPEC_NTABLES + 1];		/* previous run of the same spec */
};

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void
parse_spec(char *s, struct pattern *p, const struct srcfiles *files)
{
	char *colon = strrchr(s, ':');

	p->file = FILE_ANY;
	p->line = 0;
	p->name = NULL;
	if (colon != NULL) {
		*colon = '\0';
		if (colon > s) {
			p->file = srcfiles_by_basename(files, s);
			if (p->file == U64MAP_NONE)
				p->file = FILE_MISSING;
		}
		s = colon + 1;
		if (is_digit(s[0]))
			p->line = atoi(s);
		else if (s[0] != '\0')
			p->name = s;
	} else if (strchr(s, '.') != NULL) {
		p->file = srcfiles_by_basename(files, s);
		if (p->file == U64MAP_NONE)
			p->file = FILE_MISSING;
	} else if (is_digit(s[0])) {
		p->line = atoi(s);
	} else if (s[0] != '\0') {
		p->name = s;
	}
}

static void
parse_id(struct spec *sp, const struct srcfiles *files)
{
	char *slash = strchr(sp->copy, '/');

	if (slash != NULL) {
		parse_spec(slash + 1, &sp->right, files);
		*slash = '\0';
		sp->has_right = 1;
	}
	parse_spec(sp->copy, &sp->left, files);
}

static int
matches(const struct pattern *p, const struct symtab_ent *e, char lead)
{
	const char *name = e->name;

	if (p->file != FILE_ANY && p->file != e->file)
		return 0;
	if (p->line != 0 && p->line != e->line)
		return 0;
	if (p->name != NULL) {
		if (name[0] != '\0' && name[0] == lead)
			name++;
		if (strcmp(p->name, name) != 0)
			return 0;
	}
	return 1;
}

/* gprof's extend_match(): counts runs in the first pass, fills them in the second. */
static void
extend(struct match *m, long i, const struct symtab_ent *e, struct build *b, int t, int fill)
{
	if (m->prev != i - 1) {
		if (fill) {
			b->ent[t][b->len[t]] = *e;
			b->ent[t][b->len[t]].aux = SYMTAB_NONE;
			b->chain[t][b->len[t]] = m->first;
			m->first = b->len[t];
			m->prev_entry = b->len[t];
		}
		b->len[t]++;
	}
	if (fill)
		b->ent[t][m->prev_entry].end_addr = e->end_addr;
	m->prev = i;
}

static void
match_all(struct spec *sp, size_t n, const struct symtab *syms, struct build *b,
    char lead, int fill)
{
	uint32_t i;
	size_t k;

	for (i = 0; i < syms->len; i++) {
		for (k = n; k-- > 0;) {
			const struct symtab_ent *e = &syms->ent[i];

			if (matches(&sp[k].left, e, lead))
				extend(&sp[k].lm, i, e, b, sp[k].table, fill);
			if (sp[k].has_right && matches(&sp[k].right, e, lead))
				extend(&sp[k].rm, i, e, b, SPEC_NTABLES, fill);
		}
	}
}

static int
alloc_build(struct build *b)
{
	int t;

	for (t = 0; t <= SPEC_NTABLES; t++) {
		b->ent[t] = mem_array(b->len[t], sizeof *b->ent[t]);
		b->chain[t] = mem_array(b->len[t], sizeof *b->chain[t]);
		if (b->ent[t] == NULL || b->chain[t] == NULL)
			return -1;
		b->len[t] = 0;
	}
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

static int
make_arcs(struct symspecs *ss, struct spec *sp, size_t n, struct build *b)
{
	uint32_t l, r;
	size_t k;

	for (k = n; k-- > 0;) {
		int t = sp[k].table;

		if (!sp[k].has_right)
			continue;
		for (l = sp[k].lm.first; l != SYMTAB_NONE; l = b->chain[t][l])
			for (r = sp[k].rm.first; r != SYMTAB_NONE; r = b->chain[SPEC_NTABLES][r])
				if (add_spec_arc(ss, &b->ent[t][l], &b->ent[SPEC_NTABLES][r]) != 0)
					return -1;
	}
	return 0;
}

static struct spec *
new_specs(const struct spec_req *req, size_t nreq, const struct srcfiles *files)
{
	struct spec *sp = mem_calloc(nreq, sizeof *sp);
	size_t k;

	if (sp == NULL)
		return NULL;
	for (k = 0; k < nreq; k++) {
		sp[k].copy = mem_strndup(req[k].text, strlen(req[k].text));
		if (sp[k].copy == NULL)
			return sp;	/* caller sees the NULL copy */
		sp[k].table = req[k].table;
		sp[k].lm.prev = sp[k].rm.prev = LONG_MIN;
		sp[k].lm.first = sp[k].rm.first = SYMTAB_NONE;
		parse_id(&sp[k], files);
	}
	return sp;
}

static void
free_build(struct build *b, struct spec *sp, size_t n)
{
	int t;

	for (t = 0; t <= SPEC_NTABLES; t++) {
		free(b->ent[t]);
		free(b->chain[t]);
	}
	for (size_t k = 0; sp != NULL && k < n; k++)
		free(sp[k].copy);
	free(sp);
}

int
symspec_build(struct symspecs *ss, const struct spec_req *req, size_t nreq,
    const struct symtab *syms, const struct srcfiles *files, char lead, uint64_t text_end)
{
	struct build b;
	struct spec *sp;
	int t, rc = -1;

	memset(ss, 0, sizeof *ss);
	memset(&b, 0, sizeof b);
	sp = new_specs(req, nreq, files);
	for (size_t k = 0; sp != NULL && k < nreq; k++)
		if (sp[k].copy == NULL)
			goto out;
	if (sp == NULL)
		goto out;
	match_all(sp, nreq, syms, &b, lead, 0);
	if (alloc_build(&b) != 0)
		goto out;
	match_all(sp, nreq, syms, &b, lead, 1);
	if (make_arcs(ss, sp, nreq, &b) != 0)
		goto out;
	for (t = 0; t < SPEC_NTABLES; t++) {
		if (symtab_finalize(&ss->table[t], b.ent[t], b.len[t], text_end) != 0)
			goto out;
		b.ent[t] = NULL;	/* owned by the table now */
	}
	rc = 0;
out:
	free_build(&b, sp, nreq);
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
	return symtab_lookup(ss->table[t].ent, sizeof(struct symtab_ent),
	    ss->table[t].len, addr) >= 0;
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
