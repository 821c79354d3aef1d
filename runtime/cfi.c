/* cfi: libtgmon's unwinder: a frame's caller by the call frame information of .eh_frame (x86-64). */
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "cfi.h"
#include "scan.h"
#include "tgmon.h"
#include "walk.h"

/*
 * Call frame information.  A library built without frame pointers (the
 * C library) still describes its frames for unwinders, in .eh_frame,
 * found by .eh_frame_hdr's sorted table: at each of its instructions,
 * where the caller's stack pointer was (the CFA: a register plus an
 * offset, or an expression), and where the registers it saved are, the
 * return address among them.  A sample in such a library is walked up
 * through its frames by those rules (walk-x86_64.c: tgmon_stk_cfi), as
 * perf and debuggers walk it, to the return address into the program, with the
 * program's frame pointer as the library kept or restored it: nothing is
 * guessed from the words on the stack, so neither a stale return address
 * (left below the live frames by an earlier call, or in the library's own
 * frames) nor a tail call into the library (the function that jumped
 * there has no frame left: the sample is its caller's, as in perf)
 * misleads the walk.  The tables are read only in objects loaded at start
 * (tgmon_hist.fixed), which stay mapped: no system call; the stack's
 * words as the rest of the walk reads them (tgmon_walk_readable).  Every
 * loop is bounded: by the bytes of a table, CFI_OPS instructions, CFI_EXPR
 * bytes of an expression (and walk-x86_64.c's, by CFI_FRAMES frames).
 * TGMON_UNWIND=fp turns it off (walk-x86_64.c's stk_cfi 0): the walk
 * searches the stack (scan.c) as where there are no tables.
 *
 * Every function here is named tgmon_*, as in walk.c: they run while the
 * program is sampled, and tgprof shows them as the cost of profiling.
 */
#define CFI_SAVED ((1u << CFI_RBX) | (1u << CFI_RBP) | (0xfu << 12))	/* callee-saved: rbx, rbp, r12-r15 */
#define CFI_STATES 4		/* DW_CFA_remember_state's depth */
#define CFI_OPS 1024		/* instructions run for one frame, at most */
#define CFI_EXPR 64		/* a DWARF expression's bytes, at most */
#define CFI_STACK 8		/* its stack's depth, at most */

/* ucontext_t's gregs of each: rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15, rip. */
static const unsigned char tgmon_dw_greg[CFI_NREGS] = {
	REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP
};

void
tgmon_cfi_context(struct tgmon_cfi_regs *r, const greg_t *g)
{
	int i;

	for (i = 0; i < CFI_NREGS; i++)
		r->r[i] = (uint64_t)g[tgmon_dw_greg[i]];
	r->known = (1u << CFI_NREGS) - 1;
}

/* A register's rule: where the caller's value is. */
enum { RULE_SAME, RULE_UNDEF, RULE_OFFSET, RULE_VAL_OFFSET, RULE_REG, RULE_EXPR, RULE_VAL_EXPR };

struct tgmon_rule {
	int32_t v;		/* an offset from the CFA, a register, or an expression's place */
	uint8_t kind;
};

/* The rules at one instruction; an expression's place is from the module's .eh_frame_hdr. */
struct tgmon_row {
	int32_t cfa_off;	/* or the CFA's expression's place */
	int32_t cfa_reg;	/* -1: an expression */
	struct tgmon_rule reg[CFI_NREGS];
	uint64_t start, end;	/* the addresses its FDE covers, [start, end): the function's */
};

/* Bytes of a module being read: [p, end) is mapped; BAD once a read would have gone past END. */
struct tgmon_rd {
	uint64_t p, end;
	int bad;
};

/* A reader of module M's bytes from A to the end of the segment that holds A (BAD if none does). */
static struct tgmon_rd
tgmon_rd_at(int m, uint64_t a)
{
	const struct tgmon_hist *h = tgmon_module(m);
	int i;

	for (i = 0; h->fixed && i < h->nseg; i++)
		if (a >= h->seg_lo[i] && a < h->seg_hi[i])
			return (struct tgmon_rd){ a, h->seg_hi[i], 0 };
	return (struct tgmon_rd){ a, a, 1 };
}

/* N (at most 8) bytes, little-endian. */
static uint64_t
tgmon_rd_u(struct tgmon_rd *d, unsigned n)
{
	const unsigned char *c = (const unsigned char *)d->p;
	uint64_t v = 0;
	unsigned i;

	if (d->bad || d->end - d->p < n) {
		d->bad = 1;
		return 0;
	}
	for (i = n; i-- > 0; )
		v = v << 8 | c[i];
	d->p += n;
	return v;
}

/* An unsigned LEB128 number (SIGNED: signed); a tenth byte is too many. */
static uint64_t
tgmon_rd_leb(struct tgmon_rd *d, int sign)
{
	uint64_t v = 0, b;
	unsigned shift = 0;

	do {
		if (shift >= 64) {
			d->bad = 1;
			return 0;
		}
		b = tgmon_rd_u(d, 1);
		v |= (b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return v;
}

/*
 * A pointer encoded as ENC (DW_EH_PE_*): its format (the low 4 bits),
 * absolute or relative to its own place (pcrel) or to BASE (datarel);
 * anything else is BAD.  DW_EH_PE_omit reads nothing.
 */
static uint64_t
tgmon_rd_ptr(struct tgmon_rd *d, unsigned enc, uint64_t base)
{
	uint64_t at = d->p, v;

	if (enc == 0xff)
		return 0;
	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c: v = tgmon_rd_u(d, 8); break;
	case 0x01: v = tgmon_rd_leb(d, 0); break;
	case 0x02: v = tgmon_rd_u(d, 2); break;
	case 0x03: v = tgmon_rd_u(d, 4); break;
	case 0x09: v = tgmon_rd_leb(d, 1); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)tgmon_rd_u(d, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)tgmon_rd_u(d, 4); break;
	default: d->bad = 1; return 0;
	}
	switch (enc & 0xf0) {
	case 0x00: return v;
	case 0x10: return v + at;
	case 0x30: return v + base;
	}
	d->bad = 1;
	return 0;
}

/* The frame description entry (FDE) of module M that may cover PC, by .eh_frame_hdr's table; 0 if none. */
static uint64_t
tgmon_cfi_fde(int m, uint64_t pc)
{
	uint64_t h = tgmon_module(m)->eh_hdr, n, lo = 0, hi, mid, tab;
	struct tgmon_rd d = tgmon_rd_at(m, h);
	unsigned fenc, cenc, tenc;
	int32_t v;

	if (tgmon_rd_u(&d, 1) != 1)	/* its version */
		return 0;
	fenc = (unsigned)tgmon_rd_u(&d, 1);
	cenc = (unsigned)tgmon_rd_u(&d, 1);
	tenc = (unsigned)tgmon_rd_u(&d, 1);
	tgmon_rd_ptr(&d, fenc, h);	/* .eh_frame's address */
	n = tgmon_rd_ptr(&d, cenc, h);
	if (d.bad || tenc != 0x3b || n == 0 || (d.end - d.p) / 8 < n)	/* datarel sdata4 pairs */
		return 0;
	tab = d.p;
	for (hi = n; lo < hi; ) {	/* the last entry starting at or before PC */
		mid = (lo + hi) / 2;
		memcpy(&v, (const void *)(tab + 8 * mid), sizeof v);
		if (h + (uint64_t)(int64_t)v <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	memcpy(&v, (const void *)(tab + 8 * (lo - 1) + 4), sizeof v);
	return h + (uint64_t)(int64_t)v;
}

/* A common information entry (CIE): what its FDEs share. */
struct tgmon_cie {
	uint64_t code_align;
	int64_t data_align;
	unsigned fde_enc;
	int aug;		/* augmentation data follows each FDE's range ('z') */
	struct tgmon_rd ins;	/* its initial instructions */
};

/*
 * The augmentation data at D of a CIE whose augmentation string is AUG
 * ('z' first): the FDEs' pointer encoding into C, D left after it.  0 if
 * what it holds runs past its length.
 */
static int
tgmon_cfi_aug(struct tgmon_rd *d, const char *aug, struct tgmon_cie *c)
{
	uint64_t aend = tgmon_rd_leb(d, 0);	/* its augmentation data's length, then its end */
	int k;

	if (d->bad || d->end - d->p < aend)
		return 0;
	aend += d->p;
	for (k = 1; aug[k] != 0; k++) {
		if (aug[k] == 'R')
			c->fde_enc = (unsigned)tgmon_rd_u(d, 1);
		else if (aug[k] == 'P')
			tgmon_rd_ptr(d, (unsigned)tgmon_rd_u(d, 1) & 0x0f, 0);	/* the personality */
		else if (aug[k] == 'L')
			tgmon_rd_u(d, 1);
		else if (aug[k] != 'S' && aug[k] != 'B')
			break;	/* the rest is skipped, by its length */
	}
	if (d->p > aend)
		return 0;
	d->p = aend;
	return 1;
}

/* The CIE of module M at A; 0 if it is not one understood here. */
static int
tgmon_cfi_cie(int m, uint64_t a, struct tgmon_cie *c)
{
	struct tgmon_rd d = tgmon_rd_at(m, a);
	uint64_t len = tgmon_rd_u(&d, 4);
	char aug[8];
	int k, version;

	if (d.bad || len == 0 || len >= 0xfffffff0u || d.end - d.p < len)
		return 0;
	d.end = d.p + len;
	if (tgmon_rd_u(&d, 4) != 0 || ((version = (int)tgmon_rd_u(&d, 1)) != 1 && version != 3))
		return 0;
	for (k = 0; (aug[k] = (char)tgmon_rd_u(&d, 1)) != 0; )
		if (++k == (int)sizeof aug || d.bad)
			return 0;
	c->code_align = tgmon_rd_leb(&d, 0);
	c->data_align = (int64_t)tgmon_rd_leb(&d, 1);
	if ((version == 1 ? tgmon_rd_u(&d, 1) : tgmon_rd_leb(&d, 0)) != CFI_RA || (aug[0] != 0 && aug[0] != 'z'))
		return 0;
	c->fde_enc = 0;
	if ((c->aug = aug[0] == 'z') && !tgmon_cfi_aug(&d, aug, c))
		return 0;
	c->ins = d;
	return !d.bad;
}

/* Sets register REG's rule (registers beyond those tracked are not); 0 if V does not fit. */
static int
tgmon_cfi_set(struct tgmon_row *row, uint64_t reg, int kind, int64_t v)
{
	if (v != (int32_t)v)
		return 0;
	if (reg < CFI_NREGS) {
		row->reg[reg].kind = (uint8_t)kind;
		row->reg[reg].v = (int32_t)v;
	}
	return 1;
}


/* A run of call frame instructions (tgmon_cfi_run), and what they share. */
struct tgmon_run {
	struct tgmon_rd *d;		/* the instructions */
	const struct tgmon_cie *c;
	struct tgmon_row *row;		/* the rules they make */
	const struct tgmon_row *init;	/* the row the CIE's made (DW_CFA_restore), NULL while they run */
	uint64_t hdr;			/* an expression's place is kept relative to it */
	struct tgmon_row saved[CFI_STATES];	/* DW_CFA_remember_state's */
	int nsaved;
};

/*
 * The instruction OP (read) of the run R, if it sets a register's rule;
 * 0 if it is not one understood here, or its operand does not fit.
 */
static int
tgmon_cfi_rule_op(struct tgmon_run *r, unsigned op)
{
	struct tgmon_rd *d = r->d;
	const struct tgmon_cie *c = r->c;
	struct tgmon_row *row = r->row;
	uint64_t reg = op & 0x3f, len;
	int64_t place;

	switch (op >> 6 ? op & 0xc0 : op) {
	case 0x80: return tgmon_cfi_set(row, reg, RULE_OFFSET,		/* offset */
	    (int64_t)tgmon_rd_leb(d, 0) * c->data_align);
	case 0x06: reg = tgmon_rd_leb(d, 0);			/* restore_extended */
		/* FALLTHROUGH */
	case 0xc0: if (r->init == NULL)				/* restore */
			return 0;
		return reg >= CFI_NREGS || tgmon_cfi_set(row, reg, r->init->reg[reg].kind, r->init->reg[reg].v);
	case 0x05: reg = tgmon_rd_leb(d, 0);			/* offset_extended */
		return tgmon_cfi_set(row, reg, RULE_OFFSET, (int64_t)tgmon_rd_leb(d, 0) * c->data_align);
	case 0x07: return tgmon_cfi_set(row, tgmon_rd_leb(d, 0), RULE_UNDEF, 0);
	case 0x08: return tgmon_cfi_set(row, tgmon_rd_leb(d, 0), RULE_SAME, 0);
	case 0x09: reg = tgmon_rd_leb(d, 0);			/* register */
		return tgmon_cfi_set(row, reg, RULE_REG, (int64_t)tgmon_rd_leb(d, 0));
	case 0x10: case 0x16: reg = tgmon_rd_leb(d, 0);		/* expression, val_expression */
		place = (int64_t)(d->p - r->hdr);
		len = tgmon_rd_leb(d, 0);
		if (d->bad || d->end - d->p < len)
			return 0;
		d->p += len;
		return tgmon_cfi_set(row, reg, op == 0x10 ? RULE_EXPR : RULE_VAL_EXPR, place);
	case 0x11: reg = tgmon_rd_leb(d, 0);			/* offset_extended_sf */
		return tgmon_cfi_set(row, reg, RULE_OFFSET, (int64_t)tgmon_rd_leb(d, 1) * c->data_align);
	case 0x14: reg = tgmon_rd_leb(d, 0);			/* val_offset */
		return tgmon_cfi_set(row, reg, RULE_VAL_OFFSET, (int64_t)tgmon_rd_leb(d, 0) * c->data_align);
	case 0x15: reg = tgmon_rd_leb(d, 0);			/* val_offset_sf */
		return tgmon_cfi_set(row, reg, RULE_VAL_OFFSET, (int64_t)tgmon_rd_leb(d, 1) * c->data_align);
	case 0x2f: reg = tgmon_rd_leb(d, 0);			/* GNU_negative_offset_extended */
		return tgmon_cfi_set(row, reg, RULE_OFFSET, -(int64_t)tgmon_rd_leb(d, 0) * c->data_align);
	}
	return 0;
}

/*
 * Runs the next instruction of the run R, at LOC: how far it advances
 * the location, in code alignment units, in *DELTA (left alone if it does
 * not).  0 on anything not understood.
 */
static int
tgmon_cfi_op(struct tgmon_run *r, uint64_t loc, uint64_t *delta)
{
	struct tgmon_rd *d = r->d;
	struct tgmon_row *row = r->row;
	unsigned op = (unsigned)tgmon_rd_u(d, 1);
	uint64_t len;
	int64_t place;

	switch (op >> 6 ? op & 0xc0 : op) {
	case 0x40: *delta = op & 0x3f; return 1;			/* advance_loc */
	case 0x00: return 1;						/* nop */
	case 0x01: *delta = tgmon_rd_ptr(d, r->c->fde_enc, 0);		/* set_loc */
		if (*delta < loc)
			return 0;
		*delta = (*delta - loc) / (r->c->code_align ? r->c->code_align : 1);
		return 1;
	case 0x02: *delta = tgmon_rd_u(d, 1); return 1;
	case 0x03: *delta = tgmon_rd_u(d, 2); return 1;
	case 0x04: *delta = tgmon_rd_u(d, 4); return 1;
	case 0x0a: if (r->nsaved == CFI_STATES)			/* remember_state */
			return 0;
		r->saved[r->nsaved++] = *row;
		return 1;
	case 0x0b: if (r->nsaved == 0)					/* restore_state */
			return 0;
		*row = r->saved[--r->nsaved];
		return 1;
	case 0x0c: row->cfa_reg = (int32_t)tgmon_rd_leb(d, 0);		/* def_cfa */
		/* FALLTHROUGH */
	case 0x0e: row->cfa_off = (int32_t)(int64_t)tgmon_rd_leb(d, 0); return 1;	/* def_cfa_offset */
	case 0x0d: row->cfa_reg = (int32_t)tgmon_rd_leb(d, 0); return 1;	/* def_cfa_register */
	case 0x12: row->cfa_reg = (int32_t)tgmon_rd_leb(d, 0);		/* def_cfa_sf */
		/* FALLTHROUGH */
	case 0x13: row->cfa_off = (int32_t)((int64_t)tgmon_rd_leb(d, 1) * r->c->data_align); return 1;
	case 0x0f: place = (int64_t)(d->p - r->hdr);			/* def_cfa_expression */
		len = tgmon_rd_leb(d, 0);
		if (d->bad || d->end - d->p < len || place != (int32_t)place)
			return 0;
		d->p += len;
		row->cfa_reg = -1;
		row->cfa_off = (int32_t)place;
		return 1;
	case 0x2e: tgmon_rd_leb(d, 0); return 1;			/* GNU_args_size */
	}
	return tgmon_cfi_rule_op(r, op);
}

/*
 * Runs the call frame instructions of D on ROW, from LOC, until they
 * pass TARGET; INIT is the row the CIE's instructions made (for
 * DW_CFA_restore), NULL while they run.  An expression's place is kept
 * relative to HDR.  0 on anything not understood.
 */
static int
tgmon_cfi_run(struct tgmon_rd *d, const struct tgmon_cie *c, uint64_t loc, uint64_t target,
    struct tgmon_row *row, const struct tgmon_row *init, uint64_t hdr)
{
	struct tgmon_run r;
	uint64_t delta;
	int k;

	r.d = d;
	r.c = c;
	r.row = row;
	r.init = init;
	r.hdr = hdr;
	r.nsaved = 0;
	for (k = 0; k < CFI_OPS && d->p < d->end; k++) {
		delta = 0;
		if (!tgmon_cfi_op(&r, loc, &delta) || d->bad)
			return 0;
		if (delta != 0) {	/* the row so far holds until LOC + DELTA */
			if (delta > (target - loc) / (c->code_align ? c->code_align : 1))
				return 1;
			loc += delta * c->code_align;
		}
	}
	return k < CFI_OPS;
}

/* The rules of module M's FDE at FDE (HDR its .eh_frame_hdr) at TARGET into ROW; 0 if none. */
static int
tgmon_cfi_row(int m, uint64_t hdr, uint64_t fde, uint64_t target, struct tgmon_row *row)
{
	struct tgmon_rd d = tgmon_rd_at(m, fde);
	struct tgmon_row init;
	struct tgmon_cie c;
	uint64_t len = tgmon_rd_u(&d, 4), at, begin, range;
	int i;

	if (d.bad || len == 0 || len >= 0xfffffff0u || d.end - d.p < len)
		return 0;
	d.end = d.p + len;
	at = d.p;
	at -= tgmon_rd_u(&d, 4);	/* its CIE, that far before the field */
	if (d.bad || at == d.p - 4 || !tgmon_cfi_cie(m, at, &c) || (c.fde_enc & 0x80))
		return 0;
	begin = tgmon_rd_ptr(&d, c.fde_enc, 0);
	range = tgmon_rd_ptr(&d, c.fde_enc & 0x0f, 0);
	if (c.aug) {	/* its augmentation data, skipped */
		len = tgmon_rd_leb(&d, 0);
		if (d.bad || d.end - d.p < len)
			return 0;
		d.p += len;
	}
	if (d.bad || target < begin || target - begin >= range)
		return 0;
	init.cfa_reg = -2;	/* none yet */
	init.cfa_off = 0;
	for (i = 0; i < CFI_NREGS; i++)
		init.reg[i] = (struct tgmon_rule){ 0, RULE_SAME };
	if (!tgmon_cfi_run(&c.ins, &c, 0, ~(uint64_t)0, &init, NULL, hdr))
		return 0;
	*row = init;
	if (!tgmon_cfi_run(&d, &c, begin, target, row, &init, hdr) || row->cfa_reg == -2)
		return 0;
	row->start = begin;
	row->end = begin + range;
	return 1;
}

/*
 * The expression's operation OP (read from D), if it pushes a value of
 * its own: a literal, a register (of R) plus an offset, a constant.  1,
 * its value in *X; 0, OP is not one; -1, its register is not known.
 */
static int
tgmon_cfi_operand(struct tgmon_rd *d, unsigned op, const struct tgmon_cfi_regs *r, uint64_t *x)
{
	unsigned reg;

	if (op >= 0x30 && op <= 0x4f) {		/* lit0-31 */
		*x = op - 0x30;
	} else if ((op >= 0x70 && op <= 0x8f) || op == 0x92) {	/* breg0-31, bregx */
		reg = op == 0x92 ? (unsigned)tgmon_rd_leb(d, 0) : op - 0x70;
		if (reg >= CFI_NREGS || !(r->known >> reg & 1))
			return -1;
		*x = r->r[reg] + tgmon_rd_leb(d, 1);
	} else if (op >= 0x08 && op <= 0x0f) {	/* const1u, const1s ... const8s */
		unsigned size = 1u << ((op - 0x08) / 2);

		*x = tgmon_rd_u(d, size);
		if ((op & 1) && size < 8 && (*x >> (8 * size - 1) & 1))
			*x |= ~(uint64_t)0 << (8 * size);
	} else if (op == 0x10 || op == 0x11) {	/* constu, consts */
		*x = tgmon_rd_leb(d, op == 0x11);
	} else {
		return 0;
	}
	return 1;
}

/* A two operands' operation: A (below) OP B in *X; 0 if OP is not one understood here. */
static int
tgmon_cfi_arith(unsigned op, uint64_t a, uint64_t b, uint64_t *x)
{
	switch (op) {
	case 0x1a: *x = a & b; break;
	case 0x1c: *x = a - b; break;
	case 0x1e: *x = a * b; break;
	case 0x21: *x = a | b; break;
	case 0x22: *x = a + b; break;
	case 0x24: *x = b < 64 ? a << b : 0; break;
	case 0x25: *x = b < 64 ? a >> b : 0; break;
	case 0x27: *x = a ^ b; break;
	case 0x29: *x = a == b; break;
	case 0x2a: *x = (int64_t)a >= (int64_t)b; break;
	case 0x2b: *x = (int64_t)a > (int64_t)b; break;
	case 0x2c: *x = (int64_t)a <= (int64_t)b; break;
	case 0x2d: *x = (int64_t)a < (int64_t)b; break;
	case 0x2e: *x = a != b; break;
	default: return 0;
	}
	return 1;
}

/*
 * The expression's operation OP (read from D) on the values on its stack
 * ST[0..N): the stack's new depth; -1 if it does not hold enough values
 * or one too many, OP is not understood here, or a word it reads is not
 * the stack's (tgmon_walk_readable).
 */
static int
tgmon_cfi_stack_op(struct tgmon_walk *w, struct tgmon_rd *d, unsigned op, uint64_t *st, int n)
{
	uint64_t x, a, b;

	if (op == 0x13)				/* drop */
		return n == 0 ? -1 : n - 1;
	if (op == 0x06 || op == 0x12 || op == 0x23) {	/* deref, dup, plus_uconst */
		if (n == 0)
			return -1;
		x = st[--n];
		if (op == 0x06) {
			if (!tgmon_walk_readable(w, x))
				return -1;
			x = *(const uint64_t *)x;
		} else if (op == 0x12) {
			st[n++] = x;
		} else {
			x += tgmon_rd_leb(d, 0);
		}
	} else {				/* two operands: A (below) op B */
		if (n < 2)
			return -1;
		b = st[--n];
		a = st[--n];
		if (op == 0x16) {		/* swap */
			st[n++] = b;
			x = a;
		} else if (!tgmon_cfi_arith(op, a, b, &x)) {
			return -1;
		}
	}
	if (d->bad || n == CFI_STACK)
		return -1;
	st[n++] = x;
	return n;
}

/*
 * A DWARF expression of module M at A (its length first) over the
 * registers R, with PUSH on its stack first if PUSHED: its value in *V;
 * 0 for an operation not understood here, or a word it reads that is
 * not the stack's (tgmon_walk_readable).
 */
static int
tgmon_cfi_expr(struct tgmon_walk *w, int m, uint64_t a, const struct tgmon_cfi_regs *r, uint64_t push,
    int pushed, uint64_t *v)
{
	struct tgmon_rd d = tgmon_rd_at(m, a);
	uint64_t st[CFI_STACK], x, len = tgmon_rd_leb(&d, 0);
	int n = 0, k;

	if (d.bad || len > CFI_EXPR || d.end - d.p < len)
		return 0;
	d.end = d.p + len;
	if (pushed)
		st[n++] = push;
	while (d.p < d.end) {
		unsigned op = (unsigned)tgmon_rd_u(&d, 1);

		if ((k = tgmon_cfi_operand(&d, op, r, &x)) == 0)
			n = tgmon_cfi_stack_op(w, &d, op, st, n);
		else if (k > 0 && !d.bad && n < CFI_STACK)
			st[n++] = x;
		else
			return 0;
		if (n < 0)
			return 0;
	}
	if (d.bad || n == 0)
		return 0;
	*v = st[n - 1];
	return 1;
}

/* The rules of the code at TARGET in ROW, and its module in *M; 0 if there are none. */
static int
tgmon_cfi_rules(uint64_t target, struct tgmon_row *row, int *m)
{
	uint64_t hdr, fde;

	return (*m = tgmon_module_at(target)) >= 0 && tgmon_module(*m)->fixed && (hdr = tgmon_module(*m)->eh_hdr) != 0 &&
	    (fde = tgmon_cfi_fde(*m, target)) != 0 && tgmon_cfi_row(*m, hdr, fde, target, row);
}

/*
 * The CFA of R by ROW, module M's rules for R's program counter, in
 * *CFA; 0 if they need what is not known, or it is not above the stack
 * pointer (within WALK_MAX_STEP, 8-aligned).
 */
static int
tgmon_cfi_cfa(struct tgmon_walk *w, const struct tgmon_cfi_regs *r, const struct tgmon_row *rw, int m,
    uint64_t *cfa)
{
	if (!(r->known >> CFI_RSP & 1))
		return 0;
	if (rw->cfa_reg >= 0) {
		if (rw->cfa_reg >= CFI_NREGS || !(r->known >> rw->cfa_reg & 1))
			return 0;
		*cfa = r->r[rw->cfa_reg] + (uint64_t)(int64_t)rw->cfa_off;
	} else if (!tgmon_cfi_expr(w, m, tgmon_module(m)->eh_hdr + (uint64_t)(int64_t)rw->cfa_off, r, 0, 0, cfa)) {
		return 0;
	}
	return !(*cfa <= r->r[CFI_RSP] || *cfa - r->r[CFI_RSP] > WALK_MAX_STEP || (*cfa & 7));
}

/*
 * The caller's value of register I by its rule U (module M's), with R
 * the callee's registers and CFA its CFA: in *V; 0 if it is not known.
 */
static int
tgmon_cfi_value(struct tgmon_walk *w, const struct tgmon_cfi_regs *r, const struct tgmon_rule *u, int i, int m,
    uint64_t cfa, uint64_t *v)
{
	uint64_t hdr = tgmon_module(m)->eh_hdr, a;

	switch (u->kind) {
	case RULE_OFFSET:
	case RULE_EXPR:
		if (u->kind == RULE_OFFSET)
			a = cfa + (uint64_t)(int64_t)u->v;
		else if (!tgmon_cfi_expr(w, m, hdr + (uint64_t)(int64_t)u->v, r, cfa, 1, &a))
			return 0;
		if (a >= r->r[CFI_RSP]) {
			if (!tgmon_walk_readable(w, a))
				return 0;
			*v = *(const uint64_t *)a;
			return 1;
		}
		/* saved below the stack pointer, in an epilogue: restored already */
		/* FALLTHROUGH */
	case RULE_SAME:
		if (!(CFI_SAVED >> i & 1) || !(r->known >> i & 1))
			return 0;
		*v = r->r[i];
		return 1;
	case RULE_VAL_OFFSET:
		*v = cfa + (uint64_t)(int64_t)u->v;
		return 1;
	case RULE_VAL_EXPR:
		return tgmon_cfi_expr(w, m, hdr + (uint64_t)(int64_t)u->v, r, cfa, 1, v);
	case RULE_REG:
		if (u->v < 0 || u->v >= CFI_NREGS || !(r->known >> u->v & 1))
			return 0;
		*v = r->r[u->v];
		return 1;
	}
	return 0;	/* RULE_UNDEF */
}

/*
 * The caller's registers from R by ROW, module M's rules for R's program
 * counter: those known (the callee-saved ones kept or restored, the
 * stack pointer: the CFA) replace R's.  0 if the rules need what is not
 * known or not readable, or the CFA is not above the stack pointer.
 */
static int
tgmon_cfi_apply(struct tgmon_walk *w, struct tgmon_cfi_regs *r, const struct tgmon_row *rw, int m)
{
	uint64_t cfa, v;
	struct tgmon_cfi_regs n;
	int i;

	if (!tgmon_cfi_cfa(w, r, rw, m, &cfa))
		return 0;
	n.known = 0;
	for (i = 0; i < CFI_NREGS; i++)
		if (tgmon_cfi_value(w, r, &rw->reg[i], i, m, cfa, &v)) {
			n.r[i] = v;
			n.known |= 1u << i;
		}
	if (!(n.known >> CFI_RA & 1))
		return 0;
	n.r[CFI_RSP] = cfa;
	n.known |= 1u << CFI_RSP;
	*r = n;
	return 1;
}

/* Whether RA, a return address found, follows a call. */
static int
tgmon_cfi_returns(uint64_t ra)
{
	return tgmon_module_at(ra) >= 0 && tgmon_scan_call_kind(ra, 0) != 0;
}

/*
 * Mends the frame of a leaf function in assembly whose CFI leaves out its
 * pushes (the C library's __mpn_addmul_1 and kin: their rules give the
 * return address at the stack pointer, where they pushed a register),
 * interrupted at R (module M's, at the function's START): its caller's
 * return address is the first of the 8 words above the stack pointer
 * that follows a call to START (through the PLT if so), and the pushes
 * that begin the function (after an endbr64) saved the registers below
 * it, in their order; the other callee-saved registers are untouched
 * (the ABI).  0 if no such word is found.
 */
static int
tgmon_cfi_leaf(struct tgmon_walk *w, struct tgmon_cfi_regs *r, int m, uint64_t start)
{
	static const unsigned char dw[8] = { 0, 2, 1, 3, CFI_RSP, CFI_RBP, 4, 5 };	/* push's register to DWARF's */
	const unsigned char *c = (const unsigned char *)start;
	uint64_t sp = r->r[CFI_RSP], at, ra, a;
	uint32_t known = r->known & CFI_SAVED;
	int i = 0, reg;

	for (at = sp; ; at += 8) {
		if (at >= sp + 64 || !tgmon_walk_readable(w, at))
			return 0;
		if (tgmon_module_at(ra = *(const uint64_t *)at) >= 0 && tgmon_scan_callee(ra) == start)
			break;
	}
	if (tgmon_walk_mapped(m, start, 4) && c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa)
		i = 4;
	for (a = at; a > sp && tgmon_walk_mapped(m, start + (uint64_t)i, 2); a -= 8) {
		if ((c[i] & 0xf8) == 0x50)
			reg = dw[c[i++] & 7];
		else if (c[i] == 0x41 && (c[i + 1] & 0xf8) == 0x50)
			reg = 8 + (c[i + 1] & 7), i += 2;
		else
			break;
		if (reg != CFI_RSP) {
			r->r[reg] = *(const uint64_t *)(a - 8);	/* [sp, at) was proven readable */
			known |= 1u << reg;
		}
	}
	r->r[CFI_RA] = ra;
	r->r[CFI_RSP] = at + 8;
	r->known = (known & CFI_SAVED) | 1u << CFI_RA | 1u << CFI_RSP;
	return 1;
}

int
tgmon_cfi_step(struct tgmon_walk *w, struct tgmon_cfi_regs *r, int first)
{
	struct tgmon_cfi_regs was = *r;
	struct tgmon_row row;
	int m;

	if (!tgmon_cfi_rules(r->r[CFI_RA] - !first, &row, &m))
		return 0;
	if (tgmon_cfi_apply(w, r, &row, m) &&
	    ((r->r[CFI_RA] == tgmon_walk_restorer && tgmon_walk_restorer != 0) || tgmon_cfi_returns(r->r[CFI_RA])))
		return 1;
	*r = was;
	return first && tgmon_cfi_leaf(w, r, m, row.start);
}

int
tgmon_cfi_caller(struct tgmon_walk *w, struct tgmon_cfi_regs *r)
{
	struct tgmon_row row;
	int m;

	if (!tgmon_cfi_rules(r->r[CFI_RA], &row, &m))
		return -1;
	if (row.cfa_reg == CFI_RBP)	/* the frame is set up: the chain's to follow */
		return 0;
	return tgmon_cfi_apply(w, r, &row, m) && tgmon_cfi_returns(r->r[CFI_RA]) ? 1 : -1;
}

int
tgmon_cfi_span(uint64_t pc, uint64_t *lo, uint64_t *hi)
{
	struct tgmon_row row;
	int m;

	if (!tgmon_cfi_rules(pc, &row, &m))
		return -1;
	*lo = row.start;
	*hi = row.end;
	if (row.start != pc && !tgmon_cfi_rules(row.start, &row, &m))
		return -1;
	return row.cfa_reg == CFI_RSP && row.cfa_off == 8;
}
