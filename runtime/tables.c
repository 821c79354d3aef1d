/* tables: libtgmon's per-thread arc tables: insertion, growth, threads, and the walk for the writer. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "tgmon.h"
#include "threads.h"
#include "waits.h"

/*
 * Every function here is named tgmon_*, the static ones too: they run
 * while the program is sampled, and tgprof shows tgmon_* functions as the
 * cost of profiling, not the program's.
 */
/* Larger texts: the hash table only (the chunks' directory: 2 MiB a GiB of text). */
#define SPAN_MAX ((uint64_t)4 << 30)
#define CHUNK_BYTES (TGMON_CHUNK_SLOTS * sizeof(struct tgmon_slot))
#ifndef TGMON_SMALL_TABLES
#define FIRST_SLOTS 1024	/* a thread's first hash table; each new one doubles */
#else				/* check-runtime's build: no slots, growing hash tables */
#define FIRST_SLOTS 16
#undef SPAN_MAX
#define SPAN_MAX 0
#endif

/* Where the stubs look: the layout is their contract (mcount-x86_64.S, mcount-aarch64.S). */
_Static_assert(offsetof(struct tgmon_table, lowpc) == 0, "lowpc at 0");
_Static_assert(offsetof(struct tgmon_table, span) == 8, "span at 8");
_Static_assert(offsetof(struct tgmon_table, other) == 24, "other at 24");
_Static_assert(offsetof(struct tgmon_table, flat) == 56, "flat at 56");
_Static_assert(offsetof(struct tgmon_table, chunk) == 64, "chunk at 64");
_Static_assert(sizeof(struct tgmon_slot) == 16 && offsetof(struct tgmon_slot, count) == 8, "slot layout");
_Static_assert(offsetof(struct tgmon_arc, self) == 8 && offsetof(struct tgmon_arc, count) == 16 &&
    sizeof(struct tgmon_arc) == 32, "arc layout");
_Static_assert(offsetof(struct tgmon_hash, arc) == 32, "hash slots at 32");

__thread struct tgmon_table *tgmon_self __attribute__((tls_model("initial-exec")));
/* In a forked child, the forking thread's table until the child's first profiled call. */
static __thread struct tgmon_table *tgmon_parked;

uint64_t tgmon_dropped;		/* calls not counted: out of memory, or re-entered */

static struct tgmon_table *tables;	/* every table ever made (next) */
static struct tgmon_hash *hashes;	/* every hash table ever made (next) */
static struct tgmon_table *spare;	/* tables of threads that ended, for new threads */
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t thread_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

/*
 * SIZE bytes from the system (never malloc: the program may be inside
 * it); pages come when used.  NULL in a sandbox.
 */
static void *
tgmon_map(size_t size)
{
	void *p;

	if (!tgmon_kernel_enter())
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	tgmon_kernel_leave();
	return p != MAP_FAILED ? p : NULL;
}

/* Pushes P (whose link field is at NEXT) on the list at HEAD, for the writer. */
#define TGMON_PUBLISH(head, p) do {						\
	(p)->next = __atomic_load_n(&(head), __ATOMIC_ACQUIRE);			\
	while (!__atomic_compare_exchange_n(&(head), &(p)->next, (p), 0,	\
	    __ATOMIC_RELEASE, __ATOMIC_RELAXED))				\
		;								\
} while (0)

/*
 * A thread's table: a small text's slots, all of them (FLAT: pages come
 * when used); else a chunk's place for every 4 KiB of the executable's
 * text, a chunk of slots made at the first call from its text
 * (tgmon_site_add).
 */
static struct tgmon_table *
tgmon_table_new(void)
{
	uint64_t chunk = (uint64_t)1 << TGMON_CHUNK_SHIFT;
	uint64_t lowpc = tgmon_nmod > 0 ? tgmon_module(0)->lowpc & ~(chunk - 1) : 0;
	uint64_t span = tgmon_nmod > 0 ? (tgmon_module(0)->highpc - lowpc + chunk - 1) & ~(chunk - 1) : 0;
	struct tgmon_table *t;
	int flat;

	if (span > SPAN_MAX)
		span = 0;
	flat = span <= TGMON_FLAT_MAX;
	if ((t = tgmon_map(offsetof(struct tgmon_table, chunk) + (span >> TGMON_CHUNK_SHIFT) *
	    (flat ? CHUNK_BYTES : sizeof(struct tgmon_slot *)))) == NULL)
		return NULL;
	t->lowpc = lowpc;
	t->span = span;
	t->flat = (uint64_t)flat;
	TGMON_PUBLISH(tables, t);
	return t;
}

/* Chunk K of T's slots: a flat table's K-th 32 KiB of them; else NULL until it is made. */
static struct tgmon_slot *
tgmon_chunk(const struct tgmon_table *t, uint64_t k)
{
	if (t->flat)
		return (struct tgmon_slot *)(uintptr_t)t->chunk + k * TGMON_CHUNK_SLOTS;
	return __atomic_load_n(&t->chunk[k], __ATOMIC_ACQUIRE);
}

/* A thread ends: its table (with its counts) waits for the next thread. */
static void
tgmon_thread_ends(void *p)
{
	struct tgmon_table *t = p;

	tgmon_self = NULL;
	if (!tgmon_kernel_enter())
		return;	/* a sandbox: no lock, no system call; its table keeps its counts */
	tgmon_sample_stop();
	tgmon_waits_end();
	tgmon_threads_end();	/* its timer would outlive it */
	tgmon_stacks_thread_ends();
	tgmon_altstack_ends(t);
	pthread_mutex_lock(&spare_lock);
	t->spare_next = spare;
	spare = t;
	pthread_mutex_unlock(&spare_lock);
	tgmon_kernel_leave();
}

static void
tgmon_key_make(void)
{
	pthread_key_create(&thread_key, tgmon_thread_ends);
}

/*
 * The calling thread's first call (to the function whose frame is FRAME,
 * LINK saved there): a table (a spare one if a thread has ended), its
 * stacks' table and bounds, and a timer.
 */
static struct tgmon_table *
tgmon_thread_register(uint64_t frame, uint64_t link)
{
	struct tgmon_table *t;

	tgmon_start();
	if (__atomic_load_n(&tgmon_jails, __ATOMIC_RELAXED) > 0)
		tgmon_jailed = 1;	/* a thread may have started in a sandbox it inherited */
	pthread_once(&key_once, tgmon_key_make);
	pthread_mutex_lock(&spare_lock);
	if ((t = spare) != NULL)
		spare = t->spare_next;
	pthread_mutex_unlock(&spare_lock);
	if (t == NULL && (t = tgmon_table_new()) == NULL)
		return NULL;
	t->busy = 0;	/* an ended thread's slow path is no slow path of this one */
	pthread_setspecific(thread_key, t);
	tgmon_self = t;
	if (tgmon_kernel_enter()) {	/* the stack's bounds are asked of the kernel */
		tgmon_stacks_thread(frame, link);
		tgmon_altstack_thread(t);
		tgmon_kernel_leave();
	}
	tgmon_child_runs();	/* its sampling (and in a forked child, the child's file) */
	return t;
}

/* A hash table of SLOTS slots, on the writer's list. */
static struct tgmon_hash *
tgmon_hash_new(uint64_t slots)
{
	struct tgmon_hash *h = tgmon_map(sizeof *h + slots * sizeof(struct tgmon_arc));

	if (h == NULL)
		return NULL;
	h->mask = slots - 1;
	TGMON_PUBLISH(hashes, h);
	return h;
}

/* Counts a call in H: the slot of (FROM, SELF) (0), or a new one (1); -1 if H is full. */
static int
tgmon_hash_add(struct tgmon_hash *h, uint64_t from, uint64_t self)
{
	uint64_t i = tgmon_hash(from, self) & h->mask;

	for (;; i = (i + 1) & h->mask) {
		struct tgmon_arc *a = &h->arc[i];

		if (a->from == from && a->self == self) {
			a->count++;
			return 0;
		}
		if (a->from == 0)
			break;
	}
	if (from == 0 || (h->used + 1) * 2 > h->mask + 1)
		return -1;
	h->arc[i].self = self;
	h->arc[i].count = 1;
	__atomic_store_n(&h->arc[i].from, from, __ATOMIC_RELEASE);	/* taken */
	h->used++;
	return 1;
}

/*
 * Counts a call in T's hash table, which doubles when half full.  The
 * counts stay in the old one, which the writer reads as it reads every
 * table, so no call is lost even if a signal handler counts there.
 */
static int
tgmon_other_add(struct tgmon_table *t, uint64_t from, uint64_t self)
{
	struct tgmon_hash *n;
	int added;

	if (t->other == NULL && (t->other = tgmon_hash_new(FIRST_SLOTS)) == NULL)
		return -1;
	if ((added = tgmon_hash_add(t->other, from, self)) >= 0)
		return added;
	if ((n = tgmon_hash_new((t->other->mask + 1) * 2)) == NULL)
		return -1;
	t->other = n;
	return tgmon_hash_add(n, from, self);
}

/*
 * Counts a call in T's slots: 0 (counted), 1 (a new arc), -1 (outside the
 * text, the site's slot has another callee, or its chunk cannot be made:
 * the hash table's).  A chunk is whole before the stubs see it, and a
 * slot is filled before SELF, which the stubs test, is written.
 */
static int
tgmon_site_add(struct tgmon_table *t, uint64_t from, uint64_t self)
{
	uint64_t off = from - t->lowpc;
	struct tgmon_slot *c, *s;

	if (off >= t->span)
		return -1;
	if ((c = tgmon_chunk(t, off >> TGMON_CHUNK_SHIFT)) == NULL) {
		if ((c = tgmon_map(CHUNK_BYTES)) == NULL)
			return -1;
		__atomic_store_n(&t->chunk[off >> TGMON_CHUNK_SHIFT], c, __ATOMIC_RELEASE);
	}
	s = &c[(off & ((1u << TGMON_CHUNK_SHIFT) - 1)) >> 1];
	if (s->self == self) {
		s->count++;
		return 0;
	}
	if (s->self != 0)
		return -1;
	s->count = 1;
	__atomic_store_n(&s->self, self, __ATOMIC_RELEASE);	/* the stubs' and the writer's */
	return 1;
}

/* A new arc into SELF: its module is profiled code, and the stacks learn of it. */
static void
tgmon_arc_new(uint64_t self, uint64_t frame, uint64_t link)
{
	int m = tgmon_module_at(self);

	if (m >= 0 && !tgmon_is_profiled(m))
		__atomic_store_n(&tgmon_module(m)->profiled, 1, __ATOMIC_RELAXED);
	if (tgmon_kernel_enter()) {
		tgmon_stacks_arc(self, frame, link);
		tgmon_kernel_leave();
	}
}

/*
 * The mark a slow path leaves in its frame, at AT, whose address its
 * table's busy holds while it runs: a later entry that finds busy set
 * tells by it, and by where its own frame is, whether that slow path
 * is still running below a signal handler (its call then dropped) or
 * was left for good by a siglongjmp out of one (tgmon_slow_left).
 */
static inline uint64_t
tgmon_mark(uint64_t at)
{
	return at ^ 0x74676d6f6e736c77ULL;
}

/* Whether the 8 bytes at A can be read (the kernel reads them for a call it then refuses). */
static int
tgmon_readable(uint64_t a)
{
	return tgmon_raw_syscall(SYS_rt_sigprocmask, -1, (long)a, 0, 8, 0, 0) != -EFAULT;
}

/*
 * Whether the slow path whose mark is at B was left for good, seen from
 * a new one whose mark goes at HERE.  A slow path still running is an
 * ancestor of this one: on the same stack, at a higher address, its
 * mark intact; or on the thread's stack while a handler runs on the
 * alternate signal stack.  Anything else was left (a siglongjmp out of a
 * handler that interrupted it): at or below its place, off the alternate
 * stack it ran on, its mark overwritten or its page gone.  In doubt (a
 * sandbox: no system call; a mark that nothing overwrote yet), running.
 * Only when busy is found set: never in the stubs' path.
 */
static int
tgmon_slow_left(uint64_t b, uint64_t here)
{
	stack_t ss;
	long r;
	int b_alt, here_alt;

	if (!tgmon_kernel_enter())
		return 0;
	r = tgmon_raw_syscall(SYS_sigaltstack, 0, (long)&ss, 0, 0, 0, 0);
	if (r == 0 && here < b && !tgmon_readable(b))
		r = 1;	/* its page is gone: left */
	tgmon_kernel_leave();
	if (r != 0)
		return r == 1;
	b_alt = !(ss.ss_flags & SS_DISABLE) && b - (uint64_t)(uintptr_t)ss.ss_sp < ss.ss_size;
	here_alt = (ss.ss_flags & SS_ONSTACK) != 0;
	if (b_alt != here_alt)
		return b_alt;
	return here >= b || *(volatile const uint64_t *)(uintptr_t)b != tgmon_mark(b);
}

/* Counts the call (FROM, SELF) in T, by the slow path's means; busy. */
static void
tgmon_slow_add(struct tgmon_table *t, uint64_t from, uint64_t self, uint64_t frame, uint64_t link)
{
	int added;

	if (from == 0)
		added = -1;
	else if ((added = tgmon_site_add(t, from, self)) < 0)
		added = tgmon_other_add(t, from, self);
	if (added < 0)
		__atomic_fetch_add(&tgmon_dropped, 1, __ATOMIC_RELAXED);
	else if (added > 0)
		tgmon_arc_new(self, frame, link);
}

/*
 * Every call the stubs cannot count alone (mcount-ARCH.S).  A signal
 * handler's call while the thread is in here is dropped; a slow path
 * left for good is taken over (the call it was counting may be lost,
 * never counted twice).
 */
void
tgmon_slow(uint64_t from, uint64_t self, uint64_t frame, uint64_t link)
{
	struct tgmon_table *t = tgmon_self;
	volatile uint64_t mark;
	uint64_t here = (uint64_t)(uintptr_t)&mark, b;
	int saved = errno;

	if (t == NULL && (t = tgmon_parked) != NULL) {	/* a forked child's first call */
		tgmon_parked = NULL;
		tgmon_self = t;
		tgmon_child_runs();
	}
	if (t == NULL && (t = tgmon_thread_register(frame, link)) == NULL) {
		__atomic_fetch_add(&tgmon_dropped, 1, __ATOMIC_RELAXED);
	} else if ((b = t->busy) != 0 && !tgmon_slow_left(b, here)) {
		__atomic_fetch_add(&tgmon_dropped, 1, __ATOMIC_RELAXED);
	} else {
		mark = tgmon_mark(here);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* the mark before busy */
		t->busy = here;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		tgmon_slow_add(t, from, self, frame, link);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		t->busy = 0;
	}
	errno = saved;
}

uint64_t
tgmon_site_first(uint64_t from)
{
	const struct tgmon_table *t = tgmon_self;
	const struct tgmon_slot *c;
	uint64_t off;

	if (t == NULL || (off = from - t->lowpc) >= t->span || (c = tgmon_chunk(t, off >> TGMON_CHUNK_SHIFT)) == NULL)
		return 0;
	return __atomic_load_n(&c[(off & ((1u << TGMON_CHUNK_SHIFT) - 1)) >> 1].self, __ATOMIC_ACQUIRE);
}

void
tgmon_arcs_each(void (*f)(void *, const struct tgmon_arc *), void *ctx)
{
	struct tgmon_table *t;
	struct tgmon_hash *h;
	struct tgmon_arc a = { 0 };
	uint64_t i, k, n;

	for (t = __atomic_load_n(&tables, __ATOMIC_ACQUIRE); t != NULL; t = t->next) {
		for (k = 0, n = t->span >> TGMON_CHUNK_SHIFT; k < n; k++) {
			const struct tgmon_slot *c = tgmon_chunk(t, k);

			for (i = 0; c != NULL && i < TGMON_CHUNK_SLOTS; i++) {
				a.self = __atomic_load_n(&c[i].self, __ATOMIC_ACQUIRE);
				a.count = c[i].count;
				a.from = t->lowpc + (k << TGMON_CHUNK_SHIFT) + i * 2;
				if (a.self != 0 && a.count != 0)
					f(ctx, &a);
			}
		}
	}
	for (h = __atomic_load_n(&hashes, __ATOMIC_ACQUIRE); h != NULL; h = h->next)
		for (i = 0; i <= h->mask; i++)
			if (__atomic_load_n(&h->arc[i].from, __ATOMIC_ACQUIRE) != 0 &&
			    h->arc[i].count != 0)
				f(ctx, &h->arc[i]);
}

/*
 * In a forked child: the parent's calls are the parent's file's, and the
 * lock, which a thread that is not here may have held, is free.  The
 * forking thread's table waits (parked) for the child's first profiled
 * call, which the stubs then bring to tgmon_slow(): that call starts
 * the child's sampling (tgmon_child_runs).
 */
void
tgmon_arcs_reset(void)
{
	static const pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
	struct tgmon_table *t;
	struct tgmon_hash *h;
	uint64_t i, k;

	if (tgmon_self != NULL) {
		tgmon_parked = tgmon_self;
		tgmon_self = NULL;
	}
	memcpy(&spare_lock, &unlocked, sizeof unlocked);
	for (t = tables; t != NULL; t = t->next)
		for (k = 0; k < t->span >> TGMON_CHUNK_SHIFT; k++) {
			struct tgmon_slot *c = tgmon_chunk(t, k);

			for (i = 0; c != NULL && i < TGMON_CHUNK_SLOTS; i++)
				c[i].count = 0;
		}
	for (h = hashes; h != NULL; h = h->next)
		for (i = 0; i <= h->mask; i++)
			h->arc[i].count = 0;
	tgmon_dropped = 0;
}
