/* syms: builds the profile's symbols from the executable (functions, -l lines) or an -S table. */
#include "syms.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clones.h"
#include "core.h"
#include "linemap.h"
#include "truth.h"
#include "dwarf/srcmap.h"
#include "input/clonename.h"
#include "util/sysmem.h"

/* A growing array of table entries. */
struct entvec {
	struct symtab_ent *v;
	uint32_t n;
	size_t cap;
};

static int
push(struct entvec *ev, const struct symtab_ent *e)
{
	if (ev->n == UINT32_MAX - 1 || mem_reserve(&ev->v, &ev->cap, ev->n + 1, sizeof *ev->v) != 0)
		return -1;
	ev->v[ev->n++] = *e;
	return 0;
}

static uint64_t
text_end(const struct pf_private *pv)
{
	return bin_text_vma(pv->bin) + bin_text_size(pv->bin) - 1;
}

/*
 * Where source positions come from: a srcmap when tgprof can read the
 * DWARF itself, else libbfd, asked as gprof asks it.  Either way the
 * questions come in gprof's order, as libbfd's answers depend on it.
 */
struct srcq {
	struct srcmap *map;		/* NULL: ask libbfd */
	uint32_t *file_id;		/* srcmap file -> pv->files id, U64MAP_NONE until seen */
};

static void
srcq_release(struct srcq *q)
{
	srcmap_free(q->map);
	free(q->file_id);
	q->map = NULL;
	q->file_id = NULL;
}

/* The files id of srcmap file F; source files are created as gprof meets them. */
static uint32_t
map_file(struct pf_private *pv, struct srcq *q, uint32_t f)
{
	if (q->file_id[f] == U64MAP_NONE)
		q->file_id[f] = srcfiles_intern(&pv->files, srcmap_file_name(q->map, f));
	return q->file_id[f];
}

/* File id and line of ADDR from the debugging information, as gprof's get_src_info(). */
static int
src_info(struct pf_private *pv, struct srcq *q, uint64_t addr, struct symtab_ent *e,
    const char **func)
{
	const char *file;
	uint32_t f;

	e->file = SYMTAB_NONE;
	e->line = 0;
	if (q->map != NULL) {
		if (!srcmap_query(q->map, addr, &f, &e->line, func))
			return 0;
		e->file = map_file(pv, q, f);
	} else {
		if (!bin_src_info(pv->bin, addr, &file, func, &e->line))
			return 0;
		e->file = srcfiles_intern(&pv->files, file);
	}
	return e->file == U64MAP_NONE ? -1 : 1;
}

/*
 * A srcmap for the questions at the N entries of EV, or none (libbfd is
 * then asked) when the DWARF is beyond it or it cannot answer them all.
 */
static int
srcq_open(struct pf_private *pv, struct srcq *q, const struct entvec *ev)
{
	uint32_t i;
	size_t k, n;

	q->map = bin_has_lines(pv->bin) ? srcmap_build(pv->bin) : NULL;
	q->file_id = NULL;
	for (i = 0; q->map != NULL && i < ev->n; i++)
		if (!srcmap_can_answer(q->map, ev->v[i].addr))
			srcq_release(q);
	if (q->map == NULL)
		return 0;
	n = srcmap_nfiles(q->map);
	if ((q->file_id = mem_array(n + 1, sizeof *q->file_id)) == NULL)
		return -1;
	for (k = 0; k < n; k++)
		q->file_id[k] = U64MAP_NONE;
	return 0;
}

/* gprof's core_create_function_syms(): one entry per accepted symbol. */
static int
function_syms(struct pf_private *pv, const struct pf_opts *o, struct srcq *q,
    struct symtab *out, struct diag *d)
{
	struct bin_symopts so = { o->no_static, o->functions_only, o->clones != PF_CLONES_GPROF };
	struct entvec ev = { NULL, 0, 0 };
	struct bin_sym bs;
	const char *func;
	uint32_t k;
	size_t i;

	for (i = 0; i < bin_nsyms(pv->bin); i++) {
		const struct mapfile_ent *m = NULL;
		struct symtab_ent e;

		bin_sym(pv->bin, i, &so, &bs);
		if (bs.cls == 0)
			continue;
		/* -R: an object file stands for its functions; only its first is kept. */
		if (pv->map.n > 0 && (m = mapfile_find(&pv->map, bs.name)) != NULL && !m->is_first)
			continue;
		memset(&e, 0, sizeof e);
		e.addr = bs.addr;
		e.name = m != NULL ? m->file : bs.name;
		e.mapped = m != NULL;
		e.is_func = (uint8_t)bs.is_func;
		e.is_static = bs.cls == 't';
		e.aux = SYMTAB_NONE;
		if (push(&ev, &e) != 0)
			goto oom;
	}
	if (ev.n == 0) {
		free(ev.v);
		diag_add(d, DIAG_ERROR, "%s: file has no symbols", o->image);
		return -1;
	}
	if (srcq_open(pv, q, &ev) != 0)
		goto oom;
	for (k = 0; k < ev.n; k++)
		if (src_info(pv, q, ev.v[k].addr, &ev.v[k], &func) < 0)
			goto oom;
	if (symtab_finalize(out, ev.v, ev.n, text_end(pv)) != 0)
		return diag_oom(d);
	return 0;
oom:
	free(ev.v);
	return diag_oom(d);
}

/* While -l builds its table: the function symbols, the entries so far, the last one made. */
struct linewalk {
	struct pf_private *pv;
	struct srcq *q;
	const struct symtab *fn;
	struct entvec ev;
	long prev;
};

/*
 * A line symbol at ADDR for the answer E, FUNC, unless it continues the
 * last one made; it is static if its function is.
 */
static int
line_sym(struct linewalk *w, uint64_t addr, struct symtab_ent *e, const char *func)
{
	const struct symtab_ent *pe = w->prev >= 0 ? &w->ev.v[w->prev] : NULL;
	long f;

	if (pe != NULL && pe->line == e->line && strcmp(pe->name, func) == 0 && pe->file == e->file)
		return 0;
	e->addr = addr;
	e->end_addr = 0;
	e->is_func = 0;
	e->mapped = 0;
	e->aux = SYMTAB_NONE;
	e->is_static = 0;
	if (pe != NULL && pe->file == e->file && strcmp(pe->name, func) == 0) {
		e->is_static = pe->is_static;
		e->name = pe->name;
	} else {
		f = symtab_lookup(w->fn->ent, w->fn->len, addr);
		if (f >= 0)
			e->is_static = w->fn->ent[f].is_static;
		e->name = strpool_dup(&w->pv->names, func);
	}
	if (e->name == NULL || push(&w->ev, e) != 0)
		return -1;
	w->prev = (long)w->ev.n - 1;
	return 0;
}

static int
walk_line_sym(void *ctx, uint64_t addr, uint32_t file, int line, const char *func)
{
	struct linewalk *w = ctx;
	struct symtab_ent e;

	e.line = line;
	e.file = map_file(w->pv, w->q, file);
	return e.file == U64MAP_NONE ? -1 : line_sym(w, addr, &e, func);
}

/* Both of gprof's walks, asking libbfd about every text byte. */
static int
byte_walks(struct linewalk *w)
{
	uint64_t vma = bin_text_vma(w->pv->bin), end = vma + bin_text_size(w->pv->bin), a;
	const char *file, *func;
	struct symtab_ent e;
	int rc;

	for (a = vma; a < end; a++)
		bin_src_info(w->pv->bin, a, &file, &func, &e.line);
	for (a = vma; a < end; a++)
		if ((rc = src_info(w->pv, w->q, a, &e, &func)) < 0 ||
		    (rc > 0 && line_sym(w, a, &e, func) != 0))
			return -1;
	return 0;
}

/*
 * gprof's core_create_line_syms(): a symbol wherever (file, line, function)
 * changes along the text, one text byte at a time, plus the functions.
 * gprof walks twice, counting and then building.  libbfd's answers change
 * as it is asked (see srcmap.h); during the first walk it can name an
 * inlined function after its caller and gprof then aborts ("somebody
 * miscounted").  tgprof makes the same first walk, for its effect, and
 * builds from the second, so it gets gprof's table, and a correct one
 * where gprof aborts.
 */
static int
line_syms(struct pf_private *pv, const struct pf_opts *o, struct srcq *q, struct symtab *out,
    struct diag *d)
{
	struct symtab fn;
	struct linewalk w = { pv, q, NULL, { NULL, 0, 0 }, -1 };
	uint32_t i;
	int rc;

	if (function_syms(pv, o, q, &fn, d) != 0)
		return -1;
	w.fn = &fn;
	if (q->map != NULL) {
		rc = mem_reserve(&w.ev.v, &w.ev.cap, srcmap_nspans(q->map) + fn.len, sizeof *w.ev.v);
		srcmap_walk(q->map, NULL, NULL);
		if (rc == 0)
			rc = srcmap_walk(q->map, walk_line_sym, &w);
	} else {
		rc = byte_walks(&w);
	}
	for (i = 0; rc == 0 && i < fn.len; i++)
		rc = push(&w.ev, &fn.ent[i]);
	symtab_release(&fn);
	if (rc != 0) {
		free(w.ev.v);
		return diag_oom(d);
	}
	if (symtab_finalize(out, w.ev.v, w.ev.n, text_end(pv)) != 0)
		return diag_oom(d);
	return 0;
}

static int
line_span(void *ctx, uint64_t addr, uint32_t file, uint32_t line)
{
	struct linewalk *w = ctx;
	uint32_t f = PF_NONE;

	if (file != SRCMAP_NOFILE && line != 0 && (f = map_file(w->pv, w->q, file)) == U64MAP_NONE)
		return -1;
	return linemap_add(&w->pv->lines, addr, f, f != PF_NONE ? line : 0);
}

/*
 * pf_opts.source_lines: the line table over the whole text, for
 * profile_lines(), with its files added to the profile's.  From the
 * srcmap, or libbfd asked about every byte (after gprof's questions).
 */
static int
keep_lines(struct pf_private *pv, struct srcq *q)
{
	struct linewalk w = { pv, q, NULL, { NULL, 0, 0 }, -1 };
	uint64_t a = bin_text_vma(pv->bin), end = a + bin_text_size(pv->bin);
	const char *file, *func;
	int line, rc = 0;

	if (q->map == NULL && q->file_id == NULL && srcq_open(pv, q, &w.ev) != 0)
		return -1;
	pv->lines.end = end;
	if (q->map != NULL) {
		rc = srcmap_lines(q->map, line_span, &w);
	} else if (!bin_has_lines(pv->bin)) {
		/* libbfd knows no line: the byte walk's one span, without the walk. */
		if (a < end)
			rc = linemap_add(&pv->lines, a, PF_NONE, 0);
	} else {
		for (; rc == 0 && a < end; a++) {
			uint32_t f = PF_NONE;

			if (bin_src_info(pv->bin, a, &file, &func, &line) &&
			    (f = srcfiles_intern(&pv->files, file)) == U64MAP_NONE)
				return -1;
			rc = linemap_add(&pv->lines, a, f, f != PF_NONE ? (uint32_t)line : 0);
		}
	}
	pv->lines.kept = rc == 0;
	return rc;
}

/*
 * One "address type name" line of an -S file; 1 if it is a text symbol.
 * When the address does not parse, gprof keeps the value its variable
 * held, the previous text symbol's address: *LAST carries it.
 */
static int
parse_ext_line(const char *buf, struct symtab_ent *e, char *name, uint64_t *last)
{
	char address[1024], type;

	if (sscanf(buf, "%1023s %c %1023s", address, &type, name) != 3)
		return 0;
	if (type != 't' && type != 'T')
		return 0;
	memset(e, 0, sizeof *e);
	sscanf(address, "%" SCNx64, last);
	e->addr = *last;
	e->is_func = 1;
	e->is_static = type == 't';
	e->file = SYMTAB_NONE;
	e->aux = SYMTAB_NONE;
	return 1;
}

/* gprof's core_create_syms_from(): symbols from an nm or /proc/kallsyms listing. */
static int
external_syms(struct pf_private *pv, const char *path, struct symtab *out, struct diag *d)
{
	struct entvec ev = { NULL, 0, 0 };
	char buf[1024], name[1024];
	struct symtab_ent e;
	uint64_t last = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		diag_add(d, DIAG_ERROR, "%s: could not open: %s", path, strerror(errno));
		return -1;
	}
	/* gprof reads with fgets(buf, 1023): longer lines are split. */
	while (fgets(buf, sizeof buf - 1, f) != NULL) {
		if (!parse_ext_line(buf, &e, name, &last))
			continue;
		if ((e.name = strpool_dup(&pv->names, name)) == NULL || push(&ev, &e) != 0) {
			fclose(f);
			free(ev.v);
			return diag_oom(d);
		}
	}
	fclose(f);
	if (ev.n == 0) {
		free(ev.v);
		diag_add(d, DIAG_ERROR, "%s: file has no symbols", path);
		return -1;
	}
	if (symtab_finalize(out, ev.v, ev.n, text_end(pv)) != 0)
		return diag_oom(d);
	return 0;
}

/*
 * The table's symbols are the functions' bound (data and other symbols
 * are dropped, their pages given back by prepared()): not where that
 * much memory is short.
 */
void
syms_prepare(struct profile *p, const struct pf_opts *o)
{
	struct pf_private *pv = p->priv;
	size_t n = bin_nsyms(pv->bin), avail = sysmem_available();

	prefault_init(&pv->sym_fault);
	if (o->line || o->extsyms != NULL || n == 0 || n > SIZE_MAX / 4 / sizeof *p->sym ||
	    (avail != 0 && n * sizeof *p->sym > avail / 4) ||
	    mem_reserve_lines(&p->sym, &pv->symcap, n + n / 2 + 1, sizeof *p->sym) != 0)
		return;
	prefault_add(&pv->sym_fault, p->sym, n * sizeof *p->sym);
	prefault_start(&pv->sym_fault);
}

/*
 * syms_prepare()'s helper stopped, and the pages it faulted in beyond the
 * N symbols given back (the executable's table has more symbols than
 * functions): the cycle headers' room is touched only as they are added.
 */
static void
prepared(struct profile *p, size_t n)
{
	struct pf_private *pv = p->priv;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from, to;

	prefault_stop(&pv->sym_fault);
	if (pv->sym_fault.n == 0 || pv->sym_fault.start[0] != (void *)p->sym)
		return;		/* (nothing faulted: P->sym may be NULL) */
	from = ((uintptr_t)(p->sym + n) + page - 1) & ~(page - 1);
	to = (uintptr_t)pv->sym_fault.start[0] + pv->sym_fault.len[0];
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
	pv->sym_fault.n = 0;
}

/* The profile's symbols from the finalized table. */
static int
make_syms(struct profile *p, const struct pf_opts *o, const struct symtab *tab, struct diag *d)
{
	uint32_t i;

	/*
	 * Room for the cycle headers too (at most one per two symbols), so
	 * that adding them never moves the array; only the symbols' part is
	 * touched now.
	 */
	if ((size_t)tab->len + tab->len / 2 + 1 > p->priv->symcap) {
		prefault_stop(&p->priv->sym_fault);	/* the array moves: the helper's range is gone */
		p->priv->sym_fault.n = 0;
	}
	if (mem_reserve_lines(&p->sym, &p->priv->symcap, (size_t)tab->len + tab->len / 2 + 1,
	    sizeof *p->sym) != 0)
		return diag_oom(d);
	mem_populate(p->sym, (size_t)tab->len * sizeof *p->sym);	/* what the helper has not reached */
	for (i = 0; i < tab->len; i++) {
		struct pf_sym *s = &p->sym[i];
		const struct symtab_ent *e = &tab->ent[i];

		if (i + 16 < tab->len && tab->ent[i + 16].name != NULL)
			__builtin_prefetch(tab->ent[i + 16].name);	/* names in address order: all over */
		memset(s, 0, sizeof *s);
		s->addr = e->addr;
		s->end_addr = e->end_addr;
		s->name = e->name;
		s->file = e->file == SYMTAB_NONE ? PF_NONE : e->file;
		s->line = e->line;
		s->is_func = e->is_func;
		s->is_static = e->is_static;
		s->mapped = e->mapped;
		s->flat_ok = (uint8_t)symspec_chosen(&p->priv->specs, SPEC_INCL_FLAT, s->addr);
		s->profiler = truth_profiler_name(s->name);
		if (o->clones != PF_CLONES_GPROF && s->is_func && s->name != NULL) {
			size_t at = clone_suffix(s->name);

			s->clone = at <= UINT16_MAX ? (uint16_t)at : 0;
		}
		s->fold = PF_NONE;
		s->cyc_head = i;
		s->cyc_next = PF_NONE;
		s->parents = s->children = PF_NONE;
	}
	p->nsyms = tab->len;
	p->priv->has_after = tab->has_after;
	p->priv->after_addr = tab->after_addr;
	return 0;
}

static int
index_syms(struct profile *p, const struct symtab *tab, struct diag *d)
{
	uint64_t *addr = mem_array(tab->len, sizeof *addr);
	uint32_t i;
	int rc;

	if (addr == NULL)
		return diag_oom(d);
	for (i = 0; i < tab->len; i++)
		addr[i] = tab->ent[i].addr;
	rc = symindex_build(&p->priv->index, addr, tab->len);
	free(addr);
	return rc != 0 ? diag_oom(d) : 0;
}

static int
build_specs(struct profile *p, const struct pf_opts *o, const struct symtab *tab,
    struct diag *d)
{
	struct pf_private *pv = p->priv;

	if (symspec_build(&pv->specs, o->spec, o->nspec, tab, &pv->files,
	    bin_leading_char(pv->bin), text_end(pv)) != 0)
		return diag_oom(d);
	return 0;
}

uint64_t
syms_text_end(const struct pf_private *pv)
{
	return text_end(pv);
}

static int
load(struct profile *p, const struct pf_opts *o, struct diag *d)
{
	struct pf_private *pv = p->priv;
	struct srcq q = { NULL, NULL };
	struct symtab tab;
	int rc;

	if (o->map_file != NULL && mapfile_read(&pv->map, o->map_file, d) != 0)
		return -1;
	if (o->extsyms != NULL)
		rc = external_syms(pv, o->extsyms, &tab, d);
	else if (o->line)
		rc = line_syms(pv, o, &q, &tab, d);
	else
		rc = function_syms(pv, o, &q, &tab, d);
	if (rc == 0 && o->source_lines && keep_lines(pv, &q) != 0) {
		symtab_release(&tab);
		rc = diag_oom(d);
	}
	srcq_release(&q);
	if (rc != 0)
		return -1;
	rc = build_specs(p, o, &tab, d);
	if (rc == 0)
		rc = make_syms(p, o, &tab, d);
	if (rc == 0)
		rc = index_syms(p, &tab, d);
	if (rc == 0 && o->clones == PF_CLONES_FOLD && clones_fold(p) != 0)
		rc = diag_oom(d);
	symtab_release(&tab);
	return rc;
}

int
syms_load(struct profile *p, const struct pf_opts *o, struct diag *d)
{
	int rc = load(p, o, d);

	prepared(p, rc == 0 ? p->nsyms : 0);
	return rc;
}
