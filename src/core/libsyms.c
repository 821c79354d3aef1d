/* libsyms: the function symbols of a shared library a stacks file names, to name its frames. */
#include "libsyms.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/bin.h"
#include "util/mem.h"

#define MAX_LIBRARY ((off_t)2 << 30)	/* larger files are not read */

struct fn {
	uint64_t addr;
	char *name;		/* owned */
};

/* Copies of the names: the library is closed once read (its libbfd messages go nowhere after). */
struct libsyms {
	struct fn *fn;		/* by address */
	size_t n;
};

static int
cmp_fn(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void
libsyms_close(struct libsyms *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++)
		free(l->fn[i].name);
	free(l->fn);
	free(l);
}

/* B's function symbols into L; 0, or -1 when out of memory. */
static int
copy_functions(struct libsyms *l, const struct bin *b)
{
	const struct bin_symopts so = { 0, 0, 1 };
	size_t i, n = bin_nsyms(b);

	if ((l->fn = mem_calloc(n + 1, sizeof *l->fn)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		struct bin_sym s;

		bin_sym(b, i, &so, &s);
		if (s.cls == 0 || !s.is_func || s.name == NULL)
			continue;
		if ((l->fn[l->n].name = mem_strndup(s.name, strlen(s.name))) == NULL)
			return -1;
		l->fn[l->n++].addr = s.addr;
	}
	return 0;
}

struct libsyms *
libsyms_open(const char *path)
{
	struct libsyms *l;
	struct bin *b;
	struct stat st;
	struct diag d;
	int rc;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_LIBRARY ||
	    (l = mem_calloc(1, sizeof *l)) == NULL)
		return NULL;
	diag_init(&d);
	rc = bin_open(&b, path, &d) == 0 ? copy_functions(l, b) : -1;
	bin_close(b);
	diag_release(&d);	/* a library's warnings are not the profile's */
	if (rc != 0 || l->n == 0) {
		libsyms_close(l);
		return NULL;
	}
	qsort(l->fn, l->n, sizeof *l->fn, cmp_fn);
	return l;
}

const char *
libsyms_at(const struct libsyms *l, uint64_t off)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {	/* the last function starting at or before OFF */
		size_t mid = lo + (hi - lo) / 2;

		if (l->fn[mid].addr <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? l->fn[lo - 1].name : NULL;
}
