/* test-clones: checks the engine's clone modes (pf_opts.clones) against each other and against -S. */
/*
 * Usage: test-clones check PROG GMON
 *        test-clones list gprof|show|fold PROG GMON
 *
 * check loads PROG and GMON three times and compares:
 *  - PF_CLONES_SHOW with an -S profile of the same symbols (gprof -S keeps
 *    every symbol it is given, so there GNU gprof itself charges each
 *    clone its time and calls; tests/clones.sh checks tgprof -S against
 *    gprof -S on that table, written to TABLE_OUT when set): per symbol,
 *    time and calls;
 *  - PF_CLONES_FOLD with the SHOW profile folded here: a function's time
 *    is its own and its clones', its arcs those of SHOW mapped onto the
 *    functions, without the calls of a function into its own clones;
 *  - the total time of all three modes.
 * list prints the flat profile's functions as the browser names them
 * ("name|ticks|calls|callers"), callers as "caller:count,...".
 * Exit status: 0 all equal, 1 differences, 2 errors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "toolload.h"
#include "core/profile.h"
#include "print/report.h"
#include "util/sbuf.h"

static unsigned long ndiff;

static struct profile *
load(const char *prog, const char *gmon, enum pf_clones clones, const char *extsyms)
{
	struct pf_opts o;

	memset(&o, 0, sizeof o);
	o.clones = clones;
	o.extsyms = extsyms;
	return tool_load("test-clones", prog, gmon, &o);
}

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void
differ(const char *what, const char *name, double got, double want)
{
	if (ndiff++ < 20)
		printf("%s %s: %.9g, expected %.9g\n", what, name, got, want);
}

/* The SHOW profile's symbols as an -S table ("address t|T name"), to PATH. */
static void
write_table(const struct profile *p, const char *path)
{
	FILE *f = fopen(path, "w");
	uint32_t i;

	if (f == NULL) {
		perror(path);
		exit(2);
	}
	for (i = 0; i < p->nsyms; i++)
		fprintf(f, "%llx %c %s\n", (unsigned long long)p->sym[i].addr,
		    p->sym[i].is_static ? 't' : 'T', p->sym[i].name);
	if (fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* SHOW against the -S profile E of the same symbols: per symbol, time and calls. */
static void
check_show(const struct profile *s, const struct profile *e)
{
	uint32_t i;

	if (s->nsyms != e->nsyms) {
		differ("symbols", "", e->nsyms, s->nsyms);
		return;
	}
	for (i = 0; i < s->nsyms; i++) {
		if (!near(s->sym[i].time, e->sym[i].time))
			differ("show: time of", s->sym[i].name, s->sym[i].time, e->sym[i].time);
		if (s->sym[i].ncalls != e->sym[i].ncalls)
			differ("show: calls of", s->sym[i].name, (double)s->sym[i].ncalls,
			    (double)e->sym[i].ncalls);
	}
}

/* The function symbol I of a SHOW profile is part of in FOLD profile F. */
static uint32_t
folded(const struct profile *f, uint32_t i)
{
	return f->sym[i].fold != PF_NONE ? f->sym[i].fold : i;
}

/* FOLD profile F against SHOW profile S folded here; both have the same symbols. */
static void
check_fold(const struct profile *s, const struct profile *f)
{
	double *time = calloc(s->nsyms + 1, sizeof *time);
	uint64_t *calls = calloc(s->nsyms + 1, sizeof *calls);
	uint32_t i, a;

	if (time == NULL || calls == NULL)
		exit(2);
	for (i = 0; i < s->nsyms; i++)
		time[folded(f, i)] += s->sym[i].time;
	for (a = 0; a < s->narcs; a++) {
		uint32_t from = folded(f, s->arc[a].parent), to = folded(f, s->arc[a].child);

		if (to == from && to != s->arc[a].child)
			continue;	/* into its own clone */
		if (to != from)
			calls[to] += s->arc[a].count;
	}
	for (i = 0; i < s->nsyms; i++) {
		if (f->sym[i].fold != PF_NONE && (f->sym[i].time != 0 || f->sym[i].ncalls != 0))
			differ("fold: folded clone keeps time or calls", f->sym[i].name, 1, 0);
		if (f->sym[i].fold != PF_NONE)
			continue;
		if (!near(f->sym[i].time, time[i]))
			differ("fold: time of", f->sym[i].name, f->sym[i].time, time[i]);
		if (f->sym[i].ncalls != calls[i])
			differ("fold: calls of", f->sym[i].name, (double)f->sym[i].ncalls,
			    (double)calls[i]);
	}
	free(time);
	free(calls);
}

static int
check(const char *prog, const char *gmon)
{
	const char *table = getenv("TABLE_OUT");
	char tmp[] = "/tmp/test-clones.XXXXXX";
	struct profile *g, *s, *f, *e;
	int fd = -1;

	g = load(prog, gmon, PF_CLONES_GPROF, NULL);
	s = load(prog, gmon, PF_CLONES_SHOW, NULL);
	f = load(prog, gmon, PF_CLONES_FOLD, NULL);
	if (table == NULL && (fd = mkstemp(tmp)) < 0) {
		perror(tmp);
		return 2;
	}
	write_table(s, table != NULL ? table : tmp);
	e = load(prog, gmon, PF_CLONES_GPROF, table != NULL ? table : tmp);
	check_show(s, e);
	check_fold(s, f);
	if (!near(s->total_time, g->total_time) || !near(f->total_time, g->total_time))
		differ("total time", "", f->total_time, g->total_time);
	printf("%u symbols, %lu differences\n", s->nsyms, ndiff);
	if (fd >= 0)
		unlink(tmp);
	profile_free(g);
	profile_free(s);
	profile_free(f);
	profile_free(e);
	return ndiff != 0;
}

/* Every flat-profile function: name as shown, ticks, calls, callers with counts. */
static void
list(const struct profile *p)
{
	struct report_opts ro;
	struct report *r;
	struct sbuf sb;
	uint32_t k, a;

	memset(&ro, 0, sizeof ro);
	ro.demangle = 1;
	if ((r = report_new(p, &ro)) == NULL)
		exit(2);
	sbuf_init(&sb);
	for (k = 0; k < p->nsyms; k++) {
		uint32_t i = p->flat_order[k];

		if (!report_flat_listed(r, i))
			continue;
		sbuf_reset(&sb);
		report_name_only(r, &sb, i);
		printf("%s|%g|%llu|", sbuf_str(&sb), p->sym[i].time,
		    (unsigned long long)(p->sym[i].ncalls + p->sym[i].self_calls));
		for (a = p->sym[i].parents; a != PF_NONE; a = p->arc[a].next_parent) {
			sbuf_reset(&sb);
			report_name_only(r, &sb, p->arc[a].parent);
			printf("%s:%llu%s", sbuf_str(&sb), (unsigned long long)p->arc[a].count,
			    p->arc[a].next_parent != PF_NONE ? "," : "");
		}
		printf("\n");
	}
	sbuf_release(&sb);
	report_free(r);
}

int
main(int argc, char **argv)
{
	static const char *const modes[] = { "gprof", "show", "fold" };
	struct profile *p;
	int m;

	if (argc == 4 && strcmp(argv[1], "check") == 0)
		return check(argv[2], argv[3]);
	for (m = 0; argc == 5 && strcmp(argv[1], "list") == 0 && m < 3; m++) {
		if (strcmp(argv[2], modes[m]) != 0)
			continue;
		p = load(argv[3], argv[4], (enum pf_clones)m, NULL);
		list(p);
		profile_free(p);
		return 0;
	}
	fprintf(stderr, "usage: test-clones check PROG GMON\n"
	    "       test-clones list gprof|show|fold PROG GMON\n");
	return 2;
}
