/* jsonexp: the analysed profile as JSON for scripts (doc/tgprof-profile.schema.json says what it holds). */
#include "jsonexp.h"

#include <errno.h>
#include <string.h>

#include "core/srclines.h"
#include "util/jsonstr.h"

struct js {
	FILE *f;
	struct report *r;
	const struct profile *p;
	const struct pf_measure *m;	/* the stacks, or NULL */
	const struct export_opts *eo;
	int measured;			/* "times": the inclusive times are M's, not gprof's */
	double hz;			/* the histogram's ticks a second (1 without) */
	struct sbuf sb;
};

/* ",\n" between the elements of an array: nothing before the first. */
static void
sep(struct js *j, int *first)
{
	fputs(*first ? "\n" : ",\n", j->f);
	*first = 0;
}

/* "KEY": TICKS in seconds. */
static void
secs(struct js *j, const char *key, double ticks)
{
	fprintf(j->f, ", \"%s\": ", key);
	jsonstr_num(j->f, ticks / j->hz);
}

/* "truth": what the self times have taken out (core/truth.h), and the program's time left. */
static void
truth(struct js *j)
{
	struct truth_sums s = truth_sum(j->p, j->eo->call_ps, &j->eo->truth);

	if (j->measured && j->eo->truth.clock != TRUTH_CPU) {	/* the measure's sums, in the histogram's ticks */
		double k = j->m->hz > 0 ? j->hz / (double)j->m->hz : 0;

		s = (struct truth_sums){ j->m->total * k, j->m->profiler * k, j->m->calls * k };
	}

	sbuf_reset(&j->sb);
	report_truth_note(&j->sb, &s, &j->eo->truth);
	fputs("  \"truth\": {\"taken_out\": ", j->f);
	jsonstr_put(j->f, sbuf_str(&j->sb));
	fprintf(j->f, ", \"raw\": %s, \"with_profiler\": %s, \"clock\": \"%s\"", j->eo->truth.raw ? "true" : "false",
	    j->eo->truth.with_profiler ? "true" : "false",
	    j->eo->truth.clock == TRUTH_WAIT ? "wait" : j->eo->truth.clock == TRUTH_WALL ? "wall" : "cpu");
	fputs(", \"call_ns\": ", j->f);
	jsonstr_num(j->f, j->eo->truth.raw ? 0 : j->eo->call_ps / 1000);
	fputs(", \"call_ns_measured\": ", j->f);
	jsonstr_num(j->f, j->m != NULL ? j->m->call_ps_measured / 1000 : 0);
	secs(j, "profiler_seconds", s.profiler);
	secs(j, "calls_seconds", s.calls);
	secs(j, "program_seconds", s.total);
	fputs("},\n", j->f);
}

static void
header(struct js *j, const struct export_opts *eo)
{
	const struct profile *p = j->p;
	size_t k;

	fputs("{\n  \"tgprof_profile\": 1,\n  \"executable\": ", j->f);
	jsonstr_put(j->f, eo->image);
	fprintf(j->f, ",\n  \"times\": \"%s\"", j->measured ? "measured" : "estimated");
	fputs(",\n  \"gmon\": [", j->f);
	for (k = 0; k < eo->ngmon; k++) {
		fputs(k > 0 ? ", " : "", j->f);
		jsonstr_put(j->f, eo->gmon[k]);
	}
	fprintf(j->f, "],\n  \"histogram\": {\"hz\": %ld, \"dimension\": ", p->hz);
	jsonstr_put(j->f, p->dimension);
	fputs(", \"samples\": ", j->f);
	jsonstr_num(j->f, p->total_time);
	secs(j, "seconds", p->total_time);
	secs(j, "call_graph_seconds", p->print_time);
	fputs("},\n", j->f);
	truth(j);
}

/* Function ID's source lines, where the line table gives them. */
static void
lines(struct js *j, uint32_t id)
{
	struct pf_lines l;
	struct diag quiet;
	size_t k;

	diag_init(&quiet);
	fputs(", \"lines\": [", j->f);
	if (profile_lines(j->p, id, &l, &quiet) == 0) {
		for (k = 0; k < l.n; k++) {
			fputs(k > 0 ? ", " : "", j->f);
			fputs("{\"file\": ", j->f);
			jsonstr_put(j->f, profile_file_name(j->p, l.line[k].file));
			fprintf(j->f, ", \"line\": %lu", (unsigned long)l.line[k].line);
			secs(j, "self", l.line[k].ticks);
			fprintf(j->f, ", \"calls\": %llu}", (unsigned long long)l.line[k].calls);
		}
		profile_lines_release(&l);
	}
	diag_release(&quiet);
	fputs("]", j->f);
}

/*
 * "inclusive": the time told (the stacks' samples MEASURED, or gprof's
 * TICKS), and where measured, gprof's as "estimated": {"inclusive": ...}.
 */
static void
inclusive(struct js *j, double measured, double ticks, int with_estimate)
{
	if (!j->measured) {
		secs(j, "inclusive", ticks);
		return;
	}
	fputs(", \"inclusive\": ", j->f);
	jsonstr_num(j->f, measured / (j->m->hz > 0 ? (double)j->m->hz : 1));
	if (with_estimate) {
		fputs(", \"estimated\": {\"inclusive\": ", j->f);
		jsonstr_num(j->f, ticks / j->hz);
		fputs("}", j->f);
	}
}

/* Measured times (the stacks' samples X and Y in seconds) as "measured": {...}. */
static void
measured(struct js *j, double incl, double self)
{
	double hz = j->m->hz > 0 ? (double)j->m->hz : 1;

	fputs(", \"measured\": {\"inclusive\": ", j->f);
	jsonstr_num(j->f, incl / hz);
	if (self >= 0) {
		fputs(", \"self\": ", j->f);
		jsonstr_num(j->f, self / hz);
	}
	fputs("}", j->f);
}

static void
function(struct js *j, uint32_t id)
{
	const struct pf_sym *s = &j->p->sym[id];

	fprintf(j->f, "    {\"id\": %lu, \"name\": ", (unsigned long)id);
	sbuf_reset(&j->sb);
	report_name_only(j->r, &j->sb, id);
	jsonstr_put(j->f, j->sb.failed ? s->name : sbuf_str(&j->sb));
	fputs(", \"raw_name\": ", j->f);
	jsonstr_put(j->f, s->name);
	fputs(", \"file\": ", j->f);
	jsonstr_put(j->f, s->file != PF_NONE ? profile_file_name(j->p, s->file) : NULL);
	if (s->line > 0)
		fprintf(j->f, ", \"line\": %d", s->line);
	else
		fputs(", \"line\": null", j->f);
	fprintf(j->f, ", \"address\": \"0x%llx\", \"calls\": %llu, \"self_calls\": %llu",
	    (unsigned long long)s->addr, (unsigned long long)s->ncalls,
	    (unsigned long long)s->self_calls);
	secs(j, "self", export_self(j->r, j->eo, id));
	if (truth_is_profiler(j->p, id))
		fputs(", \"profiler\": true", j->f);
	inclusive(j, j->m != NULL ? j->m->incl[id] : 0, s->prop_self + s->prop_child, 1);
	fprintf(j->f, s->cycle != 0 ? ", \"cycle\": %d" : ", \"cycle\": null", s->cycle);
	fprintf(j->f, s->index != 0 ? ", \"index\": %d" : ", \"index\": null", s->index);
	lines(j, id);
	if (j->m != NULL)
		measured(j, j->m->incl[id], j->m->self[id]);
	fputs("}", j->f);
}

static void
functions_and_arcs(struct js *j)
{
	const struct profile *p = j->p;
	uint32_t id, k;
	int first = 1;

	fputs("  \"functions\": [", j->f);
	for (id = 0; id < p->nsyms; id++)
		if (export_shown(j->r, j->eo, id)) {
			sep(j, &first);
			function(j, id);
		}
	fputs("\n  ],\n  \"arcs\": [", j->f);
	first = 1;
	for (id = 0; p->caller_start != NULL && id < p->nsyms; id++)
		for (k = p->callee_start[id]; k < p->callee_start[id + 1]; k++) {
			uint32_t a = p->callee_arc[k];

			sep(j, &first);
			fprintf(j->f, "    {\"caller\": %lu, \"callee\": %lu, \"count\": %llu",
			    (unsigned long)p->arc[a].parent, (unsigned long)p->arc[a].child,
			    (unsigned long long)p->arc[a].count);
			secs(j, "self", p->arc[a].time);
			secs(j, "children", p->arc[a].child_time);
			inclusive(j, j->m != NULL ? j->m->arc_incl[a] : 0, p->arc[a].time + p->arc[a].child_time, 0);
			if (j->m != NULL)
				measured(j, j->m->arc_incl[a], -1);
			fputs("}", j->f);
		}
	fputs("\n  ],\n", j->f);
}

static void
cycles(struct js *j)
{
	const struct profile *p = j->p;
	const uint32_t *m;
	uint32_t c;
	size_t nm, k;
	int first = 1;

	fputs("  \"cycles\": [", j->f);
	for (c = p->nsyms; c < p->nsyms + p->ncycles; c++) {
		sep(j, &first);
		fprintf(j->f, "    {\"number\": %d, \"members\": [", p->sym[c].cycle);
		m = profile_cycle_members(p, c, &nm);
		for (k = 0; k < nm; k++)
			fprintf(j->f, k == 0 ? "%lu" : ", %lu", (unsigned long)m[k]);
		fprintf(j->f, "], \"calls\": %llu", (unsigned long long)p->sym[c].ncalls);
		secs(j, "self", p->sym[c].prop_self);
		inclusive(j, j->m != NULL ? j->m->incl[c] : 0, p->sym[c].prop_self + p->sym[c].prop_child, 1);
		fputs("}", j->f);
	}
	fputs("\n  ],\n", j->f);
}

/* "threads": the stacks files' thread records (null without), each flagged "chosen" when narrowed. */
static void
threads(struct js *j)
{
	const struct pf_measure *m = j->m;
	uint32_t t;
	int first = 1;

	if (m == NULL || m->nthread == 0) {
		fputs("  \"threads\": null,\n", j->f);
		return;
	}
	fputs("  \"threads\": [", j->f);
	for (t = 0; t < m->nthread; t++) {
		const struct pf_thread *th = &m->thread[t];

		sep(j, &first);
		fprintf(j->f, "    {\"tid\": %lu, \"name\": ", (unsigned long)th->tid);
		jsonstr_put(j->f, th->name);
		fprintf(j->f, ", \"main\": %s, \"ended\": %s, \"cpu_seconds\": ",
		    (th->flags & PF_THREAD_MAIN) ? "true" : "false", (th->flags & PF_THREAD_ENDED) ? "true" : "false");
		if (th->flags & PF_THREAD_CPU)
			jsonstr_num(j->f, (double)th->cpu_ns / 1e9);
		else
			fputs("null", j->f);
		fprintf(j->f, ", \"samples\": %llu, \"signals\": %llu, \"share\": ",
		    (unsigned long long)th->samples, (unsigned long long)th->signals);
		jsonstr_num(j->f, measure_thread_share(m, t));
		fprintf(j->f, ", \"start_ns\": %llu, \"end_ns\": %llu, \"chosen\": %s}",
		    (unsigned long long)th->start_ns, (unsigned long long)th->end_ns,
		    m->chosen == NULL || m->chosen[t] ? "true" : "false");
	}
	fputs("\n  ],\n", j->f);
}

int
jsonexp_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d)
{
	const struct profile *p = report_profile(r);
	struct js j = { f, r, p, eo->stacks, eo, eo->measured && eo->stacks != NULL, p->hz > 0 ? (double)p->hz : 1,
	    { 0 } };

	sbuf_init(&j.sb);
	header(&j, eo);
	functions_and_arcs(&j);
	cycles(&j);
	threads(&j);
	if (j.m != NULL) {
		fprintf(f, "  \"stacks\": {\"hz\": %ld, \"samples\": %llu, \"complete\": %llu, \"signals\": %llu, "
		    "\"program_samples\": %.6g, \"threads_chosen\": %s, \"wait_seconds\": %.9g, \"waits\": %llu, "
		    "\"waits_recorded\": %s, \"waits_why_not\": ", j.m->hz, (unsigned long long)j.m->samples,
		    (unsigned long long)j.m->root, (unsigned long long)j.m->signals, j.m->total,
		    j.m->chosen != NULL ? "true" : "false", (double)j.m->wait_ns / 1e9,
		    (unsigned long long)j.m->waits, measure_waits_why(j.m) == NULL ? "true" : "false");
		if (measure_waits_why(j.m) != NULL)
			jsonstr_put(f, measure_waits_why(j.m));
		else
			fputs("null", f);
		fputs("}\n}\n", f);
	} else
		fputs("  \"stacks\": null\n}\n", f);
	sbuf_release(&j.sb);
	if (ferror(f)) {
		diag_add(d, DIAG_ERROR, "%s", strerror(errno));
		return -1;
	}
	return 0;
}
