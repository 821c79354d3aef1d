/* pprof: the profile as pprof's profile.proto, gzip-compressed, for go tool pprof and its web view. */
#include "pprof.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "estfold.h"
#include "threadlist.h"
#include "input/gmon_out.h"

/* A protobuf message being encoded. */
struct pb {
	unsigned char *b;
	size_t n, cap;
	int failed;
};

static void
pb_put(struct pb *p, const void *s, size_t n)
{
	if (p->failed)
		return;
	if (p->n + n > p->cap) {
		size_t cap = p->cap > 0 ? p->cap : 4096;
		unsigned char *b;

		while (cap < p->n + n)
			cap *= 2;
		if ((b = realloc(p->b, cap)) == NULL) {
			p->failed = 1;
			return;
		}
		p->b = b;
		p->cap = cap;
	}
	memcpy(p->b + p->n, s, n);
	p->n += n;
}

static void
pb_varint(struct pb *p, uint64_t v)
{
	unsigned char c[10];
	size_t n = 0;

	do {
		c[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v != 0);
	pb_put(p, c, n);
}

/* Field FIELD, a varint V (left out when 0, proto3's default). */
static void
pb_uint(struct pb *p, int field, uint64_t v)
{
	if (v == 0)
		return;
	pb_varint(p, (uint64_t)field << 3);
	pb_varint(p, v);
}

/* Field FIELD, length-delimited: N bytes at S. */
static void
pb_bytes(struct pb *p, int field, const void *s, size_t n)
{
	pb_varint(p, (uint64_t)field << 3 | 2);
	pb_varint(p, n);
	pb_put(p, s, n);
}

/* Field FIELD, the message M (then emptied for the next). */
static void
pb_msg(struct pb *p, int field, struct pb *m)
{
	p->failed |= m->failed;
	pb_bytes(p, field, m->b, m->n);
	m->n = 0;
}

/* Field FIELD, packed: the N varints V into scratch S. */
static void
pb_packed(struct pb *p, int field, const uint64_t *v, size_t n, struct pb *s)
{
	size_t k;

	for (k = 0; k < n; k++)
		pb_varint(s, v[k]);
	pb_msg(p, field, s);
}

/* The string table's fixed entries; then the files, the symbols' names, the library frames'. */
enum { S_EMPTY, S_SAMPLES, S_COUNT, S_CPU, S_NANOS, S_CALLS, S_UNKNOWN, S_COMMENT, S_IMAGE, S_THREAD, S_TID,
	S_OTHER_THREADS, S_WAIT, S_WALL, S_FIXED };

struct pp {
	struct report *r;
	const struct profile *p;
	const struct pf_measure *m;	/* the stacks, or NULL: estimated */
	struct pb out, msg, scratch;
	uint8_t *used;			/* per symbol: it has a function and a location */
	uint32_t nfiles;
	double ns;			/* nanoseconds a sample */
	/*
	 * Waits (the stacks files recorded some): two more sample types,
	 * "wait" and "wall" nanoseconds; M is then the stacks weighed under
	 * the wall clock (both kinds), owned, and CLOCK the one asked, the
	 * default type.
	 */
	int waits;
	struct pf_measure *own;
	enum truth_clock clock;
};

/* The function and location id of frame F (a symbol, PF_FRAME_OTHER + k, unknown). */
static uint64_t
frame_id(const struct pp *x, uint32_t f)
{
	const struct pf_measure *m = x->m;

	if (f < x->p->nsyms)
		return (uint64_t)f + 1;
	if (m != NULL && f >= PF_FRAME_OTHER && f - PF_FRAME_OTHER < m->nother)
		return (uint64_t)x->p->nsyms + 1 + (f - PF_FRAME_OTHER);
	return (uint64_t)x->p->nsyms + 1 + (m != NULL ? m->nother : 0);	/* unknown */
}

/* The string of thread T's name (its index in the table: after the library frames'). */
static uint64_t
thread_string(const struct pp *x, uint32_t t)
{
	return S_FIXED + x->nfiles + (uint64_t)x->p->nsyms + x->m->nother + t;
}

/* Stack S's thread as labels of the sample in x->msg: "thread" its name, "tid" its id. */
static void
thread_labels(struct pp *x, const struct pf_mstack *s)
{
	pb_uint(&x->scratch, 1, S_THREAD);
	pb_uint(&x->scratch, 2, s->thread != PF_NO_THREAD ? thread_string(x, s->thread) : S_OTHER_THREADS);
	pb_msg(&x->msg, 3, &x->scratch);
	if (s->thread == PF_NO_THREAD)
		return;
	pb_uint(&x->scratch, 1, S_TID);
	pb_uint(&x->scratch, 3, x->m->thread[s->thread].tid);
	pb_msg(&x->msg, 3, &x->scratch);
}

/*
 * A sample: its locations (leaf first), its values (samples and CPU
 * nanoseconds, calls; with waits, wait and wall nanoseconds: a wait's
 * SAMPLES are the rate's, of its time off CPU), and the thread of S
 * (NULL: none).
 */
static void
sample(struct pp *x, const uint64_t *loc, size_t n, double samples, uint64_t calls,
    const struct pf_mstack *s)
{
	int wait = s != NULL && (s->flags & TGSTACKS_WAIT);
	uint64_t ns = (uint64_t)(samples * x->ns + 0.5);
	uint64_t v[5] = { wait ? 0 : (uint64_t)(samples + 0.5), wait ? 0 : ns, calls, wait ? ns : 0, ns };

	pb_packed(&x->msg, 1, loc, n, &x->scratch);
	pb_packed(&x->msg, 2, v, x->waits ? 5 : 3, &x->scratch);
	if (s != NULL && x->m->nthread > 0)
		thread_labels(x, s);
	pb_msg(&x->out, 2, &x->msg);
}

/* estfold_walk()'s stacks as samples. */
static int
estimated(void *ctx, const uint32_t *path, size_t depth, unsigned long long count)
{
	struct pp *x = ctx;
	uint64_t loc[ESTFOLD_DEPTH];
	size_t k;

	for (k = 0; k < depth && k < ESTFOLD_DEPTH; k++)
		loc[k] = frame_id(x, path[k]);
	sample(x, loc, k, (double)count, 0, NULL);
	return x->out.failed ? -1 : 0;
}

/* The measured stacks as samples, leaf first. */
static void
measured(struct pp *x)
{
	const struct pf_measure *m = x->m;
	uint64_t loc[TGSTACKS_MAX_DEPTH + 1];
	size_t i, k, n;

	for (i = 0; i < m->nstack; i++) {
		const struct pf_mstack *s = &m->stack[i];

		for (k = s->depth, n = 0; k-- > 0 && n < TGSTACKS_MAX_DEPTH + 1;) {
			uint32_t f = m->frame[s->first + k];

			if (f < x->p->nsyms)
				x->used[f] = 1;
			loc[n++] = frame_id(x, f);
		}
		if (s->weight > 0)
			sample(x, loc, n, s->weight, 0, s);
	}
}

/* A sample per called function, alone, with its calls. */
static void
calls(struct pp *x)
{
	uint32_t id;

	for (id = 0; id < x->p->nsyms; id++) {
		const struct pf_sym *s = &x->p->sym[id];
		uint64_t loc = (uint64_t)id + 1;

		if (x->used[id] && s->ncalls + s->self_calls > 0)
			sample(x, &loc, 1, 0, s->ncalls + s->self_calls, NULL);
	}
}

/* A function (its names, file, start line) and a location at its entry. */
static void
function(struct pp *x, uint64_t id, uint64_t name, uint64_t file, int64_t line, uint64_t addr,
    int mapped)
{
	pb_uint(&x->msg, 1, id);
	pb_uint(&x->msg, 2, name);
	pb_uint(&x->msg, 3, name);
	pb_uint(&x->msg, 4, file);
	pb_uint(&x->msg, 5, line > 0 ? (uint64_t)line : 0);
	pb_msg(&x->out, 5, &x->msg);
	pb_uint(&x->scratch, 1, id);	/* the location's line */
	pb_uint(&x->scratch, 2, line > 0 ? (uint64_t)line : 0);
	pb_uint(&x->msg, 1, id);
	pb_uint(&x->msg, 2, mapped ? 1 : 0);
	pb_uint(&x->msg, 3, addr);
	pb_msg(&x->msg, 4, &x->scratch);
	pb_msg(&x->out, 4, &x->msg);
}

/* The functions and locations: the program's used ones, the library frames, unknown. */
static void
functions(struct pp *x)
{
	const struct profile *p = x->p;
	uint32_t id, k, nother = x->m != NULL ? x->m->nother : 0;
	uint64_t fn = S_FIXED + x->nfiles;

	for (id = 0; id < p->nsyms; id++)
		if (x->used[id])
			function(x, (uint64_t)id + 1, fn + id,
			    p->sym[id].file != PF_NONE ? S_FIXED + p->sym[id].file : 0, p->sym[id].line,
			    p->sym[id].addr, 1);
	for (k = 0; k < nother; k++)
		function(x, frame_id(x, PF_FRAME_OTHER + k), fn + p->nsyms + k, 0, 0, 0, 0);
	function(x, frame_id(x, PF_FRAME_UNKNOWN), S_UNKNOWN, 0, 0, 0, 0);
}

/* The string table, in the order of the S_* indices. */
static void
strings(struct pp *x, const struct export_opts *eo)
{
	static const char *const fixed[] = { "", "samples", "count", "cpu", "nanoseconds", "calls",
	    "[unknown]", NULL, NULL, "thread", "tid", "[other threads]", "wait", "wall" };
	const char *comment = x->m != NULL ? "tgprof: call stacks measured by libtgmon" :
	    eo->stacks != NULL ? "tgprof: --estimated: the stacks are estimated from the call graph, "
	    "each function's samples split among its callers by their calls (as gprof estimates), "
	    "though call stacks were recorded" :
	    "tgprof: no call stacks were recorded: the stacks are estimated from the call graph, "
	    "each function's samples split among its callers by their calls";
	struct sbuf sb, note;
	uint32_t k;

	sbuf_init(&note);
	sbuf_puts(&note, comment);
	if (x->m != NULL && (x->m->profiler > 0 || x->m->calls > 0)) {
		sbuf_puts(&note, "; ");
		report_measure_note(&note, x->m);
	}
	if (x->m != NULL && x->m->nthread > 0)
		sbuf_puts(&note, "; samples labelled by thread (calls: all threads)");
	if (x->waits)
		sbuf_puts(&note, "; waits off CPU as their own type (wait), and with the CPU time (wall)");
	if (x->m != NULL && x->m->chosen != NULL) {
		sbuf_puts(&note, "; ");
		threadlist_note(&note, x->m);
	}
	for (k = 0; k < S_FIXED; k++) {
		const char *s = k == S_COMMENT ? sbuf_str(&note) : k == S_IMAGE ? eo->image : fixed[k];

		pb_bytes(&x->out, 6, s, strlen(s));
	}
	x->out.failed |= note.failed;
	sbuf_release(&note);
	for (k = 0; k < x->nfiles; k++) {
		const char *s = profile_file_name(x->p, k);

		pb_bytes(&x->out, 6, s, strlen(s));
	}
	sbuf_init(&sb);
	for (k = 0; k < x->p->nsyms; k++) {
		sbuf_reset(&sb);
		if (x->used[k])
			report_name_only(x->r, &sb, k);
		pb_bytes(&x->out, 6, sb.s != NULL ? sb.s : "", sb.len);
	}
	x->out.failed |= sb.failed;
	sbuf_release(&sb);
	for (k = 0; x->m != NULL && k < x->m->nother; k++)
		pb_bytes(&x->out, 6, x->m->other[k], strlen(x->m->other[k]));
	for (k = 0; x->m != NULL && k < x->m->nthread; k++)	/* thread_string()'s */
		pb_bytes(&x->out, 6, x->m->thread[k].name, strlen(x->m->thread[k].name));
}

/* The sample types, the mapping, the period, the comment and the default type. */
static void
frame(struct pp *x)
{
	const struct profile *p = x->p;
	static const uint64_t types[5][2] = { { S_SAMPLES, S_COUNT }, { S_CPU, S_NANOS }, { S_CALLS, S_COUNT },
	    { S_WAIT, S_NANOS }, { S_WALL, S_NANOS } };
	uint64_t lo = UINT64_MAX, hi = 0, comment = S_COMMENT;
	uint64_t type = x->clock == TRUTH_WAIT ? S_WAIT : x->clock == TRUTH_WALL ? S_WALL : S_CPU;
	uint32_t id, k;

	for (k = 0; k < (x->waits ? 5u : 3u); k++) {
		pb_uint(&x->msg, 1, types[k][0]);
		pb_uint(&x->msg, 2, types[k][1]);
		pb_msg(&x->out, 1, &x->msg);
	}
	for (id = 0; id < p->nsyms; id++) {
		lo = p->sym[id].addr < lo ? p->sym[id].addr : lo;
		hi = p->sym[id].end_addr + 1 > hi ? p->sym[id].end_addr + 1 : hi;
	}
	pb_uint(&x->msg, 1, 1);
	pb_uint(&x->msg, 2, lo != UINT64_MAX ? lo : 0);
	pb_uint(&x->msg, 3, hi);
	pb_uint(&x->msg, 5, S_IMAGE);
	pb_uint(&x->msg, 7, 1);		/* has_functions */
	pb_uint(&x->msg, 8, x->nfiles > 0);
	pb_uint(&x->msg, 9, x->nfiles > 0);
	pb_msg(&x->out, 3, &x->msg);
	pb_uint(&x->msg, 1, S_CPU);
	pb_uint(&x->msg, 2, S_NANOS);
	pb_msg(&x->out, 11, &x->msg);
	pb_uint(&x->out, 12, (uint64_t)(x->ns + 0.5));
	pb_packed(&x->out, 13, &comment, 1, &x->scratch);
	pb_uint(&x->out, 14, x->waits ? type : S_CPU);
}

/* CRC-32 (gzip's, reflected 0xedb88320) of N bytes at B. */
static uint32_t
crc32_of(const unsigned char *b, size_t n)
{
	static uint32_t table[256];
	uint32_t c = 0xffffffffu, k, j;
	size_t i;

	if (table[1] == 0)
		for (k = 0; k < 256; k++) {
			for (c = k, j = 0; j < 8; j++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[k] = c;
		}
	for (c = 0xffffffffu, i = 0; i < n; i++)
		c = table[(c ^ b[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

/* N bytes at B to F as one gzip member of stored deflate blocks (RFC 1951, 1952); 0 or -1. */
static int
gzip_stored(FILE *f, const unsigned char *b, size_t n)
{
	static const unsigned char head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };
	uint32_t crc = crc32_of(b, n), size = (uint32_t)n;
	unsigned char h[5], t[8];
	size_t at = 0, len;
	int k;

	fwrite(head, 1, sizeof head, f);
	do {
		len = n - at < 65535 ? n - at : 65535;
		h[0] = at + len == n;	/* BFINAL; BTYPE 00: stored */
		h[1] = (unsigned char)len, h[2] = (unsigned char)(len >> 8);
		h[3] = (unsigned char)~len, h[4] = (unsigned char)(~len >> 8);
		fwrite(h, 1, 5, f);
		fwrite(b + at, 1, len, f);
		at += len;
	} while (at < n);
	for (k = 0; k < 4; k++) {
		t[k] = (unsigned char)(crc >> 8 * k);
		t[4 + k] = (unsigned char)(size >> 8 * k);
	}
	fwrite(t, 1, 8, f);
	return ferror(f) ? -1 : 0;
}

int
pprof_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d)
{
	const struct profile *p = report_profile(r);
	struct pp x;
	double dropped;
	uint32_t id;
	int rc = -1;

	memset(&x, 0, sizeof x);
	x.r = r;
	x.p = p;
	x.m = eo->measured ? eo->stacks : NULL;	/* --estimated: gprof's, though there are stacks */
	x.clock = eo->truth.clock;
	if (x.m != NULL && x.m->wait_ns > 0) {	/* both kinds weighed */
		struct truth_opts wall = x.m->truth;

		wall.clock = TRUTH_WALL;
		if (measure_reweigh(x.m, p, &wall, &x.own) != 0)
			return diag_oom(d);
		x.m = x.own;
		x.waits = 1;
	}
	x.nfiles = profile_nfiles(p);
	x.ns = 1e9 / (x.m != NULL ? (double)x.m->hz : p->hz > 0 ? (double)p->hz : 1);
	if ((x.used = calloc((size_t)p->nsyms + 1, 1)) == NULL) {
		measure_free(x.own);
		return diag_oom(d);
	}
	for (id = 0; id < p->nsyms; id++)
		x.used[id] = export_shown(r, eo, id);
	frame(&x);
	if (x.m != NULL)
		measured(&x);
	else if (estfold_walk(r, estimated, &x, &dropped) != 0)
		x.out.failed = 1;
	calls(&x);
	functions(&x);
	strings(&x, eo);
	if (x.out.failed || x.msg.failed || x.scratch.failed)
		rc = diag_oom(d);
	else if ((rc = gzip_stored(f, x.out.b != NULL ? x.out.b : (const unsigned char *)"", x.out.n)) != 0)
		diag_add(d, DIAG_ERROR, "%s", strerror(errno));
	free(x.used);
	measure_free(x.own);
	free(x.out.b);
	free(x.msg.b);
	free(x.scratch.b);
	return rc;
}
