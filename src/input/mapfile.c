/* mapfile: the -R map of functions to object files (nm --print-file-name output). */
#include "mapfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/msort.h"

#define FIELD_MAX 1023	/* gprof scans with %1023[...] */

/* A cursor over the whole file. */
struct scan {
	const char *s;
	size_t len, off;
};

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* fscanf's "%1023[^STOP]": the characters up to one in STOP; 0 if none. */
static size_t
scan_set(struct scan *sc, const char *stop, char *out)
{
	size_t n = 0;

	while (sc->off < sc->len && n < FIELD_MAX && strchr(stop, sc->s[sc->off]) == NULL)
		out[n++] = sc->s[sc->off++];
	out[n] = '\0';
	return n;
}

static void
skip_space(struct scan *sc)
{
	while (sc->off < sc->len && is_space(sc->s[sc->off]))
		sc->off++;
}

static int
add(struct mapfile *m, size_t *cap, const char *file, const char *func)
{
	struct mapfile_ent *e;

	if (mem_reserve(&m->ent, cap, m->n + 1, sizeof *m->ent) != 0)
		return -1;
	e = &m->ent[m->n];
	e->file = mem_strndup(file, strlen(file));
	e->func = mem_strndup(func, strlen(func));
	e->is_first = m->n == 0 || strcmp(file, m->ent[m->n - 1].file) != 0;
	if (e->file == NULL || e->func == NULL) {
		free(e->file);
		free(e->func);
		return -1;
	}
	m->n++;
	return 0;
}

/*
 * gprof's read_function_mappings(): "%1023[^\n:]" then "%1023[^\n]\n" per
 * entry; either matching nothing is an error, and the function is what
 * follows the last space.
 */
static int
parse(struct mapfile *m, struct scan *sc)
{
	char file[FIELD_MAX + 1], rest[FIELD_MAX + 1];
	const char *space;
	size_t cap = 0;

	while (sc->off < sc->len) {
		if (scan_set(sc, "\n:", file) == 0)
			return -1;
		if (strncmp(file, "No symbols in ", 14) == 0) {
			skip_space(sc);
			continue;
		}
		if (scan_set(sc, "\n", rest) == 0 || (space = strrchr(rest, ' ')) == NULL)
			return -1;
		skip_space(sc);
		if (add(m, &cap, file, space + 1) != 0)
			return -2;
	}
	return 0;
}

static int
cmp_func(const void *a, const void *b, void *ctx)
{
	const struct mapfile_ent *e = ctx;

	return strcmp(e[*(const uint32_t *)a].func, e[*(const uint32_t *)b].func);
}

/* Sorts by function name as gprof's qsort does (stable). */
static int
sort_by_func(struct mapfile *m)
{
	uint32_t *idx = mem_array(m->n, sizeof *idx), i;
	struct mapfile_ent *s = mem_array(m->n, sizeof *s);

	if (idx == NULL || s == NULL || m->n > UINT32_MAX) {
		free(idx);
		free(s);
		return -1;
	}
	for (i = 0; i < m->n; i++)
		idx[i] = i;
	if (msort_ids(idx, m->n, cmp_func, m->ent) != 0) {
		free(idx);
		free(s);
		return -1;
	}
	for (i = 0; i < m->n; i++)
		s[i] = m->ent[idx[i]];
	free(idx);
	free(m->ent);
	m->ent = s;
	return 0;
}

int
mapfile_read(struct mapfile *m, const char *path, struct diag *d)
{
	struct scan sc = { NULL, 0, 0 };
	char *buf = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	int rc;

	memset(m, 0, sizeof *m);
	if (f == NULL) {
		diag_add(d, DIAG_ERROR, "%s: could not open: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (mem_reserve(&buf, &cap, sc.len + 65536, 1) != 0) {
			fclose(f);
			free(buf);
			return diag_oom(d);
		}
		size_t got = fread(buf + sc.len, 1, cap - sc.len, f);
		if (got == 0)
			break;
		sc.len += got;
	}
	fclose(f);
	sc.s = buf;
	rc = parse(m, &sc);
	free(buf);
	if (rc == -1)
		diag_add(d, DIAG_ERROR, "%s: unable to parse mapping file", path);
	if (rc == -2 || (rc == 0 && sort_by_func(m) != 0))
		rc = diag_oom(d);
	if (rc != 0)
		mapfile_release(m);
	return rc;
}

void
mapfile_release(struct mapfile *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->ent[i].file);
		free(m->ent[i].func);
	}
	free(m->ent);
	memset(m, 0, sizeof *m);
}

/* glibc's bsearch(), so that among equal names the same entry is found. */
const struct mapfile_ent *
mapfile_find(const struct mapfile *m, const char *name)
{
	size_t l = 0, u = m->n;

	while (l < u) {
		size_t idx = (l + u) / 2;
		int c = strcmp(name, m->ent[idx].func);

		if (c < 0)
			u = idx;
		else if (c > 0)
			l = idx + 1;
		else
			return &m->ent[idx];
	}
	return NULL;
}
