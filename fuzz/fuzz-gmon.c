/* fuzz-gmon: libFuzzer harness for the gmon.out reader, in every format and layout. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "input/gmon.h"

static unsigned sink;

/* Reads every bin the reader hands over: out-of-bounds reads show under ASan. */
static enum gmon_status
on_hist(void *ctx, const struct gmon_hist *h, const unsigned char *bins, const char *file,
    uint32_t *nbins, struct diag *d)
{
	uint32_t i;

	for (i = 0; i < h->avail; i++)
		sink += bins[2 * i] + bins[2 * i + 1];
	*nbins = h->num_bins;
	return h->avail < h->num_bins ? GMON_SHORT : GMON_OK;
}

static int on_rate(void *c, uint32_t r, const char *f, struct diag *d) { sink += r; return 0; }
static void on_end(void *c) { sink++; }
static int on_arc(void *c, uint64_t a, uint64_t b, uint64_t n, struct diag *d) { sink += (unsigned)n; return 0; }
static int on_bb(void *c, uint64_t a, uint64_t n, struct diag *d) { sink += (unsigned)n; return 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The first byte picks the format and the layout; the rest is the file. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct gmon_ops ops = { on_hist, on_rate, on_end, on_arc, on_bb };
	struct gmon_layout lay;
	struct gmon_counts counts;
	struct gmon_file f;
	struct diag d;
	unsigned input = 0;
	int version = 0;

	if (size < 1)
		return 0;
	lay.addr_bytes = data[0] & 1 ? 4 : 8;
	lay.big_endian = (data[0] >> 1) & 1;
	lay.sign_extend = (data[0] >> 2) & 1;
	f.len = size - 1;
	f.buf = (unsigned char *)data + 1;
	f.mapped = 0;	/* libFuzzer's bytes, never unloaded */
	diag_init(&d);
	gmon_count_arcs(&f, (enum gmon_format)((data[0] >> 3) % 4), &lay);
	gmon_parse(&f, "fuzz", (enum gmon_format)((data[0] >> 3) % 4), &lay, &ops, NULL, &input,
	    &version, &counts, &d);
	diag_release(&d);
	return 0;
}
