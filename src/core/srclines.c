/* srclines: a function's time and calls, source line by source line (the browser's source pane). */
#include "srclines.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "hist.h"

/* The span holding ADDR: the last starting at or before it (0 if none does). */
static size_t
span_at(const struct pf_linemap *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->span[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? lo - 1 : 0;
}

/* The lines of code between LO and HI, and what is charged to each. */
struct window {
	const struct pf_linemap *m;
	uint64_t lo, hi;
	size_t first, n;	/* spans first .. first+n-1 */
	double *ticks;
	uint64_t *calls;
};

/* Span K of the window, in gprof's histogram units (addresses halved), clipped to it. */
static void
span_units(const struct window *w, size_t k, uint64_t *a, uint64_t *b)
{
	const struct pf_linemap *m = w->m;
	size_t i = w->first + k;
	uint64_t lo = m->span[i].lo > w->lo ? m->span[i].lo : w->lo;
	uint64_t hi = i + 1 < m->n ? m->span[i + 1].lo : m->end;

	*a = lo / 2;
	*b = (hi < w->hi ? hi : w->hi) / 2;
}

/* One histogram record's ticks over the window, as gprof's hist_assign_samples_1(). */
static void
record_ticks(const struct profile *p, const struct pf_hist *r, struct window *w)
{
	uint64_t lowpc = r->lowpc / 2, a = w->lo / 2, b = w->hi / 2;
	uint32_t i = 0;
	size_t k = 0;

	if (a > lowpc && p->hist_scale > 0) {
		uint64_t first = hist_u64((double)(a - lowpc) / p->hist_scale);

		i = first < r->num_bins ? (uint32_t)first : r->num_bins;
	}
	i = i > 0 ? i - 1 : 0;
	for (; i < r->num_bins; i++) {
		uint64_t bin_low = lowpc + hist_u64(p->hist_scale * i);
		uint64_t bin_high = lowpc + hist_u64(p->hist_scale * (i + 1));
		int count;

		if (bin_low >= b)
			break;
		if (bin_high <= a || (count = profile_hist_bin(p, r, i)) == 0)
			continue;
		for (; k < w->n; k++) {
			uint64_t s_lo, s_hi, lo, hi;

			span_units(w, k, &s_lo, &s_hi);
			if (s_lo >= bin_high)
				break;
			lo = bin_low > s_lo ? bin_low : s_lo;
			hi = bin_high < s_hi ? bin_high : s_hi;
			if (hi > lo)
				w->ticks[k] += (double)(hi - lo) * count / p->hist_scale;
			if (s_hi > bin_high)
				break;	/* the span goes on into the next bin */
		}
	}
}

/*
 * The calls made from the window's code, by the line of the call
 * instruction (an arc's return address is often the next line's code).
 */
static void
window_calls(const struct pf_private *pv, struct window *w)
{
	size_t lo = 0, hi = pv->nsite;

	while (lo < hi) {	/* the first call site in or after the window */
		size_t mid = lo + (hi - lo) / 2;

		if (pv->site[mid].at < w->lo)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < pv->nsite && pv->site[lo].at < w->hi; lo++)
		w->calls[span_at(w->m, pv->site[lo].at) - w->first] += pv->site[lo].count;
}

static int
cmp_line(const void *a, const void *b)
{
	const struct pf_line *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Moves the lines of FILE, a run in the sorted OUT, to the front. */
static int
own_file_first(struct pf_lines *out, uint32_t file)
{
	size_t a = 0, b;
	struct pf_line *run;

	while (a < out->n && out->line[a].file != file)
		a++;
	for (b = a; b < out->n && out->line[b].file == file; b++)
		;
	if (a == 0 || a == b)
		return 0;
	if ((run = mem_array(b - a, sizeof *run)) == NULL)
		return -1;
	memcpy(run, &out->line[a], (b - a) * sizeof *run);
	memmove(&out->line[b - a], out->line, a * sizeof *run);
	memcpy(out->line, run, (b - a) * sizeof *run);
	free(run);
	return 0;
}

/*
 * Appends the window's lines to OUT (room for CAP).  Code without a line
 * (padding after a sequence's end) is charged to the line before it in
 * the window, as gprof -l's line symbols reach to the next one.
 */
static int
collect(const struct window *w, struct pf_lines *out, size_t *cap)
{
	size_t k, first = out->n;

	if (mem_reserve(&out->line, cap, out->n + w->n + 1, sizeof *out->line) != 0)
		return -1;
	for (k = 0; k < w->n; k++) {
		const struct pf_linespan *s = &w->m->span[w->first + k];
		struct pf_line *l = &out->line[out->n];

		out->ticks += w->ticks[k];
		out->calls += w->calls[k];
		if (s->file == PF_NONE) {	/* padding */
			if (out->n > first) {
				l[-1].ticks += w->ticks[k];
				l[-1].calls += w->calls[k];
			}
			continue;
		}
		l->file = s->file;
		l->line = s->line;
		l->ticks = w->ticks[k];
		l->calls = w->calls[k];
		out->n++;
	}
	return 0;
}

/* Sorts OUT's lines, merges equal ones, puts those of FILE first. */
static int
merge(struct pf_lines *out, uint32_t file)
{
	size_t k, n = out->n;

	qsort(out->line, n, sizeof *out->line, cmp_line);
	for (k = 0, out->n = 0; k < n; k++) {
		struct pf_line *last = out->n > 0 ? &out->line[out->n - 1] : NULL;

		if (last != NULL && last->file == out->line[k].file && last->line == out->line[k].line) {
			last->ticks += out->line[k].ticks;
			last->calls += out->line[k].calls;
		} else {
			out->line[out->n++] = out->line[k];
		}
	}
	return own_file_first(out, file);
}

/* The ticks and calls of symbol SYM's code, line by line, appended to OUT. */
static int
add_symbol(const struct profile *p, uint32_t sym, struct pf_lines *out, size_t *cap)
{
	const struct pf_sym *s = &p->sym[sym];
	struct window w;
	uint32_t i;
	int rc = -1;

	memset(&w, 0, sizeof w);
	w.m = &p->priv->lines;
	w.lo = s->addr;
	w.hi = s->end_addr >= s->addr ? s->end_addr + 1 : s->addr;
	if (w.m->n > 0 && w.lo < w.hi) {
		w.first = span_at(w.m, w.lo);
		w.n = span_at(w.m, w.hi - 1) - w.first + 1;
	}
	w.ticks = mem_calloc(w.n + 1, sizeof *w.ticks);
	w.calls = mem_calloc(w.n + 1, sizeof *w.calls);
	if (w.ticks != NULL && w.calls != NULL) {
		for (i = 0; w.n > 0 && i < p->nhist; i++)
			record_ticks(p, &p->hist[i], &w);
		if (w.n > 0)
			window_calls(p->priv, &w);
		rc = collect(&w, out, cap);
	}
	free(w.ticks);
	free(w.calls);
	return rc;
}

/* With PF_CLONES_FOLD, the lines of the clones folded into a function are its own. */
int
profile_lines(const struct profile *p, uint32_t sym, struct pf_lines *out, struct diag *d)
{
	const struct pf_private *pv = p->priv;
	size_t cap = 0;
	uint32_t c;
	int rc;

	memset(out, 0, sizeof *out);
	out->file = PF_NONE;
	if (!pv->lines.kept) {
		diag_add(d, DIAG_ERROR, "the profile was loaded without its source lines");
		return -1;
	}
	if (sym >= p->nsyms) {
		diag_add(d, DIAG_ERROR, "no symbol %u", (unsigned)sym);
		return -1;
	}
	rc = add_symbol(p, sym, out, &cap);
	c = pv->clone_link != NULL && p->sym[sym].fold == PF_NONE ? pv->clone_link[sym] : PF_NONE;
	for (; rc == 0 && c != PF_NONE; c = pv->clone_link[c])
		rc = add_symbol(p, c, out, &cap);
	if (rc == 0)
		rc = merge(out, p->sym[sym].file);
	out->file = p->sym[sym].file;
	if (rc != 0) {
		profile_lines_release(out);
		return diag_oom(d);
	}
	return 0;
}

void
profile_lines_release(struct pf_lines *l)
{
	free(l->line);
	memset(l, 0, sizeof *l);
	l->file = PF_NONE;
}

/*
 * Opens a source file for reading.  Names come from the debugging
 * information, not the user: a FIFO or a device under such a name is
 * skipped (errno ENXIO), as reading it could block for ever (gprof waits).
 */
static FILE *
open_source(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		close(fd);
		errno = ENXIO;
		return NULL;
	}
	if (fcntl(fd, F_SETFL, 0) != 0 || (f = fdopen(fd, "rb")) == NULL) {
		close(fd);
		return NULL;
	}
	return f;
}

static FILE *
find_source(char *const *search, size_t nsearch, const char *name, char *path)
{
	const char *base = strrchr(name, '/');
	size_t i;
	FILE *f;
	int pass;

	if ((f = open_source(name)) != NULL) {
		snprintf(path, PATH_MAX, "%s", name);
		return f;
	}
	/* A relative name is tried under each directory, then (as any name) its basename. */
	for (pass = name[0] == '/'; pass < 2; pass++) {
		const char *tail = pass == 0 ? name : base ? base + 1 : NULL;

		for (i = 0; tail != NULL && i < nsearch; i++) {
			const char *dirs = search[i], *colon;

			do {
				colon = strchr(dirs, ':');
				if (snprintf(path, PATH_MAX, "%.*s/%s", colon ? (int)(colon - dirs) :
				    (int)strlen(dirs), dirs, tail) < PATH_MAX &&
				    (f = open_source(path)) != NULL)
					return f;
				dirs = colon + 1;
			} while (colon != NULL);
		}
	}
	return NULL;
}

FILE *
profile_source_open(char *const *search, size_t nsearch, const char *name, char *path,
    size_t pathsize)
{
	char found[PATH_MAX];
	FILE *f = find_source(search, nsearch, name, found);

	if (f != NULL && path != NULL)
		snprintf(path, pathsize, "%s", found);
	return f;
}
