/* dwline: one unit's DWARF line table, decoded and looked up as libbfd 2.40 does. */
#include "dwline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"

/* What a line program's header says about decoding it. */
struct header {
	int version;
	unsigned min_inst, line_range, opcode_base;
	int line_base;
	const unsigned char *std_len;	/* operand counts, indexed by opcode */
};

struct fileent {
	const char *name;	/* NULL: libbfd names it "<unknown>" */
	uint64_t dir;
};

struct row {
	uint64_t addr;
	uint32_t file, line;
	int end;
};

/* A sequence's rows, row[first .. first+n), and what sorting needs. */
struct seq {
	uint64_t low, high;
	size_t first, n;
	size_t order;		/* libbfd's tie-break: the later sequence first */
};

struct dec {
	struct dwline_table *t;
	const struct dwfmt *unit;
	const char *comp_dir;
	struct header h;
	const char **dir;
	size_t ndir, dircap;
	struct fileent *file;
	size_t nfile, filecap;
	uint32_t *memo;		/* name index of file entry i, or DWLINE_NOFILE */
	size_t memocap;
	uint32_t unknown;	/* name index of "<unknown>" */
	struct row *row;
	size_t nrow, rowcap;
	struct seq *seq;
	size_t nseq, seqcap;
	size_t rangecap, namecap, spancap;
	int fail;
};

static uint32_t
add_name(struct dec *d, char *s)
{
	if (s == NULL || mem_reserve(&d->t->name, &d->namecap, d->t->nname + 1, sizeof *d->t->name)) {
		free(s);
		d->fail = 1;
		return DWLINE_NOFILE;
	}
	d->t->name[d->t->nname] = s;
	return (uint32_t)d->t->nname++;
}

static char *
join(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + (c != NULL ? strlen(c) + 1 : 0) + 2;
	char *s = malloc(n);

	if (s != NULL && c != NULL)
		snprintf(s, n, "%s/%s/%s", a, b, c);
	else if (s != NULL)
		snprintf(s, n, "%s/%s", a, b);
	return s;
}

/* libbfd's concat_filename() for table entry K (already made 0-based). */
static char *
concat(const struct dec *d, size_t k)
{
	const char *name = d->file[k].name, *sub = NULL, *dir = NULL;
	uint64_t di = d->file[k].dir;

	if (name[0] == '/')
		return strdup(name);
	if (d->h.version < 5)
		di--;		/* wraps for 0, leaving SUB NULL as libbfd */
	if (di < d->ndir)
		sub = d->dir[di];
	if (sub == NULL || sub[0] != '/')
		dir = d->comp_dir;
	if (dir == NULL) {
		dir = sub;
		sub = NULL;
	}
	if (dir == NULL)
		return strdup(name);
	return sub != NULL ? join(dir, sub, name) : join(dir, name, NULL);
}

/* The name index for DWARF file number FNUM, as concat_filename() names it. */
static uint32_t
file_name(struct dec *d, uint64_t fnum)
{
	size_t k = (size_t)fnum;

	if (d->h.version < 5) {
		if (fnum == 0)
			goto unknown;
		k--;
	}
	if (fnum >= d->nfile + (d->h.version < 5)) {
		d->fail = 1;	/* libbfd: "bad file number" */
		return DWLINE_NOFILE;
	}
	if (d->file[k].name == NULL)
		goto unknown;
	if (d->memo[k] == DWLINE_NOFILE)
		d->memo[k] = add_name(d, concat(d, k));
	return d->memo[k];
unknown:
	if (d->unknown == DWLINE_NOFILE)
		d->unknown = add_name(d, strdup("<unknown>"));
	return d->unknown;
}

static void
add_file(struct dec *d, const char *name, uint64_t dir)
{
	if (mem_reserve(&d->file, &d->filecap, d->nfile + 1, sizeof *d->file) ||
	    mem_reserve(&d->memo, &d->memocap, d->nfile + 1, sizeof *d->memo)) {
		d->fail = 1;
		return;
	}
	d->file[d->nfile].name = name;
	d->file[d->nfile].dir = dir;
	d->memo[d->nfile++] = DWLINE_NOFILE;
}

static void
add_dir(struct dec *d, const char *name)
{
	if (mem_reserve(&d->dir, &d->dircap, d->ndir + 1, sizeof *d->dir)) {
		d->fail = 1;
		return;
	}
	d->dir[d->ndir++] = name;
}

/* One entry of a DWARF 5 directory or file table (libbfd's read_formatted_entries()). */
static int
formatted_entry(struct dec *d, struct dwrd *r, struct dwrd *fmt, unsigned nfmt,
    const struct dwarf *dw, int is_file)
{
	const char *name = NULL;
	uint64_t dir = 0;
	unsigned i;

	for (i = 0; i < nfmt; i++) {
		uint64_t type = dwrd_uleb(fmt), form = dwrd_uleb(fmt);
		struct dwval v;

		if (type == 0 || type > 5 ||
		    dwval_read(r, (unsigned)form, 0, d->unit, dw, &v) != 0)
			return -1;	/* unknown content type, or a form not emulated */
		/* libbfd takes paths only from these string forms, indexes from data forms. */
		if (type == 1 && (form == DW_FORM_string || form == DW_FORM_line_strp))
			name = v.s;
		else if (type == 2 && (form == DW_FORM_udata || (form >= DW_FORM_data2 &&
		    form <= DW_FORM_data8) || form == DW_FORM_data1))
			dir = (uint32_t)v.u;
	}
	if (is_file)
		add_file(d, name, dir);
	else
		add_dir(d, name);
	return 0;
}

static int
formatted_table(struct dec *d, struct dwrd *r, const struct dwarf *dw, int is_file)
{
	unsigned nfmt = (unsigned)dwrd_uint(r, 1), i;
	struct dwrd fmt = *r;
	uint64_t count, k;

	for (i = 0; i < 2 * nfmt; i++)
		dwrd_uleb(r);
	count = dwrd_uleb(r);
	if (r->bad || (nfmt == 0 && count != 0) || count > (uint64_t)(r->end - r->p))
		return -1;
	for (k = 0; k < count && !d->fail; k++) {
		struct dwrd f = fmt;

		if (formatted_entry(d, r, &f, nfmt, dw, is_file) != 0)
			return -1;
	}
	return r->bad || d->fail ? -1 : 0;
}

static int
legacy_tables(struct dec *d, struct dwrd *r)
{
	const char *s;

	while ((s = dwrd_str(r)) != NULL)
		add_dir(d, s);
	while (!r->bad && (s = dwrd_str(r)) != NULL) {
		uint64_t dir = dwrd_uleb(r);

		dwrd_uleb(r);	/* mtime, length */
		dwrd_uleb(r);
		add_file(d, s, (uint32_t)dir);
	}
	return r->bad || d->fail ? -1 : 0;
}

/* The header of the program at R; leaves R at the first opcode (libbfd ignores header_length). */
static int
header(struct dec *d, struct dwrd *r, const struct dwarf *dw)
{
	struct header *h = &d->h;
	int osz;
	uint64_t len = dwrd_length(r, &osz);

	if (r->bad || len == 0 || len > (uint64_t)(r->end - r->p))
		return -1;
	r->end = r->p + len;
	h->version = (int)dwrd_uint(r, 2);
	if (h->version < 2 || h->version > 5 ||
	    r->end - r->p <= osz + (h->version >= 5 ? 8 : h->version >= 4 ? 6 : 5))
		return -1;
	if (h->version >= 5 && (dwrd_uint(r, 1), dwrd_uint(r, 1) != 0))
		return -1;	/* segment selectors */
	dwrd_uint(r, osz);
	h->min_inst = (unsigned)dwrd_uint(r, 1);
	if (h->version >= 4 && dwrd_uint(r, 1) != 1)
		return -1;	/* VLIW op_index arithmetic, which libbfd gets wrong */
	dwrd_uint(r, 1);
	h->line_base = (signed char)dwrd_uint(r, 1);
	h->line_range = (unsigned)dwrd_uint(r, 1);
	h->opcode_base = (unsigned)dwrd_uint(r, 1);
	if (r->bad || h->line_range == 0 || h->opcode_base == 0 ||
	    r->end - r->p <= (ptrdiff_t)(h->opcode_base - 1))
		return -1;
	h->std_len = r->p - 1;
	r->p += h->opcode_base - 1;
	if (h->version >= 5)
		return formatted_table(d, r, dw, 0) != 0 ? -1 : formatted_table(d, r, dw, 1);
	return legacy_tables(d, r);
}

/*
 * libbfd's add_line_info() for rows that come in address order, as every
 * compiler tgprof knows writes them: a row at the address of the last one
 * (with the same end flag) replaces it.  Anything else is not emulated.
 */
static void
add_row(struct dec *d, uint64_t addr, uint32_t file, uint32_t line, int end)
{
	struct row *last = d->nseq > 0 ? &d->row[d->nrow - 1] : NULL;
	int open = last != NULL && !last->end;
	struct seq *s;

	if (last != NULL && last->addr == addr && last->end == end) {
		last->file = file;
		last->line = line;
		return;
	}
	if ((open && addr < last->addr) ||
	    mem_reserve(&d->row, &d->rowcap, d->nrow + 1, sizeof *d->row) ||
	    (!open && mem_reserve(&d->seq, &d->seqcap, d->nseq + 1, sizeof *d->seq))) {
		d->fail = 1;
		return;
	}
	if (!open) {
		d->seq[d->nseq].first = d->nrow;
		d->seq[d->nseq++].n = 0;
	}
	s = &d->seq[d->nseq - 1];
	d->row[d->nrow].addr = addr;
	d->row[d->nrow].file = file;
	d->row[d->nrow].line = line;
	d->row[d->nrow++].end = end;
	s->n++;
}

/* The state machine's registers, and the extent of the current sequence. */
struct regs {
	uint64_t addr;
	uint32_t file, line;
	uint64_t low, high;
};

static void
emit(struct dec *d, struct regs *g, int end)
{
	add_row(d, g->addr, g->file, g->line, end);
	if (g->addr < g->low)
		g->low = g->addr;
	if (g->addr > g->high)
		g->high = g->addr;
}

/* The sequence's [low, high) joins the unit's ranges (libbfd's arange_add()). */
static void
end_sequence(struct dec *d, struct regs *g)
{
	emit(d, g, 1);
	if (g->low == g->high)
		return;
	if (mem_reserve(&d->t->seq, &d->rangecap, d->t->nseq + 1, sizeof *d->t->seq)) {
		d->fail = 1;
		return;
	}
	d->t->seq[d->t->nseq].lo = g->low;
	d->t->seq[d->t->nseq++].hi = g->high;
}

/* An extended opcode; returns 1 at the end of a sequence. */
static int
extended(struct dec *d, struct dwrd *r, struct regs *g)
{
	uint64_t len = dwrd_uleb(r);
	const unsigned char *start;
	unsigned op = (unsigned)dwrd_uint(r, 1);

	start = r->p;
	if (r->bad || len == 0 || len - 1 > (uint64_t)(r->end - start))
		return d->fail = 1, 0;
	switch (op) {
	case 1:		/* DW_LNE_end_sequence */
		end_sequence(d, g);
		return len == 1 ? 1 : (d->fail = 1, 0);
	case 2:		/* DW_LNE_set_address: libbfd reads the unit's address size */
		if (len - 1 != (uint64_t)d->unit->addr_size)
			return d->fail = 1, 0;
		g->addr = dwrd_uint(r, d->unit->addr_size);
		return 0;
	case 3: {	/* DW_LNE_define_file */
		const char *name = dwrd_str(r);
		uint64_t dir = dwrd_uleb(r);

		dwrd_uleb(r);
		dwrd_uleb(r);
		add_file(d, name, (uint32_t)dir);
		break;
	}
	case 4:		/* DW_LNE_set_discriminator */
		dwrd_uleb(r);
		break;
	case 0x80:	/* DW_LNE_HP_source_file_correlation */
		r->p += len - 1;
		break;
	default:
		return d->fail = 1, 0;	/* libbfd: "mangled line number section" */
	}
	if ((uint64_t)(r->p - start) != len - 1)
		d->fail = 1;
	return 0;
}

static void
standard(struct dec *d, struct dwrd *r, struct regs *g, unsigned op)
{
	const struct header *h = &d->h;
	unsigned i;

	switch (op) {
	case 1: emit(d, g, 0); break;					/* copy */
	case 2: g->addr += h->min_inst * dwrd_uleb(r); break;		/* advance_pc */
	case 3: g->line += (uint32_t)dwrd_sleb(r); break;		/* advance_line */
	case 4: g->file = file_name(d, (uint32_t)dwrd_uleb(r)); break;	/* set_file */
	case 5: dwrd_uleb(r); break;					/* set_column */
	case 6: case 7: break;						/* flags */
	case 8: g->addr += h->min_inst * ((255 - h->opcode_base) / h->line_range); break;
	case 9: g->addr += dwrd_uint(r, 2); break;			/* fixed_advance_pc */
	default:
		for (i = 0; i < h->std_len[op]; i++)
			dwrd_uleb(r);
		break;
	}
}

/* One sequence, from its first opcode to DW_LNE_end_sequence. */
static void
sequence(struct dec *d, struct dwrd *r)
{
	const struct header *h = &d->h;
	struct regs g = { 0, DWLINE_NOFILE, 1, UINT64_MAX, 0 };

	if (d->nfile > 0)
		g.file = file_name(d, h->version >= 5 ? 0 : 1);
	while (!d->fail && !r->bad && r->p < r->end) {
		unsigned op = *r->p++;

		if (op >= h->opcode_base) {
			op -= h->opcode_base;
			g.addr += op / h->line_range * h->min_inst;
			g.line += (uint32_t)(h->line_base + (int)(op % h->line_range));
			emit(d, &g, 0);
		} else if (op == 0) {
			if (extended(d, r, &g))
				return;
		} else {
			standard(d, r, &g, op);
		}
	}
	d->fail = 1;		/* a sequence without its end */
}

static int
cmp_seq(const void *a, const void *b)
{
	const struct seq *x = a, *y = b;

	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	if (x->high != y->high)
		return x->high > y->high ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
add_span(struct dec *d, uint64_t lo, uint64_t hi, const struct row *w)
{
	struct dwline_span *sp;

	if (w->file == DWLINE_NOFILE) {
		d->fail = 1;	/* libbfd would fall back on STT_FILE symbols */
		return;
	}
	if (mem_reserve(&d->t->span, &d->spancap, d->t->nspan + 1, sizeof *d->t->span)) {
		d->fail = 1;
		return;
	}
	sp = &d->t->span[d->t->nspan++];
	sp->lo = lo;
	sp->hi = hi;
	sp->file = w->file;
	sp->line = w->line;
}

/*
 * libbfd's sort_line_sequences(): by start, longest first, later first;
 * a sequence inside an earlier one is dropped, one that overlaps it
 * starts where the earlier one ends.  Then each row answers from its
 * address (or the sequence's start) to the next row's.
 */
static void
finish(struct dec *d)
{
	size_t i, k, kept = 0;
	uint64_t last_high = 0;

	for (i = 0; i < d->nseq; i++) {
		d->seq[i].low = d->row[d->seq[i].first].addr;
		d->seq[i].high = d->row[d->seq[i].first + d->seq[i].n - 1].addr;
		d->seq[i].order = d->nseq - 1 - i;
	}
	if (d->nseq > 0)
		qsort(d->seq, d->nseq, sizeof *d->seq, cmp_seq);
	/* each row answers over one span at most */
	if (mem_reserve(&d->t->span, &d->spancap, d->nrow, sizeof *d->t->span) != 0) {
		d->fail = 1;
		return;
	}
	for (i = 0; i < d->nseq && !d->fail; i++) {
		struct seq s = d->seq[i];

		if (kept > 0 && s.low < last_high) {
			if (s.high <= last_high)
				continue;
			s.low = last_high;
		}
		last_high = s.high;
		kept++;
		for (k = s.first; k + 1 < s.first + s.n; k++) {
			uint64_t lo = d->row[k].addr > s.low ? d->row[k].addr : s.low;

			if (lo < d->row[k + 1].addr)
				add_span(d, lo, d->row[k + 1].addr, &d->row[k]);
		}
	}
}

static void
program(struct dec *d, struct dwrd *r)
{
	while (!d->fail && !r->bad && r->p < r->end)
		sequence(d, r);
	if (!d->fail && !r->bad && d->nseq > 0 && !d->row[d->nrow - 1].end)
		d->fail = 1;
	if (!d->fail && !r->bad)
		finish(d);
}

int
dwline_file_ok(const struct dwline_table *t, unsigned f)
{
	if (t->version < 5)
		return f == 0 || f - 1 < t->nfile;
	return f < t->nfile;
}

void
dwline_release(struct dwline_table *t)
{
	size_t i;

	for (i = 0; i < t->nname; i++)
		free(t->name[i]);
	free(t->name);
	free(t->span);
	free(t->seq);
	memset(t, 0, sizeof *t);
}

void
dwline_scratch_release(struct dwline_scratch *sc)
{
	free(sc->dir);
	free(sc->file);
	free(sc->row);
	free(sc->seq);
	free(sc->memo);
	memset(sc, 0, sizeof *sc);
}

int
dwline_decode(struct dwline_table *t, const struct dwarf *dw, uint64_t off,
    const struct dwfmt *unit, const char *comp_dir, struct dwline_scratch *sc)
{
	const struct dwsec *s = &dw->sec[DWS_LINE];
	struct dec d;
	struct dwrd r;
	int rc = -1;

	memset(t, 0, sizeof *t);
	memset(&d, 0, sizeof d);
	d.dir = sc->dir;
	d.dircap = sc->dircap;
	d.file = sc->file;
	d.filecap = sc->filecap;
	d.memo = sc->memo;
	d.memocap = sc->memocap;
	d.row = sc->row;
	d.rowcap = sc->rowcap;
	d.seq = sc->seq;
	d.seqcap = sc->seqcap;
	d.t = t;
	d.unit = unit;
	d.comp_dir = comp_dir;
	d.unknown = DWLINE_NOFILE;
	if (s->p != NULL && s->n >= 16 && (off == 0 || off < s->n)) {
		r.p = s->p + off;
		r.end = s->p + s->n;
		r.big = dw->big;
		r.bad = 0;
		if (header(&d, &r, dw) == 0 && !d.fail) {
			program(&d, &r);
			rc = d.fail || r.bad ? -1 : 0;
			t->nfile = d.nfile;
			t->version = d.h.version;
		}
	}
	sc->dir = d.dir;
	sc->dircap = d.dircap;
	sc->file = d.file;
	sc->filecap = d.filecap;
	sc->memo = d.memo;
	sc->memocap = d.memocap;
	sc->row = d.row;
	sc->rowcap = d.rowcap;
	sc->seq = d.seq;
	sc->seqcap = d.seqcap;
	if (rc != 0)
		dwline_release(t);
	return rc;
}
