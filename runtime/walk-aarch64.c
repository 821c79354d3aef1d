/* walk-aarch64: libtgmon's stack walk on aarch64: the chain of frame records from x29, and the first frame's caller from x30 where its record is not linked. */
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <ucontext.h>

#include "../src/input/gmon_out.h"
#include "tgmon.h"
#include "walk.h"

/*
 * Every function here is named tgmon_*, the static ones too (as in
 * walk.c): they run while the program is sampled.
 *
 * A function built with frame pointers keeps a 16-byte frame record,
 * {its caller's x29, its return address (x30 on entry)}, and x29 points
 * at it once its prologue has run (stp x29, x30, [sp, #-N]!; mov x29,
 * sp).  GCC's -pg makes every profiled function call _mcount, so every
 * one has a record; only a leaf built without -pg (the C library's, by
 * -momit-leaf-frame-pointer) has none.  The walk starts at the
 * interrupted program counter; then, where the interrupted function's
 * record is not linked (tgmon_a64_unlinked: its prologue has not set
 * x29, its epilogue has restored it, a PLT entry or veneer, libtgmon's
 * stub, a library's leaf), x30 is its return address and x29 its
 * caller's record; elsewhere x30 is stale (a return address of a call
 * the function made) and the chain from x29 holds the caller.  Then the
 * chain: each record inside the thread's stack, above the last,
 * readable (tgmon_walk_readable) and its return address in loaded code.
 *
 * Return addresses signed by pointer authentication (-mbranch-protection
 * =pac-ret: paciasp signs x30 before the prologue stores it) are stripped
 * (xpaclri) before use.  A signal handler's frame (its x30 is the
 * kernel's sigreturn trampoline, in the vDSO, not a module) ends the
 * walk: such a sample's stack is not complete.
 */

#define PAGE 4096u
#define A64_AHEAD 4		/* instructions looked at from the PC on, for a prologue or a PLT entry */
#define A64_BEHIND 3		/* and before it, for an epilogue */

/* The return address A without its pointer authentication code (xpaclri: a no-op without PAC). */
static uint64_t
tgmon_a64_strip(uint64_t a)
{
	register uint64_t x30 __asm__("x30") = a;

	__asm__ ("hint #7" : "+r" (x30));
	return x30;
}

/* Whether instruction I sets x29 from sp (mov x29, sp; add x29, sp, #imm): a prologue's. */
static int
tgmon_a64_sets_fp(uint32_t i)
{
	return (i & 0xff8003ff) == 0x910003fd;
}

/* Whether instruction I reloads x29 and x30 from the stack (ldp x29, x30, [sp], #imm or [sp, #imm]): an epilogue's. */
static int
tgmon_a64_restores_fp(uint32_t i)
{
	return (i & 0xffc07fff) == 0xa8c07bfd || (i & 0xffc07fff) == 0xa9407bfd;
}

/* Whether instruction I is a branch (b, bl, b.cond, cbz, tbz, br, blr, ret...): control leaves the straight line. */
static int
tgmon_a64_branch(uint32_t i)
{
	return (i & 0x7c000000) == 0x14000000 || (i & 0xff000010) == 0x54000000 ||
	    (i & 0x7e000000) == 0x34000000 || (i & 0x7e000000) == 0x36000000 || (i & 0xfe000000) == 0xd6000000;
}

/*
 * In libtgmon's stub (tgmon_stub_span), whose only record is its slow
 * path's: whether that record is linked at PC, by the last of its
 * "mov x29, sp" (linked) or "ldp x29, x30" (taken down) before PC; in
 * its fast path neither (not linked: x30 returns into the profiled
 * function, x29 is that function's record).
 */
static int
tgmon_a64_stub_linked(uint64_t pc)
{
	const uint32_t *begin = (const uint32_t *)tgmon_stub_at(TGMON_SPAN_BEGIN), *p = (const uint32_t *)pc;

	while (p > begin) {
		--p;
		if (tgmon_a64_sets_fp(*p))
			return 1;
		if (tgmon_a64_restores_fp(*p))
			return 0;
	}
	return 0;
}

/*
 * Whether the code at PC (in module M, -1: none) has a frame record of
 * its own that x29 does not point at, so that x30 (LR, stripped) is its
 * return address: 0, the record is linked (the chain from x29 goes on
 * to the caller); 1, it is not (a prologue before "mov x29, sp", an
 * epilogue after "ldp x29, x30", a PLT entry or a linker's veneer, the
 * stub's fast path); 2, it may be (code outside the program returning
 * into another module: a leaf without a record, or a function that has
 * not called yet, whose record, if linked, returns to LR too).  The
 * instructions around PC are read only where tgmon_walk_mapped allows.
 */
static int
tgmon_a64_unlinked(uint64_t pc, int m, uint64_t lr, int self)
{
	const uint32_t *c = (const uint32_t *)pc;
	int k, ml;

	if (pc - tgmon_stub_at(TGMON_SPAN_BEGIN) < tgmon_stub_at(TGMON_SPAN_END) - tgmon_stub_at(TGMON_SPAN_BEGIN))
		return !tgmon_a64_stub_linked(pc);
	if (pc & 3)
		return 0;
	if (tgmon_walk_mapped(m, pc, 4 * A64_AHEAD))
		for (k = 0; k < A64_AHEAD; k++) {
			if (tgmon_a64_sets_fp(c[k]) || c[k] == 0xd61f0220 || c[k] == 0xd61f0200)
				return 1;	/* before the prologue's mov x29, sp; or br x17 / br x16 */
			if (tgmon_a64_branch(c[k]))
				break;
		}
	if (pc >= 4 * A64_BEHIND && tgmon_walk_mapped(m, pc - 4 * A64_BEHIND, 4 * A64_BEHIND))
		for (k = 1; k <= A64_BEHIND; k++) {
			if (tgmon_a64_restores_fp(c[-k]))
				return 1;	/* after the epilogue's ldp x29, x30 */
			if (tgmon_a64_sets_fp(c[-k]) || tgmon_a64_branch(c[-k]))
				break;
		}
	ml = tgmon_module_at(lr);
	return !tgmon_walk_program(m, self) && ml >= 0 && ml != m ? 2 : 0;
}

/*
 * Follows the frame records from FP (0: none) into the walk: the last
 * record reached in *LAST (0: none), the frame pointer saved there in
 * *LINK (1 where it is not known).  SKIP (0: none) is the return address
 * already pushed for the first record: if the first one returns there,
 * it is not pushed again.
 */
static void
tgmon_a64_chain(struct tgmon_walk *w, uint64_t fp, uint64_t skip, uint64_t *last, uint64_t *link)
{
	const struct tgmon_stk *s = w->s;

	*last = 0;
	*link = 1;
	while (fp != 0 && tgmon_walk_readable(w, fp)) {
		uint64_t ra = tgmon_a64_strip(((uint64_t *)fp)[1]);

		if ((ra != skip || skip == 0) && !tgmon_stk_push(w, ra))
			return;
		skip = 0;
		*last = fp;
		*link = ((uint64_t *)fp)[0];
		if (*link == 0 || (s->main_thread && *link > s->hi - 16))	/* the root, or out at the top */
			return;
		w->lo = fp + 16;
		fp = *link;
	}
}

int
tgmon_stk_walk(struct tgmon_stk *s, const ucontext_t *uc, int self, uint32_t *flags)
{
	const mcontext_t *c = &uc->uc_mcontext;
	uint64_t pc = c->pc, fp = c->regs[29], lr = tgmon_a64_strip(c->regs[30]), skip = 0, last, link;
	struct tgmon_walk w = { s, 0, 0, self, 0, c->sp, 0, 0 };
	int how;

	s->frame[w.n++] = pc;
	if ((how = tgmon_a64_unlinked(pc, tgmon_module_at(pc), lr, self)) != 0 && tgmon_stk_push(&w, lr) && how == 2)
		skip = lr;
	tgmon_a64_chain(&w, fp, skip, &last, &link);
	*flags = tgmon_stk_flags(&w, last, link);
	return w.n;
}

/*
 * The call that returns to s->frame[K] is the bl just before it (4 bytes,
 * sample.c's bin): its caller's time is there.
 */
uint64_t
tgmon_stk_charge(const struct tgmon_stk *s, int n, int k)
{
	(void)n;
	return s->frame[k] - 4;
}

/*
 * main(), from glibc's _start, which passes it to __libc_start_main in
 * x0: "adrp x0, P" then "ldr x0, [x0, #off]" (its GOT slot: PIE) or
 * "add x0, x0, #off"; 0 if not found in its first 16 instructions.
 */
uint64_t
tgmon_stk_find_main(void)
{
	uint64_t e = getauxval(AT_ENTRY), page, m = 0;
	const uint32_t *c = (const uint32_t *)e;
	int k;

	if (e == 0 || e & 3 || tgmon_module_at(e) != 0 || !tgmon_walk_mapped(0, e, 64))
		return 0;
	for (k = 0; k + 1 < 16 && m == 0; k++) {
		uint32_t i = c[k], j = c[k + 1];
		int64_t imm = (int64_t)(((uint64_t)(i >> 5 & 0x7ffff) << 2 | (i >> 29 & 3)) << 43) >> 31;

		if ((i & 0x9f00001f) != 0x90000000)	/* adrp x0 */
			continue;
		page = ((e + 4 * (uint64_t)k) & ~(uint64_t)0xfff) + (uint64_t)imm;
		if ((j & 0xffc003ff) == 0xf9400000 && tgmon_walk_mapped(0, page + (j >> 10 & 0xfff) * 8, 8))
			m = *(const uint64_t *)(page + (j >> 10 & 0xfff) * 8);	/* ldr x0, [x0, #off] */
		else if ((j & 0xffc003ff) == 0x91000000)
			m = page + (j >> 10 & 0xfff);	/* add x0, x0, #off */
	}
	return tgmon_module_at(m) == 0 ? m : 0;
}

/* No settings: the walk has one way. */
void
tgmon_stk_settings(void)
{
}

/*
 * Handlers return to the vDSO's trampoline (glibc sets no sa_restorer):
 * no signal frame is crossed.
 */
void
tgmon_stacks_restorer(uint64_t addr)
{
	(void)addr;
}
