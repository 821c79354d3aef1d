/* waits: where each thread waits off its CPU, and for how long, from the kernel's records of its switches. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../src/input/gmon_out.h"
#include "waits.h"

#if defined(__x86_64__)
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "scan.h"
#include "threads.h"
#include "trie.h"

/*
 * Every function here is named tgmon_*: they run while the program is
 * sampled, and tgprof shows tgmon_* functions as the cost of profiling.
 */

/*
 * The ring's data: 16 KiB, drained at each sample of the thread (a
 * millisecond of its CPU time), where a thread that is not given up
 * (sample.c: at most 4 waits a millisecond) writes 2 KiB at most.  Small,
 * as an unprivileged user's rings are limited in all
 * (kernel.perf_event_mlock_kb, 516 KiB: 25 threads' rings).
 */
#define RING_PAGES 4
#define DUMP_BYTES 256		/* the top of the stack the kernel copies at a switch out */
#define CHAIN_MAX 64		/* frames of the kernel's call chain */
#define REC_MAX 2048		/* a record larger (it cannot be, as asked) is passed over */

/*
 * A thread's waits: its trie (nanoseconds, not samples), its event's
 * ring, and the switch out whose switch back in is still to come.  Like
 * a thread's stacks, it serves the next thread once its thread ends.
 * BUSY is held by whoever drains the ring (the thread's handler or the
 * writer), which alone then counts in the trie.
 */
struct tgmon_waiter {
	struct tgmon_trie t;
	unsigned char *ring;		/* a header page, then RING_PAGES; NULL: none */
	uint32_t busy;
	uint32_t thread;		/* the thread record of the thread using it */
	int out;			/* a switch out read, its switch in not yet */
	int out_n;			/* its frames */
	uint32_t out_flags;
	uint64_t out_t;			/* its time (CLOCK_MONOTONIC, ns) */
	uint64_t waits;			/* waits counted */
	struct tgmon_waiter *next, *spare_next;
	uint64_t frame[TGSTACKS_MAX_DEPTH];
};

static __thread struct tgmon_waiter *w_self __attribute__((tls_model("initial-exec")));
static __thread int w_given_up;
static struct tgmon_waiter *w_all, *w_spare;
static pthread_mutex_t w_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t w_state;
static size_t w_page;

/* A waiter for the calling thread: a spare one, or a new one; NULL if none can be made. */
static struct tgmon_waiter *
tgmon_waiter_get(void)
{
	struct tgmon_waiter *w;

	pthread_mutex_lock(&w_lock);
	if ((w = w_spare) != NULL)
		w_spare = w->spare_next;
	pthread_mutex_unlock(&w_lock);
	if (w == NULL) {
		if ((w = tgmon_trie_map(sizeof *w)) == NULL)
			return NULL;
		if (!tgmon_trie_init(&w->t)) {
			munmap(w, sizeof *w);
			return NULL;
		}
		w->next = __atomic_load_n(&w_all, __ATOMIC_ACQUIRE);
		while (!__atomic_compare_exchange_n(&w_all, &w->next, w, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			;
	}
	w->out = 0;
	w->thread = tgmon_threads_self();
	return w;
}

/* The calling thread's switches' event (see waits.h): a descriptor, or -1. */
static int
tgmon_waits_event(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER;
	a.sample_stack_user = DUMP_BYTES;
	a.sample_max_stack = CHAIN_MAX;
	a.exclude_callchain_kernel = 1;
	a.exclude_hv = 1;
	a.context_switch = 1;
	a.sample_id_all = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

void
tgmon_waits_begin(void)
{
	struct tgmon_waiter *w = w_self;
	size_t size;
	void *ring;
	int fd, e;

	if (!tgmon_cfg.waits || w_given_up || (w != NULL && w->ring != NULL)) {
		if (!tgmon_cfg.waits)
			__atomic_fetch_or(&w_state, TGSTACKS_FLAG_WAITS_OFF, __ATOMIC_RELAXED);
		return;
	}
	if (w == NULL && (w = w_self = tgmon_waiter_get()) == NULL)
		return;
	w_page = (size_t)getpagesize();
	size = (1 + RING_PAGES) * w_page;
	if ((fd = tgmon_waits_event()) < 0) {
		e = errno;
		if (e == EACCES || e == EPERM || e == ENOENT || e == ENOSYS || e == EOPNOTSUPP || e == EINVAL)
			__atomic_fetch_or(&w_state, TGSTACKS_FLAG_WAITS_DENIED, __ATOMIC_RELAXED);
		return;
	}
	ring = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);	/* the mapping keeps the event */
	if (ring == MAP_FAILED) {	/* past perf_event_mlock_kb: this thread's waits are not recorded */
		tgmon_threads_flag(TGSTACKS_THREAD_WAITS_LOST);
		return;
	}
	madvise(ring, size, MADV_DONTFORK);	/* a forked child gets none of the parent's */
	w->out = 0;
	__atomic_store_n(&w->ring, (unsigned char *)ring, __ATOMIC_RELEASE);
	__atomic_fetch_or(&w_state, TGSTACKS_FLAG_WAITS, __ATOMIC_RELAXED);
	tgmon_threads_flag(TGSTACKS_THREAD_WAITS);
}

/*
 * The return address into the program on the top of the stack (its
 * DUMP_BYTES, as the kernel copied them at the switch): the first that
 * follows a call out of the profiled code (to the library the thread
 * waits in), else the first that follows a call of another kind; 0 if
 * none.  The call chain's frame-pointer walk misses it where the library
 * left the caller's frame pointer alone.
 */
static uint64_t
tgmon_waits_caller(const unsigned char *stk, uint64_t len)
{
	uint64_t off, v, t, other = 0;

	for (off = 0; off + 8 <= len; off += 8) {
		memcpy(&v, stk + off, 8);
		if (!tgmon_is_profiled(tgmon_module_at(v)))
			continue;
		if ((t = tgmon_scan_callee(v)) != 0 && !tgmon_is_profiled(tgmon_module_at(t)))
			return v;
		if (other == 0 && tgmon_scan_call_kind(v, 0) != 0)
			other = v;
	}
	return other;
}

/*
 * W's frames for a switch out: the call chain C[0..N) (innermost first)
 * and the stack's top STK[0..LEN).  Where the thread is in a library,
 * the program's function that called it comes from the stack's top,
 * then the chain from there on (from above it if the chain holds it,
 * else from its caller's frame, the one the library left alone, if that
 * is in loaded code); else the chain as it is.  Complete
 * (TGSTACKS_ROOT) if the chain ended, below CHAIN_MAX, outside the
 * program (its start code).
 */
static void
tgmon_waits_frames(struct tgmon_waiter *w, const uint64_t *c, int n, const unsigned char *stk, uint64_t len)
{
	int k = 0, i = 1, whole = 1;
	uint64_t ra;

	w->frame[k++] = c[0];
	if (!tgmon_is_profiled(tgmon_module_at(c[0]))) {
		if ((ra = tgmon_waits_caller(stk, len)) != 0) {
			w->frame[k++] = ra;
			for (i = 1; i < n && c[i] != ra; i++)
				;
			if (i < n)
				i++;	/* the chain holds it: from the one above */
			else if (n > 1 && tgmon_module_at(c[1]) >= 0)
				i = 1;	/* the chain went on from its caller's frame */
			else
				whole = 0;
		} else {
			whole = 0;
		}
	}
	for (; whole && i < n && k < TGSTACKS_MAX_DEPTH; i++)
		w->frame[k++] = c[i];
	w->out_n = k;
	w->out_flags = !whole ? 0 : n >= CHAIN_MAX ? TGSTACKS_TRUNCATED :
	    k >= 2 && !tgmon_is_profiled(tgmon_module_at(w->frame[k - 1])) ? TGSTACKS_ROOT : 0;
}

/* A sample of W's event (a switch out): its time, its chain, the stack's top; P[0..LEN) its body. */
static void
tgmon_waits_out(struct tgmon_waiter *w, const unsigned char *p, uint64_t len)
{
	uint64_t c[CHAIN_MAX], t, nr, i, size, at;
	int n = 0;

	w->out = 0;
	if (len < 16)
		return;
	memcpy(&t, p, 8);
	memcpy(&nr, p + 8, 8);
	if (nr > (len - 16) / 8 || len - 16 - nr * 8 < 8)
		return;
	for (i = 0; i < nr && n < CHAIN_MAX; i++) {
		memcpy(&c[n], p + 16 + i * 8, 8);
		if (c[n] < (uint64_t)PERF_CONTEXT_MAX)	/* not a context's marker */
			n++;
	}
	if (n == 0)
		return;
	at = 16 + nr * 8;
	memcpy(&size, p + at, 8);
	at += 8;
	if (size > len - at)
		size = 0;
	if (size > 0 && len - at - size >= 8) {
		uint64_t dyn;

		memcpy(&dyn, p + at + size, 8);
		size = dyn < size ? dyn : size;
	}
	tgmon_waits_frames(w, c, n, p + at, size);
	w->out_t = t;
	w->out = 1;
}

/* A record of W's ring: TYPE, MISC, its body P[0..LEN). */
static void
tgmon_waits_record(struct tgmon_waiter *w, uint32_t type, uint16_t misc, const unsigned char *p, uint64_t len)
{
	uint64_t t;

	if (type == PERF_RECORD_SAMPLE) {
		tgmon_waits_out(w, p, len);
	} else if (type == PERF_RECORD_SWITCH && !(misc & PERF_RECORD_MISC_SWITCH_OUT) && w->out && len >= 8) {
		memcpy(&t, p + len - 8, 8);	/* sample_id_all: the time, last */
		if (t > w->out_t) {
			tgmon_trie_count(&w->t, w->thread, w->frame, w->out_n, w->out_flags, t - w->out_t);
			w->waits++;
		}
		w->out = 0;
	} else if (type == PERF_RECORD_LOST) {
		w->out = 0;
		tgmon_threads_flag_of(w->thread, TGSTACKS_THREAD_WAITS_LOST);
	}
}

/* W's ring read to its head; whoever holds W->busy. */
static void
tgmon_waits_read(struct tgmon_waiter *w, unsigned char *ring)
{
	struct perf_event_mmap_page *h = (struct perf_event_mmap_page *)ring;
	uint64_t head = __atomic_load_n(&h->data_head, __ATOMIC_ACQUIRE), tail = h->data_tail;
	uint64_t size = RING_PAGES * w_page;
	unsigned char *d = ring + w_page, buf[REC_MAX];
	struct perf_event_header e;

	while (tail < head && head - tail >= sizeof e) {
		memcpy(&e, d + tail % size, sizeof e);	/* records are 8-aligned: a header never wraps */
		if (e.size < sizeof e || e.size > head - tail)
			break;
		if (e.size <= REC_MAX) {
			uint64_t at = tail % size, first = size - at < e.size ? size - at : e.size;

			memcpy(buf, d + at, first);
			memcpy(buf + first, d, e.size - first);
			tgmon_waits_record(w, e.type, e.misc, buf + sizeof e, e.size - sizeof e);
		}
		tail += e.size;
	}
	__atomic_store_n(&h->data_tail, tail, __ATOMIC_RELEASE);
}

/* W's ring drained, unless someone else is draining it; 1 if it was (by us), with W->busy left held if KEEP. */
static int
tgmon_waits_take(struct tgmon_waiter *w, int keep)
{
	uint32_t free_ = 0;
	unsigned char *ring;

	if (!__atomic_compare_exchange_n(&w->busy, &free_, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return 0;
	if ((ring = __atomic_load_n(&w->ring, __ATOMIC_ACQUIRE)) != NULL)
		tgmon_waits_read(w, ring);
	if (!keep)
		__atomic_store_n(&w->busy, 0, __ATOMIC_RELEASE);
	return 1;
}

void
tgmon_waits_drain(void)
{
	struct tgmon_waiter *w = w_self;

	if (w != NULL && __atomic_load_n(&w->ring, __ATOMIC_RELAXED) != NULL)
		tgmon_waits_take(w, 0);
}

/* W's ring drained and unmapped (its event ends with it). */
static void
tgmon_waits_close(struct tgmon_waiter *w)
{
	unsigned char *ring = w->ring;

	if (ring == NULL || !tgmon_waits_take(w, 1))
		return;
	__atomic_store_n(&w->ring, NULL, __ATOMIC_RELEASE);
	munmap(ring, (1 + RING_PAGES) * w_page);
	w->out = 0;
	__atomic_store_n(&w->busy, 0, __ATOMIC_RELEASE);
}

void
tgmon_waits_give_up(void)
{
	struct tgmon_waiter *w = w_self;

	if (w == NULL || w->ring == NULL)
		return;
	tgmon_waits_close(w);
	if (w->ring == NULL) {
		w_given_up = 1;
		tgmon_threads_flag(TGSTACKS_THREAD_WAITS_LOST);
	}
}

void
tgmon_waits_end(void)
{
	struct tgmon_waiter *w = w_self;

	if (w == NULL)
		return;
	tgmon_waits_close(w);
	if (w->ring != NULL)
		return;	/* the writer is draining it: it stays the thread's */
	w_self = NULL;
	pthread_mutex_lock(&w_lock);
	w->spare_next = w_spare;
	w_spare = w;
	pthread_mutex_unlock(&w_lock);
}

void
tgmon_waits_reset(void)
{
	static const pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
	struct tgmon_waiter *w;

	memcpy(&w_lock, &unlocked, sizeof unlocked);
	for (w = w_all; w != NULL; w = w->next) {
		w->ring = NULL;	/* not mapped here (MADV_DONTFORK) */
		w->busy = 0;
		w->out = 0;
		w->waits = 0;
		w->thread = TGSTACKS_NO_THREAD;
		tgmon_trie_reset(&w->t);
	}
	if (w_self != NULL)
		w_self->thread = tgmon_threads_self();
	w_given_up = 0;
	w_state = 0;
}

uint32_t
tgmon_waits_state(void)
{
	return __atomic_load_n(&w_state, __ATOMIC_RELAXED);
}

/* tgmon_waits_each's: the writer's callback, and the flag it adds. */
struct waits_to {
	tgmon_stack_fn *f;
	void *ctx;
};

static void
tgmon_waits_put(void *ctx, uint64_t count, uint32_t flags, uint32_t thread, const uint64_t *addr, uint32_t depth)
{
	struct waits_to *to = ctx;

	to->f(to->ctx, count, flags | TGSTACKS_WAIT, thread, addr, depth);
}

void
tgmon_waits_each(tgmon_stack_fn *f, void *ctx, uint64_t *waits)
{
	struct waits_to to = { f, ctx };
	struct tgmon_waiter *w;

	*waits = 0;
	for (w = __atomic_load_n(&w_all, __ATOMIC_ACQUIRE); w != NULL; w = w->next) {
		if (__atomic_load_n(&w->ring, __ATOMIC_ACQUIRE) != NULL)
			tgmon_waits_take(w, 0);
		*waits += __atomic_load_n(&w->waits, __ATOMIC_RELAXED);
		tgmon_trie_each(&w->t, tgmon_waits_put, &to);
	}
}

#else	/* no waits here */

void tgmon_waits_begin(void) { }
void tgmon_waits_drain(void) { }
void tgmon_waits_give_up(void) { }
void tgmon_waits_end(void) { }
void tgmon_waits_reset(void) { }
uint32_t tgmon_waits_state(void) { return 0; }

void
tgmon_waits_each(tgmon_stack_fn *f, void *ctx, uint64_t *waits)
{
	(void)f;
	(void)ctx;
	*waits = 0;
}

#endif
