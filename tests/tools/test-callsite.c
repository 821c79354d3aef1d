/* test-callsite: callsite_resolve() on made cases with known answers, and against a plain reference on generated code. */
/*
 * Usage: test-callsite N SEED.  First the cases below (each with the
 * address it must give); then N return addresses in generated x86-64 and
 * AArch64 code (direct calls to a few targets, indirect calls of every
 * ModRM form, filler), each resolved by callsite_resolve() and by
 * reference(): the rule of callsite.h checked at each of the 16
 * addresses with no shortcut.  Prints the number of differences; exit 1
 * if any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/callsite.h"
#include "testrand.h"

#define VMA 0x1000u
#define TEXT 4096u


static void
put32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)v;
	b[1] = (unsigned char)(v >> 8);
	b[2] = (unsigned char)(v >> 16);
	b[3] = (unsigned char)(v >> 24);
}

/* An x86 call of TARGET at AT (5 bytes): the return address AT + 5. */
static void
x86_call(unsigned char *text, uint32_t at, uint64_t target)
{
	text[at] = 0xe8;
	put32(text + at + 1, (uint32_t)(target - (VMA + at + 5)));
}

/* Whether the K bytes at B are an x86 indirect call: the ModRM rule spelled out. */
static int
ref_indirect(const unsigned char *b, unsigned k)
{
	unsigned mod = b[1] >> 6, rm = b[1] & 7, len;

	if (b[0] != 0xff || ((b[1] >> 3) & 7) != 2)
		return 0;
	if (mod == 3)
		len = 2;
	else if (rm == 4)
		len = (k >= 3 && mod == 0 && (b[2] & 7) == 5 ? 7 : 3) + (mod == 1 ? 1 : mod == 2 ? 4 : 0);
	else if (mod == 0)
		len = rm == 5 ? 6 : 2;
	else
		len = 2 + (mod == 1 ? 1 : 4);
	return (mod == 3 || rm != 4 || k >= 3) && len == k;
}

/* What call ends before R: 2 a direct one to TARGET, 1 an indirect one, 0 none. */
static int
ref_kind(const struct callsite_text *t, uint64_t r, uint64_t target)
{
	uint64_t off = r - t->vma;
	const unsigned char *p = t->text + off;
	unsigned k;

	if (t->arch == BIN_ARCH_I386) {
		if (off >= 5 && p[-5] == 0xe8 &&
		    r + (uint64_t)(int64_t)(int32_t)(p[-4] | p[-3] << 8 | p[-2] << 16 |
		    (uint32_t)p[-1] << 24) == target)
			return 2;
		for (k = 2; k <= 7 && k <= off; k++)
			if (ref_indirect(p - k, k))
				return 1;
		return 0;
	}
	if (off >= 4) {
		uint32_t insn = p[-4] | p[-3] << 8 | p[-2] << 16 | (uint32_t)p[-1] << 24;
		int64_t imm = (int64_t)((uint64_t)(insn & 0x03ffffff) << 38) >> 36;

		if ((insn & 0xfc000000) == 0x94000000 && r - 4 + (uint64_t)imm == target)
			return 2;
		return (insn & 0xfffffc1f) == 0xd63f0000;
	}
	return 0;
}

/* callsite.h's rule at each of the 16 addresses: the only direct call, else the only indirect one. */
static uint64_t
reference(const struct callsite_text *t, uint64_t from, uint64_t target)
{
	uint64_t r, found[3] = { 0, 0, 0 };
	unsigned n[3] = { 0, 0, 0 };

	if (from < t->vma || from - t->vma > t->size)
		return from - 1;
	for (r = from; r < from + 16 && r - t->vma <= t->size; r++) {
		int kind = ref_kind(t, r, target);

		found[kind] = r;
		n[kind]++;
	}
	if (n[2] == 1)
		return found[2] - 1;
	return n[2] == 0 && n[1] == 1 ? found[1] - 1 : from - 1;
}

/* The made cases: x86-64 text with calls placed by hand, and the answer each must give. */
static int
made_cases(void)
{
	static unsigned char text[TEXT];
	struct callsite_text t = { BIN_ARCH_I386, text, VMA, TEXT, 0 };
	static const struct { uint64_t from, target, want; const char *what; } c[] = {
		{ VMA + 0x100, VMA + 0x800, VMA + 0x104, "an exact return address" },
		{ VMA + 0xf8, VMA + 0x800, VMA + 0x104, "a return address rounded down to 16" },
		{ VMA + 0x1f3, VMA + 0x800, VMA + 0x1f2, "two calls of the target in 16 bytes" },
		{ VMA + 0x1f3, VMA + 0x900, VMA + 0x1f2, "no call of this target, none indirect" },
		{ VMA + 0x300, VMA + 0x900, VMA + 0x305, "only an indirect call (ff d0)" },
		{ VMA + 0x400, VMA + 0x800, VMA + 0x40a, "a direct call over an indirect one" },
		{ VMA + TEXT - 3, VMA + 0x800, VMA + TEXT - 1, "at the text's end" },
		{ VMA + TEXT + 1, VMA + 0x800, VMA + TEXT, "past the text" },
		{ VMA - 1, VMA + 0x800, VMA - 2, "before the text" },
	};
	size_t i;
	int bad = 0;

	x86_call(text, 0x100, VMA + 0x800);		/* ends at 0x104 */
	x86_call(text, 0x1f5, VMA + 0x800);		/* two, 5 bytes apart */
	x86_call(text, 0x1fa, VMA + 0x800);
	text[0x304] = 0xff, text[0x305] = 0xd0;		/* call *%rax: ends at 0x305 */
	text[0x402] = 0xff, text[0x403] = 0xd0;
	x86_call(text, 0x406, VMA + 0x800);
	x86_call(text, TEXT - 5, VMA + 0x800);
	for (i = 0; i < sizeof c / sizeof *c; i++)
		if (callsite_resolve(&t, c[i].from, c[i].target) != c[i].want) {
			printf("%s: %#llx, not %#llx\n", c[i].what,
			    (unsigned long long)callsite_resolve(&t, c[i].from, c[i].target),
			    (unsigned long long)c[i].want);
			bad++;
		}
	return bad;
}

/* TEXT filled with calls of the targets at VMA + 0x10 * (0..3), indirect calls and filler. */
static void
generate(unsigned char *text, enum bin_arch arch)
{
	uint32_t at = 0;

	while (at + 8 < TEXT) {
		unsigned what = test_rnd(6);

		if (arch == BIN_ARCH_AARCH64) {
			uint32_t insn = what < 2 ? 0x94000000u | (((VMA + 0x10 * test_rnd(4)) -
			    (VMA + at)) >> 2 & 0x03ffffff) : what == 2 ? 0xd63f0000u | test_rnd(31) << 5 : test_rnd(~0u);

			put32(text + at, insn);
			at += 4;
		} else if (what < 2) {
			x86_call(text, at, VMA + 0x10 * test_rnd(4));
			at += 5;
		} else if (what == 2) {
			text[at] = 0xff;
			text[at + 1] = (unsigned char)(test_rnd(4) << 6 | 2 << 3 | test_rnd(8));
			text[at + 2] = (unsigned char)test_rnd(256);
			at += 2 + test_rnd(6);
		} else {
			text[at++] = (unsigned char)test_rnd(256);
		}
	}
}

int
main(int argc, char **argv)
{
	unsigned char *text[2] = { malloc(TEXT), malloc(TEXT) };	/* (the sanitizers see a read outside) */
	unsigned long n, i, bad;

	if (argc != 3)
		return fprintf(stderr, "usage: test-callsite N SEED\n"), 2;
	if (text[0] == NULL || text[1] == NULL)
		return fprintf(stderr, "test-callsite: out of memory\n"), 2;
	n = strtoul(argv[1], NULL, 10);
	test_seed = strtoul(argv[2], NULL, 10);
	bad = (unsigned long)made_cases();
	for (i = 0; i < n; i++) {
		enum bin_arch arch = i % 2 ? BIN_ARCH_AARCH64 : BIN_ARCH_I386;
		struct callsite_text t = { arch, text[i % 2], VMA, TEXT, 0 };
		uint64_t from = VMA + (test_rnd(8) == 0 ? test_rnd(8) : test_rnd(TEXT + 2)), target = VMA + 0x10 * test_rnd(4);

		if (i % 1000 < 2)	/* new code now and then, for each */
			generate(text[i % 2], arch);
		if (callsite_resolve(&t, from, target) != reference(&t, from, target)) {
			if (bad++ < 10)
				printf("%s text, %#llx to %#llx: %#llx, the reference %#llx\n",
				    arch == BIN_ARCH_I386 ? "x86" : "aarch64", (unsigned long long)from,
				    (unsigned long long)target,
				    (unsigned long long)callsite_resolve(&t, from, target),
				    (unsigned long long)reference(&t, from, target));
		}
	}
	printf("%lu differences\n", bad);
	free(text[0]);
	free(text[1]);
	return bad != 0;
}
