/* diff: two profiles compared function by function: calls, self and inclusive time, and whether a change is noise. */
#include "diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/msort.h"

/* A function of one side, by what matches it. */
struct key {
	const char *name;
	const char *file;	/* "" unless static and both sides know files */
	uint32_t id;
	int taken;		/* it has a row: taken() */
};

/* The flat profile's rows without -z: time or calls. */
static int
taken(const struct pf_sym *s)
{
	return s->name != NULL && (s->time > 0 || s->ncalls > 0 || s->self_calls > 0);
}

static int
cmp_keys(const struct key *x, const struct key *y)
{
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : strcmp(x->file, y->file);
}

/*
 * The keys' order: by name and file, and among equal ones those with
 * time or calls first (then in address order: the sort is stable), so
 * that the merge pairs them before those without.
 */
static int
cmp_key(const void *a, const void *b, void *ctx)
{
	const struct key *k = ctx, *x = &k[*(const uint32_t *)a], *y = &k[*(const uint32_t *)b];
	int c = cmp_keys(x, y);

	return c != 0 ? c : y->taken - x->taken;
}

/* Function ID's source file as the rule matches it: its file if static and FILES, else "". */
static const char *
match_file(const struct profile *p, uint32_t id, int files)
{
	const struct pf_sym *s = &p->sym[id];

	return files && s->is_static && s->file != PF_NONE ? profile_file_name(p, s->file) : "";
}

/* P's named functions as keys, in *ORDER sorted; their number, or -1 when out of memory. */
static long
keys(const struct profile *p, int files, struct key **out, uint32_t **order)
{
	struct key *k = mem_array((size_t)p->nsyms + 1, sizeof *k);
	uint32_t *o = mem_array((size_t)p->nsyms + 1, sizeof *o), i, n = 0;

	*out = k;
	*order = o;
	if (k == NULL || o == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		const struct pf_sym *s = &p->sym[i];

		if (s->name == NULL)
			continue;
		k[n].name = s->name;
		k[n].file = match_file(p, i, files);
		k[n].id = i;
		k[n].taken = taken(s);
		o[n] = n;
		n++;
	}
	return msort_ids(o, n, cmp_key, k) != 0 ? -1 : (long)n;
}

/* Side K of a row: symbol ID of P (PF_NONE: absent), its times the program's own, as DF's options say. */
static void
fill_side(const struct pf_diff *df, int k, struct pf_diff_side *s, const struct profile *p, uint32_t id)
{
	double hz = p->hz > 0 ? (double)p->hz : 1, incl, per = df->opts.per_signal[k];

	memset(s, 0, sizeof *s);
	s->id = id;
	if (id == PF_NONE)
		return;
	incl = p->sym[id].prop_self + p->sym[id].prop_child;
	s->calls = p->sym[id].ncalls;
	s->self_calls = p->sym[id].self_calls;
	s->self = truth_self(p, id, df->opts.call_ps[k], &df->opts.truth) / hz;
	s->incl = incl / hz;
	s->self_err = sqrt(per * p->sym[id].time) / hz;	/* the samples' own noise: of all of them */
	s->incl_err = sqrt(per * (incl > 0 ? incl : 0)) / hz;
}

/* Whether B - A exceeds SIGMAS deviations (errors EA and EB). */
static int
beyond(double sigmas, double a, double b, double ea, double eb)
{
	return b != a && fabs(b - a) > sigmas * sqrt(ea * ea + eb * eb);
}

/* A row for OLD's function IDA and NEW's IDB (PF_NONE: none): its name and file are the rule's. */
static void
add_row(struct pf_diff *df, const struct profile *old, const struct profile *new, uint32_t ida,
    uint32_t idb)
{
	struct pf_diff_row *r = &df->row[df->n++];
	struct pf_diff_side *o = &r->side[DIFF_OLD], *n = &r->side[DIFF_NEW];
	const struct profile *p = ida != PF_NONE ? old : new;
	uint32_t id = ida != PF_NONE ? ida : idb;

	fill_side(df, DIFF_OLD, o, old, ida);
	fill_side(df, DIFF_NEW, n, new, idb);
	r->name = p->sym[id].name;
	r->file = match_file(p, id, df->files);
	r->file = r->file[0] != '\0' ? r->file : NULL;
	r->profiler = truth_is_profiler(p, id);
	r->self_significant = !r->profiler && beyond(DIFF_SIGMAS, o->self, n->self, o->self_err, n->self_err);
	r->incl_significant = !r->profiler && beyond(DIFF_SIGMAS, o->incl, n->incl, o->incl_err, n->incl_err);
	r->self_gate = !r->profiler && beyond(DIFF_GATE_SIGMAS, o->self, n->self, o->self_err, n->self_err);
	r->incl_gate = !r->profiler && beyond(DIFF_GATE_SIGMAS, o->incl, n->incl, o->incl_err, n->incl_err);
}

/* The profiler's functions last; largest change of self time first, then of inclusive time; then by name and file. */
static int
cmp_row(const void *a, const void *b, void *ctx)
{
	const struct pf_diff_row *rows = ctx;
	const struct pf_diff_row *x = &rows[*(const uint32_t *)a], *y = &rows[*(const uint32_t *)b];
	double dx = fabs(x->side[DIFF_NEW].self - x->side[DIFF_OLD].self);
	double dy = fabs(y->side[DIFF_NEW].self - y->side[DIFF_OLD].self);
	int c;

	if (x->profiler != y->profiler)
		return x->profiler ? 1 : -1;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	dx = fabs(x->side[DIFF_NEW].incl - x->side[DIFF_OLD].incl);
	dy = fabs(y->side[DIFF_NEW].incl - y->side[DIFF_OLD].incl);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return strcmp(x->file != NULL ? x->file : "", y->file != NULL ? y->file : "");
}

/* The rows in cmp_row()'s order; 0, or -1 when out of memory. */
static int
sort_rows(struct pf_diff *df)
{
	uint32_t *o = mem_array(df->n + 1, sizeof *o), i;
	struct pf_diff_row *sorted = mem_array(df->n + 1, sizeof *sorted);

	if (o == NULL || sorted == NULL) {
		free(o);
		free(sorted);
		return -1;
	}
	for (i = 0; i < df->n; i++)
		o[i] = i;
	if (msort_ids(o, df->n, cmp_row, df->row) != 0) {
		free(o);
		free(sorted);
		return -1;
	}
	for (i = 0; i < df->n; i++)
		sorted[i] = df->row[o[i]];
	free(df->row);
	df->row = sorted;
	free(o);
	return 0;
}

/* The two sides' sorted keys merged: each match into old_of. */
static void
merge(struct pf_diff *df, struct key *const k[2], uint32_t *const o[2], const long n[2])
{
	long i = 0, j = 0;

	while (i < n[0] && j < n[1]) {
		const struct key *a = &k[0][o[0][i]], *b = &k[1][o[1][j]];
		int c = cmp_keys(a, b);

		if (c == 0)
			df->old_of[b->id] = a->id, i++, j++;
		else if (c < 0)
			i++;
		else
			j++;
	}
}

/* OLD's and NEW's functions matched by the rule into df->old_of; 0, or -1 when out of memory. */
static int
match(struct pf_diff *df, const struct profile *old, const struct profile *new)
{
	const struct profile *p[2] = { old, new };
	struct key *k[2] = { NULL, NULL };
	uint32_t *o[2] = { NULL, NULL };
	long n[2];
	int s, rc = 0;

	for (s = 0; s < 2 && rc == 0; s++)
		if ((n[s] = keys(p[s], df->files, &k[s], &o[s])) < 0)
			rc = -1;
	if (rc == 0)
		merge(df, k, o, n);
	for (s = 0; s < 2; s++) {
		free(k[s]);
		free(o[s]);
	}
	return rc;
}

/* Each side's total time (the program's own), and whether their difference is beyond the noise. */
static void
totals(struct pf_diff *df, const struct profile *old, const struct profile *new)
{
	const struct profile *p[2] = { old, new };
	double var = 0;
	int k;

	for (k = 0; k < 2; k++) {
		double hz = p[k]->hz > 0 ? (double)p[k]->hz : 1;
		double t = truth_sum(p[k], df->opts.call_ps[k], &df->opts.truth).total;

		df->total[k] = t / hz;
		var += df->opts.per_signal[k] * t / (hz * hz);
	}
	df->total_err = sqrt(var);
	df->total_significant = beyond(DIFF_SIGMAS, df->total[0], df->total[1], df->total_err, 0);
	df->total_gate = beyond(DIFF_GATE_SIGMAS, df->total[0], df->total[1], df->total_err, 0);
}

/*
 * The rows as old_of matches the functions: one for each matched pair
 * with time or calls on either side (a side's id only where it has), and
 * one for each unmatched function with time or calls; sorted by change,
 * and the totals.  0, or -1 when out of memory.
 */
static int
make_rows(struct pf_diff *df, const struct profile *old, const struct profile *new)
{
	uint8_t *matched = mem_array((size_t)old->nsyms + 1, 1);
	uint32_t i, o;
	size_t n = 0;

	if (matched == NULL)
		return -1;
	memset(matched, 0, (size_t)old->nsyms + 1);
	for (i = 0; i < new->nsyms; i++) {	/* the rows counted, then made */
		if ((o = df->old_of[i]) != PF_NONE)
			matched[o] = 1;
		n += taken(&new->sym[i]) || (o != PF_NONE && taken(&old->sym[o]));
	}
	for (i = 0; i < old->nsyms; i++)
		n += !matched[i] && taken(&old->sym[i]);
	if ((df->row = mem_array(n + 1, sizeof *df->row)) == NULL) {
		free(matched);
		return -1;
	}
	for (i = 0; i < new->nsyms; i++) {
		o = df->old_of[i];
		if (taken(&new->sym[i]) || (o != PF_NONE && taken(&old->sym[o])))
			add_row(df, old, new, o != PF_NONE && taken(&old->sym[o]) ? o : PF_NONE,
			    taken(&new->sym[i]) ? i : PF_NONE);
	}
	for (i = 0; i < old->nsyms; i++)
		if (!matched[i] && taken(&old->sym[i]))
			add_row(df, old, new, i, PF_NONE);
	free(matched);
	if (sort_rows(df) != 0)
		return -1;
	totals(df, old, new);
	return 0;
}

/* A diff of OLD and NEW made as O says, old_of all PF_NONE, or NULL. */
static struct pf_diff *
new_diff(const struct profile *old, const struct profile *new, int files, const struct diff_opts *o)
{
	struct pf_diff *df = calloc(1, sizeof *df);

	if (df == NULL || (df->old_of = mem_array((size_t)new->nsyms + 1, sizeof *df->old_of)) == NULL) {
		free(df);
		return NULL;
	}
	memset(df->old_of, 0xff, ((size_t)new->nsyms + 1) * sizeof *df->old_of);	/* PF_NONE */
	df->files = files;
	df->opts = o != NULL ? *o : (struct diff_opts){ { 1, 1 }, { 0, 0 }, { 0, 0, TRUTH_CPU } };
	df->opts.per_signal[DIFF_OLD] = df->opts.per_signal[DIFF_OLD] >= 1 ? df->opts.per_signal[DIFF_OLD] : 1;
	df->opts.per_signal[DIFF_NEW] = df->opts.per_signal[DIFF_NEW] >= 1 ? df->opts.per_signal[DIFF_NEW] : 1;
	df->nsyms[DIFF_OLD] = old->nsyms;
	df->nsyms[DIFF_NEW] = new->nsyms;
	return df;
}

int
diff_profiles(const struct profile *old, const struct profile *new, const struct diff_opts *o,
    struct pf_diff **out, struct diag *d)
{
	struct pf_diff *df = new_diff(old, new, profile_nfiles(old) > 0 && profile_nfiles(new) > 0, o);

	*out = NULL;
	if (df == NULL || match(df, old, new) != 0 || make_rows(df, old, new) != 0) {
		diff_free(df);
		return diag_oom(d);
	}
	*out = df;
	return 0;
}

int
diff_again(const struct pf_diff *was, const struct profile *old, const struct profile *new,
    struct pf_diff **out, struct diag *d)
{
	struct pf_diff *df;

	*out = NULL;
	if (old->nsyms != was->nsyms[DIFF_OLD] || new->nsyms != was->nsyms[DIFF_NEW]) {
		diag_add(d, DIAG_ERROR, "diff_again: the profiles are not those compared before");
		return -1;
	}
	if ((df = new_diff(old, new, was->files, &was->opts)) == NULL)
		return diag_oom(d);
	memcpy(df->old_of, was->old_of, (size_t)new->nsyms * sizeof *df->old_of);
	if (make_rows(df, old, new) != 0) {
		diff_free(df);
		return diag_oom(d);
	}
	*out = df;
	return 0;
}

void
diff_free(struct pf_diff *df)
{
	if (df == NULL)
		return;
	free(df->row);
	free(df->old_of);
	free(df);
}
