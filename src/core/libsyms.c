/* libsyms: the function symbols of a shared library a stacks file names, to name its frames. */
#include "libsyms.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/elfstr.h"

#define MAX_LIBRARY ((off_t)2 << 30)	/* larger files are not read */

/* The library's functions by address (elfstr's: its debugging file's, its .symtab's or its .dynsym's). */
struct libsyms {
	struct elfstr_fn *fn;
	size_t n;
};

void
libsyms_close(struct libsyms *l)
{
	if (l == NULL)
		return;
	elfstr_functions_free(l->fn, l->n);
	free(l);
}

/* Whether PATH is a regular file libsyms reads (not too large). */
static int
readable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= MAX_LIBRARY;
}

struct libsyms *
libsyms_open(const char *path, const char *debug_dir)
{
	char debug[PATH_MAX];
	struct libsyms *l;

	if (!readable(path) || (l = calloc(1, sizeof *l)) == NULL)
		return NULL;
	if (debug_dir != NULL && elfstr_debug_file(path, debug_dir, debug, sizeof debug) == 0 &&
	    readable(debug) && elfstr_functions(debug, &l->fn, &l->n) == 0)
		return l;
	if (elfstr_functions(path, &l->fn, &l->n) != 0) {
		free(l);
		return NULL;
	}
	return l;
}

const char *
libsyms_at(const struct libsyms *l, uint64_t off)
{
	size_t lo = 0, hi = l->n;
	const struct elfstr_fn *f;

	while (lo < hi) {	/* the last function starting at or before OFF */
		size_t mid = lo + (hi - lo) / 2;

		if (l->fn[mid].value <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	f = &l->fn[lo - 1];
	return f->size == 0 || off - f->value < f->size ? f->name : NULL;	/* not in a function it knows */
}
