/* srcmap: the executable's source positions, answering as gprof's calls to libbfd would, without a lookup per text byte. */
#include "srcmap.h"

#include <stdlib.h>
#include <string.h>

#include "dwinfo.h"
#include "srcspan.h"
#include "util/mem.h"
#include "util/msort.h"

/* What libbfd may change in a DWARF function as it answers. */
struct fnstate {
	const char *name;
	uint64_t low;		/* low end of its first range */
	int is_linkage;
};

/* Address ranges of the units, sorted by LO, with the highest HI so far. */
struct reach {
	uint64_t lo, hi, max_hi;
};

struct srcmap {
	unsigned char *buf[DWS_COUNT];	/* decompressed sections, owned */
	struct dwarf dw;
	struct dwinfo di;
	uint64_t vma, end;		/* the text */
	struct srcspans sp;
	struct fnstate *fn;
	const char **file;		/* file id -> name (owned by the line tables) */
	size_t nfile;
	uint32_t *file0;		/* per unit, the id of its first file name */
	struct bin_fsym *rep;		/* per address, the symbol libbfd's search picks */
	size_t nrep;
	const struct bin_fsym *cache;	/* _bfd_elf_find_function()'s last answer */
	struct reach *reach;
	size_t nreach;
};

static int
cmp_reach(const void *a, const void *b)
{
	const struct reach *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int
load_sections(struct srcmap *m, struct bin *b)
{
	int i;
	size_t len;

	m->dw.big = bin_big_endian(b);
	for (i = 0; i < DWS_COUNT; i++) {
		if (bin_section(b, dwarf_section_name[i], &m->dw.sec[i].p, &len, &m->buf[i]) != 0)
			return -1;
		m->dw.sec[i].n = m->dw.sec[i].p != NULL ? len : 0;
	}
	return 0;
}

/* The ranges of units libbfd can answer from (reach), sorted, for srcmap_can_answer(). */
static int
collect_reach(struct srcmap *m)
{
	const struct dwinfo *di = &m->di;
	size_t i;

	m->reach = mem_array(di->ncover + 1, sizeof *m->reach);
	if (m->reach == NULL)
		return -1;
	for (i = 0; i < di->ncover; i++) {
		if (!di->unit[di->cover[i].unit].has_lines)
			continue;	/* libbfd never answers from a unit without lines */
		m->reach[m->nreach].lo = di->cover[i].lo;
		m->reach[m->nreach++].hi = di->cover[i].hi;
	}
	if (m->nreach > 0)
		qsort(m->reach, m->nreach, sizeof *m->reach, cmp_reach);
	for (i = 0; i < m->nreach; i++)
		m->reach[i].max_hi = i > 0 && m->reach[i - 1].max_hi > m->reach[i].hi ?
		    m->reach[i - 1].max_hi : m->reach[i].hi;
	return 0;
}

/* File ids: each unit's names, one unit after the other. */
static int
number_files(struct srcmap *m)
{
	const struct dwinfo *di = &m->di;
	size_t i, k, n = 0;

	m->file0 = mem_array(di->nunit + 1, sizeof *m->file0);
	for (i = 0; i < di->nunit; i++)
		n += di->unit[i].lines.nname;
	m->file = mem_array(n + 1, sizeof *m->file);
	if (m->file0 == NULL || m->file == NULL || n >= DWLINE_NOFILE)
		return -1;
	for (i = 0; i < di->nunit; i++) {
		m->file0[i] = (uint32_t)m->nfile;
		for (k = 0; k < di->unit[i].lines.nname; k++)
			m->file[m->nfile++] = di->unit[i].lines.name[k];
	}
	return 0;
}

static int
init_functions(struct srcmap *m)
{
	const struct dwinfo *di = &m->di;
	size_t i;

	m->fn = mem_array(di->nfunc + 1, sizeof *m->fn);
	if (m->fn == NULL || di->nfunc >= SRCSPAN_NOFUNC)
		return -1;
	for (i = 0; i < di->nfunc; i++) {
		m->fn[i].name = di->func[i].name;
		m->fn[i].is_linkage = di->func[i].is_linkage;
		m->fn[i].low = di->func[i].nrange > 0 ? di->range[di->func[i].range0].lo : 0;
	}
	return 0;
}

/* By address, the largest first; msort keeps symbol-table order among equals. */
static int
cmp_sym(const void *a, const void *b, void *ctx)
{
	const struct bin_fsym *all = ctx;
	const struct bin_fsym *x = &all[*(const uint32_t *)a], *y = &all[*(const uint32_t *)b];

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->size > y->size ? -1 : x->size < y->size;
}

/*
 * _bfd_elf_find_function() scans the symbols for the highest address not
 * above the one asked for, and among symbols there takes the first of the
 * largest: that one per address, sorted.
 */
static int
init_symbols(struct srcmap *m, struct bin *b)
{
	struct bin_fsym *all;
	uint32_t *idx;
	size_t n, i;

	if (bin_function_syms(b, &all, &n) != 0)
		return -1;
	idx = mem_array(n + 1, sizeof *idx);
	m->rep = mem_array(n + 1, sizeof *m->rep);
	if (idx == NULL || m->rep == NULL || n > UINT32_MAX) {
		free(idx);
		free(all);
		return -1;
	}
	for (i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	if (msort_ids(idx, n, cmp_sym, all) != 0) {
		free(idx);
		free(all);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (m->nrep == 0 || m->rep[m->nrep - 1].off != all[idx[i]].off)
			m->rep[m->nrep++] = all[idx[i]];
	free(idx);
	free(all);
	return 0;
}

static int
build_spans(struct srcmap *m)
{
	struct srcspan_in in = { &m->di, m->file0, m->vma, m->end, m->rep, m->nrep };

	return srcspan_build(&m->sp, &in);
}

struct srcmap *
srcmap_build(struct bin *b)
{
	struct srcmap *m;

	if (!bin_dwarf_readable(b) || (m = mem_calloc(1, sizeof *m)) == NULL)
		return NULL;
	m->vma = bin_text_vma(b);
	m->end = m->vma + bin_text_size(b);
	if (m->end < m->vma || load_sections(m, b) != 0 || dwinfo_load(&m->di, &m->dw) != 0 ||
	    collect_reach(m) != 0 || number_files(m) != 0 || init_functions(m) != 0 ||
	    init_symbols(m, b) != 0 || build_spans(m) != 0) {
		srcmap_free(m);
		return NULL;
	}
	return m;
}

void
srcmap_free(struct srcmap *m)
{
	int i;

	if (m == NULL)
		return;
	dwinfo_release(&m->di);
	for (i = 0; i < DWS_COUNT; i++)
		free(m->buf[i]);
	srcspan_release(&m->sp);
	free(m->fn);
	free(m->file);
	free(m->file0);
	free(m->rep);
	free(m->reach);
	free(m);
}

const char *
srcmap_file_name(const struct srcmap *m, uint32_t file)
{
	return file < m->nfile ? m->file[file] : NULL;
}

size_t
srcmap_nspans(const struct srcmap *m)
{
	return m->sp.nspan;
}

size_t
srcmap_nfiles(const struct srcmap *m)
{
	return m->nfile;
}

int
srcmap_can_answer(const struct srcmap *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nreach;

	if (addr >= m->vma && addr < m->end) {
		hi = m->sp.nunsure;
		while (lo < hi) {	/* the first unsure range ending after ADDR */
			size_t mid = lo + (hi - lo) / 2;

			if (m->sp.unsure[mid].hi <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo == m->sp.nunsure || m->sp.unsure[lo].lo > addr;
	}
	while (lo < hi) {	/* the last range starting at or before ADDR */
		size_t mid = lo + (hi - lo) / 2;

		if (m->reach[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 || m->reach[lo - 1].max_hi <= addr;
}

/* _bfd_elf_find_function() at text offset OFF, with its one-symbol cache. */
static const struct bin_fsym *
find_function(struct srcmap *m, uint64_t off)
{
	const struct bin_fsym *c = m->cache;
	size_t lo = 0, hi = m->nrep;

	if (c != NULL && off >= c->off && off - c->off < c->size)
		return c;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->rep[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	m->cache = lo > 0 ? &m->rep[lo - 1] : NULL;
	return m->cache;
}

/*
 * The end of libbfd's _bfd_dwarf2_find_nearest_line(): a function with a
 * linkage name answers with it; otherwise the symbol table does, and a
 * DWARF function asked about for the first time takes the symbol's name
 * if the symbol starts where the function does.  gprof then wants a file,
 * a function name and a line other than 0.
 */
static int
answer(struct srcmap *m, const struct srcspan *s, uint64_t addr, uint32_t *file, int *line,
    const char **func)
{
	uint32_t f = s != NULL ? s->func : SRCSPAN_NOFUNC;
	const char *name;

	if (f != SRCSPAN_NOFUNC && m->fn[f].is_linkage) {
		name = m->fn[f].name;
	} else {
		const struct bin_fsym *sym = find_function(m, addr - m->vma);

		name = sym != NULL ? sym->name : NULL;
		if (f != SRCSPAN_NOFUNC) {
			if (sym == NULL)
				name = m->fn[f].name;
			else if (sym->off + m->vma == m->fn[f].low)
				m->fn[f].name = sym->name;
			m->fn[f].is_linkage = 1;
		}
	}
	if (s == NULL || s->file == DWLINE_NOFILE || s->line == 0 || name == NULL)
		return 0;
	*file = s->file;
	*line = (int)s->line;
	*func = name;
	return 1;
}

int
srcmap_query(struct srcmap *m, uint64_t addr, uint32_t *file, int *line, const char **func)
{
	size_t lo = 0, hi = m->sp.nspan;

	if (addr < m->vma || addr >= m->end || m->sp.nspan == 0)
		return answer(m, NULL, addr, file, line, func);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->sp.span[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return answer(m, &m->sp.span[lo - 1], addr, file, line, func);
}

/*
 * Within a span only the first byte's question can change libbfd's state
 * (a first question about a function, a symbol search), and every later
 * byte gets the answer the first byte would get after it: one question
 * per span stands for all of them.
 */
int
srcmap_walk(struct srcmap *m, srcmap_fn fn, void *ctx)
{
	size_t i;
	int rc;

	for (i = 0; i < m->sp.nspan; i++) {
		const struct srcspan *s = &m->sp.span[i];
		uint32_t file;
		int line;
		const char *func;

		if (answer(m, s, s->lo, &file, &line, &func) && fn != NULL &&
		    (rc = fn(ctx, s->lo, file, line, func)) != 0)
			return rc;
	}
	return 0;
}

int
srcmap_lines(const struct srcmap *m, srcmap_line_fn fn, void *ctx)
{
	size_t i;
	int rc;

	for (i = 0; i < m->sp.nspan; i++)
		if ((rc = fn(ctx, m->sp.span[i].lo, m->sp.span[i].file, m->sp.span[i].line)) != 0)
			return rc;
	return 0;
}
