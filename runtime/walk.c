/* walk: libtgmon's call stacks: each sample's frame-pointer walk, counted per thread in a trie. */
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
#include "tgmon.h"

/*
 * Every function here is named tgmon_*, the static ones too: they run
 * while the program is sampled, and tgprof shows tgmon_* functions as the
 * cost of profiling, not the program's.
 *
 * Each thread has a table (struct tgmon_stk): a trie of the stacks its
 * samples saw, outermost frame first, whose node for a stack's innermost
 * frame counts the samples of that stack.  Only the thread's own sample
 * handler writes it, so there is no lock; nodes are appended and never
 * move, and the writer reads them while other threads still sample.  A
 * thread's table outlives it (the spare list, as for the arc tables).
 *
 * The walk (tgmon_stk_walk) follows the frame pointers from the signal
 * context: [rbp] is the caller's rbp, [rbp + 8] the return address.  A
 * frame must lie inside the thread's stack bounds, above the last, be
 * 8-aligned and readable (tgmon_stk_readable: a page not known to be
 * mapped is asked of the kernel, so a bad chain never faults), and its
 * return address must be in loaded code.
 *
 * Code without frame pointers (the C library's) leaves rbp to hold
 * anything.  Its frames are walked by their call frame information
 * instead (.eh_frame, as perf and debuggers walk them: tgmon_stk_cfi),
 * to the program's function that called the library: the stack is the
 * library frame, that function, then its own frame's chain, and the
 * histogram charges the sample to that function.  The same CFI walks
 * the first frame of a function that has not set up its frame or has
 * taken it down (tgmon_stk_first), and a library between two frames of
 * the program (a callback's: tgmon_stk_chain).  Where there is none (or
 * TGMON_UNWIND=fp), a sample in a library is walked again from a return
 * address into the program that the stack holds (tgmon_stk_library), a
 * search that a stale one can still mislead.  A stack counts as complete
 * only if its chain reached the thread's root frame, once that is known
 * (tgmon_stk_flags).
 *
 * The walk makes no system call where it can prove a read safe without
 * one: code and tables of objects loaded at start, which stay mapped
 * (tgmon_stk_mapped), and the thread's stack known to be readable
 * (ok_lo, lowered page by page as the stack grows: tgmon_stk_extend).
 */

#define SEG_SHIFT 16			/* nodes in a segment: 64 Ki, 1.5 MiB */
#define SEG_NODES (1u << SEG_SHIFT)
#define MAX_SEGS 32			/* 2 Mi nodes a table */
#define FIRST_ID 4			/* node ids below: a path's class, its flags + 1 */
#define FIRST_INDEX 4096		/* the index's first size, in slots */
#define PAGE 4096u
#define MAX_STEP (64ull << 20)		/* a frame bigger than this is not believed */
#define PROBE_PAGES 256			/* at most this much stack is proven readable at once */
#define EXTEND_PAGES 16			/* and at most this much more below it, in a sample */
#define SCAN_BYTES 8192			/* a library's frames searched for its caller (snprintf's: 3 KiB) */
#define SCAN_NEAR 512			/* its caller's return address believed without its frame */
#define CALLER_FRAME 65536		/* that caller's frame is at most this far above its call */
#define CALLER_TRIES 4			/* return addresses tried as the caller's, at most */

/* One frame of a stack: the stacks through ADDR under PARENT. */
struct tgmon_node {
	uint64_t addr;
	uint64_t count;		/* samples whose stack ends here (ADDR innermost) */
	uint32_t parent;	/* a node id, or the path's class (below FIRST_ID) */
	uint16_t depth;		/* 1 for the outermost frame */
	uint16_t flags;		/* TGSTACKS_ROOT, TGSTACKS_TRUNCATED */
};

struct tgmon_stk {
	struct tgmon_node *seg[MAX_SEGS];	/* published before nnodes counts them */
	uint32_t nnodes;			/* ids in use: [FIRST_ID, nnodes) */
	uint32_t *index;			/* node ids by (parent, addr); 0: empty */
	uint32_t index_mask, index_used;
	uint64_t lost;				/* samples not recorded: the table is full */
	uint64_t signals;			/* that brought the samples recorded */
	/* The thread using it (set when it registers). */
	uint64_t hi;		/* a frame F has F + 16 <= HI */
	uint64_t top;		/* a walk whose last frame is at or above it reached the root; 0: unknown */
	uint64_t ok_lo;		/* [ok_lo, hi) is known to be readable */
	int main_thread;
	struct tgmon_stk *next;		/* every table made */
	struct tgmon_stk *spare_next;	/* while it waits for a new thread */
	uint64_t frame[TGSTACKS_MAX_DEPTH];	/* the walk's */
};

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

static void *
tgmon_stk_map(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0);

	return p != MAP_FAILED ? p : NULL;
}

static struct tgmon_node *
tgmon_stk_node(const struct tgmon_stk *s, uint32_t id)
{
	return &__atomic_load_n(&s->seg[id >> SEG_SHIFT], __ATOMIC_ACQUIRE)[id & (SEG_NODES - 1)];
}

static uint32_t
tgmon_stk_hash(uint32_t parent, uint64_t addr)
{
	return (uint32_t)((((addr * 0x9e3779b97f4a7c15ULL) ^ parent) * 0xff51afd7ed558ccdULL) >> 32);
}

/* A table twice as large for the index (in a sample handler: mmap is a system call, no lock). */
static int
tgmon_stk_index_grow(struct tgmon_stk *s)
{
	uint32_t size = (s->index_mask + 1) * 2, i, j, *n;

	if (size > 2 * MAX_SEGS * SEG_NODES || (n = tgmon_stk_map(size * sizeof *n)) == NULL)
		return -1;
	for (i = 0; i <= s->index_mask; i++) {
		uint32_t id = s->index[i];
		const struct tgmon_node *d;

		if (id == 0)
			continue;
		d = tgmon_stk_node(s, id);
		for (j = tgmon_stk_hash(d->parent, d->addr) & (size - 1); n[j] != 0; j = (j + 1) & (size - 1))
			;
		n[j] = id;
	}
	munmap(s->index, (s->index_mask + 1) * sizeof *s->index);
	s->index = n;
	s->index_mask = size - 1;
	return 0;
}

/* A new node; 0 if the table is full. */
static uint32_t
tgmon_stk_append(struct tgmon_stk *s, uint32_t parent, uint64_t addr, uint16_t depth, uint16_t flags)
{
	uint32_t id = s->nnodes, k = id >> SEG_SHIFT;
	struct tgmon_node *d;

	if (k >= MAX_SEGS)
		return 0;
	if (s->seg[k] == NULL) {
		struct tgmon_node *p = tgmon_stk_map(SEG_NODES * sizeof *p);

		if (p == NULL)
			return 0;
		__atomic_store_n(&s->seg[k], p, __ATOMIC_RELEASE);
	}
	d = &s->seg[k][id & (SEG_NODES - 1)];
	d->addr = addr;
	d->count = 0;
	d->parent = parent;
	d->depth = depth;
	d->flags = flags;
	__atomic_store_n(&s->nnodes, id + 1, __ATOMIC_RELEASE);
	return id;
}

/* The node of ADDR under PARENT, made if new; 0 if the table is full. */
static uint32_t
tgmon_stk_child(struct tgmon_stk *s, uint32_t parent, uint64_t addr, uint16_t depth, uint16_t flags)
{
	uint32_t i, id;

	if ((s->index_used + 1) * 2 > s->index_mask + 1 && tgmon_stk_index_grow(s) != 0 &&
	    (s->index_used + 1) * 4 > (s->index_mask + 1) * 3)
		return 0;
	for (i = tgmon_stk_hash(parent, addr) & s->index_mask; (id = s->index[i]) != 0;
	    i = (i + 1) & s->index_mask) {
		const struct tgmon_node *d = tgmon_stk_node(s, id);

		if (d->parent == parent && d->addr == addr)
			return id;
	}
	if ((id = tgmon_stk_append(s, parent, addr, depth, flags)) != 0) {
		s->index[i] = id;
		s->index_used++;
	}
	return id;
}

/* Counts a sample of the stack FRAME[0..N) (innermost first) in S. */
static void
tgmon_stk_count(struct tgmon_stk *s, int n, uint32_t flags, uint32_t weight)
{
	uint32_t id = flags + 1;	/* the class: paths of each kind apart */
	struct tgmon_node *d;
	int k;

	for (k = n - 1; k >= 0 && id != 0; k--)
		id = tgmon_stk_child(s, id, s->frame[k], (uint16_t)(n - k), (uint16_t)flags);
	if (id == 0) {
		__atomic_fetch_add(&s->lost, weight, __ATOMIC_RELAXED);
		return;
	}
	d = tgmon_stk_node(s, id);
	__atomic_store_n(&d->count, d->count + weight, __ATOMIC_RELAXED);
	__atomic_store_n(&s->signals, s->signals + 1, __ATOMIC_RELEASE);	/* after the count */
}

/*
 * Whether the 8 bytes at A can be read: the kernel reads them for
 * rt_sigprocmask() (which then refuses the bad HOW), or says EFAULT.
 * The system call is made here, not by the C library's syscall(): errno
 * is left alone, and a sample handler's calls leave no return address
 * into the program below the stack pointer, which a later sample's
 * search of a library's frames (tgmon_stk_scan) could take for its caller.
 */
static int
tgmon_stk_probe(uint64_t a)
{
	register long r10 __asm__("r10") = 8;
	long r = SYS_rt_sigprocmask;

	__asm__ volatile ("syscall" : "+a" (r) : "D" (~0L), "S" (a), "d" (0L), "r" (r10) : "rcx", "r11", "memory");
	return r != 0 && r != -EFAULT;
}

/*
 * Whether the N bytes at A (N at most a page) can be read.  Inside a
 * readable segment of an object loaded at start (tgmon_hist.fixed, M's
 * or, when M is -1, the one whose code holds A), which stays mapped
 * until the process ends, they can, without a system call; elsewhere
 * the kernel is asked, page by page.
 */
static int
tgmon_stk_mapped(int m, uint64_t a, uint64_t n)
{
	const struct tgmon_hist *h;
	int i;

	if (m < 0)
		m = tgmon_module_at(a);
	if (m >= 0 && (h = &tgmon_mod[m])->fixed)
		for (i = 0; i < h->nseg; i++)
			if (a >= h->seg_lo[i] && a < h->seg_hi[i] && h->seg_hi[i] - a >= n)
				return 1;
	return a + n > a && n <= PAGE && tgmon_stk_probe(a & ~(uint64_t)(PAGE - 1)) &&
	    tgmon_stk_probe((a + n - 1) & ~(uint64_t)(PAGE - 1));
}

/* A walk in progress. */
struct tgmon_walk {
	struct tgmon_stk *s;
	int n;			/* frames in s->frame */
	int full;		/* a frame did not fit: truncated */
	int self;		/* libtgmon's module (tgmon_stacks_sample) */
	int nest;		/* signal frames crossed by tgmon_stk_cfi */
	uint64_t lo;		/* the next frame is at or above */
	uint64_t plo, phi;	/* pages [plo, phi) proven readable in this walk */
};

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

/* Whether [A, A + 16) is inside the bounds and readable. */
static int
tgmon_stk_readable(struct tgmon_walk *w, uint64_t a)
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
	if (at < w->lo || !tgmon_stk_readable(w, at) || !tgmon_stk_push(w, *(uint64_t *)at))
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

	if (!tgmon_stk_readable(w, fp + 16 + 128))
		return 0;
	w->lo = fp + 16 + 128;
	at = *(uint64_t *)w->lo + 80;
	if (!tgmon_stk_stub_frames(w, at))
		return 0;
	return ra != tgmon_stub_at(TGMON_SPAN_FRET) || tgmon_stk_stub_frames(w, w->lo);
}

/*
 * The function that the call instruction ending at R (a return address in
 * loaded code) calls: direct (e8), through a GOT slot (ff 15), or through
 * a PLT entry (ff 25, after endbr64 and bnd if IBT made them) to what its
 * GOT slot holds; 0 if it is not such a call or cannot be read.  The
 * bytes are read where tgmon_stk_mapped() says they can be: in objects
 * loaded at start, without a system call.
 */
static uint64_t
tgmon_stk_callee(uint64_t r)
{
	const unsigned char *c = (const unsigned char *)r;
	uint64_t t = 0, slot;
	int32_t d;
	int m = tgmon_module_at(r), k;

	if (!tgmon_stk_mapped(m, r - 6, 6))
		return 0;
	memcpy(&d, c - 4, sizeof d);
	if (c[-5] == 0xe8)
		t = r + (uint64_t)(int64_t)d;
	else if (c[-6] == 0xff && c[-5] == 0x15 && tgmon_stk_mapped(m, slot = r + (uint64_t)(int64_t)d, 8))
		t = *(const uint64_t *)slot;
	if ((m = tgmon_module_at(t)) < 0 || !tgmon_stk_mapped(m, t, 11))
		return t;
	c = (const unsigned char *)t;
	k = c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa ? 4 : 0;	/* endbr64 */
	k += c[k] == 0xf2;								/* bnd */
	if (c[k] == 0xff && c[k + 1] == 0x25) {
		memcpy(&d, c + k + 2, sizeof d);
		slot = t + (uint64_t)k + 6 + (uint64_t)(int64_t)d;
		t = tgmon_stk_mapped(m, slot, 8) ? *(const uint64_t *)slot : 0;
	}
	return t;
}

/*
 * Where the interrupted function has not set up its frame, or has taken
 * it down (its first and last instructions, a function without a frame
 * pointer that uses none, a PLT entry), rbp is its caller's: the return
 * address into the caller is among the few words above the stack
 * pointer, below that frame.  It is the one whose call instruction calls
 * the function the program counter is in (at most 64 KiB into it).
 * Pushes it, so that the caller is not skipped.
 */
static void
tgmon_stk_entry(struct tgmon_walk *w, uint64_t pc, uint64_t sp, uint64_t fp)
{
	uint64_t at, r, t;

	for (at = sp; at < sp + 64 && at + 8 <= fp && tgmon_stk_readable(w, at); at += 8) {
		r = *(const uint64_t *)at;
		if (tgmon_module_at(r) < 0 || (t = tgmon_stk_callee(r)) == 0 || t > pc || pc - t >= 65536)
			continue;
		if (tgmon_stk_push(w, r))
			w->lo = at + 8;
		return;
	}
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
static uint64_t stk_restorer;	/* 0 when unknown: handlers' frames end the walk's care */

void
tgmon_stacks_restorer(uint64_t addr)
{
	if (addr != 0 && (addr & (PAGE - 1)) <= PAGE - sizeof tgmon_sigreturn &&
	    tgmon_stk_probe(addr & ~(uint64_t)(PAGE - 1)) &&
	    memcmp((const void *)addr, tgmon_sigreturn, sizeof tgmon_sigreturn) == 0)
		stk_restorer = addr;
}

/* Whether module M is the program's profiled code, not libtgmon's own (SELF). */
static int
tgmon_stk_program(int m, int self)
{
	return m != self && tgmon_is_profiled(m);
}

/* Whether module M (-1: none) is a library's: loaded code, neither the program's nor libtgmon's. */
static int
tgmon_stk_library_code(const struct tgmon_walk *w, int m)
{
	return m >= 0 && m != w->self && !tgmon_is_profiled(m);
}

/*
 * Call frame information.  A library built without frame pointers (the
 * C library) still describes its frames for unwinders, in .eh_frame,
 * found by .eh_frame_hdr's sorted table: at each of its instructions,
 * where the caller's stack pointer was (the CFA: a register plus an
 * offset, or an expression), and where the registers it saved are, the
 * return address among them.  A sample in such a library is walked up
 * through its frames by those rules, as perf and debuggers walk it, to
 * the return address into the program, with the program's frame pointer
 * as the library kept or restored it: nothing is guessed from the words
 * on the stack, so neither a stale return address (left below the live
 * frames by an earlier call, or in the library's own frames) nor a tail
 * call into the library (the function that jumped there has no frame
 * left: the sample is its caller's, as in perf) misleads the walk.  The
 * tables are read only in objects loaded at start (tgmon_hist.fixed),
 * which stay mapped: no system call; the stack's words as the rest of
 * the walk reads them (tgmon_stk_readable).  Every loop is bounded: by
 * the bytes of a table, CFI_OPS instructions, CFI_FRAMES frames.
 * TGMON_UNWIND=fp turns it off (stk_cfi 0): the walk searches the stack
 * (tgmon_stk_library) as where there are no tables.
 */
#define DW_RBX 3
#define DW_RBP 6
#define DW_RSP 7
#define DW_RA 16		/* the return address's column; here, the program counter */
#define DW_NREGS 17
#define DW_SAVED ((1u << DW_RBX) | (1u << DW_RBP) | (0xfu << 12))	/* callee-saved: rbx, rbp, r12-r15 */
#define CFI_FRAMES 64		/* a library's frames between two of the program's, at most */
#define CFI_STATES 4		/* DW_CFA_remember_state's depth */
#define CFI_OPS 1024		/* instructions run for one frame, at most */
#define CFI_EXPR 64		/* a DWARF expression's bytes, at most */
#define CFI_NEST 4		/* signal frames crossed by the CFI, at most */

static int stk_cfi = 1;		/* 0: TGMON_UNWIND=fp */

/* The registers of a frame being unwound (DWARF's numbers), those in KNOWN (a bit each). */
struct tgmon_regs {
	uint64_t r[DW_NREGS];
	uint32_t known;
};

/* ucontext_t's gregs of each: rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15, rip. */
static const unsigned char tgmon_dw_greg[DW_NREGS] = {
	REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP
};

/* The registers of an interrupted context, from its ucontext_t's gregs at G (proven readable). */
static void
tgmon_cfi_context(struct tgmon_regs *r, const greg_t *g)
{
	int i;

	for (i = 0; i < DW_NREGS; i++)
		r->r[i] = (uint64_t)g[tgmon_dw_greg[i]];
	r->known = (1u << DW_NREGS) - 1;
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
	struct tgmon_rule reg[DW_NREGS];
	uint64_t start;		/* the first address its FDE covers: the function's */
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
	const struct tgmon_hist *h = &tgmon_mod[m];
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
	uint64_t h = tgmon_mod[m].eh_hdr, n, lo = 0, hi, mid, tab;
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

/* The CIE of module M at A; 0 if it is not one understood here. */
static int
tgmon_cfi_cie(int m, uint64_t a, struct tgmon_cie *c)
{
	struct tgmon_rd d = tgmon_rd_at(m, a);
	uint64_t len = tgmon_rd_u(&d, 4), aend;
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
	if ((version == 1 ? tgmon_rd_u(&d, 1) : tgmon_rd_leb(&d, 0)) != DW_RA || (aug[0] != 0 && aug[0] != 'z'))
		return 0;
	c->fde_enc = 0;
	if ((c->aug = aug[0] == 'z')) {
		aend = tgmon_rd_leb(&d, 0);	/* its augmentation data's length, then its end */
		if (d.bad || d.end - d.p < aend)
			return 0;
		aend += d.p;
		for (k = 1; aug[k] != 0; k++) {
			if (aug[k] == 'R')
				c->fde_enc = (unsigned)tgmon_rd_u(&d, 1);
			else if (aug[k] == 'P')
				tgmon_rd_ptr(&d, (unsigned)tgmon_rd_u(&d, 1) & 0x0f, 0);	/* the personality */
			else if (aug[k] == 'L')
				tgmon_rd_u(&d, 1);
			else if (aug[k] != 'S' && aug[k] != 'B')
				break;	/* the rest is skipped, by its length */
		}
		if (d.p > aend)
			return 0;
		d.p = aend;
	}
	c->ins = d;
	return !d.bad;
}

/* Sets register REG's rule (registers beyond those tracked are not); 0 if V does not fit. */
static int
tgmon_cfi_set(struct tgmon_row *row, uint64_t reg, int kind, int64_t v)
{
	if (v != (int32_t)v)
		return 0;
	if (reg < DW_NREGS) {
		row->reg[reg].kind = (uint8_t)kind;
		row->reg[reg].v = (int32_t)v;
	}
	return 1;
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
	struct tgmon_row saved[CFI_STATES];
	int nsaved = 0, k, ok = 1;

	for (k = 0; k < CFI_OPS && ok && d->p < d->end; k++) {
		unsigned op = (unsigned)tgmon_rd_u(d, 1);
		uint64_t delta = 0, reg = op & 0x3f, len;
		int64_t place;

		switch (op >> 6 ? op & 0xc0 : op) {
		case 0x40: delta = reg; break;				/* advance_loc */
		case 0x80: ok = tgmon_cfi_set(row, reg, RULE_OFFSET,	/* offset */
		    (int64_t)tgmon_rd_leb(d, 0) * c->data_align); break;
		case 0x06: reg = tgmon_rd_leb(d, 0);		/* restore_extended */
			/* FALLTHROUGH */
		case 0xc0: if (init == NULL)			/* restore */
				return 0;
			ok = reg >= DW_NREGS || tgmon_cfi_set(row, reg, init->reg[reg].kind, init->reg[reg].v);
			break;
		case 0x00: break;					/* nop */
		case 0x01: delta = tgmon_rd_ptr(d, c->fde_enc, 0);	/* set_loc */
			if (delta < loc)
				return 0;
			delta = (delta - loc) / (c->code_align ? c->code_align : 1);
			break;
		case 0x02: delta = tgmon_rd_u(d, 1); break;
		case 0x03: delta = tgmon_rd_u(d, 2); break;
		case 0x04: delta = tgmon_rd_u(d, 4); break;
		case 0x05: reg = tgmon_rd_leb(d, 0);			/* offset_extended */
			ok = tgmon_cfi_set(row, reg, RULE_OFFSET, (int64_t)tgmon_rd_leb(d, 0) * c->data_align); break;
		case 0x07: ok = tgmon_cfi_set(row, tgmon_rd_leb(d, 0), RULE_UNDEF, 0); break;
		case 0x08: ok = tgmon_cfi_set(row, tgmon_rd_leb(d, 0), RULE_SAME, 0); break;
		case 0x09: reg = tgmon_rd_leb(d, 0);			/* register */
			ok = tgmon_cfi_set(row, reg, RULE_REG, (int64_t)tgmon_rd_leb(d, 0)); break;
		case 0x0a: if (nsaved == CFI_STATES)			/* remember_state */
				return 0;
			saved[nsaved++] = *row;
			break;
		case 0x0b: if (nsaved == 0)				/* restore_state */
				return 0;
			*row = saved[--nsaved];
			break;
		case 0x0c: row->cfa_reg = (int32_t)tgmon_rd_leb(d, 0);	/* def_cfa */
			/* FALLTHROUGH */
		case 0x0e: row->cfa_off = (int32_t)(int64_t)tgmon_rd_leb(d, 0); break;	/* def_cfa_offset */
		case 0x0d: row->cfa_reg = (int32_t)tgmon_rd_leb(d, 0); break;	/* def_cfa_register */
		case 0x12: row->cfa_reg = (int32_t)tgmon_rd_leb(d, 0);	/* def_cfa_sf */
			/* FALLTHROUGH */
		case 0x13: row->cfa_off = (int32_t)((int64_t)tgmon_rd_leb(d, 1) * c->data_align); break;
		case 0x0f: place = (int64_t)(d->p - hdr);		/* def_cfa_expression */
			len = tgmon_rd_leb(d, 0);
			if (d->bad || d->end - d->p < len || place != (int32_t)place)
				return 0;
			d->p += len;
			row->cfa_reg = -1;
			row->cfa_off = (int32_t)place;
			break;
		case 0x10: case 0x16: reg = tgmon_rd_leb(d, 0);		/* expression, val_expression */
			place = (int64_t)(d->p - hdr);
			len = tgmon_rd_leb(d, 0);
			if (d->bad || d->end - d->p < len)
				return 0;
			d->p += len;
			ok = tgmon_cfi_set(row, reg, op == 0x10 ? RULE_EXPR : RULE_VAL_EXPR, place);
			break;
		case 0x11: reg = tgmon_rd_leb(d, 0);			/* offset_extended_sf */
			ok = tgmon_cfi_set(row, reg, RULE_OFFSET, (int64_t)tgmon_rd_leb(d, 1) * c->data_align); break;
		case 0x14: reg = tgmon_rd_leb(d, 0);			/* val_offset */
			ok = tgmon_cfi_set(row, reg, RULE_VAL_OFFSET, (int64_t)tgmon_rd_leb(d, 0) * c->data_align); break;
		case 0x15: reg = tgmon_rd_leb(d, 0);			/* val_offset_sf */
			ok = tgmon_cfi_set(row, reg, RULE_VAL_OFFSET, (int64_t)tgmon_rd_leb(d, 1) * c->data_align); break;
		case 0x2e: tgmon_rd_leb(d, 0); break;			/* GNU_args_size */
		case 0x2f: reg = tgmon_rd_leb(d, 0);			/* GNU_negative_offset_extended */
			ok = tgmon_cfi_set(row, reg, RULE_OFFSET, -(int64_t)tgmon_rd_leb(d, 0) * c->data_align); break;
		default:
			return 0;
		}
		if (d->bad)
			return 0;
		if (delta != 0) {	/* the row so far holds until LOC + DELTA */
			if (delta > (target - loc) / (c->code_align ? c->code_align : 1))
				return ok;
			loc += delta * c->code_align;
		}
	}
	return ok && k < CFI_OPS;
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
	for (i = 0; i < DW_NREGS; i++)
		init.reg[i] = (struct tgmon_rule){ 0, RULE_SAME };
	if (!tgmon_cfi_run(&c.ins, &c, 0, ~(uint64_t)0, &init, NULL, hdr))
		return 0;
	*row = init;
	if (!tgmon_cfi_run(&d, &c, begin, target, row, &init, hdr) || row->cfa_reg == -2)
		return 0;
	row->start = begin;
	return 1;
}

/*
 * A DWARF expression of module M at A (its length first) over the
 * registers R, with PUSH on its stack first if PUSHED: its value in *V;
 * 0 for an operation not understood here, or a word it reads that is
 * not the stack's (tgmon_stk_readable).
 */
static int
tgmon_cfi_expr(struct tgmon_walk *w, int m, uint64_t a, const struct tgmon_regs *r, uint64_t push,
    int pushed, uint64_t *v)
{
	struct tgmon_rd d = tgmon_rd_at(m, a);
	uint64_t st[8], x, len = tgmon_rd_leb(&d, 0);
	int n = 0;

	if (d.bad || len > CFI_EXPR || d.end - d.p < len)
		return 0;
	d.end = d.p + len;
	if (pushed)
		st[n++] = push;
	while (d.p < d.end) {
		unsigned op = (unsigned)tgmon_rd_u(&d, 1), reg;

		if (op >= 0x30 && op <= 0x4f) {		/* lit0-31 */
			x = op - 0x30;
		} else if ((op >= 0x70 && op <= 0x8f) || op == 0x92) {	/* breg0-31, bregx */
			reg = op == 0x92 ? (unsigned)tgmon_rd_leb(&d, 0) : op - 0x70;
			if (reg >= DW_NREGS || !(r->known >> reg & 1))
				return 0;
			x = r->r[reg] + tgmon_rd_leb(&d, 1);
		} else if (op >= 0x08 && op <= 0x0f) {	/* const1u, const1s ... const8s */
			unsigned size = 1u << ((op - 0x08) / 2);

			x = tgmon_rd_u(&d, size);
			if ((op & 1) && size < 8 && (x >> (8 * size - 1) & 1))
				x |= ~(uint64_t)0 << (8 * size);
		} else if (op == 0x10 || op == 0x11) {	/* constu, consts */
			x = tgmon_rd_leb(&d, op == 0x11);
		} else if (op == 0x06 || op == 0x12 || op == 0x23) {	/* deref, dup, plus_uconst */
			if (n == 0)
				return 0;
			x = st[--n];
			if (op == 0x06) {
				if (!tgmon_stk_readable(w, x))
					return 0;
				x = *(const uint64_t *)x;
			} else if (op == 0x12) {
				st[n++] = x;
			} else {
				x += tgmon_rd_leb(&d, 0);
			}
		} else if (op == 0x13) {		/* drop */
			if (n == 0)
				return 0;
			n--;
			continue;
		} else {				/* two operands: A (below) op B */
			uint64_t b, a2;

			if (n < 2)
				return 0;
			b = st[--n];
			a2 = st[--n];
			switch (op) {
			case 0x16: st[n++] = b; x = a2; break;	/* swap */
			case 0x1a: x = a2 & b; break;
			case 0x1c: x = a2 - b; break;
			case 0x1e: x = a2 * b; break;
			case 0x21: x = a2 | b; break;
			case 0x22: x = a2 + b; break;
			case 0x24: x = b < 64 ? a2 << b : 0; break;
			case 0x25: x = b < 64 ? a2 >> b : 0; break;
			case 0x27: x = a2 ^ b; break;
			case 0x29: x = a2 == b; break;
			case 0x2a: x = (int64_t)a2 >= (int64_t)b; break;
			case 0x2b: x = (int64_t)a2 > (int64_t)b; break;
			case 0x2c: x = (int64_t)a2 <= (int64_t)b; break;
			case 0x2d: x = (int64_t)a2 < (int64_t)b; break;
			case 0x2e: x = a2 != b; break;
			default: return 0;
			}
		}
		if (d.bad || n == (int)(sizeof st / sizeof *st))
			return 0;
		st[n++] = x;
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

	return (*m = tgmon_module_at(target)) >= 0 && tgmon_mod[*m].fixed && (hdr = tgmon_mod[*m].eh_hdr) != 0 &&
	    (fde = tgmon_cfi_fde(*m, target)) != 0 && tgmon_cfi_row(*m, hdr, fde, target, row);
}

/*
 * The caller's registers from R by ROW, module M's rules for R's program
 * counter: those known (the callee-saved ones kept or restored, the
 * stack pointer: the CFA) replace R's.  0 if the rules need what is not
 * known or not readable, or the CFA is not above the stack pointer.
 */
static int
tgmon_cfi_apply(struct tgmon_walk *w, struct tgmon_regs *r, const struct tgmon_row *rw, int m)
{
	uint64_t hdr = tgmon_mod[m].eh_hdr, cfa, a, v;
	struct tgmon_regs n;
	int i;

	if (!(r->known >> DW_RSP & 1))
		return 0;
	if (rw->cfa_reg >= 0) {
		if (rw->cfa_reg >= DW_NREGS || !(r->known >> rw->cfa_reg & 1))
			return 0;
		cfa = r->r[rw->cfa_reg] + (uint64_t)(int64_t)rw->cfa_off;
	} else if (!tgmon_cfi_expr(w, m, hdr + (uint64_t)(int64_t)rw->cfa_off, r, 0, 0, &cfa)) {
		return 0;
	}
	if (cfa <= r->r[DW_RSP] || cfa - r->r[DW_RSP] > MAX_STEP || (cfa & 7))
		return 0;
	n.known = 0;
	for (i = 0; i < DW_NREGS; i++) {
		const struct tgmon_rule *u = &rw->reg[i];

		switch (u->kind) {
		case RULE_OFFSET:
		case RULE_EXPR:
			if (u->kind == RULE_OFFSET)
				a = cfa + (uint64_t)(int64_t)u->v;
			else if (!tgmon_cfi_expr(w, m, hdr + (uint64_t)(int64_t)u->v, r, cfa, 1, &a))
				continue;
			if (a >= r->r[DW_RSP]) {
				if (!tgmon_stk_readable(w, a))
					continue;
				v = *(const uint64_t *)a;
				break;
			}
			/* saved below the stack pointer, in an epilogue: restored already */
			/* FALLTHROUGH */
		case RULE_SAME:
			if (!(DW_SAVED >> i & 1) || !(r->known >> i & 1))
				continue;
			v = r->r[i];
			break;
		case RULE_VAL_OFFSET:
			v = cfa + (uint64_t)(int64_t)u->v;
			break;
		case RULE_VAL_EXPR:
			if (!tgmon_cfi_expr(w, m, hdr + (uint64_t)(int64_t)u->v, r, cfa, 1, &v))
				continue;
			break;
		case RULE_REG:
			if (u->v < 0 || u->v >= DW_NREGS || !(r->known >> u->v & 1))
				continue;
			v = r->r[u->v];
			break;
		default:	/* RULE_UNDEF */
			continue;
		}
		n.r[i] = v;
		n.known |= 1u << i;
	}
	if (!(n.known >> DW_RA & 1))
		return 0;
	n.r[DW_RSP] = cfa;
	n.known |= 1u << DW_RSP;
	*r = n;
	return 1;
}

static int tgmon_stk_call_kind(uint64_t ra, uint64_t in);

/* Whether RA, a return address found, follows a call. */
static int
tgmon_cfi_returns(uint64_t ra)
{
	return tgmon_module_at(ra) >= 0 && tgmon_stk_call_kind(ra, 0) != 0;
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
tgmon_cfi_leaf(struct tgmon_walk *w, struct tgmon_regs *r, int m, uint64_t start)
{
	static const unsigned char dw[8] = { 0, 2, 1, 3, DW_RSP, DW_RBP, 4, 5 };	/* push's register to DWARF's */
	const unsigned char *c = (const unsigned char *)start;
	uint64_t sp = r->r[DW_RSP], at, ra, a;
	uint32_t known = r->known & DW_SAVED;
	int i = 0, reg;

	for (at = sp; ; at += 8) {
		if (at >= sp + 64 || !tgmon_stk_readable(w, at))
			return 0;
		if (tgmon_module_at(ra = *(const uint64_t *)at) >= 0 && tgmon_stk_callee(ra) == start)
			break;
	}
	if (tgmon_stk_mapped(m, start, 4) && c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa)
		i = 4;
	for (a = at; a > sp && tgmon_stk_mapped(m, start + (uint64_t)i, 2); a -= 8) {
		if ((c[i] & 0xf8) == 0x50)
			reg = dw[c[i++] & 7];
		else if (c[i] == 0x41 && (c[i + 1] & 0xf8) == 0x50)
			reg = 8 + (c[i + 1] & 7), i += 2;
		else
			break;
		if (reg != DW_RSP) {
			r->r[reg] = *(const uint64_t *)(a - 8);	/* [sp, at) was proven readable */
			known |= 1u << reg;
		}
	}
	r->r[DW_RA] = ra;
	r->r[DW_RSP] = at + 8;
	r->known = (known & DW_SAVED) | 1u << DW_RA | 1u << DW_RSP;
	return 1;
}

/*
 * One frame up from R (its program counter exact if FIRST, else a return
 * address) by its module's CFI (tgmon_cfi_apply), to a return address
 * that follows a call (or the signal trampoline's); where R was
 * interrupted, rules that give another are mended (tgmon_cfi_leaf).  0
 * if there are no rules for R, or they cannot be followed.
 */
static int
tgmon_cfi_step(struct tgmon_walk *w, struct tgmon_regs *r, int first)
{
	struct tgmon_regs was = *r;
	struct tgmon_row row;
	int m;

	if (!tgmon_cfi_rules(r->r[DW_RA] - !first, &row, &m))
		return 0;
	if (tgmon_cfi_apply(w, r, &row, m) &&
	    ((r->r[DW_RA] == stk_restorer && stk_restorer != 0) || tgmon_cfi_returns(r->r[DW_RA])))
		return 1;
	*r = was;
	return first && tgmon_cfi_leaf(w, r, m, row.start);
}

static uint64_t tgmon_stk_first(struct tgmon_walk *w, struct tgmon_regs *r);

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
tgmon_stk_cfi(struct tgmon_walk *w, struct tgmon_regs *r, int first, uint64_t *fp)
{
	uint64_t lo = w->lo, pc, g;
	int n = w->n, full = w->full, k;

	if (!stk_cfi)
		return 0;
	for (k = 0; k < CFI_FRAMES; k++) {
		w->lo = r->r[DW_RSP];
		if (!tgmon_cfi_step(w, r, first))
			break;
		first = 0;
		pc = r->r[DW_RA];
		if (pc == stk_restorer && pc != 0) {	/* a signal handler's frame: the context above */
			g = r->r[DW_RSP] + offsetof(ucontext_t, uc_mcontext.gregs);
			w->lo = r->r[DW_RSP];
			if (++w->nest > CFI_NEST || !tgmon_stk_readable(w, g) ||
			    !tgmon_stk_readable(w, g + 8 * (REG_RIP - 1)))
				break;
			tgmon_cfi_context(r, (const greg_t *)g);
			pc = r->r[DW_RA];
			if (r->r[DW_RSP] < g + 8 * (REG_RIP + 1) || !tgmon_stk_push(w, pc + 1))
				break;
			if (!tgmon_stk_library_code(w, tgmon_module_at(pc))) {
				w->lo = r->r[DW_RSP];
				*fp = tgmon_stk_first(w, r);
				return 1;
			}
			first = 1;
			continue;
		}
		if (!tgmon_stk_library_code(w, tgmon_module_at(pc))) {
			if (!tgmon_stk_push(w, pc) && !w->full)
				break;	/* not in loaded code */
			*fp = !w->full && (r->known >> DW_RBP & 1) ? r->r[DW_RBP] : 0;
			w->lo = r->r[DW_RSP];
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
 * CFI (tgmon_cfi_apply: then, through a library that called it, on to
 * the program by the library's, tgmon_stk_cfi) or, without, by the
 * search of tgmon_stk_entry.  The frame pointer to go on from: rbp, the
 * caller's, or 0 to stop.
 */
static uint64_t
tgmon_stk_first(struct tgmon_walk *w, struct tgmon_regs *r)
{
	uint64_t pc = r->r[DW_RA], sp = r->r[DW_RSP], bp = r->r[DW_RBP], fp;
	struct tgmon_row row;
	int m = tgmon_module_at(pc);

	if (pc - tgmon_stub_at(TGMON_SPAN_BEGIN) < tgmon_stub_at(TGMON_SPAN_END) - tgmon_stub_at(TGMON_SPAN_BEGIN))
		return tgmon_stk_stub(w, pc, sp, r->r[DW_RBX]) ? bp : 0;
	if (m < 0)
		return bp;
	if (!stk_cfi || tgmon_stk_library_code(w, m) || !tgmon_cfi_rules(pc, &row, &m) ||
	    (row.cfa_reg != DW_RBP && (!tgmon_cfi_apply(w, r, &row, m) || !tgmon_cfi_returns(r->r[DW_RA])))) {
		tgmon_stk_entry(w, pc, sp, bp);
		return bp;
	}
	if (row.cfa_reg == DW_RBP)	/* the frame is set up: the chain's to follow */
		return bp;
	if (!tgmon_stk_push(w, r->r[DW_RA]))
		return 0;
	w->lo = r->r[DW_RSP];
	if (tgmon_stk_library_code(w, tgmon_module_at(r->r[DW_RA])) && tgmon_stk_cfi(w, r, 0, &fp))
		return fp;
	return r->known >> DW_RBP & 1 ? r->r[DW_RBP] : 0;
}

/*
 * Through the signal frame above the handler's frame at FP: pushes the
 * interrupted program counter (+ 1: frames after the first are return
 * addresses, looked up at address - 1) and, as for the first frame, the
 * return address tgmon_stk_entry() finds, or in a library the one its
 * CFI leads to (tgmon_stk_cfi).  The interrupted frame pointer to go on
 * from; 0 if the context cannot be read or is not above.
 */
static uint64_t
tgmon_stk_signal(struct tgmon_walk *w, uint64_t fp)
{
	uint64_t g = fp + 16 + offsetof(ucontext_t, uc_mcontext.gregs), next;
	struct tgmon_regs r, u;

	/* The registers of DWARF's numbers, R8 to RIP: the words from G, across two pages at most. */
	if (!tgmon_stk_readable(w, g) || !tgmon_stk_readable(w, g + 8 * (REG_RIP - 1)))
		return 0;
	tgmon_cfi_context(&r, (const greg_t *)g);
	if (r.r[DW_RSP] < g + 8 * (REG_RIP + 1) || !tgmon_stk_push(w, r.r[DW_RA] + 1))
		return 0;
	w->lo = r.r[DW_RSP];
	u = r;
	if (tgmon_stk_library_code(w, tgmon_module_at(r.r[DW_RA])) && tgmon_stk_cfi(w, &u, 1, &next))
		return next;
	return tgmon_stk_first(w, &r);
}

/*
 * Follows the frame pointers from FP (0: none) into the walk: the last
 * frame reached in *LAST (0: none), the frame pointer saved there in
 * *LINK (1 where it is not known).  A frame that returns into a library
 * (a callback's: qsort()'s comparator) below the thread's root frame is
 * followed by the library's CFI to the program's function that called
 * it (tgmon_stk_cfi: the library kept no frame pointer to follow); where
 * that fails, by the frame pointer saved there, as before.
 */
static void
tgmon_stk_chain(struct tgmon_walk *w, uint64_t fp, uint64_t *last, uint64_t *link)
{
	const struct tgmon_stk *s = w->s;
	struct tgmon_regs u;
	uint64_t next;

	*last = 0;
	*link = 1;
	while (fp != 0 && tgmon_stk_readable(w, fp)) {
		uint64_t ra = ((uint64_t *)fp)[1];

		if (ra == stk_restorer && ra != 0) {	/* a signal handler's frame */
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
		if (tgmon_stk_library_code(w, tgmon_module_at(ra)) && (s->top == 0 || fp < s->top)) {
			u.r[DW_RA] = ra;
			u.r[DW_RSP] = fp + 16;
			u.r[DW_RBP] = *link;
			u.known = 1u << DW_RA | 1u << DW_RSP | 1u << DW_RBP;
			if (tgmon_stk_cfi(w, &u, 0, &next)) {
				*last = 0;	/* not the root, unless the chain goes on to it */
				*link = 1;
				fp = next;
				continue;
			}
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

/* The innermost return address into the program (tgmon_stk_program) in s->frame[1..N), or 0. */
static uint64_t
tgmon_stk_inner(const struct tgmon_stk *s, int n, int self)
{
	int k;

	for (k = 1; k < n; k++)	/* frame 0 is the sampled PC itself */
		if (tgmon_stk_program(tgmon_module_at(s->frame[k]), self))
			return s->frame[k];
	return 0;
}

/*
 * The instruction before RA (a return address in loaded code): 2, a
 * direct call to at most 64 KiB before IN, the function that holds it
 * (tgmon_stk_callee); 1, another call (direct, or ff /2 through a
 * register or memory, whose target is not known: *%reg, *(%reg), *(sib),
 * *d8(%reg), *d8(sib), *d32(%reg), *d32(sib)); 0, no call.
 */
static int
tgmon_stk_call_kind(uint64_t ra, uint64_t in)
{
	const unsigned char *c = (const unsigned char *)ra;
	uint64_t t;

	if ((t = tgmon_stk_callee(ra)) != 0)
		return t <= in && in - t < 65536 ? 2 : 1;
	if (!tgmon_stk_mapped(-1, ra - 7, 7))
		return 0;
	return (c[-2] == 0xff && ((c[-1] & 0xf8) == 0xd0 ||
	    ((c[-1] & 0xf8) == 0x10 && c[-1] != 0x14 && c[-1] != 0x15))) ||
	    (c[-3] == 0xff && (c[-2] == 0x14 || ((c[-2] & 0xf8) == 0x50 && c[-2] != 0x54))) ||
	    (c[-4] == 0xff && c[-3] == 0x54) ||
	    (c[-6] == 0xff && (c[-5] & 0xf8) == 0x90 && c[-5] != 0x94) ||
	    (c[-7] == 0xff && (c[-6] == 0x94 || c[-6] == 0x14));
}

/*
 * The lowest 8-aligned value from FLOOR to AT + CALLER_FRAME among BP and
 * the words in [SP, AT) (which the scan proved readable); ~0 if none.
 */
static uint64_t
tgmon_stk_lowest(uint64_t sp, uint64_t bp, uint64_t at, uint64_t floor)
{
	uint64_t f = ~(uint64_t)0, a, v;

	if (bp >= floor && bp - at <= CALLER_FRAME && !(bp & 7))
		f = bp;
	for (a = sp; a < at; a += 8)
		if ((v = *(const uint64_t *)a) >= floor && v < f && v - at <= CALLER_FRAME && !(v & 7))
			f = v;
	return f;
}

/*
 * The frame of the program's function that made the call into a library
 * returning to R at AT: its frame pointer then, which the library either
 * left in rbp (BP) or saved among the words from SP up to AT.  Of the
 * candidates above AT, within CALLER_FRAME, lowest first (4 * CALLER_TRIES
 * at most), that are frames (their return address in loaded code): one
 * whose return address follows a call to R's function, or the first if
 * its return address follows a call in the program (not SELF: R's
 * function may have been called by a tail call) or if it is the thread's
 * root frame (main's, called from the C library); 0 if none.  Not a
 * signal handler's frame (the trampoline follows no call): below the
 * stack pointer, the sample handler's earlier runs leave their frames,
 * with their calls to the C library.
 */
static uint64_t
tgmon_stk_caller_frame(struct tgmon_walk *w, uint64_t sp, uint64_t bp, uint64_t at, uint64_t r, int self)
{
	uint64_t floor = at + 8, f, ra;
	int k, first = 1, kind;

	for (k = 0; k < 4 * CALLER_TRIES && (f = tgmon_stk_lowest(sp, bp, at, floor)) != ~(uint64_t)0; k++) {
		floor = f + 8;
		if (!tgmon_stk_readable(w, f) || tgmon_module_at(ra = ((const uint64_t *)f)[1]) < 0)
			continue;	/* not a frame */
		kind = tgmon_stk_call_kind(ra, r - 1);
		if (kind == 2 || (first && ((kind == 1 && tgmon_stk_program(tgmon_module_at(ra), self)) ||
		    (w->s->top != 0 ? f >= w->s->top : ((const uint64_t *)f)[0] == 0))))
			return f;
		first = 0;
	}
	return 0;
}

/* A call into a library found on the stack: it returns to R, at AT, in the function whose frame is F. */
struct tgmon_call {
	uint64_t r, at, f;	/* R 0: none found; F 0: not found */
};

/*
 * The call into the library a sample is in (W's lo at its SP).  If BP,
 * its rbp, is a frame of the program's within SCAN_BYTES (the library
 * left it alone: it is the calling function's), the call is the return
 * address below it, the closest, that calls out of the profiled code,
 * from a function that its caller's call may have reached (stale return
 * addresses lie further down, in the library's frames).  Else, among the
 * SCAN_BYTES above SP, the return addresses into the program whose call
 * instruction calls out of the profiled code (tgmon_stk_callee: a stale
 * pointer that happens to follow such bytes rarely calls a library),
 * lowest first, CALLER_TRIES at most: the first whose caller's frame is
 * found or that lies among the SCAN_NEAR above SP (further up, in a
 * library's frames, lie stale ones, left by earlier calls, and those of a
 * callback the library called).  None when the first return address into
 * the program is KEEP (the walk's own innermost one, as tgmon_stk_entry
 * finds it: among the 8 words above SP).
 */
static void
tgmon_stk_scan(struct tgmon_walk *w, uint64_t bp, int self, uint64_t keep, struct tgmon_call *c)
{
	uint64_t sp = w->lo, at, r, t, f;
	int mt, tries = 0;

	c->r = c->at = c->f = 0;
	/* rbp first: where the library left it alone, it is the calling function's frame */
	if (bp > sp && bp - sp < SCAN_BYTES && tgmon_stk_readable(w, bp) &&
	    tgmon_stk_program(tgmon_module_at(f = ((const uint64_t *)bp)[1]), self))
		for (at = bp - 8; at >= sp && at < bp && tgmon_stk_readable(w, at); at -= 8) {
			r = *(const uint64_t *)at;
			if (tgmon_stk_program(tgmon_module_at(r), self) && (t = tgmon_stk_callee(r)) != 0 &&
			    (mt = tgmon_module_at(t)) >= 0 && !tgmon_is_profiled(mt) &&
			    tgmon_stk_call_kind(f, r - 1) != 0) {
				*c = (struct tgmon_call){ r, at, bp };
				return;
			}
		}
	for (at = sp; at < sp + SCAN_BYTES && tries < CALLER_TRIES && tgmon_stk_readable(w, at); at += 8) {
		r = *(const uint64_t *)at;
		if (!tgmon_stk_program(tgmon_module_at(r), self))
			continue;
		if (r == keep && at - sp < 64)
			return;
		keep = 0;
		if ((t = tgmon_stk_callee(r)) == 0 || (mt = tgmon_module_at(t)) < 0 || tgmon_is_profiled(mt))
			continue;
		tries++;
		if ((f = tgmon_stk_caller_frame(w, sp, bp, at, r, self)) != 0 || at - sp < SCAN_NEAR) {
			*c = (struct tgmon_call){ r, at, f };
			return;
		}
	}
}

/*
 * A sample at the program counter of G outside the program (a library
 * built without frame pointers or -pg, the kernel's system calls) that
 * its CFI did not walk (tgmon_stk_cfi: none, or TGMON_UNWIND=fp), whose
 * walk W ended at LAST with LINK: unless it reached the root (or the
 * depth limit) from the PC straight into the program, by the return
 * address that the stack holds first, it is walked again from the call
 * into the library (tgmon_stk_scan): the PC, that return address, then
 * the chain from its function's frame.  When that frame is not found, a
 * walk that reached the root through the program is kept, or else the
 * stack is the PC and the return address.
 */
static void
tgmon_stk_library(struct tgmon_walk *w, const greg_t *g, int self, uint64_t *last, uint64_t *link)
{
	int rooted = tgmon_stk_flags(w, *last, *link) != 0 && tgmon_stk_inner(w->s, w->n, self) != 0;
	uint64_t keep = rooted && tgmon_stk_program(tgmon_module_at(w->s->frame[1]), self) ? w->s->frame[1] : 0;
	struct tgmon_call c;

	w->lo = (uint64_t)g[REG_RSP];
	tgmon_stk_scan(w, (uint64_t)g[REG_RBP], self, keep, &c);
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
	struct tgmon_regs r, u;

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

uint64_t
tgmon_stacks_sample(const void *uc, uint32_t weight, int self)
{
	struct tgmon_stk *s = stk_self;
	uint32_t flags;
	uint64_t r;
	int n;

	if (s == NULL) {
		__atomic_fetch_add(&stk_lost, weight, __ATOMIC_RELAXED);
		return 0;
	}
	n = tgmon_stk_walk(s, uc, self, &flags);
	tgmon_stk_count(s, n, flags, weight);
	if (n > 0 && tgmon_stk_program(tgmon_module_at(s->frame[0]), self))
		return 0;	/* in profiled code: its own time */
	return (r = tgmon_stk_inner(s, n, self)) != 0 ? r - 1 : 0;
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
		if (next == 0 || next <= fp || next & 7 || next - fp > MAX_STEP || next > ceiling - 16 ||
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
		if ((s = tgmon_stk_map(sizeof *s)) == NULL)
			return NULL;
		s->index_mask = FIRST_INDEX - 1;
		s->nnodes = FIRST_ID;
		if ((s->index = tgmon_stk_map(FIRST_INDEX * sizeof *s->index)) == NULL ||
		    (s->seg[0] = tgmon_stk_map(SEG_NODES * sizeof *s->seg[0])) == NULL) {
			if (s->index != NULL)
				munmap(s->index, FIRST_INDEX * sizeof *s->index);
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
	uint32_t id;

	memcpy(&stk_spare_lock, &unlocked, sizeof unlocked);
	for (s = stk_all; s != NULL; s = s->next) {
		for (id = FIRST_ID; id < s->nnodes; id++)
			tgmon_stk_node(s, id)->count = 0;
		s->lost = s->signals = 0;
	}
	stk_lost = 0;
}

void
tgmon_stacks_counts(uint64_t *lost, uint64_t *signals)
{
	const struct tgmon_stk *s;

	*lost = __atomic_load_n(&stk_lost, __ATOMIC_RELAXED);
	*signals = 0;
	for (s = __atomic_load_n(&stk_all, __ATOMIC_ACQUIRE); s != NULL; s = s->next) {
		*lost += __atomic_load_n(&s->lost, __ATOMIC_RELAXED);
		*signals += __atomic_load_n(&s->signals, __ATOMIC_ACQUIRE);
	}
}

/*
 * Calls F for every stack counted, in every table: its count, flags and
 * addresses (innermost first).  Threads may still be sampling: a stack
 * counted after it was passed over is not seen.
 */
void
tgmon_stacks_each(void (*f)(void *, uint64_t, uint32_t, const uint64_t *, uint32_t), void *ctx)
{
	static uint64_t addr[TGSTACKS_MAX_DEPTH];
	const struct tgmon_stk *s;

	for (s = __atomic_load_n(&stk_all, __ATOMIC_ACQUIRE); s != NULL; s = s->next) {
		uint32_t n = __atomic_load_n(&s->nnodes, __ATOMIC_ACQUIRE), id, k, up;

		for (id = FIRST_ID; id < n; id++) {
			const struct tgmon_node *d = tgmon_stk_node(s, id);
			uint64_t count = __atomic_load_n(&d->count, __ATOMIC_RELAXED);

			if (count == 0)
				continue;
			for (k = 0, up = id; up >= FIRST_ID && k < TGSTACKS_MAX_DEPTH; k++) {
				const struct tgmon_node *u = tgmon_stk_node(s, up);

				addr[k] = u->addr;
				up = u->parent;
			}
			if (up < FIRST_ID && k == d->depth)
				f(ctx, count, d->flags, addr, k);
		}
	}
}
