/* walk: libtgmon's call stacks: each sample's frame-pointer walk, counted per thread in a trie. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <signal.h>
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
 * anything: a sample there whose walk is not rooted through the program
 * is walked again from the program's function that called the library
 * (tgmon_stk_library): the library frame, that function, then its own
 * frame's chain, as the histogram charges the sample to that function.
 */

#define SEG_SHIFT 16			/* nodes in a segment: 64 Ki, 1.5 MiB */
#define SEG_NODES (1u << SEG_SHIFT)
#define MAX_SEGS 32			/* 2 Mi nodes a table */
#define FIRST_ID 4			/* node ids below: a path's class, its flags + 1 */
#define FIRST_INDEX 4096		/* the index's first size, in slots */
#define PAGE 4096u
#define MAX_STEP (64ull << 20)		/* a frame bigger than this is not believed */
#define PROBE_PAGES 256			/* at most this much stack is proven readable at once */
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

/* A walk in progress. */
struct tgmon_walk {
	struct tgmon_stk *s;
	int n;			/* frames in s->frame */
	int full;		/* a frame did not fit: truncated */
	uint64_t lo;		/* the next frame is at or above */
	uint64_t page;		/* a page proven readable in this walk, or 0 */
};

/* Whether [A, A + 16) is inside the bounds and readable. */
static int
tgmon_stk_readable(struct tgmon_walk *w, uint64_t a)
{
	uint64_t p, last;

	if (a < w->lo || a & 7 || a > w->s->hi || w->s->hi - a < 16)
		return 0;
	for (p = a & ~(uint64_t)(PAGE - 1), last = (a + 15) & ~(uint64_t)(PAGE - 1); ; p += PAGE) {
		if (p < w->s->ok_lo && p != w->page) {
			if (!tgmon_stk_probe(p))
				return 0;
			w->page = p;
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
 * a PLT entry (ff 25) to what its GOT slot holds; 0 if it is not such a
 * call or cannot be read.
 */
static uint64_t
tgmon_stk_callee(uint64_t r)
{
	const unsigned char *c = (const unsigned char *)r;
	uint64_t t = 0, slot;
	int32_t d;

	if (!tgmon_stk_probe((r - 6) & ~(uint64_t)(PAGE - 1)) ||
	    !tgmon_stk_probe((r - 1) & ~(uint64_t)(PAGE - 1)))
		return 0;
	memcpy(&d, c - 4, sizeof d);
	if (c[-5] == 0xe8)
		t = r + (uint64_t)(int64_t)d;
	else if (c[-6] == 0xff && c[-5] == 0x15 && tgmon_stk_probe(slot = r + (uint64_t)(int64_t)d) &&
	    (slot & (PAGE - 1)) <= PAGE - 8)
		t = *(const uint64_t *)slot;
	c = (const unsigned char *)t;
	if (tgmon_module_at(t) >= 0 && (t & (PAGE - 1)) <= PAGE - 6 && tgmon_stk_probe(t & ~(uint64_t)(PAGE - 1)) &&
	    c[0] == 0xff && c[1] == 0x25) {
		memcpy(&d, c + 2, sizeof d);
		slot = t + 6 + (uint64_t)(int64_t)d;
		t = tgmon_stk_probe(slot) && (slot & (PAGE - 1)) <= PAGE - 8 ? *(const uint64_t *)slot : 0;
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
 * After the program counter PC of an interrupted context (stack pointer
 * SP, rbp BP and rbx RBX): in a stub, the frames it has not linked yet;
 * in a function that has not set up its frame, its caller.  The frame
 * pointer to go on from: BP, or 0 to stop.
 */
static uint64_t
tgmon_stk_first(struct tgmon_walk *w, uint64_t pc, uint64_t sp, uint64_t bp, uint64_t rbx)
{
	if (pc - tgmon_stub_at(TGMON_SPAN_BEGIN) < tgmon_stub_at(TGMON_SPAN_END) - tgmon_stub_at(TGMON_SPAN_BEGIN))
		return tgmon_stk_stub(w, pc, sp, rbx) ? bp : 0;
	if (tgmon_module_at(pc) >= 0)
		tgmon_stk_entry(w, pc, sp, bp);
	return bp;
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

/*
 * Through the signal frame above the handler's frame at FP: pushes the
 * interrupted program counter (+ 1: frames after the first are return
 * addresses, looked up at address - 1) and, as for the first frame, the
 * return address tgmon_stk_entry() finds.  The interrupted frame pointer
 * to go on from; 0 if the context cannot be read or is not above.
 */
static uint64_t
tgmon_stk_signal(struct tgmon_walk *w, uint64_t fp)
{
	uint64_t g = fp + 16 + offsetof(ucontext_t, uc_mcontext.gregs), pc, sp;
	const uint64_t *r = (const uint64_t *)g;

	/* REG_RBP, REG_RBX; REG_RSP, REG_RIP: two pairs of words. */
	if (!tgmon_stk_readable(w, g + 8 * REG_RBP) || !tgmon_stk_readable(w, g + 8 * REG_RSP))
		return 0;
	sp = r[REG_RSP];
	pc = r[REG_RIP];
	if (sp < g + 8 * (REG_RIP + 1) || !tgmon_stk_push(w, pc + 1))
		return 0;
	w->lo = sp;
	return tgmon_stk_first(w, pc, sp, r[REG_RBP], r[REG_RBX]);
}

/* Whether module M is the program's profiled code, not libtgmon's own (SELF). */
static int
tgmon_stk_program(int m, int self)
{
	return m != self && tgmon_is_profiled(m);
}

/*
 * Follows the frame pointers from FP (0: none) into the walk: the last
 * frame reached in *LAST (0: none), the frame pointer saved there in
 * *LINK (1 where it is not known).
 */
static void
tgmon_stk_chain(struct tgmon_walk *w, uint64_t fp, uint64_t *last, uint64_t *link)
{
	const struct tgmon_stk *s = w->s;

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
		fp = *link;
	}
}

/* The flags of the walk W, whose chain ended at LAST with LINK (tgmon_stk_chain). */
static uint32_t
tgmon_stk_flags(const struct tgmon_walk *w, uint64_t last, uint64_t link)
{
	const struct tgmon_stk *s = w->s;

	if (w->full)
		return TGSTACKS_TRUNCATED;
	return last != 0 && (link == 0 || (s->main_thread && link > s->hi - 16) ||
	    (s->top != 0 && last >= s->top)) ? TGSTACKS_ROOT : 0;
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
	if (!tgmon_stk_probe((ra - 7) & ~(uint64_t)(PAGE - 1)) ||
	    !tgmon_stk_probe((ra - 1) & ~(uint64_t)(PAGE - 1)))
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
 * The call into the library a sample is in (W's lo at its SP): among the
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
 * built without frame pointers or -pg, the kernel's system calls) whose
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
	uint64_t pc = (uint64_t)g[REG_RIP], sp = (uint64_t)g[REG_RSP], last, link;
	struct tgmon_walk w = { s, 0, 0, sp, 0 };
	int m = tgmon_module_at(pc);

	s->frame[w.n++] = pc;
	tgmon_stk_chain(&w, tgmon_stk_first(&w, pc, sp, (uint64_t)g[REG_RBP], (uint64_t)g[REG_RBX]), &last, &link);
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

	if (!tgmon_cfg.stacks || (s = tgmon_stk_get()) == NULL)
		return;
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
