/* walk: libtgmon's call stacks: each sample's walk, by frame pointers, counted per thread. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "../src/input/gmon_out.h"
#include "cfi.h"
#include "scan.h"
#include "tgmon.h"
#include "threads.h"
#include "trie.h"
#include "walk.h"

/*
 * Every function here is named tgmon_*, the static ones too (as in cfi.c,
 * scan.c, trie.c): they run while the program is sampled, and tgprof
 * shows tgmon_* functions as the cost of profiling, not the program's.
 *
 * Each thread has a table (struct tgmon_stk): the trie of its samples'
 * stacks (trie.c), and what the walk knows of its stack.  A thread's
 * table outlives it (the spare list, as for the arc tables).
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
 * the thread's root frame, once that is known (tgmon_stk_flags).
 *
 * The walk makes no system call where it can prove a read safe without
 * one: code and tables of objects loaded at start, which stay mapped
 * (tgmon_walk_mapped), and the thread's stack known to be readable
 * (ok_lo, lowered page by page as the stack grows: tgmon_stk_extend).
 */

#define PAGE 4096u
#define PROBE_PAGES 256			/* at most this much stack is proven readable at once */
#define EXTEND_PAGES 16			/* and at most this much more below it, in a sample */
#define CFI_FRAMES 64		/* a library's frames between two of the program's, at most */
#define CFI_NEST 4		/* signal frames crossed by the CFI, at most */

static __thread struct tgmon_stk *stk_self __attribute__((tls_model("initial-exec")));
static struct tgmon_stk *stk_all;
static struct tgmon_stk *stk_spare;
static pthread_mutex_t stk_spare_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t stk_lost;		/* samples of threads without a table */
static uint64_t main_addr;		/* main(), from the program's entry code; 0: not found */

/* The C library's: the main thread's stack ends there (weak: not every libc has it). */
extern void *__libc_stack_end __attribute__((weak));

/* mcount-x86_64.S: the stubs' depths (STEP), by offset from their start (tgmon_stub_span). */
extern const struct { int32_t off, depth; } tgmon_stub_steps[];
extern const char tgmon_stub_steps_end[];
#define STEP_FENTRY 0x1000
#define STEP_RBX 0x800

/*
 * Whether the 8 bytes at A can be read: the kernel reads them for
 * rt_sigprocmask() (which then refuses the bad HOW), or says EFAULT.
 * The system call is made here, not by the C library's syscall(): errno
 * is left alone, and a sample handler's calls leave no return address
 * into the program below the stack pointer, which a later sample's
 * search of a library's frames (scan.c) could take for its caller.
 */
static int
tgmon_stk_probe(uint64_t a)
{
	register long r10 __asm__("r10") = 8;
	long r = SYS_rt_sigprocmask;

	__asm__ volatile ("syscall" : "+a" (r) : "D" (~0L), "S" (a), "d" (0L), "r" (r10) : "rcx", "r11", "memory");
	return r != 0 && r != -EFAULT;
}

int
tgmon_walk_mapped(int m, uint64_t a, uint64_t n)
{
	const struct tgmon_hist *h;
	int i;

	if (m < 0)
		m = tgmon_module_at(a);
	if (m >= 0 && (h = tgmon_module(m))->fixed)
		for (i = 0; i < h->nseg; i++)
			if (a >= h->seg_lo[i] && a < h->seg_hi[i] && h->seg_hi[i] - a >= n)
				return 1;
	return a + n > a && n <= PAGE && tgmon_stk_probe(a & ~(uint64_t)(PAGE - 1)) &&
	    tgmon_stk_probe((a + n - 1) & ~(uint64_t)(PAGE - 1));
}

/*
 * Whether page P, below the stack known to be readable ([ok_lo, hi)), is
 * readable, and with it every page up to ok_lo: then ok_lo is lowered to
 * it for good (the pages of a thread's stack stay mapped while it lives,
 * and a page of its own mapping is only reached through them: a gap or a
 * guard page below the stack would stop the probes).  At most
 * EXTEND_PAGES probes.
 */
static int
tgmon_stk_extend(struct tgmon_stk *s, uint64_t p)
{
	uint64_t q;

	if (s->ok_lo == 0 || s->ok_lo >= s->hi || s->ok_lo - p > EXTEND_PAGES * PAGE)
		return 0;
	for (q = s->ok_lo - PAGE; q >= p; q -= PAGE) {
		if (!tgmon_stk_probe(q))
			return 0;
		s->ok_lo = q;
	}
	return 1;
}

int
tgmon_walk_readable(struct tgmon_walk *w, uint64_t a)
{
	uint64_t p, last;

	if (a < w->lo || a & 7 || a > w->s->hi || w->s->hi - a < 16)
		return 0;
	for (p = a & ~(uint64_t)(PAGE - 1), last = (a + 15) & ~(uint64_t)(PAGE - 1); ; p += PAGE) {
		if (p < w->s->ok_lo && (p < w->plo || p >= w->phi) && !tgmon_stk_extend(w->s, p)) {
			if (!tgmon_stk_probe(p))
				return 0;
			if (p == w->phi)
				w->phi += PAGE;
			else if (p + PAGE == w->plo)
				w->plo = p;
			else
				w->plo = p, w->phi = p + PAGE;
		}
		if (p == last)
			return 1;
	}
}

/* Adds a return address to the stack; 0 if it is not in loaded code, or there is no room. */
static int
tgmon_stk_push(struct tgmon_walk *w, uint64_t ra)
{
	if (tgmon_module_at(ra) < 0)
		return 0;
	if (w->n == TGSTACKS_MAX_DEPTH) {
		w->full = 1;
		return 0;
	}
	w->s->frame[w->n++] = ra;
	return 1;
}

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
 * The flags of the walk W, whose chain ended at LAST with LINK
 * (tgmon_stk_chain): the root is reached at the thread's root frame
 * (top) once it is known, else where the chain ends at a saved frame
 * pointer of 0 or (main thread) above the stack.  A chain that went
 * astray (through a library's frame, whose rbp or saved words may hold
 * 0 or anything) and stopped there is not complete.
 */
static uint32_t
tgmon_stk_flags(const struct tgmon_walk *w, uint64_t last, uint64_t link)
{
	const struct tgmon_stk *s = w->s;

	if (w->full)
		return TGSTACKS_TRUNCATED;
	if (last == 0)
		return 0;
	if (s->top != 0)	/* the root frame is known: a chain that ends below it ended early */
		return last >= s->top ? TGSTACKS_ROOT : 0;
	return link == 0 || (s->main_thread && link > s->hi - 16) ? TGSTACKS_ROOT : 0;
}

/* The index in s->frame[1..N) of the innermost return address into the program (tgmon_walk_program), or 0. */
static int
tgmon_stk_inner(const struct tgmon_stk *s, int n, int self)
{
	int k;

	for (k = 1; k < n; k++)	/* frame 0 is the sampled PC itself */
		if (tgmon_walk_program(tgmon_module_at(s->frame[k]), self))
			return k;
	return 0;
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
static int
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
 * whose bin (4 bytes: sample.c's BIN_SHIFT) holds no byte after the
 * call (R - 1's holds up to 3 of what follows it: a call that ends its
 * function, to __cxa_throw or abort(), would have its samples shared
 * with the next function, as gprof shares a bin by its bytes); a call
 * is 2 bytes at least, and R - 4 is the call's or the instruction's
 * before it.  Unless the call lies in a part split off the function that
 * the caller's call entered (tgmon_stk_split_off): that part's address
 * has no symbol that gprof believes (foo.cold's time is the symbol's
 * before it), so the sample goes to the first whole bin of the function.
 */
static uint64_t
tgmon_stk_charge(const struct tgmon_stk *s, int n, int k)
{
	uint64_t r = s->frame[k], e;
	int sure;

	if (k + 1 < n && (sure = tgmon_stk_entered(s->frame[k + 1], &e)) >= 0 && tgmon_stk_split_off(r, e, sure))
		return (e + 3) & ~(uint64_t)3;
	return r - 4;
}

uint64_t
tgmon_stacks_sample(const void *uc, uint32_t weight, int self)
{
	struct tgmon_stk *s = stk_self;
	uint32_t flags;
	int n, k;

	if (s == NULL) {
		__atomic_fetch_add(&stk_lost, weight, __ATOMIC_RELAXED);
		return 0;
	}
	n = tgmon_stk_walk(s, uc, self, &flags);
	tgmon_trie_count(&s->t, tgmon_threads_self(), s->frame, n, flags, weight);
	if (n > 0 && tgmon_walk_program(tgmon_module_at(s->frame[0]), self))
		return 0;	/* in profiled code: its own time */
	return (k = tgmon_stk_inner(s, n, self)) > 0 ? tgmon_stk_charge(s, n, k) : 0;
}

/*
 * In normal context: the outermost frame reached from FRAME (a profiled
 * function's, whose saved frame pointer is LINK), below CEILING.
 */
static uint64_t
tgmon_stk_outermost(uint64_t frame, uint64_t link, uint64_t ceiling)
{
	uint64_t fp = frame, next = link;
	int k;

	for (k = 0; k < 1000000; k++) {
		if (next == 0 || next <= fp || next & 7 || next - fp > WALK_MAX_STEP || next > ceiling - 16 ||
		    !tgmon_stk_probe(next) || !tgmon_stk_probe(next + 8) ||
		    tgmon_module_at(((uint64_t *)next)[1]) < 0)
			break;
		fp = next;
		next = ((uint64_t *)fp)[0];
	}
	return fp;
}

/* [LO, HI) is proven readable, page by page, if it is not too long: [ok_lo, hi). */
static void
tgmon_stk_prove(struct tgmon_stk *s, uint64_t lo)
{
	uint64_t p = lo & ~(uint64_t)(PAGE - 1);

	s->ok_lo = s->hi;
	if (lo >= s->hi || (s->hi - p) / PAGE > PROBE_PAGES)
		return;
	for (; p < s->hi; p += PAGE)
		if (!tgmon_stk_probe(p))
			return;
	s->ok_lo = lo & ~(uint64_t)(PAGE - 1);
}

/* The calling thread's table: its own, a spare one, or a new one; NULL if none can be made. */
static struct tgmon_stk *
tgmon_stk_get(void)
{
	struct tgmon_stk *s = stk_self;

	if (s != NULL)
		return s;
	pthread_mutex_lock(&stk_spare_lock);
	if ((s = stk_spare) != NULL)
		stk_spare = s->spare_next;
	pthread_mutex_unlock(&stk_spare_lock);
	if (s == NULL) {
		if ((s = tgmon_trie_map(sizeof *s)) == NULL)
			return NULL;
		if (!tgmon_trie_init(&s->t)) {
			munmap(s, sizeof *s);
			return NULL;
		}
		do
			s->next = __atomic_load_n(&stk_all, __ATOMIC_ACQUIRE);
		while (!__atomic_compare_exchange_n(&stk_all, &s->next, s, 0, __ATOMIC_RELEASE,
		    __ATOMIC_RELAXED));
	}
	s->hi = s->top = 0;
	s->ok_lo = 0;
	s->main_thread = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	stk_self = s;	/* samples count in it from now on */
	return s;
}

/*
 * main(), from the program's entry code (glibc's _start passes it to
 * __libc_start_main in rdi: lea main(%rip), mov main@GOTPCREL(%rip) or
 * mov $main); 0 if not found there.
 */
static uint64_t
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

/* The main thread's stack ends at __libc_stack_end: its bounds are known before it registers. */
static void
tgmon_stk_bounds_main(struct tgmon_stk *s, uint64_t sp)
{
	uint64_t end = (uint64_t)(&__libc_stack_end != NULL ? __libc_stack_end : NULL);

	if (syscall(SYS_gettid) != getpid() || end == 0 || sp >= end)
		return;
	s->main_thread = 1;
	s->hi = end & ~(uint64_t)7;
	tgmon_stk_prove(s, sp);
}

void
tgmon_stacks_start(void)
{
	struct tgmon_stk *s;
	const char *v;

	if (!tgmon_cfg.stacks || (s = tgmon_stk_get()) == NULL)
		return;
	if (!getauxval(AT_SECURE) && (v = getenv("TGMON_UNWIND")) != NULL && strcmp(v, "fp") == 0)
		stk_cfi = 0;	/* libraries' frames by the stack's search alone (tgmon_stk_library) */
	main_addr = tgmon_stk_find_main();
	tgmon_stk_bounds_main(s, (uint64_t)__builtin_frame_address(0));
}

/*
 * The calling thread's first profiled call, to the function whose frame
 * is (or will be) FRAME, with LINK its caller's: its table, its stack's
 * bounds (the main thread's end at __libc_stack_end; another's at the
 * outermost frame reached from here, under its thread descriptor) and
 * its root (that outermost frame: frames above the first profiled
 * function are not seen).
 */
void
tgmon_stacks_thread(uint64_t frame, uint64_t link)
{
	struct tgmon_stk *s;
	uint64_t ceiling = ~(uint64_t)0, self = (uint64_t)pthread_self();

	if (!tgmon_cfg.stacks || (s = tgmon_stk_get()) == NULL)
		return;
	if (s->hi == 0)
		tgmon_stk_bounds_main(s, frame);
	if (s->main_thread)
		ceiling = s->hi;
	else if (self > frame)
		ceiling = self;
	s->top = tgmon_stk_outermost(frame, link, ceiling);
	if (!s->main_thread) {
		s->hi = s->top + 16;
		tgmon_stk_prove(s, frame);
	}
}

/*
 * A call counted for the first time: if it is main()'s, in the main
 * thread, main's frame is the root (the thread may have registered in
 * a constructor, whose frame is above main's).
 */
void
tgmon_stacks_arc(uint64_t self, uint64_t frame, uint64_t link)
{
	struct tgmon_stk *s = stk_self;
	uint64_t top;

	if (s == NULL || !s->main_thread || main_addr == 0 || self - main_addr >= 32)
		return;
	top = tgmon_stk_outermost(frame, link, s->hi);
	if (s->top == 0 || top < s->top)
		s->top = top;
}

/* The thread ends: its table (its counts kept) waits for the next thread. */
void
tgmon_stacks_thread_ends(void)
{
	struct tgmon_stk *s = stk_self;

	if (s == NULL)
		return;
	stk_self = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* no sample of ours counts in it any more */
	pthread_mutex_lock(&stk_spare_lock);
	s->spare_next = stk_spare;
	stk_spare = s;
	pthread_mutex_unlock(&stk_spare_lock);
}

/*
 * In a forked child: the parent's samples are the parent's file's, and
 * the lock, which a thread that is not here may have held, is free.
 */
void
tgmon_stacks_reset(void)
{
	static const pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
	struct tgmon_stk *s;

	memcpy(&stk_spare_lock, &unlocked, sizeof unlocked);
	for (s = stk_all; s != NULL; s = s->next)
		tgmon_trie_reset(&s->t);
	stk_lost = 0;
}

void
tgmon_stacks_counts(uint64_t *lost, uint64_t *signals)
{
	const struct tgmon_stk *s;

	*lost = __atomic_load_n(&stk_lost, __ATOMIC_RELAXED);
	*signals = 0;
	for (s = __atomic_load_n(&stk_all, __ATOMIC_ACQUIRE); s != NULL; s = s->next) {
		*lost += __atomic_load_n(&s->t.lost, __ATOMIC_RELAXED);
		*signals += __atomic_load_n(&s->t.signals, __ATOMIC_ACQUIRE);
	}
}

/*
 * Calls F for every stack counted, in every table: its count, flags and
 * addresses (innermost first).  Threads may still be sampling: a stack
 * counted after it was passed over is not seen.
 */
void
tgmon_stacks_each(tgmon_stack_fn *f, void *ctx)
{
	const struct tgmon_stk *s;

	for (s = __atomic_load_n(&stk_all, __ATOMIC_ACQUIRE); s != NULL; s = s->next)
		tgmon_trie_each(&s->t, f, ctx);
}
