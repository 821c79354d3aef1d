/* fuzz-batch: libFuzzer harness for the whole batch pipeline: a damaged gmon.out and symspecs. */
/*
 * Input: one byte of option bits, then up to three symspecs (NUL-ended;
 * the first character of each picks its table) and a 0xff byte, then the
 * gmon.out bytes.
 * The executable is $FUZZ_PROG (make fuzz builds fuzz/prog from
 * tests/progs/cycles.c with -pg -g).  The report goes to /dev/null: only
 * crashes, leaks, hangs and sanitizer reports matter.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzzio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Up to three symspecs from DATA; returns the bytes they took. */
static size_t
specs(const uint8_t *data, size_t size, struct pf_spec *spec, size_t *nspec, char *text)
{
	size_t used = 0;

	*nspec = 0;
	while (*nspec < 3 && used < size) {
		const uint8_t *end = memchr(data + used, 0, size - used);
		size_t len = end != NULL ? (size_t)(end - (data + used)) : 0;

		if (data[used] == 0xff)
			return used + 1;	/* no more symspecs */
		if (end == NULL || len == 0 || len > 200)
			break;
		memcpy(text, data + used + 1, len - 1);
		text[len - 1] = '\0';
		spec[*nspec].text = text;
		spec[*nspec].table = (enum spec_table)(data[used] % SPEC_NTABLES);
		(*nspec)++;
		text += len;
		used += len + 1;
	}
	return used;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *prog = getenv("FUZZ_PROG") != NULL ? getenv("FUZZ_PROG") : "fuzz/prog";
	char path[64], text[1024];
	const char *files[1] = { path };
	struct pf_spec spec[3];
	struct batch_opts bo;
	struct pf_opts o;
	size_t used;
	int fd;

	if (size < 1)
		return 0;
	fuzzio_analysis(&o, data[0], prog, files);
	used = 1 + specs(data + 1, size - 1, spec, &o.nspec, text);
	if ((fd = fuzzio_file(data + used, size - used, path, sizeof path)) < 0)
		return 0;
	o.spec = spec;
	memset(&bo, 0, sizeof bo);
	bo.style = BATCH_FLAT | BATCH_GRAPH;
	bo.brief = (data[0] >> 5) & 1;
	bo.width = 80;
	bo.ro.demangle = 1;
	bo.ro.bsd = (data[0] >> 6) & 1;
	bo.ro.zeros = (data[0] >> 7) & 1;
	fuzzio_report(&o, &bo);
	close(fd);
	return 0;
}
