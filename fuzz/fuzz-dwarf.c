/* fuzz-dwarf: libFuzzer harness for tgprof's DWARF reader: units, abbreviations, line programs, spans. */
/*
 * Input: one byte of flags (bit 0: big-endian), then each section of enum
 * dwsec_id in turn (.debug_info, .debug_abbrev, .debug_line, .debug_str,
 * .debug_line_str, .debug_ranges, .debug_rnglists) as a 16-bit
 * little-endian length and that many bytes (cut short where the input
 * ends).  What dwinfo_load() accepts is split into spans over a 64 KiB
 * text at 0x1000, as srcmap does for an executable.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwinfo.h"
#include "dwarf/srcspan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
spans(const struct dwinfo *di)
{
	uint32_t *file0 = calloc(di->nunit + 1, sizeof *file0);
	struct srcspan_in in;
	struct srcspans sp;
	size_t i;

	if (file0 == NULL)
		return;
	for (i = 0; i < di->nunit; i++)
		file0[i] = (uint32_t)(i * 1024);
	memset(&in, 0, sizeof in);
	in.di = di;
	in.file0 = file0;
	in.vma = 0x1000;
	in.end = 0x11000;
	if (srcspan_build(&sp, &in) == 0)
		srcspan_release(&sp);
	free(file0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dwarf dw;
	struct dwinfo di;
	size_t off = 1;
	int i;

	if (size < 1)
		return 0;
	memset(&dw, 0, sizeof dw);
	dw.big = data[0] & 1;
	for (i = 0; i < DWS_COUNT && off + 2 <= size; i++) {
		size_t n = (size_t)data[off] | (size_t)data[off + 1] << 8;

		off += 2;
		if (n > size - off)
			n = size - off;
		dw.sec[i].p = n > 0 ? data + off : NULL;
		dw.sec[i].n = n;
		off += n;
	}
	if (dwinfo_load(&di, &dw) == 0) {
		spans(&di);
		dwinfo_release(&di);
	}
	return 0;
}
