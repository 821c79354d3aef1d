/* walk-x86_64: libtgmon's stack walk on x86-64: frame pointers, and the call frame information or the stack's search where they fail. */
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <ucontext.h>

#include "../src/input/gmon_out.h"
#include "cfi.h"
#include "scan.h"
#include "tgmon.h"
#include "walk.h"

/*
 * Every function here is named tgmon_*, the static ones too (as in walk.c):
 * they run while the program is sampled.
 *
 * The walk (tgmon_stk_walk) follows the frame pointers from the signal
 * context: [rbp] is the caller's rbp, [rbp + 8] the return address.  A
 * frame must lie inside the thread's stack bounds, above the last, be
 * 8-aligned and readable (tgmon_walk_readable: a page not known to be
 * mapped is asked of the kernel, so a bad chain never faults), and its
 * return address must be in loaded code.
 *
 * Code without frame pointers (the C library's) leaves rbp to hold
 * anything.  Its frames are walked by their call frame information
 * instead (.eh_frame, as perf and debuggers walk them: cfi.c, through
 * tgmon_stk_cfi), to the program's function that called the library: the
 * stack is the library frame, that function, then its own frame's chain,
 * and the histogram charges the sample to that function.  The same CFI
 * walks the first frame of a function that has not set up its frame or
 * has taken it down (tgmon_stk_first), and a library between two frames
 * of the program (a callback's: tgmon_stk_chain).  Where there is none
 * (or TGMON_UNWIND=fp), a sample in a library is walked again from a
 * return address into the program that the stack holds
 * (tgmon_stk_library, by the search of scan.c), which a stale one can
 * still mislead.  A stack counts as complete only if its chain reached
 * the thread's root frame, once that is known (walk.c: tgmon_stk_flags).
 */

#define PAGE 4096u
#define CFI_FRAMES 64		/* a library's frames between two of the program's, at most */
#define CFI_NEST 4		/* signal frames crossed by the CFI, at most */

/* mcount-x86_64.S: the stubs' depths (STEP), by offset from their start (tgmon_stub_span). */
extern const struct { int32_t off, depth; } tgmon_stub_steps[];
extern const char tgmon_stub_steps_end[];
#define STEP_FENTRY 0x1000
#define STEP_RBX 0x800

/*
 * Inside a stub, the return address into the profiled function is
 * DEPTH bytes above the stack pointer (or above rbx + 80: STEP_RBX);
 * after __fentry__, that function's own return address is above it, as
 * its prologue has not run.  Pushes them; 0 if they cannot be read.
 */
static int
tgmon_stk_stub_frames(struct tgmon_walk *w, uint64_t at)
{
	if (at < w->lo || !tgmon_walk_readable(w, at) || !tgmon_stk_push(w, *(uint64_t *)at))
		return 0;
	w->lo = at + 8;
	return 1;
}

static int
tgmon_stk_stub(struct tgmon_walk *w, uint64_t pc, uint64_t sp, uint64_t rbx)
{
	const char *end = tgmon_stub_steps_end;
	int lo = 0, hi = (int)((end - (const char *)tgmon_stub_steps) / sizeof *tgmon_stub_steps);
	int32_t off = (int32_t)(pc - tgmon_stub_at(TGMON_SPAN_BEGIN)), d;

	while (lo < hi) {	/* the last step at or before PC */
		int mid = (lo + hi) / 2;

		if (tgmon_stub_steps[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	d = tgmon_stub_steps[lo - 1].depth;
	if (!tgmon_stk_stub_frames(w, (d & STEP_RBX ? rbx + 80 : sp + (d & 0x7ff))))
		return 0;
	return !(d & STEP_FENTRY) || tgmon_stk_stub_frames(w, w->lo);
}

/*
 * A frame of tgmon_slow() at FP, called from a stub's slow path: the stub
 * left its stack pointer (depth 80) at FP + 16 + 128.
 */
static int
tgmon_stk_slow(struct tgmon_walk *w, uint64_t fp, uint64_t ra)
{
	uint64_t at;

	if (!tgmon_walk_readable(w, fp + 16 + 128))
		return 0;
	w->lo = fp + 16 + 128;
	at = *(uint64_t *)w->lo + 80;
	if (!tgmon_stk_stub_frames(w, at))
		return 0;
	return ra != tgmon_stub_at(TGMON_SPAN_FRET) || tgmon_stk_stub_frames(w, w->lo);
}

/*
 * x86-64 Linux's signal trampoline (glibc's __restore_rt, the same for
 * every handler glibc installs): "mov $15, %rax; syscall", rt_sigreturn.
 * A frame that returns to it is a signal handler's, and the kernel's
 * signal frame above it holds the context the signal interrupted: a
 * ucontext_t at the handler's frame + 16, after the trampoline's address.
 * Its address is learnt once, in normal context (a compare a frame).
 */
static const unsigned char tgmon_sigreturn[] = { 0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f, 0x05 };
uint64_t tgmon_walk_restorer;	/* 0 when unknown: handlers' frames end the walk's care */

void
tgmon_stacks_restorer(uint64_t addr)
{
	if (addr != 0 && (addr & (PAGE - 1)) <= PAGE - sizeof tgmon_sigreturn &&
	    tgmon_stk_probe(addr & ~(uint64_t)(PAGE - 1)) &&
	    memcmp((const void *)addr, tgmon_sigreturn, sizeof tgmon_sigreturn) == 0)
		tgmon_walk_restorer = addr;
}

/* Whether module M (-1: none) is a library's: loaded code, neither the program's nor libtgmon's. */
static int
tgmon_stk_library_code(const struct tgmon_walk *w, int m)
{
	return m >= 0 && m != w->self && !tgmon_is_profiled(m);
}

static int stk_cfi = 1;		/* 0: TGMON_UNWIND=fp (libraries' frames by scan.c's search alone) */

static uint64_t tgmon_stk_first(struct tgmon_walk *w, struct tgmon_cfi_regs *r);

/*
 * The context a signal interrupted, whose ucontext_t's gregs are at G,
 * into R, and its program counter pushed (+ 1: frames after the first are
 * return addresses, looked up at address - 1); 0 if it cannot be read or
 * is not above.
 */
static int
tgmon_stk_context(struct tgmon_walk *w, uint64_t g, struct tgmon_cfi_regs *r)
{
	/* The registers of DWARF's numbers, R8 to RIP: the words from G, across two pages at most. */
	if (!tgmon_walk_readable(w, g) || !tgmon_walk_readable(w, g + 8 * (REG_RIP - 1)))
		return 0;
	tgmon_cfi_context(r, (const greg_t *)g);
	return r->r[CFI_RSP] >= g + 8 * (REG_RIP + 1) && tgmon_stk_push(w, r->r[CFI_RA] + 1);
}

/*
 * Walks up from R, a context in a library (FIRST: its program counter
 * was interrupted there, else it is a return address), through the
 * library's frames by their CFI, to the first return address into the
 * program or libtgmon, which it pushes: the library's own frames are
 * not recorded, its time is that function's (through a signal frame, the
 * interrupted program counter is pushed too, and the walk goes on from
 * it).  The frame pointer to go on from in *FP: the function's, as the
 * library kept or restored it (0: not known, the walk stops).  0 if a
 * frame's rules cannot be found or followed: the walk is left as it was.
 */
static int
tgmon_stk_cfi(struct tgmon_walk *w, struct tgmon_cfi_regs *r, int first, uint64_t *fp)
{
	uint64_t lo = w->lo, pc, g;
	int n = w->n, full = w->full, k;

	if (!stk_cfi)
		return 0;
	for (k = 0; k < CFI_FRAMES; k++) {
		w->lo = r->r[CFI_RSP];
		if (!tgmon_cfi_step(w, r, first))
			break;
		first = 0;
		pc = r->r[CFI_RA];
		if (pc == tgmon_walk_restorer && pc != 0) {	/* a signal handler's frame: the context above */
			g = r->r[CFI_RSP] + offsetof(ucontext_t, uc_mcontext.gregs);
			w->lo = r->r[CFI_RSP];
			if (++w->nest > CFI_NEST || !tgmon_stk_context(w, g, r))
				break;
			pc = r->r[CFI_RA];
			if (!tgmon_stk_library_code(w, tgmon_module_at(pc))) {
				w->lo = r->r[CFI_RSP];
				*fp = tgmon_stk_first(w, r);
				return 1;
			}
			first = 1;
			continue;
		}
		if (!tgmon_stk_library_code(w, tgmon_module_at(pc))) {
			if (!tgmon_stk_push(w, pc) && !w->full)
				break;	/* not in loaded code */
			*fp = !w->full && (r->known >> CFI_RBP & 1) ? r->r[CFI_RBP] : 0;
			w->lo = r->r[CFI_RSP];
			return 1;
		}
	}
	w->n = n;
	w->lo = lo;
	w->full = full;
	return 0;
}

/*
 * After the program counter of an interrupted context R (its registers):
 * in a stub, the frames it has not linked yet; in a function that has not
 * set up its frame, or has taken it down (its first and last
 * instructions, code built without frame pointers), its caller, by its
 * CFI (tgmon_cfi_caller: then, through a library that called it, on to
 * the program by the library's, tgmon_stk_cfi) or, without, by the
 * search of tgmon_scan_entry.  The frame pointer to go on from: rbp, the
 * caller's, or 0 to stop.
 */
static uint64_t
tgmon_stk_first(struct tgmon_walk *w, struct tgmon_cfi_regs *r)
{
	uint64_t pc = r->r[CFI_RA], sp = r->r[CFI_RSP], bp = r->r[CFI_RBP], fp, ra, at;
	int m = tgmon_module_at(pc), k;

	if (pc - tgmon_stub_at(TGMON_SPAN_BEGIN) < tgmon_stub_at(TGMON_SPAN_END) - tgmon_stub_at(TGMON_SPAN_BEGIN))
		return tgmon_stk_stub(w, pc, sp, r->r[CFI_RBX]) ? bp : 0;
	if (m < 0)
		return bp;
	if (!stk_cfi || tgmon_stk_library_code(w, m) || (k = tgmon_cfi_caller(w, r)) < 0) {
		/* pushed, so that the caller is not skipped */
		if ((ra = tgmon_scan_entry(w, pc, sp, bp, &at)) != 0 && tgmon_stk_push(w, ra))
			w->lo = at + 8;
		return bp;
	}
	if (k == 0)	/* the frame is set up: the chain's to follow */
		return bp;
	if (!tgmon_stk_push(w, r->r[CFI_RA]))
		return 0;
	w->lo = r->r[CFI_RSP];
	if (tgmon_stk_library_code(w, tgmon_module_at(r->r[CFI_RA])) && tgmon_stk_cfi(w, r, 0, &fp))
		return fp;
	return r->known >> CFI_RBP & 1 ? r->r[CFI_RBP] : 0;
}

/*
 * Through the signal frame above the handler's frame at FP: pushes the
 * interrupted program counter (+ 1: frames after the first are return
 * addresses, looked up at address - 1) and, as for the first frame, the
 * return address tgmon_scan_entry() finds, or in a library the one its
 * CFI leads to (tgmon_stk_cfi).  The interrupted frame pointer to go on
 * from; 0 if the context cannot be read or is not above.
 */
static uint64_t
tgmon_stk_signal(struct tgmon_walk *w, uint64_t fp)
{
	uint64_t g = fp + 16 + offsetof(ucontext_t, uc_mcontext.gregs), next;
	struct tgmon_cfi_regs r, u;

	if (!tgmon_stk_context(w, g, &r))
		return 0;
	w->lo = r.r[CFI_RSP];
	u = r;
	if (tgmon_stk_library_code(w, tgmon_module_at(r.r[CFI_RA])) && tgmon_stk_cfi(w, &u, 1, &next))
		return next;
	return tgmon_stk_first(w, &r);
}

/*
 * The frame at FP, returning to RA in a library with LINK saved there,
 * followed by the library's CFI (tgmon_stk_cfi: it kept no frame pointer
 * to follow); the frame pointer to go on from in *NEXT; 0 if that fails.
 */
static int
tgmon_stk_callback(struct tgmon_walk *w, uint64_t fp, uint64_t ra, uint64_t link, uint64_t *next)
{
	struct tgmon_cfi_regs u;

	u.r[CFI_RA] = ra;
	u.r[CFI_RSP] = fp + 16;
	u.r[CFI_RBP] = link;
	u.known = 1u << CFI_RA | 1u << CFI_RSP | 1u << CFI_RBP;
	return tgmon_stk_cfi(w, &u, 0, next);
}

/*
 * Follows the frame pointers from FP (0: none) into the walk: the last
 * frame reached in *LAST (0: none), the frame pointer saved there in
 * *LINK (1 where it is not known).  A frame that returns into a library
 * (a callback's: qsort()'s comparator) below the thread's root frame is
 * followed by the library's CFI to the program's function that called
 * it (tgmon_stk_callback); where that fails, by the frame pointer saved
 * there, as before.
 */
static void
tgmon_stk_chain(struct tgmon_walk *w, uint64_t fp, uint64_t *last, uint64_t *link)
{
	const struct tgmon_stk *s = w->s;
	uint64_t next;

	*last = 0;
	*link = 1;
	while (fp != 0 && tgmon_walk_readable(w, fp)) {
		uint64_t ra = ((uint64_t *)fp)[1];

		if (ra == tgmon_walk_restorer && ra != 0) {	/* a signal handler's frame */
			*last = fp;
			if ((*link = tgmon_stk_signal(w, fp)) == 0) {
				*link = 1;	/* not the root */
				return;
			}
			fp = *link;
			continue;
		}
		if (!tgmon_stk_push(w, ra))
			return;
		if ((ra == tgmon_stub_at(TGMON_SPAN_RET) || ra == tgmon_stub_at(TGMON_SPAN_FRET)) &&
		    !tgmon_stk_slow(w, fp, ra))
			return;
		*last = fp;
		*link = ((uint64_t *)fp)[0];
		if (*link == 0 || (s->main_thread && *link > s->hi - 16))	/* the root, or out at the top */
			return;
		w->lo = w->lo > fp + 16 ? w->lo : fp + 16;
		if (tgmon_stk_library_code(w, tgmon_module_at(ra)) && (s->top == 0 || fp < s->top) &&
		    tgmon_stk_callback(w, fp, ra, *link, &next)) {
			*last = 0;	/* not the root, unless the chain goes on to it */
			*link = 1;
			fp = next;
			continue;
		}
		fp = *link;
	}
}


/*
 * A sample at the program counter of G outside the program (a library
 * built without frame pointers or -pg, the kernel's system calls) that
 * its CFI did not walk (tgmon_stk_cfi: none, or TGMON_UNWIND=fp), whose
 * walk W ended at LAST with LINK: unless it reached the root (or the
 * depth limit) from the PC straight into the program, by the return
 * address that the stack holds first, it is walked again from the call
 * into the library (tgmon_scan_find): the PC, that return address, then
 * the chain from its function's frame.  When that frame is not found, a
 * walk that reached the root through the program is kept, or else the
 * stack is the PC and the return address.
 */
static void
tgmon_stk_library(struct tgmon_walk *w, const greg_t *g, int self, uint64_t *last, uint64_t *link)
{
	int rooted = tgmon_stk_flags(w, *last, *link) != 0 && tgmon_stk_inner(w->s, w->n, self) > 0;
	uint64_t keep = rooted && tgmon_walk_program(tgmon_module_at(w->s->frame[1]), self) ? w->s->frame[1] : 0;
	struct tgmon_scan_call c;

	w->lo = (uint64_t)g[REG_RSP];
	tgmon_scan_find(w, (uint64_t)g[REG_RBP], self, keep, &c);
	if (c.r == 0 || (c.f == 0 && rooted))
		return;
	w->n = 1;
	w->full = 0;
	tgmon_stk_push(w, c.r);
	w->lo = c.at + 8;
	*last = 0;
	*link = 1;
	if (c.f != 0)
		tgmon_stk_chain(w, c.f, last, link);
}

/*
 * Walks the interrupted thread's stack into s->frame: its program
 * counter, then the return addresses; the count, and *FLAGS.  SELF is
 * libtgmon's module (tgmon_stacks_sample).
 */
int
tgmon_stk_walk(struct tgmon_stk *s, const ucontext_t *uc, int self, uint32_t *flags)
{
	const greg_t *g = uc->uc_mcontext.gregs;
	uint64_t pc = (uint64_t)g[REG_RIP], sp = (uint64_t)g[REG_RSP], last, link, fp;
	struct tgmon_walk w = { s, 0, 0, self, 0, sp, 0, 0 };
	int m = tgmon_module_at(pc);
	struct tgmon_cfi_regs r, u;

	s->frame[w.n++] = pc;
	tgmon_cfi_context(&r, g);
	u = r;
	if (tgmon_stk_library_code(&w, m) && tgmon_stk_cfi(&w, &u, 1, &fp)) {	/* by the library's CFI */
		tgmon_stk_chain(&w, fp, &last, &link);
		*flags = tgmon_stk_flags(&w, last, link);
		return w.n;
	}
	tgmon_stk_chain(&w, tgmon_stk_first(&w, &r), &last, &link);
	if (m < 0 || (m != self && !tgmon_is_profiled(m)))
		tgmon_stk_library(&w, g, self, &last, &link);
	*flags = tgmon_stk_flags(&w, last, link);
	return w.n;
}

/*
 * Whether the call ending at R, into a library, lies in a part split off
 * the function at E (GCC's E.cold, where a C++ throw's call to
 * __cxa_throw is, run in E's frame), E being the function its caller's
 * call entered (SURE: that call is a direct one) or may have entered
 * (the first its call site's slot counted: a call through a pointer):
 * R - 1 is not in E's FDE, and E is a -pg function's start by its CFI,
 * in the same object; and R - 1's FDE starts inside a frame
 * (tgmon_cfi_span) if SURE, or else it is no -pg function that E reached
 * by a tail call, nor code built without -pg that E called, but one
 * that E's code jumps into (a part split off before E set up its frame,
 * as -mfentry's shrink-wrapping does, starts as a function does).
 */
static int
tgmon_stk_split_off(uint64_t r, uint64_t e, int sure)
{
	uint64_t lo, hi, elo, ehi;
	int in;

	/* E's FDE first: R - 1 is in it at nearly every call (one lookup) */
	if (tgmon_module_at(e) != tgmon_module_at(r) || tgmon_cfi_span(e, &elo, &ehi) != 1 || elo != e ||
	    r - 1 - e < ehi - e || (in = tgmon_cfi_span(r - 1, &lo, &hi)) < 0 || !tgmon_scan_pg_entry(e, ehi - e))
		return 0;
	return (in == 0 && sure) || (!tgmon_scan_pg_entry(lo, hi - lo) && tgmon_scan_jumps_into(e, ehi - e, lo, hi));
}

/*
 * The function that the call returning to F (a return address) entered,
 * in *E, and whether that is sure (a direct call: 1) or only likely
 * (through a pointer: the first function its call site's slot counted,
 * its start by its CFI, 0); -1 if neither is known.
 */
static int
tgmon_stk_entered(uint64_t f, uint64_t *e)
{
	uint64_t hi;

	if ((*e = tgmon_scan_callee(f)) != 0)
		return 1;
	if ((*e = tgmon_site_first(f)) == 0 || tgmon_cfi_span(*e, e, &hi) < 0)
		return -1;
	return 0;
}

/*
 * Where the histogram charges a sample outside the program whose
 * innermost return address into it is s->frame[K] (R; s->frame[K + 1],
 * if K + 1 < N, its caller's): the call that returns to R, at R - 4,
 * whose bin (4 bytes: TGMON_BIN_SHIFT) holds no byte after the
 * call (R - 1's holds up to 3 of what follows it: a call that ends its
 * function, to __cxa_throw or abort(), would have its samples shared
 * with the next function, as gprof shares a bin by its bytes); a call
 * is 2 bytes at least, and R - 4 is the call's or the instruction's
 * before it.  Unless the call lies in a part split off the function that
 * the caller's call entered (tgmon_stk_split_off): that part's address
 * has no symbol that gprof believes (foo.cold's time is the symbol's
 * before it), so the sample goes to the first whole bin of the function.
 */
uint64_t
tgmon_stk_charge(const struct tgmon_stk *s, int n, int k)
{
	uint64_t r = s->frame[k], e;
	int sure;

	if (k + 1 < n && (sure = tgmon_stk_entered(s->frame[k + 1], &e)) >= 0 && tgmon_stk_split_off(r, e, sure))
		return (e + 3) & ~(uint64_t)3;
	return r - 4;
}


/*
 * main(), from the program's entry code (glibc's _start passes it to
 * __libc_start_main in rdi: lea main(%rip), mov main@GOTPCREL(%rip) or
 * mov $main); 0 if not found there.
 */
uint64_t
tgmon_stk_find_main(void)
{
	uint64_t e = getauxval(AT_ENTRY), m = 0;
	const unsigned char *c = (const unsigned char *)e;
	int k;

	if (e == 0 || tgmon_module_at(e) != 0 || tgmon_module_at(e + 64) != 0 ||
	    !tgmon_stk_probe(e & ~(uint64_t)(PAGE - 1)) || !tgmon_stk_probe((e + 63) & ~(uint64_t)(PAGE - 1)))
		return 0;
	for (k = 0; k < 56 && m == 0; k++) {
		int32_t d;

		memcpy(&d, c + k + 3, sizeof d);
		if (c[k] == 0x48 && c[k + 1] == 0x8d && c[k + 2] == 0x3d)
			m = e + (uint64_t)k + 7 + (uint64_t)(int64_t)d;
		else if (c[k] == 0x48 && c[k + 1] == 0x8b && c[k + 2] == 0x3d &&
		    tgmon_stk_probe(e + (uint64_t)k + 7 + (uint64_t)(int64_t)d))
			m = *(const uint64_t *)(e + (uint64_t)k + 7 + (uint64_t)(int64_t)d);
		else if (c[k] == 0x48 && c[k + 1] == 0xc7 && c[k + 2] == 0xc7)
			m = (uint64_t)(int64_t)d;
	}
	return tgmon_module_at(m) == 0 ? m : 0;
}

void
tgmon_stk_settings(void)
{
	const char *v;

	if (!getauxval(AT_SECURE) && (v = getenv("TGMON_UNWIND")) != NULL && strcmp(v, "fp") == 0)
		stk_cfi = 0;	/* libraries' frames by the stack's search alone (tgmon_stk_library) */
}
