/* callscan: -c, call arcs found by scanning machine code, as gprof's i386 and aarch64 scanners do. */
#include "callscan.h"
#include "arcs.h"
#include "core.h"
#include "hist.h"

/*
 * These arcs have count 0: they show who could call whom, and carry no
 * time.  gprof's quirks are kept: the x86 scanner tests every byte (so
 * 0xe8 inside another instruction can look like a call), does not
 * sign-extend the displacement (so backward calls are never found on
 * x86-64), and checks the destination against the histogram with only its
 * low 32 bits.  Unlike gprof, bytes outside .text are never read.
 */

/* gprof's hist_check_address(): takes an unsigned int. */
static int
in_histogram(const struct profile *p, unsigned address)
{
	uint32_t i;

	for (i = 0; i < p->nhist; i++)
		if (p->hist[i].lowpc <= address && address < p->hist[i].highpc)
			return 1;
	return 0;
}

static uint32_t
get32(const struct profile *p, const unsigned char *b)
{
	if (p->priv->big_endian)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* An arc to the symbol starting exactly at DEST, if the histogram covers it. */
static int
call_to(struct profile *p, uint32_t id, uint64_t dest)
{
	uint32_t child;

	if (!in_histogram(p, (unsigned)dest))
		return 0;
	child = profile_lookup(p, dest);
	if (child == PF_NONE || p->sym[child].addr != dest)
		return 0;
	return arcs_add(p, id, child, 0, 1);
}

static int
scan_x86(struct profile *p, uint32_t id, uint64_t lo, uint64_t hi, const unsigned char *text)
{
	uint64_t vma = bin_text_vma(p->priv->bin), size = bin_text_size(p->priv->bin), pc;

	for (pc = lo; pc < hi; pc++) {
		if (pc < vma || pc - vma >= size || size - (pc - vma) < 5)
			continue;
		if (text[pc - vma] == 0xe8 &&
		    call_to(p, id, get32(p, text + (pc - vma) + 1) + pc + 5) != 0)
			return -1;
	}
	return 0;
}

static int
scan_aarch64(struct profile *p, uint32_t id, uint64_t lo, uint64_t hi, const unsigned char *text)
{
	uint64_t vma = bin_text_vma(p->priv->bin), size = bin_text_size(p->priv->bin), pc;

	for (pc = lo; pc < hi; pc += 4) {
		uint32_t insn;
		uint64_t offset;

		if (pc < vma || pc - vma >= size || size - (pc - vma) < 4)
			continue;
		insn = get32(p, text + (pc - vma));
		if ((insn & 0x7c000000) != 0x14000000)
			continue;
		offset = ((((uint64_t)insn & 0x3ffffff) ^ 0x2000000) - 0x2000000) << 2;
		if (call_to(p, id, pc + offset) != 0)
			return -1;
	}
	return 0;
}

int
callscan_symbol(struct profile *p, uint32_t id, const unsigned char *text, struct diag *d)
{
	uint64_t lo = p->sym[id].addr, hi;
	int rc;

	/* For the last symbol gprof reads past its table (see struct symtab). */
	if (id + 1 < p->nsyms)
		hi = p->sym[id + 1].addr;
	else if (p->priv->has_after)
		hi = p->priv->after_addr;
	else
		return 0;
	if (hist_clip(p, &lo, &hi) < 0) {
		diag_add(d, DIAG_ERROR, "found a symbol that covers several histogram records");
		return -1;
	}
	switch (bin_arch(p->priv->bin)) {
	case BIN_ARCH_I386:
		rc = scan_x86(p, id, lo, hi, text);
		break;
	case BIN_ARCH_AARCH64:
		rc = scan_aarch64(p, id, lo, hi, text);
		break;
	default:
		return 0;
	}
	return rc != 0 ? diag_oom(d) : 0;
}
