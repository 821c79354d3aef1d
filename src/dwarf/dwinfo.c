/* dwinfo: compilation units and their functions from .debug_info, as libbfd 2.40 records them. */
#include "dwinfo.h"

#include <stdlib.h>
#include <string.h>

#include "dwabbrev.h"
#include "util/mem.h"

#define MAX_RANGES 4096		/* per function: libbfd merges them in quadratic time */

/* What dwinfo_load() works with. */
struct loader {
	struct dwinfo *di;
	const struct dwarf *dw;
	struct dwabbrevs abbrevs;
	size_t unitcap, funccap, rangecap, covercap;
	enum dwcover_kind kind;	/* of the ranges being read */
	struct dwrange *list;	/* the unit or function being read: libbfd's arange list */
	size_t nlist, listcap;
	struct dwline_scratch lines;
};

static int
lang_names_are_linkage(int lang)
{
	switch (lang) {
	case 0x01: case 0x02: case 0x05: case 0x06: case 0x07: case 0x09: case 0x0c:
	case 0x0f: case 0x12: case 0x1d: case 0x8001: case 0x8765: case 0x8004:
	case 0x8006: case 0x8007:
		return 1;	/* C, Fortran 77, ... : mangle_style() is 0 */
	default:
		return 0;
	}
}

static int
is_func_tag(uint32_t tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_entry_point ||
	    tag == DW_TAG_inlined_subroutine;
}

/* The attributes scan_unit_for_symbols() uses, of functions and of variables. */
static int
wanted(uint32_t tag, uint32_t name)
{
	if (is_func_tag(tag)) {
		switch (name) {
		case DW_AT_name: case DW_AT_linkage_name: case DW_AT_MIPS_linkage_name:
		case DW_AT_low_pc: case DW_AT_high_pc: case DW_AT_ranges:
		case DW_AT_abstract_origin: case DW_AT_specification:
		case DW_AT_decl_file: case DW_AT_call_file:
			return 1;
		default:
			return 0;
		}
	}
	if (tag == DW_TAG_variable || tag == DW_TAG_member)
		return name == DW_AT_specification || name == DW_AT_decl_file;
	return 0;
}

static int
read_attr(const struct loader *L, const struct dwunit *u, struct dwrd *r,
    const struct dwabbrev_ent *e, uint32_t i, struct dwval *v, uint32_t *name)
{
	const struct dwattr *a = &L->abbrevs.t[u->abbrev].attr[e->attr0 + i];

	*name = a->name;
	return dwval_read(r, a->form, a->implicit, &u->fmt, L->dw, v);
}

static int
add_cover(struct loader *L, uint32_t unit, uint64_t lo, uint64_t hi)
{
	struct dwinfo *di = L->di;

	if (mem_reserve(&di->cover, &L->covercap, di->ncover + 1, sizeof *di->cover))
		return -1;
	di->cover[di->ncover].lo = lo;
	di->cover[di->ncover].hi = hi;
	di->cover[di->ncover].kind = L->kind;
	di->cover[di->ncover++].unit = unit;
	return 0;
}

/*
 * libbfd's arange_add(): the range is filed under the unit, and joins the
 * list L->list (the unit's or the function's): it fills an empty first
 * entry, extends the first entry it touches end to end, or goes in second.
 */
static int
arange_add(struct loader *L, uint32_t unit, uint64_t lo, uint64_t hi)
{
	size_t i;

	if (lo == hi)
		return 0;
	if (lo > hi || add_cover(L, unit, lo, hi) != 0)
		return -1;	/* a reversed range: libbfd's trie would misfile it */
	if (L->nlist == 0) {
		if (mem_reserve(&L->list, &L->listcap, 1, sizeof *L->list))
			return -1;
		L->list[L->nlist++] = (struct dwrange){ lo, hi };
		return 0;
	}
	for (i = 0; i < L->nlist; i++) {
		if (lo == L->list[i].hi) {
			L->list[i].hi = hi;
			return 0;
		}
		if (hi == L->list[i].lo) {
			L->list[i].lo = lo;
			return 0;
		}
	}
	if (L->nlist >= MAX_RANGES ||
	    mem_reserve(&L->list, &L->listcap, L->nlist + 1, sizeof *L->list))
		return -1;
	memmove(&L->list[2], &L->list[1], (L->nlist - 1) * sizeof *L->list);
	L->list[1] = (struct dwrange){ lo, hi };
	L->nlist++;
	return 0;
}

static uint64_t
read_addr(struct dwrd *r, const struct dwunit *u)
{
	return dwrd_uint(r, u->fmt.addr_size);
}

/* libbfd's read_ranges() (DWARF 2 to 4): address pairs in .debug_ranges. */
static int
read_ranges(struct loader *L, uint32_t ui, uint64_t off)
{
	const struct dwunit *u = &L->di->unit[ui];
	const struct dwsec *s = &L->dw->sec[DWS_RANGES];
	uint64_t base = u->base;
	struct dwrd r;

	if (s->p == NULL || off > s->n)
		return -1;
	r = (struct dwrd){ s->p + off, s->p + s->n, L->dw->big, 0 };
	for (;;) {
		uint64_t lo, hi;

		if ((size_t)(r.end - r.p) < 2u * (size_t)u->fmt.addr_size)
			return -1;
		lo = read_addr(&r, u);
		hi = read_addr(&r, u);
		if (lo == 0 && hi == 0)
			return 0;
		if (lo == UINT64_MAX && hi != UINT64_MAX)
			base = hi;	/* libbfd only knows 8-byte base selections */
		else if (arange_add(L, ui, base + lo, base + hi) != 0)
			return -1;
	}
}

/* libbfd's read_rnglists() (DWARF 5): the entries it reads, and no indexed ones. */
static int
read_rnglists(struct loader *L, uint32_t ui, uint64_t off)
{
	const struct dwunit *u = &L->di->unit[ui];
	const struct dwsec *s = &L->dw->sec[DWS_RNGLISTS];
	uint64_t base = u->base, lo, hi;
	struct dwrd r;

	if (s->p == NULL || off >= s->n)
		return -1;
	r = (struct dwrd){ s->p + off, s->p + s->n, L->dw->big, 0 };
	for (;;) {
		switch (dwrd_uint(&r, 1)) {
		case 0: return r.bad ? -1 : 0;			/* end_of_list */
		case 5: base = read_addr(&r, u); continue;	/* base_address */
		case 4:						/* offset_pair */
			lo = base + dwrd_uleb(&r);
			hi = base + dwrd_uleb(&r);
			break;
		case 6:						/* start_end */
			lo = read_addr(&r, u);
			hi = read_addr(&r, u);
			break;
		case 7:						/* start_length */
			lo = read_addr(&r, u);
			hi = lo + dwrd_uleb(&r);
			break;
		default:
			return -1;
		}
		if (r.bad || arange_add(L, ui, lo, hi) != 0)
			return -1;
	}
}

static int
read_rangelist(struct loader *L, uint32_t ui, uint64_t off)
{
	return L->di->unit[ui].fmt.version <= 4 ? read_ranges(L, ui, off) : read_rnglists(L, ui, off);
}

/* The unit whose bytes hold P, or -1. */
static long
unit_at(const struct dwinfo *di, const unsigned char *p)
{
	size_t lo = 0, hi = di->nunit;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p < di->unit[mid].start)
			hi = mid;
		else if (p >= di->unit[mid].end)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

/* A DIE's decl_file or call_file must name a file, or libbfd complains. */
static int
file_ok(const struct dwunit *u, const struct dwval *v)
{
	return v->kind != DWV_INT || dwline_file_ok(&u->lines, (unsigned)v->u);
}

/*
 * libbfd's find_abstract_instance(): the name (and whether it is a linkage
 * name) from the DIE that V, an attribute of a DIE of unit UI, refers to.
 */
static int
abstract(const struct loader *L, uint32_t ui, const struct dwval *v, unsigned depth,
    const char **name, int *is_linkage)
{
	const struct dwinfo *di = L->di;
	const struct dwabbrev_ent *e;
	const unsigned char *p;
	struct dwrd r;
	uint32_t i, at;

	if (depth == 100)
		return -1;
	if (v->form == DW_FORM_ref_addr) {
		long tu;

		if (v->u == 0)
			return 0;
		if (v->u >= L->dw->sec[DWS_INFO].n)
			return -1;
		p = L->dw->sec[DWS_INFO].p + v->u;
		if ((tu = unit_at(di, p)) < 0)
			return -1;
		ui = (uint32_t)tu;
	} else {
		if (v->u == 0 || v->u >= (uint64_t)(di->unit[ui].end - di->unit[ui].start))
			return -1;
		p = di->unit[ui].start + v->u;
	}
	r = (struct dwrd){ p, di->unit[ui].end, L->dw->big, 0 };
	if (dwabbrev_die(&L->abbrevs.t[di->unit[ui].abbrev], &r, &e) != 0)
		return -1;
	for (i = 0; e != NULL && i < e->nattr; i++) {
		struct dwval a;

		if (read_attr(L, &di->unit[ui], &r, e, i, &a, &at) != 0)
			return -1;
		if (at == DW_AT_name && *name == NULL && a.kind == DWV_STR) {
			*name = a.s;
			if (lang_names_are_linkage(di->unit[ui].lang))
				*is_linkage = 1;
		} else if (at == DW_AT_specification && a.kind == DWV_INT) {
			if (abstract(L, ui, &a, depth + 1, name, is_linkage) != 0)
				return -1;
		} else if ((at == DW_AT_linkage_name || at == DW_AT_MIPS_linkage_name) &&
		    a.kind == DWV_STR) {
			*name = a.s;
			*is_linkage = 1;
		} else if (at == DW_AT_decl_file) {	/* libbfd decodes that unit's lines */
			if (!di->unit[ui].has_lines || !file_ok(&di->unit[ui], &a))
				return -1;
		}
	}
	return 0;
}

static int
add_func(struct loader *L, const struct dwfunc *f)
{
	struct dwinfo *di = L->di;

	if (L->nlist > 0 &&
	    mem_reserve(&di->range, &L->rangecap, di->nrange + L->nlist, sizeof *di->range))
		return -1;
	if (mem_reserve(&di->func, &L->funccap, di->nfunc + 1, sizeof *di->func))
		return -1;
	di->func[di->nfunc] = *f;
	di->func[di->nfunc].range0 = (uint32_t)di->nrange;
	di->func[di->nfunc++].nrange = (uint32_t)L->nlist;
	if (L->nlist > 0)
		memcpy(&di->range[di->nrange], L->list, L->nlist * sizeof *L->list);
	di->nrange += L->nlist;
	return 0;
}

/* The address attributes of a function DIE, taken after all the others as libbfd does. */
struct pcs {
	uint64_t low, high;
	int relative;
};

/* One attribute of a function DIE (libbfd's scan_unit_for_symbols(), second pass). */
static int
func_attr(struct loader *L, uint32_t ui, uint32_t at, const struct dwval *v,
    struct dwfunc *f, struct pcs *pc)
{
	const struct dwunit *u = &L->di->unit[ui];

	switch (at) {
	case DW_AT_call_file: case DW_AT_decl_file:
		return file_ok(u, v) ? 0 : -1;
	case DW_AT_abstract_origin: case DW_AT_specification:
		return v->kind == DWV_INT ? abstract(L, ui, v, 0, &f->name, &f->is_linkage) : 0;
	case DW_AT_name:
		if (f->name == NULL && v->kind == DWV_STR) {
			f->name = v->s;
			if (lang_names_are_linkage(u->lang))
				f->is_linkage = 1;
		}
		return 0;
	case DW_AT_linkage_name: case DW_AT_MIPS_linkage_name:
		if (v->kind == DWV_STR) {
			f->name = v->s;
			f->is_linkage = 1;
		}
		return 0;
	case DW_AT_low_pc:
		if (v->kind == DWV_INT)
			pc->low = v->u;
		return 0;
	case DW_AT_high_pc:
		if (v->kind == DWV_INT) {
			pc->high = v->u;
			pc->relative = v->form != DW_FORM_addr;
		}
		return 0;
	case DW_AT_ranges:
		return v->kind == DWV_INT ? read_rangelist(L, ui, v->u) : 0;
	default:
		return 0;
	}
}

/* The attributes of the DIE at R: a function's, a variable's or any other's. */
static int
die_attrs(struct loader *L, uint32_t ui, struct dwrd *r, const struct dwabbrev_ent *e)
{
	const struct dwunit *u = &L->di->unit[ui];
	const struct dwattr *spec = &L->abbrevs.t[u->abbrev].attr[e->attr0];
	int is_func = is_func_tag(e->tag);
	int is_var = e->tag == DW_TAG_variable || e->tag == DW_TAG_member;
	struct dwfunc f = { NULL, 0, ui, 0, 0 };
	struct pcs pc = { 0, 0, 0 };
	uint32_t i, at;

	L->nlist = 0;
	for (i = 0; i < e->nattr; i++) {
		struct dwval v;

		if (!spec[i].want) {
			if (dwabbrev_skip(r, &spec[i], &u->fmt, L->dw) != 0)
				return -1;
			continue;
		}
		if (read_attr(L, u, r, e, i, &v, &at) != 0)
			return -1;
		if (is_func && func_attr(L, ui, at, &v, &f, &pc) != 0)
			return -1;
		if (is_var && at == DW_AT_decl_file && !file_ok(u, &v))
			return -1;
		if (is_var && at == DW_AT_specification && v.kind == DWV_INT && v.u != 0) {
			const char *name = NULL;
			int link = 0;

			if (abstract(L, ui, &v, 0, &name, &link) != 0)
				return -1;
		}
	}
	if (!is_func)
		return 0;
	if (pc.relative)
		pc.high += pc.low;
	if (pc.high != 0 && arange_add(L, ui, pc.low, pc.high) != 0)
		return -1;
	return add_func(L, &f);
}

/* Every DIE under the unit DIE; libbfd loses the unit if it runs off its end. */
static int
scan_unit(struct loader *L, uint32_t ui)
{
	const struct dwunit *u = &L->di->unit[ui];
	struct dwrd r = { u->children, u->end, L->dw->big, 0 };
	long depth = 0;

	if (u->children >= u->end)
		return 0;
	dwabbrev_plan(&L->abbrevs.t[u->abbrev], &u->fmt);
	while (depth >= 0) {
		const struct dwabbrev_ent *e;

		if (r.p >= r.end || dwabbrev_die(&L->abbrevs.t[u->abbrev], &r, &e) != 0)
			return -1;
		if (e == NULL) {
			depth--;
			continue;
		}
		if (die_attrs(L, ui, &r, e) != 0)
			return -1;
		if (e->children)
			depth++;
	}
	return 0;
}

/* libbfd's parse_comp_unit(): one attribute of the unit DIE. */
static int
unit_attr(struct loader *L, uint32_t ui, uint32_t at, const struct dwval *v, int is_cu,
    struct pcs *pc, uint64_t *stmt)
{
	struct dwunit *u = &L->di->unit[ui];
	const char *cp;

	if (v->kind != DWV_INT && at != DW_AT_comp_dir)
		return 0;
	switch (at) {
	case DW_AT_stmt_list: *stmt = v->u; u->has_lines = 1; break;
	case DW_AT_low_pc:
		pc->low = v->u;
		if (is_cu)
			u->base = v->u;
		break;
	case DW_AT_high_pc: pc->high = v->u; pc->relative = v->form != DW_FORM_addr; break;
	case DW_AT_ranges: return read_rangelist(L, ui, v->u);
	case DW_AT_language: u->lang = (int)v->u; break;
	case DW_AT_comp_dir:
		if (v->kind != DWV_STR)
			return -1;	/* libbfd complains */
		u->comp_dir = v->s;
		/* Irix's "machine.:/dir" */
		if (v->s != NULL && (cp = strchr(v->s, ':')) != NULL && cp != v->s &&
		    cp[-1] == '.' && cp[1] == '/')
			u->comp_dir = cp + 1;
		break;
	default: break;
	}
	return 0;
}

/* The unit DIE at R; 1 when libbfd would stop reading units here. */
static int
unit_die(struct loader *L, uint32_t ui, struct dwrd *r, uint64_t *stmt)
{
	struct dwunit *u = &L->di->unit[ui];
	const struct dwabbrev_ent *e;
	struct pcs pc = { 0, 0, 0 };
	uint32_t i, at;

	if (dwabbrev_die(&L->abbrevs.t[u->abbrev], r, &e) != 0)
		return -1;
	if (e == NULL)
		return 1;
	L->nlist = 0;
	L->kind = DWC_UNIT;
	for (i = 0; i < e->nattr; i++) {
		struct dwval v;

		if (read_attr(L, u, r, e, i, &v, &at) != 0 ||
		    unit_attr(L, ui, at, &v, e->tag == DW_TAG_compile_unit, &pc, stmt) != 0)
			return -1;
	}
	if (pc.relative)
		pc.high += pc.low;
	if (pc.high != 0 && arange_add(L, ui, pc.low, pc.high) != 0)
		return -1;
	L->kind = DWC_FUNC;
	u->has_range = L->nlist > 0;
	u->children = r->p;
	return 0;
}

/* The header of the unit at R, whose length field is behind it; 1 to stop, as libbfd. */
static int
unit_header(struct loader *L, struct dwunit *u, struct dwrd *r, int osz)
{
	uint64_t abbrev_off;
	unsigned type = 1;

	u->fmt.offset_size = osz;
	u->fmt.version = (int)dwrd_uint(r, 2);
	if (u->fmt.version < 2 || u->fmt.version > 5)
		return u->fmt.version == 0 && !r->bad ? 1 : -1;	/* 0: padding */
	if (u->fmt.version >= 5) {
		type = (unsigned)dwrd_uint(r, 1);
		u->fmt.addr_size = (int)dwrd_uint(r, 1);
	}
	abbrev_off = dwrd_uint(r, osz);
	if (u->fmt.version < 5)
		u->fmt.addr_size = (int)dwrd_uint(r, 1);
	if (type == 2)			/* DW_UT_type: signature and type offset */
		r->p += 8 + osz;
	else if (type == 4)		/* DW_UT_skeleton: DWO id */
		r->p += 8;
	if (r->bad || r->p > r->end || (u->fmt.addr_size != 2 && u->fmt.addr_size != 4 &&
	    u->fmt.addr_size != 8))
		return -1;
	u->abbrev = dwabbrevs_get(&L->abbrevs, L->dw, abbrev_off);
	return u->abbrev == U64MAP_NONE ? -1 : 0;
}

/* libbfd's stash_comp_unit(): one unit at *P; 1 when it reads no further. */
static int
next_unit(struct loader *L, const unsigned char **p, uint64_t *stmt)
{
	const struct dwsec *s = &L->dw->sec[DWS_INFO];
	struct dwrd r = { *p, s->p + s->n, L->dw->big, 0 };
	struct dwinfo *di = L->di;
	struct dwunit *u;
	uint64_t len;
	int osz, rc;

	if (dwrd_uint(&(struct dwrd){ *p, r.end, r.big, 0 }, 4) == 0)
		return -1;	/* IRIX 64-bit lengths */
	len = dwrd_length(&r, &osz);
	if (r.bad || len == 0 || len > (uint64_t)(r.end - r.p))
		return 1;
	if (mem_reserve(&di->unit, &L->unitcap, di->nunit + 1, sizeof *di->unit))
		return -1;
	u = &di->unit[di->nunit];
	memset(u, 0, sizeof *u);
	u->start = *p;
	u->end = r.p + len;
	r.end = u->end;
	*p = u->end;
	if ((rc = unit_header(L, u, &r, osz)) != 0)
		return rc;
	di->nunit++;
	rc = unit_die(L, (uint32_t)(di->nunit - 1), &r, stmt);
	if (rc == 1)
		di->nunit--;
	return rc;
}

/* Each unit's line table; its sequences join the unit's ranges. */
static int
decode_lines(struct loader *L, const uint64_t *stmt)
{
	struct dwinfo *di = L->di;
	uint32_t i, k;
	int zero = 0;

	for (i = 0; i < di->nunit; i++) {
		struct dwunit *u = &di->unit[i];

		if (!u->has_lines)
			continue;
		/* libbfd shares the table at offset 0 between units: not emulated */
		if (stmt[i] == 0 && zero++)
			return -1;
		if (dwline_decode(&u->lines, L->dw, stmt[i], &u->fmt, u->comp_dir, &L->lines) != 0)
			return -1;
		L->kind = DWC_LINES;
		for (k = 0; k < u->lines.nseq; k++)
			if (add_cover(L, i, u->lines.seq[k].lo, u->lines.seq[k].hi) != 0)
				return -1;
		L->kind = DWC_FUNC;
	}
	return 0;
}

static int
load(struct loader *L)
{
	const struct dwsec *s = &L->dw->sec[DWS_INFO];
	const unsigned char *p = s->p;
	uint64_t *stmt = NULL, st;
	size_t cap = 0;
	uint32_t i;
	int rc = 0;

	while (p < s->p + s->n) {
		st = 0;
		if ((rc = next_unit(L, &p, &st)) != 0)
			break;
		if (mem_reserve(&stmt, &cap, L->di->nunit, sizeof *stmt) != 0) {
			rc = -1;
			break;
		}
		stmt[L->di->nunit - 1] = st;
	}
	if (rc >= 0)
		rc = decode_lines(L, stmt);
	free(stmt);
	for (i = 0; rc == 0 && i < L->di->nunit; i++)
		if (L->di->unit[i].has_lines)
			rc = scan_unit(L, i);
	return rc;
}

void
dwinfo_release(struct dwinfo *di)
{
	size_t i;

	for (i = 0; i < di->nunit; i++)
		dwline_release(&di->unit[i].lines);
	free(di->unit);
	free(di->func);
	free(di->range);
	free(di->cover);
	memset(di, 0, sizeof *di);
}

int
dwinfo_load(struct dwinfo *di, const struct dwarf *dw)
{
	struct loader L;
	int rc;

	memset(di, 0, sizeof *di);
	memset(&L, 0, sizeof L);
	L.di = di;
	L.dw = dw;
	dwabbrevs_init(&L.abbrevs, wanted);
	rc = dw->sec[DWS_INFO].p != NULL ? load(&L) : -1;
	dwabbrevs_release(&L.abbrevs);
	dwline_scratch_release(&L.lines);
	free(L.list);
	if (rc != 0)
		dwinfo_release(di);
	return rc;
}
