/* arcs: libtgmon's per-thread arc tables: insertion, growth, threads, and the walk for the writer. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include "tgmon.h"

/*
 * Every function here is named tgmon_*, the static ones too: they run
 * while the program is sampled, and tgprof shows tgmon_* functions as the
 * cost of profiling, not the program's.
 */
#define FIRST_SLOTS 1024	/* a thread's first table; each new one doubles */

__thread struct tgmon_table *tgmon_self __attribute__((tls_model("initial-exec")));

uint64_t tgmon_dropped;		/* calls not counted: out of memory, or re-entered */

static struct tgmon_table *tables;	/* every table ever made (next) */
static struct tgmon_table *spare;	/* tables of threads that ended, for new threads */
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t thread_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

/* A table of SLOTS slots from the system (never malloc: the program may be inside it). */
static struct tgmon_table *
tgmon_table_new(uint64_t slots)
{
	size_t size = sizeof(struct tgmon_table) + slots * sizeof(struct tgmon_arc);
	struct tgmon_table *t = mmap(NULL, size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (t == MAP_FAILED)
		return NULL;
	t->mask = slots - 1;
	t->arc = (struct tgmon_arc *)(t + 1);
	do
		t->next = __atomic_load_n(&tables, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(&tables, &t->next, t, 0, __ATOMIC_RELEASE,
	    __ATOMIC_RELAXED));
	return t;
}

/* A thread ends: its table (with its counts) waits for the next thread. */
static void
tgmon_thread_ends(void *p)
{
	struct tgmon_table *t = p;

	tgmon_self = NULL;
	tgmon_sample_stop();	/* its timer would outlive it */
	tgmon_stacks_thread_ends();
	pthread_mutex_lock(&spare_lock);
	t->spare_next = spare;
	spare = t;
	pthread_mutex_unlock(&spare_lock);
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
	pthread_once(&key_once, tgmon_key_make);
	pthread_mutex_lock(&spare_lock);
	if ((t = spare) != NULL)
		spare = t->spare_next;
	pthread_mutex_unlock(&spare_lock);
	if (t == NULL && (t = tgmon_table_new(FIRST_SLOTS)) == NULL)
		return NULL;
	pthread_setspecific(thread_key, t);
	tgmon_self = t;
	tgmon_stacks_thread(frame, link);
	tgmon_sample_thread();
	return t;
}

/*
 * T is half full: a table twice as large takes its place.  The counts
 * stay in T, which the writer reads as it reads every table, so no call
 * is lost even if a signal handler is counting in T meanwhile.
 */
static struct tgmon_table *
tgmon_table_grow(struct tgmon_table *t)
{
	struct tgmon_table *n = tgmon_table_new((t->mask + 1) * 2);

	if (n == NULL)
		return NULL;
	pthread_setspecific(thread_key, n);
	tgmon_self = n;
	return n;
}

/* Counts a call in T: the slot of (FROM, SELF) (0), or a new one (1); -1 if T is full. */
static int
tgmon_arc_add(struct tgmon_table *t, uint64_t from, uint64_t self)
{
	uint64_t i = tgmon_hash(from, self) & t->mask;

	for (;; i = (i + 1) & t->mask) {
		struct tgmon_arc *a = &t->arc[i];

		if (a->from == from && a->self == self) {
			a->count++;
			return 0;
		}
		if (a->from == 0)
			break;
	}
	if (from == 0 || (t->used + 1) * 2 > t->mask + 1)
		return -1;
	t->arc[i].self = self;
	t->arc[i].count = 1;
	__atomic_store_n(&t->arc[i].from, from, __ATOMIC_RELEASE);	/* taken */
	t->used++;
	return 1;
}

/* Every call the stubs cannot count alone (mcount-x86_64.S). */
void
tgmon_slow(uint64_t from, uint64_t self, uint64_t frame, uint64_t link)
{
	struct tgmon_table *t = tgmon_self;
	int saved = errno, added;

	if (t == NULL && (t = tgmon_thread_register(frame, link)) == NULL) {
		__atomic_fetch_add(&tgmon_dropped, 1, __ATOMIC_RELAXED);
	} else if (t->busy) {	/* a signal handler, inside this very function */
		__atomic_fetch_add(&tgmon_dropped, 1, __ATOMIC_RELAXED);
	} else {
		t->busy = 1;
		if ((added = tgmon_arc_add(t, from, self)) < 0) {
			struct tgmon_table *n = tgmon_table_grow(t);

			if (n == NULL || (added = tgmon_arc_add(n, from, self)) < 0)
				__atomic_fetch_add(&tgmon_dropped, 1, __ATOMIC_RELAXED);
			t = n != NULL ? n : t;
		}
		if (added > 0)
			tgmon_stacks_arc(self, frame, link);
		t->busy = 0;
	}
	errno = saved;
}

void
tgmon_arcs_each(void (*f)(void *, const struct tgmon_arc *), void *ctx)
{
	struct tgmon_table *t;
	uint64_t i;

	for (t = __atomic_load_n(&tables, __ATOMIC_ACQUIRE); t != NULL; t = t->next)
		for (i = 0; i <= t->mask; i++)
			if (__atomic_load_n(&t->arc[i].from, __ATOMIC_ACQUIRE) != 0 &&
			    t->arc[i].count != 0)
				f(ctx, &t->arc[i]);
}

/*
 * In a forked child: the parent's calls are the parent's file's, and the
 * lock, which a thread that is not here may have held, is free.
 */
void
tgmon_arcs_reset(void)
{
	static const pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
	struct tgmon_table *t;
	uint64_t i;

	memcpy(&spare_lock, &unlocked, sizeof unlocked);
	for (t = tables; t != NULL; t = t->next)
		for (i = 0; i <= t->mask; i++)
			t->arc[i].count = 0;
	tgmon_dropped = 0;
}
