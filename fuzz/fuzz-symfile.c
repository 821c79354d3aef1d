/* fuzz-symfile: libFuzzer harness for the text files tgprof reads: -S symbol tables and -R map files. */
/*
 * Input: one byte (bit 0: an -R map file, else an -S table; bit 1: -l),
 * then the file.  The executable is $FUZZ_PROG and the profile
 * $FUZZ_GMON (make fuzz runs fuzz/prog once for fuzz/gmon.out).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzzio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *prog = getenv("FUZZ_PROG") != NULL ? getenv("FUZZ_PROG") : "fuzz/prog";
	const char *gmon = getenv("FUZZ_GMON") != NULL ? getenv("FUZZ_GMON") : "fuzz/gmon.out";
	const char *files[1] = { gmon };
	struct batch_opts bo;
	struct pf_opts o;
	char path[64];
	int fd;

	if (size < 1)
		return 0;
	if ((fd = fuzzio_file(data + 1, size - 1, path, sizeof path)) < 0)
		return 0;
	memset(&o, 0, sizeof o);
	o.image = prog;
	o.gmon = files;
	o.ngmon = 1;
	if (data[0] & 1)
		o.map_file = path;
	else
		o.extsyms = path;
	o.line = (data[0] >> 1) & 1 && !(data[0] & 1);
	memset(&bo, 0, sizeof bo);
	bo.style = BATCH_FLAT | BATCH_GRAPH | ((data[0] & 1) ? BATCH_FILE_ORDER : 0);
	bo.width = 80;
	bo.ro.demangle = 1;
	fuzzio_report(&o, &bo);
	close(fd);
	return 0;
}
