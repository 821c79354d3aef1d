/* fuzz-elf: libFuzzer harness for whole executables: symbols, sections, DWARF and debug links. */
/*
 * Input: one byte of option bits, then the executable's bytes.  The
 * profile is $FUZZ_GMON (make fuzz runs fuzz/prog for it), analysed
 * against the damaged executable with -l, -c, clone modes and the
 * per-line data the browser reads; the report goes to /dev/null.  Seeds:
 * small executables (fuzz/seeds-elf, and fuzz/prog itself as make fuzz
 * copies it there).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/srclines.h"
#include "fuzzio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the browser's source pane asks: every function's lines. */
static void
all_lines(const struct pf_opts *o)
{
	struct pf_lines l;
	struct profile *p;
	struct diag d;
	uint32_t i;

	diag_init(&d);
	if (profile_load(&p, o, &d) == 0) {
		for (i = 0; i < p->nsyms; i++)
			if (profile_lines(p, i, &l, &d) == 0)
				profile_lines_release(&l);
		profile_free(p);
	}
	diag_release(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *gmon = getenv("FUZZ_GMON") != NULL ? getenv("FUZZ_GMON") : "fuzz/gmon.out";
	const char *files[1] = { gmon };
	struct batch_opts bo;
	struct pf_opts o;
	char path[64];
	int fd;

	if (size < 1 || (fd = fuzzio_file(data + 1, size - 1, path, sizeof path)) < 0)
		return 0;
	fuzzio_analysis(&o, data[0], path, files);
	memset(&bo, 0, sizeof bo);
	bo.style = BATCH_FLAT | BATCH_GRAPH;
	bo.brief = 1;
	bo.width = 80;
	bo.ro.line = o.line;
	bo.ro.demangle = (data[0] >> 5) & 1;
	bo.ro.inline_files = (data[0] >> 6) & 1;
	if (o.source_lines && !o.line)
		all_lines(&o);
	else
		fuzzio_report(&o, &bo);
	close(fd);
	return 0;
}
