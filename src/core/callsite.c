/* callsite: where a call was made, from the return address a gmon arc records and the machine code. */
#include "callsite.h"

#define GRANULE 16

static uint32_t
get32(const struct callsite_text *t, const unsigned char *b)
{
	if (t->big_endian)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/*
 * The length of the x86 FF /2 (call near indirect) at B, decoded from its
 * ModRM byte, or 0 if it is none; AVAIL (at least 2) bytes are there.
 */
static unsigned
x86_indirect_len(const unsigned char *b, uint64_t avail)
{
	unsigned modrm = b[1], mod = modrm >> 6, rm = modrm & 7, len = 2;

	if (b[0] != 0xff || ((modrm >> 3) & 7) != 2)
		return 0;
	if (mod != 3 && rm == 4) {		/* a SIB byte */
		if (avail < 3)
			return 0;
		len = mod == 0 && (b[2] & 7) == 5 ? 7 : 3;
	} else if (mod == 0 && rm == 5) {
		len = 6;			/* RIP-relative */
	}
	if (mod == 1 || mod == 2)
		len += mod == 1 ? 1 : 4;
	return len;
}

/* Whether a direct call to TARGET ends just before R. */
static int
direct_before(const struct callsite_text *t, uint64_t r, uint64_t target)
{
	uint64_t off = r - t->vma;
	const unsigned char *p = t->text + off;

	if (t->arch == BIN_ARCH_I386)
		return off >= 5 && p[-5] == 0xe8 && r + (uint64_t)(int64_t)(int32_t)get32(t, p - 4) == target;
	if (t->arch == BIN_ARCH_AARCH64 && off >= 4) {
		uint32_t insn = get32(t, p - 4);
		int64_t imm = (int64_t)((uint64_t)(insn & 0x03ffffff) << 38) >> 36;

		return (insn & 0xfc000000) == 0x94000000 && r - 4 + (uint64_t)imm == target;	/* BL */
	}
	return 0;
}

/*
 * The return addresses FROM + I (I < SPAN, at most 16, all in the text)
 * that an indirect call ends just before, as bit I each: on x86 each
 * instruction start that could end there decoded once.
 */
static unsigned
indirect_ends(const struct callsite_text *t, uint64_t from, uint64_t span)
{
	uint64_t end = t->vma + t->size, q, i;
	unsigned bits = 0, len;

	if (t->arch == BIN_ARCH_AARCH64) {
		for (i = 0; i < span; i++)
			if (from + i - t->vma >= 4 &&
			    (get32(t, t->text + (from + i - t->vma) - 4) & 0xfffffc1f) == 0xd63f0000)
				bits |= 1u << i;	/* BLR */
		return bits;
	}
	if (t->arch != BIN_ARCH_I386)
		return 0;
	for (q = from - t->vma >= 7 ? from - 7 : t->vma; q + 3 <= from + span && q + 1 < end; q++) {
		const unsigned char *b = t->text + (q - t->vma);

		if (b[0] == 0xff && (len = x86_indirect_len(b, end - q)) != 0 &&
		    q + len >= from && q + len < from + span)
			bits |= 1u << (q + len - from);
	}
	return bits;
}

/*
 * callsite.h's rule: the direct calls to TARGET first, as most calls are;
 * the indirect ones are decoded only where there is none.
 */
uint64_t
callsite_resolve(const struct callsite_text *t, uint64_t from, uint64_t target)
{
	uint64_t found = 0, span, i;
	unsigned n = 0, bits;

	if (t->text == NULL || from < t->vma || from - t->vma > t->size)
		return from - 1;
	span = t->size - (from - t->vma) < GRANULE ? t->size - (from - t->vma) + 1 : GRANULE;
	for (i = 0; i < span; i++)
		if (direct_before(t, from + i, target)) {
			found = from + i;
			n++;
		}
	if (n == 0 && (bits = indirect_ends(t, from, span)) != 0 && (bits & (bits - 1)) == 0)
		return from + (uint64_t)__builtin_ctz(bits) - 1;
	return n == 1 ? found - 1 : from - 1;
}
