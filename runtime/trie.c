/* trie: a thread's call stacks counted in a trie, by its sample handler alone, read by the writer meanwhile. */
#include <stdint.h>
#include <sys/mman.h>

#include "../src/input/gmon_out.h"
#include "tgmon.h"
#include "trie.h"

/*
 * Every function here is named tgmon_*, as in walk.c: they run while the
 * program is sampled, and tgprof shows them as the cost of profiling.
 */

#define SEG_SHIFT 16			/* nodes in a segment: 64 Ki, 1.5 MiB */
#define SEG_NODES (1u << SEG_SHIFT)
#define FIRST_ID 4			/* node ids below: a path's class, its flags + 1 */
#define FIRST_INDEX 4096		/* the index's first size, in slots */

/* One frame of a stack: the stacks through ADDR under PARENT. */
struct tgmon_node {
	uint64_t addr;
	uint64_t count;		/* samples whose stack ends here (ADDR innermost) */
	uint32_t parent;	/* a node id, or the path's class (below FIRST_ID) */
	uint16_t depth;		/* 1 for the outermost frame; 0: the thread (ADDR its record) */
	uint16_t flags;		/* TGSTACKS_ROOT, TGSTACKS_TRUNCATED */
};

void *
tgmon_trie_map(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0);

	return p != MAP_FAILED ? p : NULL;
}

static struct tgmon_node *
tgmon_trie_node(const struct tgmon_trie *t, uint32_t id)
{
	return &__atomic_load_n(&t->seg[id >> SEG_SHIFT], __ATOMIC_ACQUIRE)[id & (SEG_NODES - 1)];
}

static uint32_t
tgmon_trie_hash(uint32_t parent, uint64_t addr)
{
	return (uint32_t)((((addr * 0x9e3779b97f4a7c15ULL) ^ parent) * 0xff51afd7ed558ccdULL) >> 32);
}

/* A table twice as large for the index (in a sample handler: mmap is a system call, no lock). */
static int
tgmon_trie_index_grow(struct tgmon_trie *t)
{
	uint32_t size = (t->index_mask + 1) * 2, i, j, *n;

	if (size > 2 * TGMON_TRIE_SEGS * SEG_NODES || (n = tgmon_trie_map(size * sizeof *n)) == NULL)
		return -1;
	for (i = 0; i <= t->index_mask; i++) {
		uint32_t id = t->index[i];
		const struct tgmon_node *d;

		if (id == 0)
			continue;
		d = tgmon_trie_node(t, id);
		for (j = tgmon_trie_hash(d->parent, d->addr) & (size - 1); n[j] != 0; j = (j + 1) & (size - 1))
			;
		n[j] = id;
	}
	munmap(t->index, (t->index_mask + 1) * sizeof *t->index);
	t->index = n;
	t->index_mask = size - 1;
	return 0;
}

/* A new node; 0 if the trie is full. */
static uint32_t
tgmon_trie_append(struct tgmon_trie *t, uint32_t parent, uint64_t addr, uint16_t depth, uint16_t flags)
{
	uint32_t id = t->nnodes, k = id >> SEG_SHIFT;
	struct tgmon_node *d;

	if (k >= TGMON_TRIE_SEGS)
		return 0;
	if (t->seg[k] == NULL) {
		struct tgmon_node *p = tgmon_trie_map(SEG_NODES * sizeof *p);

		if (p == NULL)
			return 0;
		__atomic_store_n(&t->seg[k], p, __ATOMIC_RELEASE);
	}
	d = &t->seg[k][id & (SEG_NODES - 1)];
	d->addr = addr;
	d->count = 0;
	d->parent = parent;
	d->depth = depth;
	d->flags = flags;
	__atomic_store_n(&t->nnodes, id + 1, __ATOMIC_RELEASE);
	return id;
}

/* The node of ADDR under PARENT, made if new; 0 if the trie is full. */
static uint32_t
tgmon_trie_child(struct tgmon_trie *t, uint32_t parent, uint64_t addr, uint16_t depth, uint16_t flags)
{
	uint32_t i, id;

	if ((t->index_used + 1) * 2 > t->index_mask + 1 && tgmon_trie_index_grow(t) != 0 &&
	    (t->index_used + 1) * 4 > (t->index_mask + 1) * 3)
		return 0;
	for (i = tgmon_trie_hash(parent, addr) & t->index_mask; (id = t->index[i]) != 0;
	    i = (i + 1) & t->index_mask) {
		const struct tgmon_node *d = tgmon_trie_node(t, id);

		if (d->parent == parent && d->addr == addr)
			return id;
	}
	if ((id = tgmon_trie_append(t, parent, addr, depth, flags)) != 0) {
		t->index[i] = id;
		t->index_used++;
	}
	return id;
}

void
tgmon_trie_count(struct tgmon_trie *t, uint32_t thread, const uint64_t *frame, int n, uint32_t flags,
    uint64_t weight)
{
	uint32_t id = flags + 1;	/* the class: paths of each kind apart */
	struct tgmon_node *d;
	int k;

	id = tgmon_trie_child(t, id, thread, 0, (uint16_t)flags);
	for (k = n - 1; k >= 0 && id != 0; k--)
		id = tgmon_trie_child(t, id, frame[k], (uint16_t)(n - k), (uint16_t)flags);
	if (id == 0) {
		__atomic_fetch_add(&t->lost, weight, __ATOMIC_RELAXED);
		return;
	}
	d = tgmon_trie_node(t, id);
	__atomic_store_n(&d->count, d->count + weight, __ATOMIC_RELAXED);
	__atomic_store_n(&t->signals, t->signals + 1, __ATOMIC_RELEASE);	/* after the count */
}

int
tgmon_trie_init(struct tgmon_trie *t)
{
	t->index_mask = FIRST_INDEX - 1;
	t->nnodes = FIRST_ID;
	if ((t->index = tgmon_trie_map(FIRST_INDEX * sizeof *t->index)) == NULL ||
	    (t->seg[0] = tgmon_trie_map(SEG_NODES * sizeof *t->seg[0])) == NULL) {
		if (t->index != NULL)
			munmap(t->index, FIRST_INDEX * sizeof *t->index);
		return 0;
	}
	return 1;
}

void
tgmon_trie_reset(struct tgmon_trie *t)
{
	uint32_t id;

	for (id = FIRST_ID; id < t->nnodes; id++)
		tgmon_trie_node(t, id)->count = 0;
	t->lost = t->signals = 0;
}

void
tgmon_trie_each(const struct tgmon_trie *t, tgmon_stack_fn *f, void *ctx)
{
	static uint64_t addr[TGSTACKS_MAX_DEPTH];
	uint32_t n = __atomic_load_n(&t->nnodes, __ATOMIC_ACQUIRE), id, k, up;

	for (id = FIRST_ID; id < n; id++) {
		const struct tgmon_node *d = tgmon_trie_node(t, id), *u = d;
		uint64_t count = __atomic_load_n(&d->count, __ATOMIC_RELAXED);

		if (count == 0 || d->depth == 0)
			continue;
		for (k = 0, up = id; up >= FIRST_ID && k <= TGSTACKS_MAX_DEPTH; k++) {
			u = tgmon_trie_node(t, up);
			if (u->depth == 0)
				break;
			if (k < TGSTACKS_MAX_DEPTH)
				addr[k] = u->addr;
			up = u->parent;
		}
		if (up >= FIRST_ID && u->depth == 0 && u->parent < FIRST_ID && k == d->depth)
			f(ctx, count, d->flags, (uint32_t)u->addr, addr, k);
	}
}
