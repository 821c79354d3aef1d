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

/* Each arc record of a GNU file, read again where the parse says it starts (as ahead.c reads them). */
static const struct gmon_file *cur_file;
static const struct gmon_layout *cur_lay;
static int cur_gnu;

static int
on_arc(void *c, uint64_t a, uint64_t b, uint64_t n, size_t at, struct diag *d)
{
	uint64_t a2, b2;

	if (cur_gnu && (gmon_arc_at(cur_file, cur_lay, at, &a2, &b2) != 0 || a2 != a || b2 != b))
		__builtin_trap();
	sink += (unsigned)n;
	return 0;
}
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
	uint64_t a2, b2;

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
	if (f.narcs > 0 && f.first_arc != 0)	/* (a hint: in bounds, or gmon_arc_at() says no) */
		gmon_arc_at(&f, &lay, f.first_arc, &a2, &b2);
	cur_file = &f;
	cur_lay = &lay;
	cur_gnu = (data[0] >> 3) % 4 == GMON_FMT_MAGIC ||
	    ((data[0] >> 3) % 4 == GMON_FMT_AUTO && f.len >= 4 && memcmp(f.buf, "gmon", 4) == 0);
	gmon_parse(&f, "fuzz", (enum gmon_format)((data[0] >> 3) % 4), &lay, &ops, NULL, &input,
	    &version, &counts, &d);
	diag_release(&d);
	return 0;
}
