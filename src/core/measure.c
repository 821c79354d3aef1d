/* measure: measured inclusive times from libtgmon's call stacks, beside the call graph's estimates. */
#include "measure.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/gmon_out.h"
#include "libsyms.h"
#include "since.h"
#include "tally.h"
#include "input/stacks.h"
#include "util/mem.h"
#include "util/u64map.h"

_Static_assert(PF_NO_THREAD == TGSTACKS_NO_THREAD && PF_THREAD_ENDED == TGSTACKS_THREAD_ENDED &&
    PF_THREAD_MAIN == TGSTACKS_THREAD_MAIN && PF_THREAD_CPU == TGSTACKS_THREAD_CPU &&
    PF_THREAD_NAME == TGSTACKS_MAX_THREAD_NAME, "measure.h's thread constants are gmon_out.h's");

struct builder {
	const struct profile *p;
	struct pf_measure *m;
	const char *debug_dir;		/* libraries' debugging files (measure_load) */
	const char *image;		/* the profile's executable or library, as named (measure_opts) */
	uint32_t self_mod;		/* the current stacks file's module that is IMAGE (0: the program) */
	double call_ps;			/* the files' calls' cost, picoseconds, times their samples */
	uint64_t call_samples;		/* the samples of the files that measured it */
	size_t file;			/* the stacks file being read */
	const struct stacks_file *since;	/* measure_opts.since, read; or NULL */
	const char *since_path;
	struct u64map others;		/* a frame outside the program's name and library, hashed -> its k */
	size_t framecap, stackcap, othercap, libcap;
	/* The current stacks file's libraries (one a module), read at their first frame. */
	struct libsyms **lib;
	unsigned char *tried;
};

void
measure_free(struct pf_measure *m)
{
	uint32_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nother; i++) {
		free(m->other != NULL ? m->other[i] : NULL);
		free(m->other_lib != NULL ? m->other_lib[i] : NULL);
	}
	free(m->other);
	free(m->other_lib);
	free(m->other_self);
	free(m->lib_charged);
	free(m->incl);
	free(m->self);
	free(m->arc_incl);
	free(m->arc_self);
	free(m->stack);
	free(m->frame);
	free(m->thread);
	free(m->chosen);
	free(m);
}

/* Room for one more frame outside the program; 0, or -1 when out of memory. */
static int
more_other(struct builder *b)
{
	struct pf_measure *m = b->m;

	if (m->nother >= PF_FRAME_OTHER_MAX)
		return -1;
	return mem_reserve(&m->other, &b->othercap, (size_t)m->nother + 1, sizeof *m->other) != 0 ||
	    mem_reserve(&m->other_lib, &b->libcap, (size_t)m->nother + 1, sizeof *m->other_lib) != 0 ? -1 : 0;
}

/*
 * The id of the frame named NAME in library LIB, outside the program,
 * made the first time; PF_FRAME_UNKNOWN if out of memory.
 */
static uint32_t
other_id(struct builder *b, const char *name, const char *lib)
{
	struct pf_measure *m = b->m;
	uint64_t key = u64map_strhash(name) ^ u64map_mix(u64map_strhash(lib));
	uint32_t i = u64map_get(&b->others, key);

	if (i != U64MAP_NONE) {
		if (strcmp(m->other[i], name) == 0 && strcmp(m->other_lib[i], lib) == 0)
			return PF_FRAME_OTHER + i;
		for (i = 0; i < m->nother; i++)	/* another pair hashed alike: rare */
			if (strcmp(m->other[i], name) == 0 && strcmp(m->other_lib[i], lib) == 0)
				return PF_FRAME_OTHER + i;
	}
	if (more_other(b) != 0 || u64map_intern(&b->others, key, m->nother) == U64MAP_NONE)
		return PF_FRAME_UNKNOWN;
	m->other[m->nother] = strdup(name);
	m->other_lib[m->nother] = strdup(lib);
	if (m->other[m->nother] == NULL || m->other_lib[m->nother] == NULL) {
		free(m->other[m->nother]);
		free(m->other_lib[m->nother]);
		return PF_FRAME_UNKNOWN;
	}
	return PF_FRAME_OTHER + m->nother++;
}

/* Address OFF of library module I: its function's name, else "[name.so]". */
static uint32_t
lib_frame(struct builder *b, const struct stacks_file *sf, uint32_t i, uint64_t off)
{
	const char *path = sf->mod[i].name, *base = strrchr(path, '/'), *lib = base != NULL ? base + 1 : path;
	const char *fn;
	char *dem, *name;
	uint32_t id;

	if (!b->tried[i]) {
		b->tried[i] = 1;
		b->lib[i] = libsyms_open(path, b->debug_dir);
	}
	if (b->lib[i] != NULL && (fn = libsyms_at(b->lib[i], off)) != NULL) {
		dem = profile_demangle(b->p, fn);
		id = other_id(b, dem != NULL ? dem : fn, lib);
		free(dem);
		return id;
	}
	if ((name = malloc(strlen(lib) + 3)) == NULL)
		return PF_FRAME_UNKNOWN;
	snprintf(name, strlen(lib) + 3, "[%s]", lib);
	id = other_id(b, name, lib);
	free(name);
	return id;
}

/* What address A of a stack in SF stands for (the innermost, K 0, is the PC itself). */
static uint32_t
resolve(struct builder *b, const struct stacks_file *sf, uint64_t a, uint32_t k)
{
	uint32_t i;

	if (k > 0)
		a--;	/* a return address: the call is just before it (x86-64's 2 to 7 bytes, aarch64's bl's 4) */
	for (i = 0; i < sf->nmod; i++) {
		const struct stacks_module *mod = &sf->mod[i];

		if (a < mod->lowpc || a >= mod->highpc)
			continue;
		if (i == b->self_mod)
			return profile_lookup(b->p, a - mod->base);
		if (i == 0)	/* a library's profile: the program that loaded it */
			return other_id(b, "[program]", "");
		return lib_frame(b, sf, i, a - mod->base);
	}
	return PF_FRAME_UNKNOWN;
}

/* Room for N more frames and a stack; 0 or -1. */
static int
room(struct builder *b, size_t n)
{
	struct pf_measure *m = b->m;
	size_t used = m->nstack == 0 ? 0 : m->stack[m->nstack - 1].first + m->stack[m->nstack - 1].depth;

	if (mem_reserve(&m->frame, &b->framecap, used + n, sizeof *m->frame) != 0)
		return -1;
	return mem_reserve(&m->stack, &b->stackcap, m->nstack + 1, sizeof *m->stack);
}

/* SF's thread records (of stacks file K) added to the measure's, names made printable; 0 or -1. */
static int
add_threads(struct pf_measure *m, const struct stacks_file *sf, size_t k)
{
	struct pf_thread *t;
	uint32_t i, c;

	if (sf->nthread == 0)
		return 0;
	if (m->nthread > UINT32_MAX - 1 - sf->nthread ||
	    (t = realloc(m->thread, ((size_t)m->nthread + sf->nthread) * sizeof *t)) == NULL)
		return -1;
	m->thread = t;
	for (i = 0; i < sf->nthread; i++) {
		const struct stacks_thread *s = &sf->thread[i];

		t = &m->thread[m->nthread + i];
		memset(t, 0, sizeof *t);
		t->tid = s->tid;
		t->flags = s->flags;
		t->file = (uint32_t)k;
		t->cpu_ns = s->cpu_ns;
		t->samples = s->samples;
		t->signals = s->signals;
		t->start_ns = s->start_ns;
		t->end_ns = s->end_ns;
		for (c = 0; c < s->namelen && c < PF_THREAD_NAME; c++)
			t->name[c] = s->name[c] < 0x20 || s->name[c] == 0x7f ? '?' : (char)s->name[c];
		m->thread_samples += s->samples;
	}
	return 0;
}

/* The records of SF resolved, outermost first, and counted; 0 or -1 (out of memory). */
static int
add_file(struct builder *b, const struct stacks_file *sf)
{
	struct pf_measure *m = b->m;
	uint32_t base = m->nthread;
	size_t i;
	uint32_t k;

	if (add_threads(m, sf, b->file) != 0)
		return -1;
	m->nthread += sf->nthread;

	for (i = 0; i < sf->nrec + sf->nwait; i++) {
		const struct stacks_rec *r = i < sf->nrec ? &sf->rec[i] : &sf->wait[i - sf->nrec];
		struct pf_mstack *st;

		if (room(b, r->depth) != 0 || m->nstack >= UINT32_MAX - 1)
			return -1;
		st = &m->stack[m->nstack];
		st->count = r->count;
		st->depth = r->depth;
		st->flags = r->flags;
		st->thread = r->thread == TGSTACKS_NO_THREAD ? PF_NO_THREAD : base + r->thread;
		if (r->flags & TGSTACKS_WAIT)
			;	/* nanoseconds, not samples */
		else if (st->thread != PF_NO_THREAD)
			m->thread[st->thread].stacked += r->count;
		else
			m->thread_samples += r->count;
		st->first = m->nstack == 0 ? 0 : st[-1].first + st[-1].depth;
		for (k = 0; k < r->depth; k++)
			m->frame[st->first + r->depth - 1 - k] = resolve(b, sf, stacks_addr(r, k), k);
		m->nstack++;
	}
	return 0;
}

/*
 * The module of SF that the profile is of: a library's (the profile of a
 * -pg shared library, gmon.libfoo.so.out, read with libfoo.so) when the
 * image's file name is a library's of SF; else 0, the program.
 */
static uint32_t
self_module(const struct builder *b, const struct stacks_file *sf)
{
	const char *want = b->image != NULL ? strrchr(b->image, '/') : NULL, *name;
	uint32_t i;

	want = want != NULL ? want + 1 : b->image;
	for (i = 1; want != NULL && *want != '\0' && i < sf->nmod; i++) {
		name = strrchr(sf->mod[i].name, '/');
		if (strcmp(name != NULL ? name + 1 : sf->mod[i].name, want) == 0)
			return i;
	}
	return 0;
}

/* Stacks file PATH, checked against gmon file K of the profile, added; 0 or -1 with a message. */
static int
read_one(struct builder *b, const char *path, size_t k, struct diag *d)
{
	const struct profile *p = b->p;
	struct stacks_file sf;
	int rc = 0, i;

	if (stacks_read(path, &sf, d) != 0)
		return -1;
	if (k >= p->ngmon || p->gmon[k].counts.runid == 0 || sf.runid != p->gmon[k].counts.runid) {
		diag_add(d, DIAG_ERROR, "%s: not from the run that wrote %s (run identifiers differ)",
		    path, k < p->ngmon ? p->gmon[k].path : "its gmon file");
		rc = -1;
	} else if (sf.rate == 0) {
		diag_add(d, DIAG_ERROR, "%s: damaged stacks file (a sampling rate of 0)", path);
		rc = -1;
	} else if (b->m->hz != 0 && (long)sf.rate != b->m->hz) {
		diag_add(d, DIAG_ERROR, "%s: sampled at %u a second, the others at %ld", path, sf.rate,
		    b->m->hz);
		rc = -1;
	} else if (b->since != NULL && b->since->runid != sf.runid) {
		diag_add(d, DIAG_ERROR, "%s: not an earlier snapshot of the run that wrote %s", b->since_path,
		    path);
		rc = -1;
	} else if (b->since != NULL && since_stacks(&sf, b->since) != 0) {
		rc = diag_oom(d);
	} else if ((b->lib = mem_calloc(sf.nmod, sizeof *b->lib)) == NULL ||
	    (b->tried = mem_calloc(sf.nmod, sizeof *b->tried)) == NULL) {
		rc = diag_oom(d);
	} else {
		b->self_mod = self_module(b, &sf);
		b->m->hz = (long)sf.rate;
		b->m->samples += sf.samples;
		b->m->root += sf.root;
		b->m->truncated += sf.truncated;
		b->m->lost += sf.lost;
		b->m->signals += sf.signals;
		b->m->wait_ns += sf.wait_ns;
		b->m->waits += sf.waits;
		b->m->wait_flags |= sf.flags;
		if (sf.call_ps > 0) {
			b->call_ps += (double)sf.call_ps * (double)sf.samples;
			b->call_samples += sf.samples;
		}
		if (add_file(b, &sf) != 0)
			rc = diag_oom(d);
	}
	for (i = 0; b->lib != NULL && i < (int)sf.nmod; i++)
		libsyms_close(b->lib[i]);
	free(b->lib);
	free(b->tried);
	b->lib = NULL;
	b->tried = NULL;
	stacks_free(&sf);
	return rc;
}

int
measure_load(const struct profile *p, const char *const *paths, size_t n,
    const struct measure_opts *o, struct pf_measure **out, struct diag *d)
{
	struct stacks_file before;
	struct builder b;
	size_t k;
	int rc = 0;

	*out = NULL;
	memset(&b, 0, sizeof b);
	b.p = p;
	b.debug_dir = o->debug_dir;
	b.image = o->image;
	u64map_init(&b.others);
	if (o->since != NULL && n != 1) {
		diag_add(d, DIAG_ERROR, "%s: an earlier snapshot is taken out of one stacks file, not %zu",
		    o->since, n);
		return -1;
	}
	if (o->since != NULL && stacks_read(o->since, &before, d) != 0)
		return -1;
	b.since = o->since != NULL ? &before : NULL;
	b.since_path = o->since;
	if ((b.m = mem_calloc(1, sizeof *b.m)) == NULL)
		rc = diag_oom(d);
	for (k = 0; rc == 0 && k < n; k++) {
		b.file = k;
		rc = read_one(&b, paths[k], k, d);
	}
	if (b.since != NULL)
		stacks_free(&before);
	if (rc == 0) {
		b.m->call_ps_measured = b.call_samples > 0 ? b.call_ps / (double)b.call_samples : 0;
		b.m->call_ps = o->call_ps > 0 ? o->call_ps : 0;
		if (tally_count(b.m, p, &o->truth) != 0)
			rc = diag_oom(d);
	}
	u64map_release(&b.others);
	if (rc != 0)
		measure_free(b.m);
	else
		*out = b.m;
	return rc;
}

/* A copy of the N strings V, or NULL (out of memory: what was copied freed). */
static char **
copy_strings(char *const *v, uint32_t n)
{
	char **c = mem_calloc((size_t)n + 1, sizeof *c);
	uint32_t i;

	for (i = 0; c != NULL && i < n; i++)
		if ((c[i] = strdup(v[i])) == NULL) {
			while (i-- > 0)
				free(c[i]);
			free(c);
			c = NULL;
		}
	return c;
}

/* C, a shallow copy of a measure, given its own stacks, frames and names; 0 or -1 (C freeable). */
static int
own_copies(struct pf_measure *c, const struct pf_measure *m)
{
	size_t nframe = m->nstack > 0 ? m->stack[m->nstack - 1].first + m->stack[m->nstack - 1].depth : 0;

	c->incl = c->self = c->arc_incl = c->arc_self = c->other_self = c->lib_charged = NULL;
	c->other_lib = NULL;
	c->thread = mem_array((size_t)m->nthread + 1, sizeof *c->thread);
	c->chosen = m->chosen != NULL ? mem_array((size_t)m->nthread + 1, sizeof *c->chosen) : NULL;
	if (c->thread == NULL || (m->chosen != NULL && c->chosen == NULL)) {
		c->stack = NULL, c->frame = NULL, c->other = NULL, c->nother = 0;
		return -1;
	}
	memcpy(c->thread, m->thread, m->nthread * sizeof *c->thread);
	if (m->chosen != NULL)
		memcpy(c->chosen, m->chosen, m->nthread);
	c->stack = mem_array(m->nstack + 1, sizeof *c->stack);
	c->frame = mem_array(nframe + 1, sizeof *c->frame);
	c->nother = (c->other = copy_strings(m->other, m->nother)) != NULL ? m->nother : 0;
	if (c->stack == NULL || c->frame == NULL || c->other == NULL ||
	    (c->other_lib = copy_strings(m->other_lib, m->nother)) == NULL)
		return -1;
	memcpy(c->stack, m->stack, m->nstack * sizeof *c->stack);
	memcpy(c->frame, m->frame, nframe * sizeof *c->frame);
	return 0;
}

int
measure_reweigh(const struct pf_measure *m, const struct profile *p, const struct truth_opts *o,
    struct pf_measure **out)
{
	struct pf_measure *c = mem_calloc(1, sizeof *c);

	*out = NULL;
	if (c == NULL)
		return -1;
	*c = *m;
	if (own_copies(c, m) != 0 || tally_count(c, p, o) != 0) {
		measure_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

/* C (a copy of M's fields, owning its threads) given the stacks of M's threads chosen in C; 0 or -1. */
static int
keep_stacks(struct pf_measure *c, const struct pf_measure *m)
{
	size_t i, nframe = 0;
	uint32_t t;

	c->stack = mem_array(m->nstack + 1, sizeof *c->stack);
	c->frame = mem_array(m->nstack > 0 ? (size_t)m->stack[m->nstack - 1].first +
	    m->stack[m->nstack - 1].depth + 1 : 1, sizeof *c->frame);
	if (c->stack == NULL || c->frame == NULL)
		return -1;
	c->nstack = 0;
	c->samples = c->root = c->truncated = c->lost = c->signals = 0;
	c->wait_ns = c->waits = 0;	/* (how many waits the chosen threads' are, the files do not say) */
	for (i = 0; i < m->nstack; i++) {
		const struct pf_mstack *s = &m->stack[i];

		if (s->thread == PF_NO_THREAD || !c->chosen[s->thread])
			continue;
		c->stack[c->nstack] = *s;
		c->stack[c->nstack].first = (uint32_t)nframe;
		memcpy(c->frame + nframe, m->frame + s->first, s->depth * sizeof *c->frame);
		nframe += s->depth;
		c->nstack++;
		if (s->flags & TGSTACKS_WAIT) {
			c->wait_ns += s->count;
			continue;
		}
		c->samples += s->count;
		c->root += (s->flags & TGSTACKS_ROOT) ? s->count : 0;
		c->truncated += (s->flags & TGSTACKS_TRUNCATED) ? s->count : 0;
	}
	for (t = 0; t < m->nthread; t++)
		if (c->chosen[t]) {
			c->lost += c->thread[t].samples - c->thread[t].stacked;	/* the reader checked: no less */
			c->signals += c->thread[t].signals;
		}
	return 0;
}

int
measure_threads(const struct pf_measure *m, const struct profile *p, const unsigned char *chosen,
    struct pf_measure **out)
{
	struct pf_measure *c = mem_calloc(1, sizeof *c);
	uint32_t t, n = 0;

	*out = NULL;
	for (t = 0; t < m->nthread; t++)
		n += chosen[t] != 0;
	if (c == NULL || n == 0) {
		free(c);
		return -1;
	}
	*c = *m;
	c->incl = c->self = c->arc_incl = c->arc_self = c->other_self = c->lib_charged = NULL;
	c->stack = NULL, c->frame = NULL, c->other_lib = NULL, c->chosen = NULL;
	c->nother = (c->other = copy_strings(m->other, m->nother)) != NULL ? m->nother : 0;
	c->thread = mem_array((size_t)m->nthread + 1, sizeof *c->thread);
	c->chosen = mem_calloc((size_t)m->nthread + 1, 1);
	if (c->other == NULL || c->thread == NULL || c->chosen == NULL ||
	    (c->other_lib = copy_strings(m->other_lib, m->nother)) == NULL)
		goto fail;
	memcpy(c->thread, m->thread, m->nthread * sizeof *c->thread);
	for (t = 0; t < m->nthread; t++)
		c->chosen[t] = chosen[t] != 0 && (m->chosen == NULL || m->chosen[t]);
	for (c->nchosen = 0, t = 0; t < m->nthread; t++)
		c->nchosen += c->chosen[t];
	if (c->nchosen == 0 || keep_stacks(c, m) != 0 || tally_count(c, p, &m->truth) != 0)
		goto fail;
	*out = c;
	return 0;
fail:
	measure_free(c);
	return -1;
}

/* Whether thread T of M is named by the element E (LEN bytes) of a spec: its tid, or a glob of its name. */
static int
names_thread(const struct pf_thread *t, const char *e, size_t len)
{
	char pat[256];
	size_t k;
	unsigned long v = 0;

	for (k = 0; k < len && e[k] >= '0' && e[k] <= '9' && v <= UINT32_MAX; k++)
		v = v * 10 + (unsigned long)(e[k] - '0');
	if (k == len && v == t->tid)
		return 1;
	if (len >= sizeof pat)
		return 0;
	memcpy(pat, e, len);
	pat[len] = '\0';
	return fnmatch(pat, t->name, 0) == 0;
}

long
measure_thread_match(const struct pf_measure *m, const char *spec, unsigned char *chosen, struct diag *d)
{
	const char *e = spec, *end;
	long named = 0, here;
	uint32_t t;

	if (m->nthread == 0) {
		diag_add(d, DIAG_ERROR, "--thread: the stacks files have no thread records (libtgmon "
		    "writes them from version 3 of its stacks files)");
		return -1;
	}
	for (;; e = end + 1) {
		size_t len = (end = strchr(e, ',')) != NULL ? (size_t)(end - e) : strlen(e);

		if (len == 0) {
			diag_add(d, DIAG_ERROR, "--thread=%s: an empty thread id or name", spec);
			return -1;
		}
		for (here = 0, t = 0; t < m->nthread; t++)
			if (names_thread(&m->thread[t], e, len)) {
				named += !chosen[t];
				chosen[t] = 1;
				here++;
			}
		if (here == 0) {
			diag_add(d, DIAG_ERROR, "--thread: no thread %.*s (--threads lists them)", (int)len, e);
			return -1;
		}
		if (end == NULL)
			return named;
	}
}

double
measure_thread_share(const struct pf_measure *m, uint32_t t)
{
	return m->thread_samples > 0 ? (double)m->thread[t].samples / (double)m->thread_samples : 0;
}

const char *
measure_waits_why(const struct pf_measure *m)
{
	if (m->wait_flags & TGSTACKS_FLAG_WAITS)
		return NULL;
	if (m->wait_flags & TGSTACKS_FLAG_WAITS_DENIED)
		return "the kernel refused libtgmon the event that records them "
		    "(kernel.perf_event_paranoid above 1 without CAP_PERFMON: a wait's stack is taken in the "
		    "kernel's switch; or a seccomp filter)";
	if (m->wait_flags & TGSTACKS_FLAG_WAITS_OFF)
		return "TGMON_WAITS=0 turned them off";
	return "none were recorded (libtgmon records them on x86-64, in version 3 of its stacks files)";
}
