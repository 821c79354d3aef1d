/* flat: the flat profile pane, gprof's flat rows (shared with batch output through report.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

#define PROFILING "  [profiling]"	/* after a profiler's own function's row */
/* With call stacks, rows start with the measured inclusive time: % of the stacks ("%8.1f "). */
#define MEASURED_HEAD1 "measured "
#define MEASURED_HEAD2 "  incl % "
#define RATE_HEAD1 "  interval       "	/* tgprof top's last interval: calls a second, share of a CPU */
#define RATE_HEAD2 "   calls/s  %CPU "

struct flat {
	uint32_t *id;		/* the rows' functions; with library rows PF_FRAME_OTHER + k too */
	double *accum;		/* cumulative time at each row */
	size_t n;
	uint32_t nother;	/* library rows there may be (the measure's frames outside the program) */
	size_t nlib;		/* library rows there are */
	double total;		/* the program's time (ticks): the base of the shares (core/truth.h) */
	struct report_unit unit;
	unsigned gen;		/* the flat view's generation they were made for (t->view.gen) */
	unsigned loaded;	/* the session's loaded profile they were made of */
	unsigned sgen;		/* the session's generation they stand for */
	int threads;		/* its self times the stacks' (stacks_self()) */
	char *needle;		/* the search whose hits are known (flat_match()), or NULL */
	uint8_t *hit;		/* per function id: its name matches needle */
};

const char *const flat_sort_names[FLAT_NSORT] = {
	"time", "calls", "self/call", "total/call", "name", "measured inclusive"
};

/*
 * Whether library time has rows of its own (O): asked, and the stacks
 * tell it (pf_measure's other_self and lib_charged: the whole program's,
 * so not once x or f narrowed it, as the measured column).
 */
static int
libraries(const struct tui *t)
{
	return t->view.libraries && t->s->measure != NULL && t->s->measure->hz > 0 && t->s->nfunc == 0;
}

/*
 * Whether the self times are the stacks': the measure is narrowed to some
 * threads (session_threads()), or is of another clock than the CPU's
 * (w: waits, or wall-clock time).  A function's self time is then its
 * samples innermost in the stacks (with those in libraries that the
 * histogram would charge it), in the histogram's ticks, and their total
 * the base of the shares: the histogram is the whole process's CPU time.
 */
static int
stacks_self(const struct tui *t)
{
	const struct pf_measure *m = t->s->measure;

	return m != NULL && (m->chosen != NULL || m->truth.clock != TRUTH_CPU) && m->hz > 0;
}

/*
 * Row ID's self time, ticks: a function's own as the program without -pg
 * would have it (core/truth.h), less the library time charged to it when
 * that has rows.
 */
static double
self_of(const struct tui *t, uint32_t id)
{
	const struct session *s = t->s;
	const struct pf_measure *m = s->measure;
	double per = libraries(t) ? (double)s->p->hz / (double)m->hz : 0, v;

	if (id >= PF_FRAME_OTHER)
		return m->other_self[id - PF_FRAME_OTHER] * per;
	if (stacks_self(t))
		return id < s->p->nsyms ? (m->self[id] + (per > 0 ? 0 : m->lib_charged[id])) *
		    (double)s->p->hz / (double)m->hz : 0;
	v = truth_self(s->p, id, s->call_ps, &s->truth) - (per > 0 ? m->lib_charged[id] * per : 0);
	return v > 0 ? v : 0;
}

/*
 * Whether the rows' times are not the histogram's (-pg's calls' cost out,
 * library rows, some threads' stacks): gprof's order will not do.
 */
static int
times_changed(const struct tui *t)
{
	return libraries(t) || stacks_self(t) || (t->s->call_ps > 0 && !t->s->truth.raw);
}

/* Whether row ID adds to the cumulative time: not a profiler's function unless counted (%). */
static int
counted(const struct tui *t, uint32_t id)
{
	return id >= PF_FRAME_OTHER || truth_counts(t->s->p, id, &t->s->truth);
}

/* Where row ID's facts are in make_rows()'s array: a function's at its id, a library's after them. */
static size_t
fact_of(const struct tui *t, uint32_t id)
{
	return id < PF_FRAME_OTHER ? id : (size_t)t->s->p->nsyms + (id - PF_FRAME_OTHER);
}

/* A library row's name: "function@library", or "[library]" for its code without a name. */
static void
library_name(const struct tui *t, uint32_t id, struct sbuf *sb)
{
	const struct pf_measure *m = t->s->measure;
	uint32_t k = id - PF_FRAME_OTHER;

	if (m->other[k][0] == '[')
		sbuf_puts(sb, m->other[k]);
	else
		sbuf_printf(sb, "%s@%s", m->other[k], m->other_lib[k]);
}

int
flat_sort_key(const struct tui *t)
{
	return t->view.sort_key == FLAT_BY_MEASURED && !tui_measured(t) ? FLAT_BY_TIME : t->view.sort_key;
}

/* What a row is sorted by (higher first), under the tui's sort key. */
static double
sort_value(const struct tui *t, uint32_t id)
{
	const struct pf_sym *s = &t->s->p->sym[id < PF_FRAME_OTHER ? id : 0];

	if (id >= PF_FRAME_OTHER)	/* a library's: its time, else last */
		return flat_sort_key(t) == FLAT_BY_TIME ? self_of(t, id) :
		    flat_sort_key(t) == FLAT_BY_NAME ? -(double)t->s->p->nsyms - (id - PF_FRAME_OTHER) : 0;
	switch (flat_sort_key(t)) {
	case FLAT_BY_CALLS: return (double)s->ncalls;
	case FLAT_BY_SELF: return s->ncalls ? s->time / (double)s->ncalls : 0;
	case FLAT_BY_TOTAL: return s->ncalls ? (s->time + s->child_time) / (double)s->ncalls : 0;
	case FLAT_BY_NAME: return -(double)t->s->p->name_rank[id];
	case FLAT_BY_MEASURED: return t->s->measure->incl[id];	/* tui_measured(): there is one */
	default: return self_of(t, id);
	}
}

/*
 * What the rows need of each function, gathered in id order (a stream
 * through the symbols) rather than in the flat order (at random): on a
 * million functions that is several times faster.
 */
struct facts {
	double time;
	double value;		/* sort_value() */
	uint8_t shown;		/* a row of gprof's flat profile that the filter and limit let through */
	uint8_t counted;	/* counted(): its time adds to the cumulative column */
};

/*
 * Sorts the rows by the tui's key (gprof's order is the default), ties in
 * gprof's order, reversed with S.  FA: the functions' facts, by id.
 */
static int
sort_rows(const struct tui *t, struct flat *f, const struct facts *fa)
{
	double *v;
	size_t i;

	if (flat_sort_key(t) != FLAT_BY_TIME || times_changed(t)) {
		if ((v = malloc((f->n + 1) * sizeof *v)) == NULL)
			return -1;
		for (i = 0; i < f->n; i++)
			v[i] = fa[fact_of(t, f->id[i])].value;
		if (profile_sort_down(f->id, v, f->n) != 0) {
			free(v);
			return -1;
		}
		free(v);
	}
	for (i = 0; t->view.sort_rev && i < f->n / 2; i++) {
		uint32_t x = f->id[i];

		f->id[i] = f->id[f->n - 1 - i];
		f->id[f->n - 1 - i] = x;
	}
	return 0;
}

/* The function passes the name filter and the percent limit. */
static int
shown(struct tui *t, uint32_t id, double total)
{
	if (t->view.limit > 0 && 100 * self_of(t, id) / total < t->view.limit)
		return 0;
	if (t->view.filter[0] == '\0')
		return 1;
	sbuf_reset(&t->sb);
	report_name_only(t->s->r, &t->sb, id);
	return list_matches(sbuf_str(&t->sb), t->view.filter);
}

static void
flat_release(struct pane *pn)
{
	struct flat *f = pn->data;

	if (f != NULL) {
		free(f->id);
		free(f->accum);
		free(f->needle);
		free(f->hit);
		free(f);
	}
	pn->data = NULL;
}

/*
 * Whether rows made for another analysis of the same loaded profile (x,
 * f, u) stand for this one: times, calls and the flat order are the
 * loaded profile's, and so are the per-call units (each value's own),
 * but for the sort by total per call.
 */
static int
still(const struct tui *t, struct flat *f)
{
	if (f->gen != t->view.gen || f->loaded != t->s->loaded)
		return 0;
	if (f->sgen != t->s->gen && (t->view.sort_key == FLAT_BY_TOTAL || t->view.sort_key == FLAT_BY_MEASURED))
		return 0;	/* by measured: by time while narrowed */
	if (f->sgen != t->s->gen && (f->threads || stacks_self(t)))
		return 0;	/* the self times are the stacks', or were */
	f->sgen = t->s->gen;
	return 1;
}

/* The library rows, after the functions' (FA has their facts after the functions'): those with time. */
static void
library_rows(struct tui *t, struct flat *f, struct facts *fa, double total)
{
	const struct pf_measure *m = t->s->measure;
	uint32_t k;

	for (k = 0; libraries(t) && k < m->nother; k++) {
		uint32_t id = PF_FRAME_OTHER + k;
		struct facts *x = &fa[fact_of(t, id)];

		x->time = self_of(t, id);
		x->value = sort_value(t, id);
		x->counted = (uint8_t)counted(t, id);
		if (x->time <= 0 || (t->view.limit > 0 && 100 * x->time / total < t->view.limit))
			continue;
		if (t->view.filter[0] != '\0') {
			sbuf_reset(&t->sb);
			library_name(t, id, &t->sb);
			if (!list_matches(sbuf_str(&t->sb), t->view.filter))
				continue;
		}
		f->id[f->n++] = id;
		f->nlib++;
	}
}

/*
 * The rows: the functions of gprof's flat profile that pass, and with O
 * the libraries', in gprof's order or the sort key's; 0 or -1.
 */
static int
make_rows(struct tui *t, struct flat *f)
{
	const struct profile *p = t->s->p;
	double accum = 0, total;
	struct facts *fa;
	uint32_t k;
	size_t i;

	if ((fa = malloc(((size_t)p->nsyms + f->nother + 1) * sizeof *fa)) == NULL)
		return -1;
	f->total = stacks_self(t) ? t->s->measure->total * (double)p->hz / (double)t->s->measure->hz :
	    truth_sum(p, t->s->call_ps, &t->s->truth).total;
	total = f->total > 0 ? f->total : 1;
	for (k = 0; k < p->nsyms; k++) {
		fa[k].time = self_of(t, k);
		/* (a live view keeps the function shown, though the interval has no sample nor call of it) */
		fa[k].shown = (report_flat_listed(t->s->r, k) || (stacks_self(t) && fa[k].time > 0) ||
		    (t->o->live != NULL && k == t->cur)) && shown(t, k, total);
		fa[k].value = sort_value(t, k);
		fa[k].counted = (uint8_t)counted(t, k);
	}
	for (k = 0; k < p->nsyms; k++)
		if (fa[p->flat_order[k]].shown)
			f->id[f->n++] = p->flat_order[k];
	library_rows(t, f, fa, total);
	if (sort_rows(t, f, fa) != 0) {
		free(fa);
		return -1;
	}
	for (i = 0; i < f->n; i++) {	/* (in the rows' order: the facts, not the symbols, read at random) */
		const struct facts *x = &fa[fact_of(t, f->id[i])];

		f->accum[i] = accum += x->counted ? x->time : 0;
	}
	free(fa);
	return 0;
}

/*
 * The functions gprof's flat profile lists, in its order or the sort
 * key's, those the filter and the limit let through; made again when
 * the view or the analysis changes (still()), with the function
 * selected kept selected.
 */
static int
flat_fill(struct tui *t, struct pane *pn)
{
	const struct profile *p = t->s->p;
	struct flat *f = pn->data;
	uint32_t keep = f != NULL && pn->sel < f->n ? f->id[pn->sel] : PF_NONE;

	if (f != NULL && still(t, f))
		return 0;	/* the flat profile does not follow the selection */
	flat_release(pn);
	if ((f = calloc(1, sizeof *f)) == NULL)
		return -1;
	pn->data = f;
	f->gen = t->view.gen;
	f->loaded = t->s->loaded;
	f->sgen = t->s->gen;
	f->threads = stacks_self(t);
	f->nother = libraries(t) ? t->s->measure->nother : 0;
	f->id = calloc((size_t)p->nsyms + f->nother + 1, sizeof *f->id);
	f->accum = calloc((size_t)p->nsyms + f->nother + 1, sizeof *f->accum);
	if (f->id == NULL || f->accum == NULL)
		return -1;
	if (p->hz <= 0 || p->nhist == 0) {
		pn->nrows = 1;	/* a note: without samples the rows mean nothing */
		return 0;
	}
	if (make_rows(t, f) != 0)
		return -1;
	f->unit = report_unit_each;	/* batch keeps gprof's one unit */
	pn->nrows = f->n > 0 ? f->n : 1;	/* none: a note says why */
	pn->sel = pn->top = 0;
	flat_select(pn, keep);
	return 0;
}

static void
flat_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	const struct flat *f = pn->data;
	struct sbuf cols, measured, *inner;

	sbuf_printf(sb, "Flat profile: %zu functions", f != NULL ? f->n - f->nlib : 0);
	if (libraries(t))
		sbuf_printf(sb, " and %zu in libraries (out of their callers' time)", f != NULL ? f->nlib : 0);
	sbuf_printf(sb, ", by %s%s", flat_sort_names[flat_sort_key(t)], t->view.sort_rev ? " (reversed)" : "");
	if (t->view.filter[0] != '\0')
		sbuf_printf(sb, ", names with \"%s\"", t->view.filter);
	if (t->view.limit > 0)
		sbuf_printf(sb, ", %g%% or more", t->view.limit);
	sbuf_putc(sb, '\n');
	if (f == NULL)
		return;
	sbuf_init(&cols);
	sbuf_init(&measured);
	report_flat_columns(t->s->r, &cols, &f->unit);	/* two lines: each gets the columns before */
	if (tui_measured(t) && !cols.failed)
		draw_prefix_lines(&measured, cols.s, MEASURED_HEAD1, MEASURED_HEAD2);
	inner = tui_measured(t) ? &measured : &cols;
	if (!inner->failed && watch_interval_secs(t) > 0)
		draw_prefix_lines(sb, inner->s, RATE_HEAD1, RATE_HEAD2);
	else if (!inner->failed)
		sbuf_puts(sb, inner->s);
	sbuf_release(&cols);
	sbuf_release(&measured);
}

/* Why the flat profile has no row: one sentence. */
static const char *
empty_note(const struct tui *t)
{
	const struct profile *p = t->s->p;

	if (p->hz <= 0 || p->nhist == 0)
		return "no histogram in the profile files, so no time: see the call graph";
	if (t->view.filter[0] != '\0' || t->view.limit > 0)
		return "no function passes the name filter (\\) and the limit (L)";
	if (p->narcs == 0)
		return "no sample or call in this program's functions: is this its profile? (i)";
	return "no function has samples or calls (-z lists them all)";
}

/*
 * tgprof top's last interval, SECS long: function ID's calls a second
 * (none for a library's row) and its share of one processor, SELF being
 * its self time in samples.
 */
static void
interval_columns(const struct tui *t, uint32_t id, double self, double secs, struct sbuf *sb)
{
	const struct profile *p = t->s->p;
	double rate = id < PF_FRAME_OTHER ? (double)(p->sym[id].ncalls + p->sym[id].self_calls) / secs : 0;

	if (id < PF_FRAME_OTHER)	/* (ten columns whatever the rate) */
		sbuf_printf(sb, rate < 1e6 ? "%10.1f " : rate < 1e10 ? "%10.0f " : "%10.3e ", rate);
	else
		sbuf_puts(sb, "           ");
	sbuf_printf(sb, "%5.1f ", 100 * self / (p->hz > 0 ? (double)p->hz : 1) / secs);
}

static void
flat_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct flat *f = pn->data;
	const struct pf_measure *m = t->s->measure;
	double total = f->total > 0 ? f->total : 1, pct, self, secs;

	if (f->n == 0) {
		sbuf_puts(sb, empty_note(t));
		*attr = UI_NOTE;
		return;
	}
	self = self_of(t, f->id[i]);
	if (!counted(t, f->id[i]))	/* a profiler's, out of the total: its share of the time sampled */
		total = report_flat_total(t->s->r);
	pct = 100 * self / total;
	if ((secs = watch_interval_secs(t)) > 0)
		interval_columns(t, f->id[i], self, secs, sb);
	if (tui_measured(t) && f->id[i] < PF_FRAME_OTHER)
		sbuf_printf(sb, "%8.1f ", 100 * m->incl[f->id[i]] /
		    (m->total > 0 ? m->total : 1));
	else if (tui_measured(t))
		sbuf_puts(sb, "         ");
	if (f->id[i] >= PF_FRAME_OTHER) {	/* a library's */
		struct sbuf name;

		sbuf_init(&name);
		library_name(t, f->id[i], &name);
		report_flat_other(t->s->r, sb, name.failed ? "?" : sbuf_str(&name), self, f->accum[i], total);
		sbuf_release(&name);
	} else {
		report_flat_row_self(t->s->r, sb, f->id[i], self, f->accum[i], total, &f->unit);
	}
	*attr = pct >= 5 ? UI_HOT : pct > 0.5 ? UI_WARM : 0;
	if (self > 0 && self < UI_FEW_SAMPLES)
		*attr |= UI_DIM;	/* too few samples to trust */
	if (report_profiler_own(t->s->r, f->id[i])) {
		sbuf_puts(sb, PROFILING);
		*attr = UI_DIM;
	}
}

/*
 * Which functions' names (as the rows end) match NEEDLE, once per needle:
 * in id order, the symbols and names are read in a stream.  0 or -1.
 */
static int
find_hits(struct tui *t, struct flat *f, const char *needle)
{
	uint32_t id;

	if (f->needle != NULL && strcmp(f->needle, needle) == 0)
		return 0;
	free(f->needle);
	free(f->hit);
	f->hit = malloc((size_t)t->s->p->nsyms + 1);
	if ((f->needle = strdup(needle)) == NULL || f->hit == NULL)
		return -1;
	for (id = 0; id < t->s->p->nsyms; id++) {
		sbuf_reset(&t->sb);
		if (t->s->ro.bsd)
			report_name(t->s->r, &t->sb, id);
		else
			report_name_only(t->s->r, &t->sb, id);
		if (report_profiler_own(t->s->r, id))
			sbuf_puts(&t->sb, PROFILING);
		f->hit[id] = (uint8_t)list_matches(sbuf_str(&t->sb), needle);
	}
	return 0;
}

/*
 * A row is gprof's numbers, blanks, then the name (report_flat_row()),
 * and PROFILING after a profiler's own: the numbers are made of digits,
 * '.', '-', blanks, "inf" or "nan", and the per-call units " s", "ms",
 * "us", "ns" and "<0.01ns" (report_unit_each).  A needle without blanks
 * and with a character they lack cannot match there, nor across into the
 * name: the row matches as its name (and mark) does, known without
 * formatting the row (find_hits(): searching a million rows, ten times
 * faster).  Other needles are matched on the whole row.
 */
static int
flat_match(struct tui *t, struct pane *pn, size_t i, const char *needle)
{
	struct flat *f = pn->data;
	const char *c;

	if (f->n == 0)
		return 0;	/* the note */
	if (strchr(needle, ' ') != NULL)
		return -1;
	for (c = needle; *c != '\0' && strchr("0123456789.-infasmu<", *c) != NULL; c++)
		;
	if (*c == '\0' || f->id[i] >= PF_FRAME_OTHER || find_hits(t, f, needle) != 0)
		return -1;	/* a library's row: matched on its text */
	return f->hit[f->id[i]];
}

static uint32_t
flat_target(struct tui *t, struct pane *pn, size_t i)
{
	const struct flat *f = pn->data;

	return f != NULL && i < f->n && f->id[i] < PF_FRAME_OTHER ? f->id[i] : PF_NONE;	/* a library's: none */
}

/* A library's row: its samples with their error, and where they were taken from. */
static int
flat_status(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb)
{
	const struct flat *f = pn->data;
	const struct pf_measure *m = t->s->measure;
	double n;

	if (f == NULL || i >= f->n || f->id[i] < PF_FRAME_OTHER)
		return 0;
	n = m->other_self[f->id[i] - PF_FRAME_OTHER];
	library_name(t, f->id[i], sb);
	sbuf_printf(sb, ": %.2f s %s %.2f s (%.0f samples), a library's, out of its callers' time   ",
	    n / (double)m->hz, MB_CUR_MAX > 1 ? "\u00b1" : "+-", sqrt(tui_per_signal(t) * n) / (double)m->hz, n);
	return 1;
}

/* Selects the row of function ID, if it has one. */
void
flat_select(struct pane *pn, uint32_t id)
{
	const struct flat *f = pn->data;
	size_t i;

	for (i = 0; f != NULL && i < f->n; i++)
		if (f->id[i] == id)
			list_to(pn, i);
}

static const struct pane_ops flat_ops = {
	.name = "flat",
	.hints = { "Enter", "s", "\\", "L", "x", "?" },
	.fill = flat_fill,
	.header = flat_header,
	.row = flat_row,
	.match = flat_match,
	.target = flat_target,
	.status = flat_status,
	.release = flat_release,
};

void
flat_init(struct pane *pn)
{
	pn->ops = &flat_ops;
}
