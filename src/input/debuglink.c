/* debuglink: the separate debug files libbfd would open for an executable, checked before it may. */
#include "debuglink.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/path.h"

/* libbfd 2.40's EXTRA_DEBUG_ROOT1, EXTRA_DEBUG_ROOT2 and Debian's DEBUGDIR. */
static const char *const debug_roots[] = { "/usr/lib/debug", "/usr/lib/debug/usr" };

/* 0 if PATH is missing or a regular file, else -1 (copied to BAD). */
static int
candidate_ok(const char *path, char *bad, size_t badsize)
{
	struct stat st;

	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return 0;
	snprintf(bad, badsize, "%s is not a regular file", path);
	return -1;
}

/* The directory part of PATH, with its '/', into OUT ("" when there is none). */
static void
dir_of(const char *path, char *out, size_t size)
{
	size_t n = (size_t)(path_base(path) - path);

	snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), path);
}

int
debuglink_check(const char *exe, const char *name, size_t bytes, char *bad, size_t badsize)
{
	char dir[PATH_MAX], canon[PATH_MAX], path[3 * PATH_MAX + 32], *real;
	size_t len = strnlen(name, bytes), i;
	int rc = 0;

	if (len == 0 || len == bytes || len >= PATH_MAX) {
		snprintf(bad, badsize, "the name it holds is empty, unterminated or too long");
		return -1;
	}
	dir_of(exe, dir, sizeof dir);
	real = realpath(exe, NULL);
	dir_of(real != NULL ? real : exe, canon, sizeof canon);
	free(real);
	snprintf(path, sizeof path, "%s%s", dir, name);
	rc |= candidate_ok(path, bad, badsize);
	snprintf(path, sizeof path, "%s.debug/%s", dir, name);
	rc |= candidate_ok(path, bad, badsize);
	for (i = 0; i < sizeof debug_roots / sizeof *debug_roots; i++) {
		snprintf(path, sizeof path, "%s%s%s", debug_roots[i], canon, name);
		rc |= candidate_ok(path, bad, badsize);
	}
	if (canon[0] != '/') {	/* DEBUGDIR, with a '/' before a relative directory */
		snprintf(path, sizeof path, "%s/%s%s", debug_roots[0], canon, name);
		rc |= candidate_ok(path, bad, badsize);
	}
	return rc;
}
