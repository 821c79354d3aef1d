/* anno: annotated source (-A), source lines with execution counts, exactly as GNU gprof prints them. */
#include "anno.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/srclines.h"
#include "util/afile.h"
#include "util/mem.h"
#include "util/msort.h"
#include "util/path.h"

#define WIDTH 16	/* gprof's annotation column */

/*
 * One source line with symbols: gprof's sf->line[] entry.  The first
 * symbol decides the flags and basic blocks; when more symbols share the
 * line, gprof replaces it by a copy with address 0 whose calls are summed
 * (and the later symbols' blocks are lost).
 */
struct aline {
	int line;
	uint32_t sym;		/* the first symbol on the line */
	uint64_t ncalls;	/* the calls of all its symbols */
	int merged;		/* more than one symbol */
};

/* gprof keeps the last count between lines and between files. */
struct astate {
	const struct profile *p;
	const struct anno_opts *o;
	unsigned long last_count;
	long executable, executed;	/* this file's lines with data, and run */
	int first_file;			/* no file on stdout yet */
	int *first;			/* the batch printer's flag */
	struct diag *d;
};

static int
cmp_place(const void *a, const void *b, void *ctx)
{
	const struct pf_sym *s = ctx;
	const struct pf_sym *l = &s[*(const uint32_t *)a], *r = &s[*(const uint32_t *)b];

	if (l->file != r->file)
		return l->file < r->file ? -1 : 1;
	return l->line < r->line ? -1 : l->line > r->line;
}

/*
 * The symbols -A/-J let through, by file and line, in address order within
 * a line.  (gprof indexes an array by line number; a bogus line number
 * from the debugging information cannot make this allocate.)
 */
static uint32_t *
placed_symbols(const struct profile *p, uint32_t *n)
{
	uint32_t *v = mem_array(p->nsyms, sizeof *v), i;

	*n = 0;
	if (v == NULL)
		return NULL;
	for (i = 0; i < p->nsyms; i++)
		if (p->sym[i].file != PF_NONE && p->sym[i].line > 0 && profile_in_anno(p, i))
			v[(*n)++] = i;
	if (msort_ids(v, *n, cmp_place, p->sym) != 0) {
		free(v);
		return NULL;
	}
	return v;
}

/* The lines of one file from the sorted symbols V[*K..]; *NCALLS gets the file's calls. */
static size_t
file_lines(const struct profile *p, const uint32_t *v, uint32_t n, uint32_t *k,
    struct aline *out, uint64_t *ncalls)
{
	uint32_t file = p->sym[v[*k]].file;
	size_t m = 0;

	*ncalls = 0;
	for (; *k < n && p->sym[v[*k]].file == file; ++*k) {
		const struct pf_sym *s = &p->sym[v[*k]];

		*ncalls += s->ncalls;
		if (m > 0 && out[m - 1].line == s->line) {
			out[m - 1].ncalls += s->ncalls;
			out[m - 1].merged = 1;
			continue;
		}
		out[m].line = s->line;
		out[m].sym = v[*k];
		out[m].ncalls = s->ncalls;
		out[m].merged = 0;
		m++;
	}
	return m;
}

/* Appends "%lu" of V, after a comma if something is there already. */
static void
put_count(char *buf, size_t *len, unsigned long v, int comma)
{
	if (comma && *len > 0)
		buf[(*len)++] = ',';
	*len += (size_t)snprintf(buf + *len, 32, "%lu", v);
}

/* gprof's annotate_with_count(): the 16 columns in front of a source line. */
static void
annotation(struct astate *st, const struct aline *b, char out[WIDTH + 1])
{
	const struct pf_sym *s;
	const struct pf_bb *bb;
	char tmp[16 * 24 + 8];
	unsigned long ncalls = 0, last_print = (unsigned long)-1;
	size_t len = 0;
	int i, set = 0;

	memset(out, ' ', WIDTH);
	out[WIDTH] = '\0';
	if (b == NULL)
		return;
	st->executable++;
	s = &st->p->sym[b->sym];
	bb = st->p->bb != NULL ? &st->p->bb[b->sym] : NULL;
	if (s->is_func) {
		put_count(tmp, &len, (unsigned long)b->ncalls, 0);
		st->last_count = last_print = ncalls = (unsigned long)b->ncalls;
		set = 1;
	} else if (st->o->all_lines && bb != NULL && bb->addr[0] != 0 &&
	    bb->addr[0] > (b->merged ? 0 : s->addr)) {
		put_count(tmp, &len, st->last_count, 0);
		last_print = ncalls = st->last_count;
		set = 1;
	}
	for (i = 0; bb != NULL && i < PF_NBBS && bb->addr[i] != 0; i++) {
		st->last_count = (unsigned long)bb->calls[i];
		if (!set)
			ncalls = 0, set = 1;
		ncalls += st->last_count;
		if (st->o->all_lines && st->last_count == last_print)
			continue;
		put_count(tmp, &len, st->last_count, 1);
		last_print = st->last_count;
	}
	if (st->o->all_lines && len == 0) {
		put_count(tmp, &len, st->last_count, 0);
		ncalls = st->last_count;
		set = 1;
	}
	if (!set)
		return;
	st->executed++;
	if (ncalls < st->o->min_count)
		len = (size_t)snprintf(tmp, sizeof tmp, "#####");
	memcpy(tmp + len, " -> ", 5);
	len += 4;
	if (len >= WIDTH)
		memcpy(out, tmp, WIDTH);
	else
		memcpy(out + WIDTH - len, tmp, len);
}

/* Copies SRC to OUT with an annotation in front of every line. */
static void
annotate_file(struct astate *st, FILE *src, FILE *out, const struct aline *v, size_t n)
{
	char buf[8192], ann[WIDTH + 1];
	size_t got, i, k = 0;
	int line = 1, new_line = 1;

	while ((got = fread(buf, 1, sizeof buf, src)) > 0) {
		for (i = 0; i < got; i++) {
			if (new_line) {
				while (k < n && v[k].line < line)
					k++;
				annotation(st, k < n && v[k].line == line ? &v[k] : NULL, ann);
				fputs(ann, out);
				line++;
			}
			new_line = buf[i] == '\n';
			fputc(buf[i], out);
		}
	}
}

/* gprof's cmp_ncalls(): calls down, then line up. */
static int
cmp_calls(const void *a, const void *b, void *ctx)
{
	const struct aline *v = ctx, *l = &v[*(const uint32_t *)a], *r = &v[*(const uint32_t *)b];

	if (l->ncalls != r->ncalls)
		return l->ncalls < r->ncalls ? 1 : -1;
	return l->line - r->line;
}

/* "Top N Lines" and "Execution Summary" after a file. */
static int
summary(struct astate *st, FILE *out, const struct aline *v, size_t n, uint64_t ncalls)
{
	uint32_t *ord = mem_array(n, sizeof *ord), i;
	int num_lines = n > 0 ? v[n - 1].line : 0, len = st->o->table_length;

	if (ord == NULL)
		return -1;
	for (i = 0; i < n; i++)
		ord[i] = i;
	if (len > 0) {
		fprintf(out, "\n\nTop %d Lines:\n\n     Line      Count\n\n", len);
		if (msort_ids(ord, n, cmp_calls, (void *)v) != 0) {
			free(ord);
			return -1;
		}
		for (i = 0; i < (uint32_t)(len < num_lines ? len : num_lines) && i < n; i++) {
			if (v[ord[i]].ncalls == 0)
				break;
			fprintf(out, "%9d %10lu\n", v[ord[i]].line, (unsigned long)v[ord[i]].ncalls);
		}
	}
	free(ord);
	fprintf(out, "\nExecution Summary:\n\n");
	fprintf(out, "%9ld   Executable lines in this file\n", st->executable);
	fprintf(out, "%9ld   Lines executed\n", st->executed);
	fprintf(out, "%9.2f   Percent of the file executed\n", st->executable ?
	    100.0 * st->executed / (double)st->executable : 100.0);
	fprintf(out, "\n%9lu   Total number of line executions\n", (unsigned long)ncalls);
	fprintf(out, "%9.2f   Average executions per line\n", st->executable ?
	    (double)ncalls / (double)st->executable : 0.0);
	return 0;
}

/* -y: NAME-ann in the current directory, written whole or not at all (afile.h). */
static FILE *
open_ann(const char *name, struct afile *af, struct diag *d)
{
	char final[PATH_MAX];

	if (snprintf(final, sizeof final, "%s-ann", path_base(name)) >= (int)sizeof final) {
		diag_add(d, DIAG_WARN, "%s-ann: %s", path_base(name), strerror(ENAMETOOLONG));
		return NULL;
	}
	if (afile_open(af, final) != 0) {
		diag_add(d, DIAG_WARN, "%s: %s", final, strerror(errno));
		return NULL;
	}
	return af->f;
}

static int
close_ann(struct afile *af, struct diag *d)
{
	if (afile_commit(af) != 0) {
		diag_add(d, DIAG_ERROR, "%s: %s", af->path, strerror(errno));
		return -1;
	}
	return 0;
}

/* One source file: gprof's annotate_source() and what print_annotated_source() adds. */
static int
one_file(struct astate *st, FILE *out, uint32_t file, const struct aline *v, size_t n,
    uint64_t ncalls)
{
	const char *name = profile_file_name(st->p, file);
	struct afile af;
	FILE *src = profile_source_open(st->o->search, st->o->nsearch, name, NULL, 0), *dst = out;
	int rc;

	if (src == NULL) {
		diag_add(st->d, DIAG_WARN, "%s: %s (try -I with its directory)", name,
		    errno == ENOENT ? "could not locate the source file" : strerror(errno));
		return 0;
	}
	if (st->o->separate_files && (dst = open_ann(name, &af, st->d)) == NULL) {
		fclose(src);
		return 0;
	}
	if (!st->o->separate_files) {
		if (!st->first_file)
			fputc('\n', out);
		st->first_file = 0;
		if (!*st->first)
			fputs("\f\n", out);
		*st->first = 0;
		fprintf(out, "*** File %s:\n", name);
	}
	st->executable = st->executed = 0;
	annotate_file(st, src, dst, v, n);
	fclose(src);
	rc = summary(st, dst, v, n, ncalls);
	if (st->o->separate_files && close_ann(&af, st->d) != 0)
		rc = -1;
	return rc;
}

int
anno_print(FILE *out, const struct profile *p, const struct anno_opts *o, int *first,
    struct diag *d)
{
	struct astate st = { p, o, 0, 0, 0, 1, first, d };
	uint32_t n, k, *v = placed_symbols(p, &n), nfiles = profile_nfiles(p), f;
	struct aline *lines = mem_array(n, sizeof *lines);
	size_t *start = mem_calloc((size_t)nfiles + 1, sizeof *start), *count, m;
	uint64_t *calls = mem_calloc((size_t)nfiles + 1, sizeof *calls);
	int rc = -1;

	count = mem_calloc((size_t)nfiles + 1, sizeof *count);
	if (v == NULL || lines == NULL || start == NULL || count == NULL || calls == NULL)
		goto out;
	/* Every file's lines, then the files newest first as gprof lists them. */
	for (k = 0, m = 0; k < n;) {
		f = p->sym[v[k]].file;
		start[f] = m;
		count[f] = file_lines(p, v, n, &k, lines + m, &calls[f]);
		m += count[f];
	}
	rc = 0;
	for (f = nfiles; f-- > 0 && rc == 0;)
		if (count[f] > 0 && (o->zeros || calls[f] != 0))
			rc = one_file(&st, out, f, lines + start[f], count[f], calls[f]);
out:
	if (rc != 0 && diag_errors(d) == 0)
		diag_oom(d);
	free(v);
	free(lines);
	free(start);
	free(count);
	free(calls);
	return rc;
}
