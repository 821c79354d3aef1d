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

/* Whether the K bytes at B are an x86 FF /2 (call near indirect), decoded from its ModRM byte. */
static int
x86_indirect(const unsigned char *b, unsigned k)
{
	unsigned modrm = b[1], mod = modrm >> 6, rm = modrm & 7, len = 2;

	if (b[0] != 0xff || ((modrm >> 3) & 7) != 2)
		return 0;
	if (mod != 3 && rm == 4) {		/* a SIB byte */
		if (k < 3)
			return 0;
		len = mod == 0 && (b[2] & 7) == 5 ? 7 : 3;
	} else if (mod == 0 && rm == 5) {
		len = 6;			/* RIP-relative */
	}
	if (mod == 1 || mod == 2)
		len += mod == 1 ? 1 : 4;
	return len == k;
}

/* 2 for a call to TARGET ending just before R, 1 for an indirect call, 0 for none. */
static int
call_before(const struct callsite_text *t, uint64_t r, uint64_t target)
{
	uint64_t off = r - t->vma;
	const unsigned char *p = t->text + off;
	unsigned k;

	if (t->arch == BIN_ARCH_I386) {
		if (off >= 5 && p[-5] == 0xe8 && r + (uint64_t)(int64_t)(int32_t)get32(t, p - 4) == target)
			return 2;
		for (k = 2; k <= 7 && k <= off; k++)
			if (x86_indirect(p - k, k))
				return 1;
		return 0;
	}
	if (t->arch == BIN_ARCH_AARCH64 && off >= 4) {
		uint32_t insn = get32(t, p - 4);
		int64_t imm = (int64_t)((uint64_t)(insn & 0x03ffffff) << 38) >> 36;

		if ((insn & 0xfc000000) == 0x94000000 && r - 4 + (uint64_t)imm == target)
			return 2;	/* BL */
		return (insn & 0xfffffc1f) == 0xd63f0000;	/* BLR */
	}
	return 0;
}

uint64_t
callsite_resolve(const struct callsite_text *t, uint64_t from, uint64_t target)
{
	uint64_t r, found[3] = { 0, 0, 0 };
	unsigned n[3] = { 0, 0, 0 };

	if (t->text == NULL || from < t->vma || from - t->vma > t->size)
		return from - 1;
	for (r = from; r < from + GRANULE && r - t->vma <= t->size; r++) {
		int kind = call_before(t, r, target);

		found[kind] = r;
		n[kind]++;
	}
	if (n[2] == 1)
		return found[2] - 1;
	if (n[2] == 0 && n[1] == 1)
		return found[1] - 1;
	return from - 1;
}
