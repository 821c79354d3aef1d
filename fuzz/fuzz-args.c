/* fuzz-args: libFuzzer harness for @FILE response files and the command line they expand to. */
/*
 * Input: the response file.  It is split by tgprof and by libiberty's
 * buildargv(), which must agree, then expanded as "tgprof @FILE" and
 * parsed as gprof's options.  An @-argument may name the input itself (for
 * nesting and the @-file limit) but no other file: it could be a terminal
 * or a pipe and block.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libiberty/libiberty.h>

#include "fuzzio.h"
#include "cli/argfile.h"
#include "cli/opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string, as both readers see it (a NUL byte ends it). */
static char *
text_of(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);

	if (t == NULL)
		abort();
	memcpy(t, data, size);
	t[size] = '\0';
	return t;
}

/* Aborts unless TEXT splits as buildargv() splits it; returns 0 if no @-argument names another file. */
static int
split_as_libiberty(const char *text, const char *self)
{
	char *mine = strdup(text), *p, **ref = NULL;
	size_t n = argfile_split(mine), i;
	int others = 0;

	if (text[strspn(text, " \t\n\v\f\r")] != '\0')
		ref = buildargv(text);
	if ((ref != NULL ? (size_t)countargv(ref) : 0) != n)
		abort();
	for (i = 0, p = mine; i < n; i++, p += strlen(p) + 1) {
		if (strcmp(p, ref[i]) != 0)
			abort();
		others |= p[0] == '@' && strcmp(p + 1, self) != 0;
	}
	freeargv(ref);
	free(mine);
	return others;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], at[80], *text = text_of(data, size);
	char *argv[] = { "tgprof", at, NULL };
	struct argfile af;
	struct opts o;
	struct diag d;
	int fd;

	if ((fd = fuzzio_file(data, size, path, sizeof path)) < 0)
		return free(text), 0;
	snprintf(at, sizeof at, "@%s", path);
	if (split_as_libiberty(text, path) == 0) {
		diag_init(&d);
		if (argfile_expand(&af, 2, argv, &d) == 0) {
			opts_parse(&o, af.argc, af.argv);
			opts_release(&o);
			argfile_release(&af);
		}
		diag_release(&d);
	}
	close(fd);
	free(text);
	return 0;
}
