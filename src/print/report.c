/* report: gprof's text rows (names, flat profile, call-graph lines), shared by batch output and the browser. */
#include "report.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shown.h"
#include "core/truth.h"
#include "util/fmt.h"
#include "util/mem.h"
#include "util/msort.h"
#include "util/rsort.h"

struct report {
	const struct profile *p;
	const struct pf_measure *m;	/* the call graph's times measured, or NULL */
	struct report_opts o;
	struct shown *names;	/* how its names are printed */
};

struct report *
report_new(const struct profile *p, const struct report_opts *o)
{
	struct report *r = mem_calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	r->p = p;
	r->o = *o;
	if ((r->names = shown_new(p, o)) == NULL) {
		free(r);
		return NULL;
	}
	return r;
}

void
report_share_names(struct report *r, struct report *from)
{
	shown_share(r->names, from->names);
}

void
report_free(struct report *r)
{
	if (r == NULL)
		return;
	shown_free(r->names);
	free(r);
}

const struct profile *
report_profile(const struct report *r)
{
	return r->p;
}

struct shown *
report_shown(const struct report *r)
{
	return r->names;
}

size_t
report_name_only(struct report *r, struct sbuf *sb, uint32_t id)
{
	return shown_name_only(r->names, sb, id);
}

void
report_name(struct report *r, struct sbuf *sb, uint32_t id)
{
	shown_name(r->names, sb, id);
}

int
report_profiler_own(const struct report *r, uint32_t id)
{
	return truth_is_profiler(r->p, id);
}

void
report_measure_note(struct sbuf *sb, const struct pf_measure *m)
{
	struct truth_sums s = { m->total, m->profiler, m->calls };

	report_truth_note(sb, &s, &m->truth);
}

void
report_truth_note(struct sbuf *sb, const struct truth_sums *s, const struct truth_opts *o)
{
	int counted = o->raw || o->with_profiler;
	double sampled = s->total + (counted ? 0 : s->profiler) + s->calls;
	double prof = sampled > 0 ? 100 * s->profiler / sampled : 0, calls = sampled > 0 ? 100 * s->calls / sampled : 0;

	if (o->clock != TRUTH_CPU)
		sbuf_puts(sb, o->clock == TRUTH_WAIT ? "waits off CPU alone (--clock=wait)" :
		    "wall-clock time: CPU time and waits off CPU (--clock=wall)");
	if (o->clock != TRUTH_CPU && (s->profiler > 0 || s->calls > 0))
		sbuf_puts(sb, "; ");
	if (o->raw && (s->profiler > 0 || s->calls > 0))
		sbuf_puts(sb, "as sampled, nothing of -pg's taken out");
	else if (s->profiler > 0 && s->calls > 0)
		sbuf_printf(sb, "the profiler's %.1f%% %s and -pg's calls' %.1f%% taken out", prof,
		    counted ? "counted" : "taken out", calls);
	else if (s->profiler > 0)
		sbuf_printf(sb, "the profiler's %.1f%% %s", prof, counted ? "counted" : "taken out");
	else if (s->calls > 0)
		sbuf_printf(sb, "-pg's calls' %.1f%% taken out", calls);
}

/* --- flat profile --- */

static const struct report_unit si_units[] = {
	{ 'T', 1e-12 }, { 'G', 1e-09 }, { 'M', 1e-06 }, { 'K', 1e-03 },
	{ ' ', 1e+00 }, { 'm', 1e+03 }, { 'u', 1e+06 }, { 'n', 1e+09 },
	{ 'p', 1e+12 }, { 'f', 1e+15 }, { 'a', 1e+18 }
};

/*
 * When no prefix fits (hz = 0 makes every per-call time infinite) gprof
 * reads one entry past its table, into the string "<unknown> (addr" that
 * follows it in Debian's gprof 2.40 binary: prefix '<', and as factor the
 * double those bytes spell.  The differential tests pin it (rate0 cases).
 */
static const struct report_unit past_table = { '<', 0x1.464612820003ep+807 };

const struct report_unit report_unit_each = { '*', 0 };

/*
 * A per-call time of X seconds in the unit of its own (report_unit_each):
 * the largest of s, ms, us and ns in which it shows at least 1.00, in 8
 * columns ("%6.2f" and the unit); 0 as "0", and what would show as
 * 0.00ns (crumbs of a sample spread over many calls) as "<0.01ns".
 */
static char *
per_call_each(char *q, double x)
{
	static const struct { double scale; const char *name; } u[] = {
		{ 1, " s" }, { 1e3, "ms" }, { 1e6, "us" }, { 1e9, "ns" }
	};
	size_t i;

	if (!(x > 0))
		return fmt_fixed(fmt_blanks(q, 7), 0, 1, 0);
	if (x < 0.005e-9) {
		memcpy(q, " <0.01ns", 8);
		return q + 8;
	}
	for (i = 0; i + 1 < sizeof u / sizeof u[0] && x * u[i].scale < 0.995; i++)
		;
	q = fmt_fixed(q, x * u[i].scale, 6, 2);
	memcpy(q, u[i].name, 2);
	return q + 2;
}

struct report_unit
report_flat_unit(struct report *r)
{
	const struct profile *p = r->p;
	double top_time = 0.0;
	int have_top = 0;
	uint32_t k;
	size_t i;

	if (r->o.bsd)
		return si_units[5];
	/* The greatest over all: in address order, the symbols are read in a stream. */
	for (k = 0; k < p->nsyms; k++) {
		const struct pf_sym *s = &p->sym[k];

		if (s->ncalls != 0 && (s->time + s->child_time) / s->ncalls > top_time) {
			top_time = (s->time + s->child_time) / s->ncalls;
			have_top = 1;
		}
	}
	if (!have_top || top_time <= 0.0)
		return si_units[0];
	top_time /= p->hz;
	for (i = 0; i < sizeof si_units / sizeof si_units[0]; i++) {
		double v = si_units[i].scale * top_time;

		if (v >= 1.0 && v < 1000.0)
			return si_units[i];
	}
	return past_table;
}

double
report_flat_total(const struct report *r)
{
	return r->p->total_time > 0.0 ? r->p->total_time : 1.0;
}

double
report_cg_total(const struct report *r)
{
	return r->p->print_time > 0.0 ? r->p->print_time : 1.0;
}

long
report_granularity(const struct report *r)
{
	double s = r->p->hist_scale;

	/* (long)s on x86-64 gives LONG_MIN for NaN and out-of-range values. */
	if (!(s >= -9223372036854775808.0 && s < 9223372036854775808.0))
		return (long)((unsigned long)(-9223372036854775807L - 1) * 2UL);
	return (long)((unsigned long)(long)s * 2UL);
}

void
report_flat_columns(struct report *r, struct sbuf *sb, const struct report_unit *u)
{
	char unit[64];

	if (u->prefix == report_unit_each.prefix)
		snprintf(unit, sizeof unit, "/call");
	else
		snprintf(unit, sizeof unit, "%c%c/call", u->prefix, r->p->dimension_abbrev);
	sbuf_printf(sb, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n",
	    "%  ", "cumulative", "self  ", "", "self  ", "total ", "");
	sbuf_printf(sb, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n",
	    "time", r->p->dimension, r->p->dimension, "calls", unit, unit, "name");
}

int
report_flat_listed(struct report *r, uint32_t id)
{
	const struct pf_sym *s = &r->p->sym[id];

	return s->flat_ok && s->fold == PF_NONE && (r->o.zeros || s->ncalls != 0 || s->time != 0);
}

/* N blanks. */
static void
blanks(struct sbuf *sb, int n)
{
	char *p = sbuf_begin(sb, (size_t)n);

	if (p != NULL)
		sbuf_end(sb, fmt_blanks(p, n));
}

/* A per-call time of X seconds in unit U: gprof's "%8.2f", or per_call_each(). */
static char *
per_call(char *q, const struct report_unit *u, double x)
{
	if (u->prefix == report_unit_each.prefix)
		return per_call_each(q, x);
	return fmt_fixed(q, u->scale * x, 8, 2);
}

/* Room for one row's numeric columns (the name follows separately). */
#define ROW_MAX (4 * FMT_FIXED_MAX + 128)

/* A flat row's numbers for SELF ticks (with CALLS and CHILD ticks, or blanks without calls) into SB. */
static void
flat_numbers(struct report *r, struct sbuf *sb, double self, uint64_t calls, double child,
    double accum, double total, const struct report_unit *u)
{
	long hz = r->p->hz;
	char *q = sbuf_begin(sb, ROW_MAX);

	if (q == NULL)
		return;
	/* "%6.2f %9.2f %8.2f" (-T: "%5.1f %10.2f %8.2f") */
	q = fmt_fixed(q, total > 0.0 ? 100 * self / total : 0.0, r->o.bsd ? 5 : 6, r->o.bsd ? 1 : 2);
	*q++ = ' ';
	q = fmt_fixed(q, accum / hz, r->o.bsd ? 10 : 9, 2);
	*q++ = ' ';
	q = fmt_fixed(q, self / hz, 8, 2);
	if (calls != 0) {
		/* " %8lu %8.2f %8.2f  " */
		*q++ = ' ';
		q = fmt_uint(q, (unsigned long)calls, 8, 0);
		*q++ = ' ';
		q = per_call(q, u, self / hz / calls);
		*q++ = ' ';
		q = per_call(q, u, (self + child) / hz / calls);
		q = fmt_blanks(q, 2);
	} else {
		q = fmt_blanks(q, 29);		/* " %8.8s %8.8s %8.8s  " */
	}
	sbuf_end(sb, q);
}

void
report_flat_row(struct report *r, struct sbuf *sb, uint32_t id, double accum, double total,
    const struct report_unit *u)
{
	report_flat_row_self(r, sb, id, r->p->sym[id].time, accum, total, u);
}

void
report_flat_row_self(struct report *r, struct sbuf *sb, uint32_t id, double self, double accum,
    double total, const struct report_unit *u)
{
	const struct pf_sym *s = &r->p->sym[id];

	flat_numbers(r, sb, self, s->ncalls, s->child_time, accum, total, u);
	if (r->o.bsd)
		report_name(r, sb, id);
	else
		report_name_only(r, sb, id);
}

void
report_flat_other(struct report *r, struct sbuf *sb, const char *name, double self, double accum,
    double total)
{
	flat_numbers(r, sb, self, 0, 0, accum, total, NULL);
	sbuf_puts(sb, name);
}

/* --- call graph --- */

int
report_cg_listed(struct report *r, uint32_t id)
{
	const struct pf_sym *s = &r->p->sym[id];

	if (!r->o.zeros && s->ncalls == 0 && s->self_calls == 0 && s->prop_self == 0 &&
	    s->prop_child == 0)
		return 0;
	if (s->fold != PF_NONE)
		return 0;	/* part of another function */
	return s->print_flag && !(r->o.line && !s->is_func);
}

void
report_cg_columns(struct report *r, struct sbuf *sb)
{
	if (!r->o.bsd) {
		sbuf_puts(sb, "index % time    self  children    called     name\n");
		return;
	}
	sbuf_printf(sb, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n",
	    "", "", "", "", "called", "total", "parents");
	sbuf_printf(sb, "%-6.6s %5.5s %7.7s %11.11s %7.7s+%-7.7s %-8.8s\t%5.5s\n",
	    "index", "%time", "self", "descendants", "called", "self", "name", "index");
	sbuf_printf(sb, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n\n",
	    "", "", "", "", "called", "total", "children");
}

/* gprof's cmp_member(), reversed: members by total time, then calls, descending. */
static int
cmp_member_down(const void *a, const void *b, void *ctx)
{
	const struct pf_sym *s = ctx;
	const struct pf_sym *l = &s[*(const uint32_t *)b], *r = &s[*(const uint32_t *)a];
	double lt = l->prop_self + l->prop_child, rt = r->prop_self + r->prop_child;
	uint64_t lc = l->ncalls + l->self_calls, rc = r->ncalls + r->self_calls;

	if (lt > rt)
		return 1;
	if (lt < rt)
		return -1;
	return lc > rc ? 1 : -(lc < rc);
}

/* A member and what cmp_member_down() compares of it, as keys that sort the same way. */
struct member_key {
	uint64_t key;		/* the one being sorted by: the calls' first, then the total's */
	uint64_t total;
	uint32_t id, unused;
};

/*
 * V[0..N) as msort_ids() with cmp_member_down() orders them, in linear
 * time: stable radix passes by calls, then by total, each member's read
 * once (a comparator sort reads two at random a step; a large program's
 * cycle can have most of its functions).  Where a total is NaN, which
 * compares equal to every time, only that sort gives its order.  0 or -1.
 */
static int
sort_members(const struct pf_sym *sym, uint32_t *v, size_t n)
{
	struct member_key *k = mem_array(n + 1, sizeof *k);
	size_t i;

	if (k == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		const struct pf_sym *s = &sym[v[i]];
		double t = s->prop_self + s->prop_child;

		if (i + 16 < n)
			mem_ask(&sym[v[i + 16]].ncalls);
		if (t != t) {
			free(k);
			return msort_ids(v, n, cmp_member_down, (void *)sym);
		}
		k[i].key = ~(s->ncalls + s->self_calls);
		k[i].total = rsort_down_key(t);
		k[i].id = v[i];
	}
	if (rsort_records(k, n, sizeof *k, offsetof(struct member_key, key)) != 0) {
		free(k);
		return -1;
	}
	for (i = 0; i < n; i++)
		k[i].key = k[i].total;
	if (rsort_records(k, n, sizeof *k, offsetof(struct member_key, key)) != 0) {
		free(k);
		return -1;
	}
	for (i = 0; i < n; i++)
		v[i] = k[i].id;
	free(k);
	return 0;
}

size_t
report_cg_members(struct report *r, uint32_t cycle_id, uint32_t **out)
{
	size_t n;
	const uint32_t *m = profile_cycle_members(r->p, cycle_id, &n);
	uint32_t *v = mem_array(n + 1, sizeof *v);

	*out = NULL;
	if (m == NULL || v == NULL) {
		free(v);
		return 0;
	}
	memcpy(v, m, n * sizeof *v);
	if (sort_members(r->p->sym, v, n) != 0) {
		free(v);
		return 0;
	}
	*out = v;
	return n;
}

void
report_cg_spontaneous(struct report *r, struct sbuf *sb)
{
	/* "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     <spontaneous>" (-T: %11.11s) */
	blanks(sb, r->o.bsd ? 53 : 49);
	sbuf_puts(sb, "<spontaneous>");
}

/* The counts-only line of a recursive call or a call within a cycle. */
static void
inner_arc(struct report *r, struct sbuf *sb, const struct pf_arc *a)
{
	char *q = sbuf_begin(sb, ROW_MAX);

	if (q == NULL)
		return;
	/* "%6.6s %5.5s %7.7s %7.7s %7lu %7.7s     " (-T: %11.11s) */
	q = fmt_blanks(q, r->o.bsd ? 33 : 29);
	q = fmt_uint(q, (unsigned long)a->count, 7, 0);
	sbuf_end(sb, fmt_blanks(q, 13));
}

void
report_use_measure(struct report *r, const struct pf_measure *m)
{
	r->m = m;
}

/* Ticks T (samples, measured) in seconds. */
static double
seconds(const struct report *r, double t)
{
	return t / (r->m != NULL ? (double)r->m->hz : (double)r->p->hz);
}

/* A regular caller or callee line: its times and calls/total. */
static void
outer_arc(struct report *r, struct sbuf *sb, const struct pf_arc *a, uint64_t total)
{
	const struct pf_measure *m = r->m;
	size_t id = (size_t)(a - r->p->arc);
	char *q = sbuf_begin(sb, ROW_MAX);

	if (q == NULL)
		return;
	/* "%6.6s %5.5s %7.2f %7.2f %7lu/%-7lu     " (-T: %11.2f) */
	q = fmt_blanks(q, 13);
	q = fmt_fixed(q, seconds(r, m != NULL ? m->arc_self[id] : a->time), 7, 2);
	*q++ = ' ';
	q = fmt_fixed(q, seconds(r, m != NULL ? m->arc_incl[id] - m->arc_self[id] : a->child_time),
	    r->o.bsd ? 11 : 7, 2);
	*q++ = ' ';
	q = fmt_uint(q, (unsigned long)a->count, 7, 0);
	*q++ = '/';
	q = fmt_uint(q, (unsigned long)total, 7, 1);
	sbuf_end(sb, fmt_blanks(q, 5));
}

void
report_cg_parent(struct report *r, struct sbuf *sb, uint32_t child, uint32_t arc)
{
	const struct profile *p = r->p;
	const struct pf_arc *a = &p->arc[arc];
	const struct pf_sym *c = &p->sym[child];
	uint64_t calls;
	int cycle;

	shown_peer(r->names, a->parent, &cycle, &calls);	/* (CALLS the caller's: unused here) */
	if (a->parent == child || (c->cycle != 0 && cycle == c->cycle))
		inner_arc(r, sb, a);
	else
		outer_arc(r, sb, a, p->sym[c->cyc_head].ncalls);	/* (the total: calls into the entry) */
	report_name(r, sb, a->parent);
}

void
report_cg_child(struct report *r, struct sbuf *sb, uint32_t parent, uint32_t arc)
{
	const struct profile *p = r->p;
	const struct pf_arc *a = &p->arc[arc];
	uint64_t calls;
	int cycle;

	shown_peer(r->names, a->child, &cycle, &calls);
	if (a->child == parent || (cycle != 0 && cycle == p->sym[parent].cycle))
		inner_arc(r, sb, a);
	else
		outer_arc(r, sb, a, calls);
	report_name(r, sb, a->child);
}

/* The index, % time, self and children columns of an entry's first line. */
static void
entry_times(struct report *r, struct sbuf *sb, const struct pf_sym *s)
{
	const struct pf_measure *m = r->m;
	size_t id = (size_t)(s - r->p->sym);
	double self = m != NULL ? m->self[id] : s->prop_self;
	double child = m != NULL ? m->incl[id] - m->self[id] : s->prop_child;
	double total = m != NULL ? (m->total > 0 ? m->total : 1) : report_cg_total(r);
	char buf[32], *q;
	int n;

	/* "%-6.6s %5.1f %7.2f %7.2f" (-T: %11.2f): "[index]" cut at 6 columns */
	buf[0] = '[';
	n = (int)(fmt_uint(buf + 1, (unsigned long)s->index, 0, 0) - buf);
	buf[n++] = ']';
	if ((q = sbuf_begin(sb, ROW_MAX)) == NULL)
		return;
	q = fmt_str(q, buf, (size_t)(n < 6 ? n : 6));
	q = fmt_blanks(q, 6 - n);
	*q++ = ' ';
	q = fmt_fixed(q, 100 * (self + child) / total, 5, 1);
	*q++ = ' ';
	q = fmt_fixed(q, seconds(r, self), 7, 2);
	*q++ = ' ';
	sbuf_end(sb, fmt_fixed(q, seconds(r, child), r->o.bsd ? 11 : 7, 2));
}

/* " %7lu" then "+%-7lu" or " %7.7s": calls and recursive calls. */
static void
entry_calls(struct sbuf *sb, const struct pf_sym *s)
{
	sbuf_putc(sb, ' ');
	sbuf_uint(sb, (unsigned long)s->ncalls, 7, 0);
	if (s->self_calls != 0) {
		sbuf_putc(sb, '+');
		sbuf_uint(sb, (unsigned long)s->self_calls, 7, 1);
	} else {
		blanks(sb, 8);
	}
}

void
report_cg_primary(struct report *r, struct sbuf *sb, uint32_t id)
{
	const struct pf_sym *s = &r->p->sym[id];

	entry_times(r, sb, s);
	if (s->ncalls + s->self_calls != 0) {
		entry_calls(sb, s);
		sbuf_putc(sb, ' ');
	} else {
		blanks(sb, 17);		/* " %7.7s %7.7s " */
	}
	report_name(r, sb, id);
}

void
report_cg_cycle(struct report *r, struct sbuf *sb, uint32_t cycle_id)
{
	const struct pf_sym *h = &r->p->sym[cycle_id];

	entry_times(r, sb, h);
	entry_calls(sb, h);
	sbuf_printf(sb, " <cycle %d as a whole> [%d]", h->cycle, h->index);
}

void
report_cg_member(struct report *r, struct sbuf *sb, uint32_t id)
{
	const struct pf_sym *s = &r->p->sym[id];
	const struct pf_measure *m = r->m;

	/* "%6.6s %5.5s %7.2f %7.2f %7lu" (-T: %11.2f) */
	blanks(sb, 13);
	sbuf_fixed(sb, seconds(r, m != NULL ? m->self[id] : s->prop_self), 7, 2);
	sbuf_putc(sb, ' ');
	sbuf_fixed(sb, seconds(r, m != NULL ? m->incl[id] - m->self[id] : s->prop_child),
	    r->o.bsd ? 11 : 7, 2);
	entry_calls(sb, s);
	blanks(sb, 5);
	report_name(r, sb, id);
}
