/* since: an earlier snapshot of the same run, whose counts are taken out of a later one's as it is read (an interval's profile). */
#include "since.h"

#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "hist.h"
#include "input/gmon_out.h"
#include "util/mem.h"

#define SINCE_CHAIN 64	/* entries of one hash walked at most for a record (a file made to collide) */

static uint64_t
arc_hash(uint64_t from, uint64_t self)
{
	return u64map_mix(from ^ u64map_mix(self));
}

static enum gmon_status
on_hist(void *ctx, const struct gmon_hist *h, const unsigned char *bins, const char *file,
    uint32_t *nbins, struct diag *d)
{
	struct since *s = ctx;

	(void)file;
	*nbins = h->num_bins;
	if (h->avail < h->num_bins)
		return GMON_SHORT;
	if (mem_reserve(&s->hist, &s->histcap, s->nhist + 1, sizeof *s->hist) != 0)
		return diag_oom(d), GMON_ERR;
	s->hist[s->nhist++] = (struct since_hist){ h->lowpc, h->highpc, h->num_bins, bins };
	return GMON_OK;
}

static int
on_rate(void *ctx, uint32_t rate, const char *file, struct diag *d)
{
	(void)ctx, (void)rate, (void)file, (void)d;
	return 0;
}

static void
on_end(void *ctx)
{
	(void)ctx;
}

/* An arc record, in the file's order (indexed only if the later file's order differs: since_take()). */
static int
on_arc(void *ctx, uint64_t from, uint64_t self, uint64_t count, size_t at, struct diag *d)
{
	struct since *s = ctx;

	(void)at;
	if (s->narc >= UINT32_MAX - 1 ||
	    mem_reserve(&s->arc, &s->arccap, s->narc + 1, sizeof *s->arc) != 0)
		return diag_oom(d);
	s->arc[s->narc++] = (struct since_arc){ from, self, count, U64MAP_NONE };
	return 0;
}

static int
on_bb(void *ctx, uint64_t addr, uint64_t count, struct diag *d)
{
	(void)ctx, (void)addr, (void)count, (void)d;
	return 0;
}

static const struct gmon_ops since_ops = { on_hist, on_rate, on_end, on_arc, on_bb };

int
since_load(struct since *s, const char *path, enum gmon_format fmt, const struct gmon_layout *lay,
    struct diag *d)
{
	struct gmon_counts counts;
	unsigned input = 0;
	int version = 0;

	memset(s, 0, sizeof *s);
	u64map_init(&s->index);
	if (gmon_load(path, &s->file, d) != 0)
		return -1;
	memset(&counts, 0, sizeof counts);
	if (gmon_parse(&s->file, path, fmt, lay, &since_ops, s, &input, &version, &counts, d) != 0) {
		since_free(s);
		return -1;
	}
	s->runid = counts.runid;
	return 0;
}

void
since_free(struct since *s)
{
	gmon_unload(&s->file);
	u64map_release(&s->index);
	free(s->arc);
	free(s->hist);
	memset(s, 0, sizeof *s);
}

/* The arcs by hash, each chain through NEXT (repeats of one arc in the file included); 0 or -1. */
static int
index_arcs(struct since *s)
{
	uint32_t k, first;

	if (u64map_reserve(&s->index, s->narc) != 0)
		return -1;
	for (k = 0; k < s->narc; k++) {
		uint64_t h = arc_hash(s->arc[k].from, s->arc[k].self);

		if ((first = u64map_intern(&s->index, h, k)) == U64MAP_NONE)
			return -1;
		s->arc[k].next = first == k ? U64MAP_NONE : first;
		if (first != k && u64map_put(&s->index, h, k) != 0)
			return -1;
	}
	s->indexed = 1;
	return 0;
}

/* Up to COUNT calls taken out of arc K if it is (FROM, SELF); the calls left of COUNT. */
static uint64_t
take_from(struct since_arc *a, uint64_t from, uint64_t self, uint64_t count)
{
	uint64_t t;

	if (a->from != from || a->self != self)
		return count;
	t = a->left < count ? a->left : count;
	a->left -= t;
	return count - t;
}

int
since_take(struct since *s, uint64_t from, uint64_t self, uint64_t *count)
{
	uint64_t h = arc_hash(from, self);
	uint32_t k, first, steps = 0;

	/* libtgmon writes its arcs in its tables' order, which only grow: mostly the next one. */
	if (s->next < s->narc && s->arc[s->next].from == from && s->arc[s->next].self == self) {
		*count = take_from(&s->arc[s->next++], from, self, *count);
		return 0;
	}
	if (!s->indexed && index_arcs(s) != 0)
		return -1;
	/* The chain's exhausted head dropped (a repeated arc is taken in turn), then a bounded walk. */
	for (k = first = u64map_get(&s->index, h); k != U64MAP_NONE && s->arc[k].left == 0 &&
	    s->arc[k].next != U64MAP_NONE; k = s->arc[k].next)
		;
	if (k != first && u64map_put(&s->index, h, k) != 0)
		return -1;
	for (; k != U64MAP_NONE && *count > 0 && steps++ < SINCE_CHAIN; k = s->arc[k].next)
		*count = take_from(&s->arc[k], from, self, *count);
	return 0;
}

int
since_hist(const struct since *s, struct profile *p, const char *path, struct diag *d)
{
	size_t i;

	for (i = 0; i < s->nhist; i++) {
		const struct since_hist *h = &s->hist[i];

		switch (hist_take_out(p, h->lowpc, h->highpc, h->num_bins, h->bins)) {
		case 0:
			break;
		case 1:
			diag_add(d, DIAG_ERROR, "%s: not an earlier snapshot of this profile "
			    "(a histogram record it has not)", path);
			return -1;
		default:
			return diag_oom(d);
		}
	}
	return 0;
}

/* The thread of stack R of SF as the same in another file of the run: its tid and start (0: none). */
static uint64_t
rec_thread(const struct stacks_file *sf, const struct stacks_rec *r)
{
	const struct stacks_thread *t;

	if (r->thread == TGSTACKS_NO_THREAD || r->thread >= sf->nthread)
		return 0;
	t = &sf->thread[r->thread];
	return (uint64_t)t->tid << 32 ^ t->start_ns ^ 1;
}

static uint64_t
rec_hash(const struct stacks_file *sf, const struct stacks_rec *r)
{
	uint64_t h = u64map_mix(rec_thread(sf, r) ^ (uint64_t)r->depth << 1 ^ (r->flags & TGSTACKS_WAIT));
	uint32_t k;

	for (k = 0; k < r->depth; k++)
		h = u64map_mix(h ^ stacks_addr(r, k));
	return h;
}

static int
rec_same(const struct stacks_file *a, const struct stacks_rec *x, const struct stacks_file *b,
    const struct stacks_rec *y)
{
	uint32_t k;

	if (x->depth != y->depth || (x->flags & TGSTACKS_WAIT) != (y->flags & TGSTACKS_WAIT) ||
	    rec_thread(a, x) != rec_thread(b, y))
		return 0;
	for (k = 0; k < x->depth; k++)
		if (stacks_addr(x, k) != stacks_addr(y, k))
			return 0;
	return 1;
}

/* BEFORE's stacks (samples', then waits') by hash; LEFT: each one's count, NEXT its chain. */
struct before_index {
	struct u64map map;
	uint64_t *left;
	uint32_t *next;
};

static const struct stacks_rec *
before_rec(const struct stacks_file *b, size_t i)
{
	return i < b->nrec ? &b->rec[i] : &b->wait[i - b->nrec];
}

static int
index_before(struct before_index *ix, const struct stacks_file *b)
{
	size_t n = b->nrec + b->nwait, i;
	uint32_t first;

	u64map_init(&ix->map);
	ix->left = mem_array(n + 1, sizeof *ix->left);
	ix->next = mem_array(n + 1, sizeof *ix->next);
	if (ix->left == NULL || ix->next == NULL || n >= U64MAP_NONE || u64map_reserve(&ix->map, n) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		uint64_t h = rec_hash(b, before_rec(b, i));

		ix->left[i] = before_rec(b, i)->count;
		first = u64map_intern(&ix->map, h, (uint32_t)i);
		ix->next[i] = first == i ? U64MAP_NONE : first;
		if (first != i && u64map_put(&ix->map, h, (uint32_t)i) != 0)
			return -1;
	}
	return 0;
}

/* The first entry of hash H's chain, its exhausted head dropped (a stack repeated is taken in turn). */
static uint32_t
live_head(struct before_index *ix, uint64_t h)
{
	uint32_t k, first;

	for (k = first = u64map_get(&ix->map, h); k != U64MAP_NONE && ix->left[k] == 0 &&
	    ix->next[k] != U64MAP_NONE; k = ix->next[k])
		;
	if (k != first)
		u64map_put(&ix->map, h, k);	/* (no room needed: the key is there) */
	return k;
}

/*
 * REC[0..*N) of NOW less BEFORE's (IX), those left with none dropped; the
 * counts' sum.  A record whose chain holds over SINCE_CHAIN others (a
 * file made to collide) keeps what is left of its count.
 */
static uint64_t
take_recs(struct stacks_file *now, struct stacks_rec *rec, size_t *n, const struct stacks_file *b,
    struct before_index *ix, uint64_t *root, uint64_t *truncated)
{
	size_t i, kept = 0;
	uint64_t sum = 0;
	uint32_t k, steps;

	for (i = 0; i < *n; i++) {
		struct stacks_rec *r = &rec[i];

		for (k = live_head(ix, rec_hash(now, r)), steps = 0; k != U64MAP_NONE && r->count > 0 &&
		    steps++ < SINCE_CHAIN; k = ix->next[k])
			if (ix->left[k] > 0 && rec_same(now, r, b, before_rec(b, k))) {
				uint64_t t = ix->left[k] < r->count ? ix->left[k] : r->count;

				ix->left[k] -= t;
				r->count -= t;
			}
		if (r->count == 0)
			continue;
		sum += r->count;
		*root += (r->flags & TGSTACKS_ROOT) ? r->count : 0;
		*truncated += (r->flags & TGSTACKS_TRUNCATED) ? r->count : 0;
		rec[kept++] = *r;
	}
	*n = kept;
	return sum;
}

static uint64_t
less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static uint64_t
thread_key(const struct stacks_thread *t)
{
	return u64map_mix((uint64_t)t->tid << 32 ^ u64map_mix(t->start_ns));
}

/* Each thread of NOW less the same thread's counts in BEFORE (its tid and start); 0 or -1. */
static int
take_threads(struct stacks_file *now, const struct stacks_file *b)
{
	struct u64map map;
	uint32_t i, j;
	int rc = 0;

	u64map_init(&map);
	for (j = 0; j < b->nthread && rc == 0; j++)
		rc = u64map_put(&map, thread_key(&b->thread[j]), j);
	for (i = 0; i < now->nthread && rc == 0; i++) {
		struct stacks_thread *t = &now->thread[i];
		const struct stacks_thread *u;

		if ((j = u64map_get(&map, thread_key(t))) == U64MAP_NONE)
			continue;
		u = &b->thread[j];
		if (u->tid != t->tid || u->start_ns != t->start_ns)
			continue;	/* (two threads' keys alike: not taken out) */
		t->samples = less(t->samples, u->samples);
		t->signals = less(t->signals, u->signals);
		t->cpu_ns = less(t->cpu_ns, u->cpu_ns);
	}
	u64map_release(&map);
	return rc;
}

/* No thread with fewer samples than its stacks count (as stacks_read() checks): an earlier file's may have more. */
static int
keep_consistent(struct stacks_file *now)
{
	uint64_t *stacked = mem_calloc((size_t)now->nthread + 1, sizeof *stacked);
	size_t i;

	if (stacked == NULL)
		return -1;
	for (i = 0; i < now->nrec; i++)
		if (now->rec[i].thread < now->nthread)
			stacked[now->rec[i].thread] += now->rec[i].count;
	for (i = 0; i < now->nthread; i++)
		if (now->thread[i].samples < stacked[i])
			now->thread[i].samples = stacked[i];
	free(stacked);
	return 0;
}

int
since_stacks(struct stacks_file *now, const struct stacks_file *before)
{
	struct before_index ix;
	uint64_t root = 0, truncated = 0, unused = 0;
	int rc = -1;

	if (index_before(&ix, before) == 0) {
		now->samples = take_recs(now, now->rec, &now->nrec, before, &ix, &root, &truncated);
		now->root = root;
		now->truncated = truncated;
		now->wait_ns = take_recs(now, now->wait, &now->nwait, before, &ix, &unused, &unused);
		now->lost = less(now->lost, before->lost);
		now->signals = less(now->signals, before->signals);
		now->waits = less(now->waits, before->waits);
		rc = take_threads(now, before) != 0 || keep_consistent(now) != 0 ? -1 : 0;
	}
	u64map_release(&ix.map);
	free(ix.left);
	free(ix.next);
	return rc;
}
