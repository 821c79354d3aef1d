/* test-lines: checks profile_lines() against the -l analysis (gprof -l's line symbols) of the same profile. */
/*
 * Usage: test-lines [-p | -F | -t] PROG GMON
 *
 * Loads PROG and GMON twice: by function with source lines kept, and
 * with -l, whose line symbols gprof -l charges ticks to (the differential
 * suite shows they are gprof's).  For every function, the ticks
 * profile_lines() gives each (file, line) must equal those of the -l
 * symbols in its range, summed by (file, line), and its totals the
 * function's time and outgoing calls.  Calls are not compared line by
 * line: -l charges a call to the line of its return address, tgprof to
 * the line of the call (tests/lines.sh checks those).
 *
 * -p prints every function's lines instead, -F the same with clones
 * folded into their functions (PF_CLONES_FOLD), -T the same with GMON
 * emptied after the load, as a program run again truncates its gmon.out
 * in place (what -p printed must not change); -t times the load and
 * profile_lines() over all functions (and the slowest one).
 * Exit status: 0 all equal, 1 differences, 2 errors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "toolload.h"
#include "core/profile.h"
#include "core/srclines.h"

/* A (file name, line) total from the -l profile. */
struct tally {
	const char *file;
	uint32_t line;
	double ticks;
	uint64_t calls;
	int seen;
};

static struct profile *
load(const char *prog, const char *gmon, int line_mode, enum pf_clones clones)
{
	struct pf_opts o;

	memset(&o, 0, sizeof o);
	o.line = line_mode;
	o.source_lines = !line_mode;
	o.clones = clones;
	return tool_load("test-lines", prog, gmon, &o);
}

static const char *
file_name(const struct profile *p, uint32_t f)
{
	const char *s = f != PF_NONE ? profile_file_name(p, f) : NULL;

	return s != NULL ? s : "?";
}

/* The -l symbols of B in [LO, HI], summed by (file, line). */
static size_t
tally_range(const struct profile *b, uint64_t lo, uint64_t hi, struct tally *t, size_t max)
{
	size_t n = 0, k;
	uint32_t i;

	for (i = 0; i < b->nsyms; i++) {
		const struct pf_sym *s = &b->sym[i];
		uint64_t calls = 0;
		uint32_t a;

		if (s->addr < lo || s->addr > hi || s->file == PF_NONE || s->line <= 0)
			continue;
		for (a = s->children; a != PF_NONE; a = b->arc[a].next_child)
			calls += b->arc[a].count;
		for (k = 0; k < n; k++)
			if (t[k].line == (uint32_t)s->line && strcmp(t[k].file, file_name(b, s->file)) == 0)
				break;
		if (k == n) {
			if (n == max)
				continue;
			t[n].file = file_name(b, s->file);
			t[n].line = (uint32_t)s->line;
			t[n].ticks = 0;
			t[n].calls = 0;
			t[n++].seen = 0;
		}
		t[k].ticks += s->time;
		t[k].calls += calls;
	}
	return n;
}

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * (fabs(b) > 1 ? fabs(b) : 1);
}

#define MAXLINES 8192

static unsigned long ndiff;

static void
differ(const char *fn, const char *what, const char *file, uint32_t line, double x, double y)
{
	if (ndiff++ < 20)
		printf("%s: %s %s:%u: %g, -l has %g\n", fn, what, file, (unsigned)line, x, y);
}

/* Compares function SYM of A with the -l profile B; returns the lines compared. */
static size_t
check_function(const struct profile *a, uint32_t sym, const struct profile *b, struct diag *d)
{
	static struct tally t[MAXLINES];
	const struct pf_sym *s = &a->sym[sym];
	struct pf_lines l;
	uint64_t calls = 0;
	size_t n, k, j;
	uint32_t arc;

	if (profile_lines(a, sym, &l, d) != 0) {
		differ(s->name, "no lines", "", 0, 0, 0);
		return 0;
	}
	n = tally_range(b, s->addr, s->end_addr, t, MAXLINES);
	for (k = 0; k < l.n; k++) {
		const char *f = file_name(a, l.line[k].file);

		for (j = 0; j < n && !(t[j].line == l.line[k].line && strcmp(t[j].file, f) == 0); j++)
			;
		if (j == n) {
			if (l.line[k].ticks != 0)
				differ(s->name, "line missing from -l", f, l.line[k].line,
				    l.line[k].ticks, 0);
			continue;
		}
		t[j].seen = 1;
		if (!near(l.line[k].ticks, t[j].ticks))
			differ(s->name, "ticks", f, l.line[k].line, l.line[k].ticks, t[j].ticks);
	}
	for (j = 0; j < n; j++)
		if (!t[j].seen && t[j].ticks != 0)
			differ(s->name, "line missing", t[j].file, t[j].line, 0, t[j].ticks);
	for (arc = s->children; arc != PF_NONE; arc = a->arc[arc].next_child)
		calls += a->arc[arc].count;
	if (!near(l.ticks, s->time))
		differ(s->name, "total ticks", "", 0, l.ticks, s->time);
	if (l.calls != calls)
		differ(s->name, "total calls", "", 0, (double)l.calls, (double)calls);
	profile_lines_release(&l);
	return n;
}

static void
print_function(const struct profile *a, uint32_t sym, struct diag *d)
{
	const struct pf_sym *s = &a->sym[sym];
	struct pf_lines l;
	size_t k;

	if (profile_lines(a, sym, &l, d) != 0 || (l.ticks == 0 && l.calls == 0)) {
		profile_lines_release(&l);
		return;
	}
	printf("%s (%s): %g ticks, %llu calls\n", s->name, file_name(a, l.file), l.ticks,
	    (unsigned long long)l.calls);
	for (k = 0; k < l.n; k++)
		printf("  %s:%u %g %llu\n", file_name(a, l.line[k].file), (unsigned)l.line[k].line,
		    l.line[k].ticks, (unsigned long long)l.line[k].calls);
	profile_lines_release(&l);
}

static double
seconds(const struct timespec *t0, const struct timespec *t1)
{
	return (double)(t1->tv_sec - t0->tv_sec) + (t1->tv_nsec - t0->tv_nsec) / 1e9;
}

/* -t: the lines of function I, timed; the longest time so far in *SLOWEST. */
static size_t
time_function(const struct profile *p, uint32_t i, double *slowest, struct diag *d)
{
	struct timespec t0, t1;
	struct pf_lines l;
	size_t n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (profile_lines(p, i, &l, d) != 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (seconds(&t0, &t1) > *slowest)
		*slowest = seconds(&t0, &t1);
	n = l.n;
	profile_lines_release(&l);
	return n;
}

int
main(int argc, char **argv)
{
	int mode = argc == 4 ? argv[1][1] : 0;
	struct profile *a, *b = NULL;
	struct timespec t0, t1;
	double loaded, slowest = 0;
	size_t lines = 0;
	struct diag d;
	uint32_t i, nfunc = 0;

	if (argc != 3 + (mode != 0) || (mode != 0 && strchr("pFtT", mode) == NULL)) {
		fprintf(stderr, "usage: test-lines [-p | -F | -T | -t] PROG GMON\n");
		return 2;
	}
	diag_init(&d);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	a = load(argv[argc - 2], argv[argc - 1], 0, mode == 'F' ? PF_CLONES_FOLD : PF_CLONES_GPROF);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	loaded = seconds(&t0, &t1);
	if (mode == 0)
		b = load(argv[argc - 2], argv[argc - 1], 1, PF_CLONES_GPROF);
	if (mode == 'T' && truncate(argv[argc - 1], 0) != 0) {
		perror(argv[argc - 1]);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < a->nsyms; i++) {
		if (!a->sym[i].is_func)
			continue;
		nfunc++;
		if (mode == 'p' || mode == 'F' || mode == 'T')
			print_function(a, i, &d);
		else if (mode == 't')
			lines += time_function(a, i, &slowest, &d);
		else if (mode == 0)
			lines += check_function(a, i, b, &d);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (mode == 't')
		printf("loaded with lines in %.3f s; %u functions, %zu lines in %.3f s;"
		    " slowest function %.3f ms\n", loaded, nfunc, lines, seconds(&t0, &t1),
		    slowest * 1e3);
	else if (mode == 0)
		printf("%u functions, %zu lines, %lu differences\n", nfunc, lines, ndiff);
	profile_free(a);
	profile_free(b);
	diag_release(&d);
	return ndiff != 0;
}
