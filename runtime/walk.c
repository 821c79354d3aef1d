/* walk: libtgmon's call stacks: each thread's table and stack bounds, the walk's bounded reads, each sample's stack counted (walked by walk-ARCH.c). */
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
 * The walk itself is the architecture's (tgmon_stk_walk: walk-x86_64.c,
 * walk-aarch64.c).  Both follow the chain of 16-byte frame records,
 * {the caller's frame pointer, the return address} (x86-64's rbp and
 * aarch64's x29 point at them), from the signal context, and read the
 * stack only where tgmon_walk_readable allows.
 *
 * The walk makes no system call where it can prove a read safe without
 * one: code and tables of objects loaded at start, which stay mapped
 * (tgmon_walk_mapped), and the thread's stack known to be readable
 * (ok_lo, lowered page by page as the stack grows: tgmon_stk_extend).
 */

#define PAGE 4096u
#define PROBE_PAGES 256			/* at most this much stack is proven readable at once */
#define EXTEND_PAGES 16			/* and at most this much more below it, in a sample */

static __thread struct tgmon_stk *stk_self __attribute__((tls_model("initial-exec")));
static struct tgmon_stk *stk_all;
static struct tgmon_stk *stk_spare;
static pthread_mutex_t stk_spare_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t stk_lost;		/* samples of threads without a table */
static uint64_t main_addr;		/* main(), from the program's entry code; 0: not found */

/* The C library's: the main thread's stack ends there (weak: not every libc has it). */
extern void *__libc_stack_end __attribute__((weak));

/*
 * Whether the 8 bytes at A can be read: the kernel reads them for
 * rt_sigprocmask() (which then refuses the bad HOW), or says EFAULT.
 * The system call is made here, not by the C library's syscall(): errno
 * is left alone, and a sample handler's calls leave no return address
 * into the program below the stack pointer, which a later sample's
 * search of a library's frames (scan.c) could take for its caller.
 */
int
tgmon_stk_probe(uint64_t a)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = 8;
	long r = SYS_rt_sigprocmask;

	__asm__ volatile ("syscall" : "+a" (r) : "D" (~0L), "S" (a), "d" (0L), "r" (r10) : "rcx", "r11", "memory");
	return r != 0 && r != -EFAULT;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_rt_sigprocmask, x0 __asm__("x0") = ~0L;
	register long x1 __asm__("x1") = (long)a, x2 __asm__("x2") = 0, x3 __asm__("x3") = 8;

	__asm__ volatile ("svc 0" : "+r" (x0) : "r" (x8), "r" (x1), "r" (x2), "r" (x3) : "memory");
	return x0 != 0 && x0 != -EFAULT;
#else
#error "libtgmon: no stack walk for this architecture"
#endif
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

int
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

uint32_t
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

int
tgmon_stk_inner(const struct tgmon_stk *s, int n, int self)
{
	int k;

	for (k = 1; k < n; k++)	/* frame 0 is the sampled PC itself */
		if (tgmon_walk_program(tgmon_module_at(s->frame[k]), self))
			return k;
	return 0;
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
	tgmon_stk_settings();
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
