/* stacks: reads libtgmon's stacks file (gmon_out.h): the call stack of every sample, checked whole. */
#include "stacks.h"

#include <stdlib.h>
#include <string.h>

#include "gmon_out.h"
#include "util/mem.h"

/* A little-endian integer of N bytes at P. */
static uint64_t
le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

uint64_t
stacks_addr(const struct stacks_rec *r, uint32_t k)
{
	return le(r->addr + 8 * (size_t)k, 8);
}

void
stacks_free(struct stacks_file *sf)
{
	uint32_t i;

	for (i = 0; sf->mod != NULL && i < sf->nmod; i++)
		free(sf->mod[i].name);
	free(sf->mod);
	free(sf->thread);
	free(sf->rec);
	free(sf->wait);
	gmon_unload(&sf->file);
	memset(sf, 0, sizeof *sf);
}

/* The header's size in a file of VERSION, or 0 for a version not known. */
static size_t
header_size(uint32_t version)
{
	if (version == 1)
		return TGSTACKS_HDR_SIZE_V1;
	if (version == 2)
		return TGSTACKS_HDR_SIZE_V2;
	return version == TGSTACKS_VERSION_THREADS ? TGSTACKS_HDR_SIZE : 0;
}

/*
 * The header's fields, and its size in *SIZE; -1 with a message if it is
 * not one.  Version 1 has no call_ps and clock (0).
 */
static int
read_header(struct stacks_file *sf, size_t *size, const char *path, struct diag *d)
{
	const unsigned char *b = sf->file.buf;
	uint32_t version;

	if (sf->file.len < TGSTACKS_HDR_SIZE_V1 ||
	    memcmp(b + TGSTACKS_HDR_MAGIC, TGSTACKS_MAGIC, TGSTACKS_MAGIC_LEN) != 0) {
		diag_add(d, DIAG_ERROR, "%s: not a libtgmon stacks file", path);
		return -1;
	}
	version = (uint32_t)le(b + TGSTACKS_HDR_VERSION, 4);
	if ((*size = header_size(version)) == 0) {
		diag_add(d, DIAG_ERROR, "%s: stacks file version %u: only versions up to %d are known",
		    path, version, TGSTACKS_VERSION_THREADS);
		return -1;
	}
	sf->version = version;
	if (sf->file.len < *size) {
		diag_add(d, DIAG_ERROR, "%s: damaged stacks file (its header is cut)", path);
		return -1;
	}
	sf->runid = le(b + TGSTACKS_HDR_RUNID, 8);
	sf->rate = (uint32_t)le(b + TGSTACKS_HDR_RATE, 4);
	sf->nmod = (uint32_t)le(b + TGSTACKS_HDR_NMODULES, 4);
	sf->max_depth = (uint32_t)le(b + TGSTACKS_HDR_MAXDEPTH, 4);
	sf->samples = le(b + TGSTACKS_HDR_SAMPLES, 8);
	sf->root = le(b + TGSTACKS_HDR_ROOT, 8);
	sf->truncated = le(b + TGSTACKS_HDR_TRUNCATED, 8);
	sf->lost = le(b + TGSTACKS_HDR_LOST, 8);
	sf->signals = le(b + TGSTACKS_HDR_SIGNALS, 8);
	if (version >= 2) {
		sf->call_ps = (uint32_t)le(b + TGSTACKS_HDR_CALL_PS, 4);
		sf->clock = (uint32_t)le(b + TGSTACKS_HDR_CLOCK, 4);
	}
	if (version >= TGSTACKS_VERSION_THREADS) {	/* before: reserved fields, not read */
		sf->nthread = (uint32_t)le(b + TGSTACKS_HDR_NTHREADS, 4);
		sf->flags = (uint32_t)le(b + TGSTACKS_HDR_FLAGS, 4);
		sf->wait_ns = le(b + TGSTACKS_HDR_WAIT_NS, 8);
		sf->waits = le(b + TGSTACKS_HDR_WAITS, 8);
	}
	if ((sf->flags & ~(TGSTACKS_FLAG_WAITS | TGSTACKS_FLAG_WAITS_DENIED | TGSTACKS_FLAG_WAITS_OFF)) != 0) {
		diag_add(d, DIAG_ERROR, "%s: stacks file version %u with unknown flags (%#x)", path, version, sf->flags);
		return -1;
	}
	if ((sf->clock & ~(TGSTACKS_CLOCK_TIMER | TGSTACKS_CLOCK_PERF | TGSTACKS_CLOCK_USER)) != 0 ||
	    ((sf->clock & TGSTACKS_CLOCK_USER) && !(sf->clock & TGSTACKS_CLOCK_PERF))) {
		diag_add(d, DIAG_ERROR, "%s: stacks file version %u with an unknown clock (%#x)", path,
		    version, sf->clock);
		return -1;
	}
	if (sf->nmod == 0 || sf->nmod > TGSTACKS_MAX_MODULES || sf->max_depth == 0 ||
	    sf->max_depth > TGSTACKS_MAX_DEPTH) {
		diag_add(d, DIAG_ERROR, "%s: damaged stacks file (%u modules, depth %u)", path,
		    sf->nmod, sf->max_depth);
		return -1;
	}
	if (sf->nthread > TGSTACKS_MAX_THREADS) {
		diag_add(d, DIAG_ERROR, "%s: damaged stacks file (%u threads, more than %u)", path,
		    sf->nthread, TGSTACKS_MAX_THREADS);
		return -1;
	}
	return 0;
}

/* The module records from *OFF on; -1 with a message. */
static int
read_modules(struct stacks_file *sf, size_t *off, const char *path, struct diag *d)
{
	const unsigned char *b = sf->file.buf;
	size_t len = sf->file.len;
	uint32_t i, n;

	if ((sf->mod = mem_calloc(sf->nmod, sizeof *sf->mod)) == NULL)
		return diag_oom(d);
	for (i = 0; i < sf->nmod; i++) {
		struct stacks_module *m = &sf->mod[i];

		if (len - *off < TGSTACKS_MOD_FIXED ||
		    (n = (uint32_t)le(b + *off + 24, 4)) >= TGSTACKS_MAX_NAME ||
		    len - *off - TGSTACKS_MOD_FIXED < n) {
			diag_add(d, DIAG_ERROR, "%s: damaged stacks file (module %u)", path, i);
			return -1;
		}
		m->base = le(b + *off, 8);
		m->lowpc = le(b + *off + 8, 8);
		m->highpc = le(b + *off + 16, 8);
		if ((m->name = mem_calloc(1, (size_t)n + 1)) == NULL)
			return diag_oom(d);
		memcpy(m->name, b + *off + TGSTACKS_MOD_FIXED, n);
		*off += TGSTACKS_MOD_FIXED + n;
	}
	return 0;
}

#define THREAD_FIXED TGSTACKS_THREAD_FIXED

_Static_assert(STACKS_THREAD_NAME == TGSTACKS_MAX_THREAD_NAME, "stacks.h: a thread name's room");

/* Thread record I at B (LEFT bytes there) into T; its size, or 0 if it is not one. */
static size_t
read_thread(struct stacks_thread *t, const unsigned char *b, size_t left)
{
	const uint32_t known = TGSTACKS_THREAD_ENDED | TGSTACKS_THREAD_MAIN | TGSTACKS_THREAD_CPU |
	    TGSTACKS_THREAD_TIMER | TGSTACKS_THREAD_WAITS | TGSTACKS_THREAD_WAITS_LOST;

	if (left < THREAD_FIXED)
		return 0;
	t->tid = (uint32_t)le(b, 4);
	t->flags = (uint32_t)le(b + 4, 4);
	t->cpu_ns = le(b + 8, 8);
	t->samples = le(b + 16, 8);
	t->signals = le(b + 24, 8);
	t->start_ns = le(b + 32, 8);
	t->end_ns = le(b + 40, 8);
	t->namelen = (uint32_t)le(b + 48, 4);
	if ((t->flags & ~known) != 0 || t->namelen > TGSTACKS_MAX_THREAD_NAME ||
	    left - THREAD_FIXED < t->namelen || t->signals > t->samples ||
	    (!(t->flags & TGSTACKS_THREAD_CPU) && t->cpu_ns != 0) ||
	    (t->end_ns != 0 && t->end_ns < t->start_ns))
		return 0;
	memcpy(t->name, b + THREAD_FIXED, t->namelen);
	t->name[t->namelen] = '\0';
	return THREAD_FIXED + (size_t)t->namelen;
}

/* The thread records from *OFF on (version 3); -1 with a message. */
static int
read_threads(struct stacks_file *sf, size_t *off, const char *path, struct diag *d)
{
	uint32_t i;
	size_t n;

	if (sf->nthread == 0)
		return 0;
	if ((sf->file.len - *off) / THREAD_FIXED < sf->nthread) {
		diag_add(d, DIAG_ERROR, "%s: damaged stacks file (%u threads past its end)", path, sf->nthread);
		return -1;
	}
	if ((sf->thread = mem_calloc(sf->nthread, sizeof *sf->thread)) == NULL)
		return diag_oom(d);
	for (i = 0; i < sf->nthread; i++) {
		if ((n = read_thread(&sf->thread[i], sf->file.buf + *off, sf->file.len - *off)) == 0) {
			diag_add(d, DIAG_ERROR, "%s: damaged stacks file (thread %u)", path, i);
			return -1;
		}
		*off += n;
	}
	return 0;
}

/*
 * Whether every thread that had ended has at least the samples its
 * stacks count (one still running may have been sampled between the
 * writer's reading of its record and of its stacks); -1 with a message.
 */
static int
check_threads(const struct stacks_file *sf, const char *path, struct diag *d)
{
	uint64_t *sum;
	size_t i;
	uint32_t t;
	int rc = 0;

	if (sf->nthread == 0)
		return 0;
	if ((sum = mem_calloc(sf->nthread, sizeof *sum)) == NULL)
		return diag_oom(d);
	for (i = 0; i < sf->nrec; i++)
		if (sf->rec[i].thread != TGSTACKS_NO_THREAD)
			sum[sf->rec[i].thread] += sf->rec[i].count;	/* below the header's sum: no overflow */
	for (t = 0; rc == 0 && t < sf->nthread; t++)
		if ((sf->thread[t].flags & TGSTACKS_THREAD_ENDED) && sum[t] > sf->thread[t].samples) {
			diag_add(d, DIAG_ERROR, "%s: damaged stacks file (thread %u: %llu samples, its stacks count %llu)",
			    path, t, (unsigned long long)sf->thread[t].samples, (unsigned long long)sum[t]);
			rc = -1;
		}
	free(sum);
	return rc;
}

/* Walks the stack records from OFF (STORE: into sf->rec), checking each and adding up the sums. */
static int
walk_stacks(struct stacks_file *sf, size_t off, int store, const char *path, struct diag *d)
{
	const unsigned char *b = sf->file.buf;
	size_t len = sf->file.len, n = 0, nw = 0;
	size_t fixed = sf->version >= TGSTACKS_VERSION_THREADS ? TGSTACKS_STACK_FIXED_V3 : TGSTACKS_STACK_FIXED;
	uint32_t flags = TGSTACKS_ROOT | TGSTACKS_TRUNCATED | (fixed == TGSTACKS_STACK_FIXED ? 0 : TGSTACKS_WAIT);
	uint64_t sum[4] = { 0, 0, 0, 0 };

	while (off < len) {
		struct stacks_rec r;

		if (len - off < fixed)
			break;
		r.count = le(b + off, 8);
		r.depth = (uint32_t)le(b + off + 8, 4);
		r.flags = (uint32_t)le(b + off + 12, 4);
		r.thread = fixed == TGSTACKS_STACK_FIXED ? TGSTACKS_NO_THREAD : (uint32_t)le(b + off + 16, 4);
		off += fixed;
		if (r.count == 0 || r.depth == 0 || r.depth > sf->max_depth ||
		    (r.thread >= sf->nthread && r.thread != TGSTACKS_NO_THREAD) ||
		    (r.flags & ~flags) != 0 || (len - off) / 8 < r.depth ||
		    __builtin_add_overflow(sum[r.flags & TGSTACKS_WAIT ? 3 : 0], r.count,
		    &sum[r.flags & TGSTACKS_WAIT ? 3 : 0]))
			break;
		r.addr = b + off;
		off += 8 * (size_t)r.depth;
		if (r.flags & TGSTACKS_WAIT) {
			if (store)
				sf->wait[nw] = r;
			nw++;
			continue;
		}
		sum[1] += (r.flags & TGSTACKS_ROOT) ? r.count : 0;
		sum[2] += (r.flags & TGSTACKS_TRUNCATED) ? r.count : 0;
		if (store)
			sf->rec[n] = r;
		n++;
	}
	if (off != len || sum[0] != sf->samples || sum[1] != sf->root || sum[2] != sf->truncated ||
	    sum[3] != sf->wait_ns) {
		diag_add(d, DIAG_ERROR, "%s: damaged stacks file (stack %zu, or its sums)", path, n + nw);
		return -1;
	}
	sf->nrec = n;
	sf->nwait = nw;
	return 0;
}

int
stacks_read(const char *path, struct stacks_file *sf, struct diag *d)
{
	size_t off = 0;
	int rc;

	memset(sf, 0, sizeof *sf);
	if (gmon_load(path, &sf->file, d) != 0)
		return -1;
	rc = read_header(sf, &off, path, d) != 0 || read_modules(sf, &off, path, d) != 0 ||
	    read_threads(sf, &off, path, d) != 0 || walk_stacks(sf, off, 0, path, d) != 0 ? -1 : 0;
	if (rc == 0 && sf->nrec + sf->nwait != le(sf->file.buf + TGSTACKS_HDR_NSTACKS, 8)) {
		diag_add(d, DIAG_ERROR, "%s: damaged stacks file (%zu stacks, not as many as it says)",
		    path, sf->nrec + sf->nwait);
		rc = -1;
	}
	if (rc == 0 && ((sf->rec = mem_calloc(sf->nrec + 1, sizeof *sf->rec)) == NULL ||
	    (sf->wait = mem_calloc(sf->nwait + 1, sizeof *sf->wait)) == NULL))
		rc = diag_oom(d);
	if (rc == 0)
		rc = walk_stacks(sf, off, 1, path, d);
	if (rc == 0)
		rc = check_threads(sf, path, d);
	if (rc != 0)
		stacks_free(sf);
	return rc;
}
