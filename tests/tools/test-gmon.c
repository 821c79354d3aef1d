/* test-gmon: prints the records the gmon reader finds in a file, or its error. */
/*
 * usage: test-gmon [--be] [--32] [--bsd|--bsd44|--magic] FILE...
 * One line per record; histogram bins are summarised (count of non-zero
 * bins and their sum) so that tests stay short.  Each arc record of a GNU
 * file is read again where the parse says it starts (gmon_arc_at(), as
 * src/core/ahead.c reads them): a line "arc_at differs" if it is not the
 * same record; the first arc's place and the arc record count checked so.
 */
#include <stdio.h>
#include <string.h>

#include "input/gmon.h"

static unsigned
bin(const unsigned char *b, uint32_t i, int big)
{
	return big ? (unsigned)b[2 * i] << 8 | b[2 * i + 1] : (unsigned)b[2 * i + 1] << 8 | b[2 * i];
}

static int big;

/* The file being parsed, for on_arc(): a GNU one, its layout, and its first arc record's place. */
static const struct gmon_file *cur_file;
static const struct gmon_layout *cur_lay;
static int cur_gnu;
static size_t cur_narcs;

static enum gmon_status
on_hist(void *ctx, const struct gmon_hist *h, const unsigned char *bins, const char *file,
    uint32_t *nbins, struct diag *d)
{
	unsigned long sum = 0, nonzero = 0;
	uint32_t i;

	*nbins = h->num_bins;
	if (h->avail < h->num_bins)
		return GMON_SHORT;
	for (i = 0; i < h->num_bins; i++) {
		sum += bin(bins, i, big);
		nonzero += bin(bins, i, big) != 0;
	}
	printf("hist %s lowpc=%llx highpc=%llx bins=%u rate=%u dimen=%.15s abbrev=%c nonzero=%lu sum=%lu\n",
	    h->bsd ? "bsd" : "magic", (unsigned long long)h->lowpc, (unsigned long long)h->highpc,
	    h->num_bins, h->prof_rate, h->bsd ? "" : h->dimen, h->bsd ? '-' : h->abbrev,
	    nonzero, sum);
	return GMON_OK;
}

static int
on_bsd_rate(void *ctx, uint32_t rate, const char *file, struct diag *d)
{
	printf("bsd44 rate=%u\n", rate);
	return 0;
}

static void
on_bsd_end(void *ctx)
{
	printf("bsd end\n");
}

static int
on_arc(void *ctx, uint64_t from, uint64_t self, uint64_t count, size_t at, struct diag *d)
{
	uint64_t f2, s2;

	if (cur_gnu && (gmon_arc_at(cur_file, cur_lay, at, &f2, &s2) != 0 || f2 != from || s2 != self ||
	    (cur_narcs++ == 0 && at != cur_file->first_arc)))
		printf("arc_at differs at %zu\n", at);
	printf("arc %llx -> %llx count=%llu\n", (unsigned long long)from, (unsigned long long)self,
	    (unsigned long long)count);
	return 0;
}

static int
on_bb(void *ctx, uint64_t addr, uint64_t count, struct diag *d)
{
	printf("bb %llx count=%llu\n", (unsigned long long)addr, (unsigned long long)count);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct gmon_ops ops = { on_hist, on_bsd_rate, on_bsd_end, on_arc, on_bb };
	struct gmon_layout lay = { 8, 0, 0 };
	enum gmon_format fmt = GMON_FMT_AUTO;
	unsigned input = 0;
	int version = 0, i, rc = 0;

	for (i = 1; i < argc; i++) {
		struct gmon_counts c;
		struct gmon_file f;
		struct diag d;
		size_t k;

		if (strcmp(argv[i], "--be") == 0) {
			lay.big_endian = big = 1;
			continue;
		} else if (strcmp(argv[i], "--32") == 0) {
			lay.addr_bytes = 4;
			continue;
		} else if (strncmp(argv[i], "--", 2) == 0) {
			fmt = strcmp(argv[i], "--bsd") == 0 ? GMON_FMT_BSD :
			    strcmp(argv[i], "--bsd44") == 0 ? GMON_FMT_BSD44 : GMON_FMT_MAGIC;
			continue;
		}
		diag_init(&d);
		if (gmon_load(argv[i], &f, &d) == 0) {
			printf("file %s arcs=%zu\n", argv[i], gmon_count_arcs(&f, fmt, &lay));
			cur_file = &f;
			cur_lay = &lay;
			cur_gnu = fmt == GMON_FMT_MAGIC ||
			    (fmt == GMON_FMT_AUTO && f.len >= 4 && memcmp(f.buf, "gmon", 4) == 0);
			cur_narcs = 0;
			if (gmon_parse(&f, argv[i], fmt, &lay, &ops, NULL, &input, &version, &c, &d) == 0)
				printf("counts version=%d hist=%d arcs=%d bbs=%d input=%u\n", c.version,
				    c.nhist, c.narcs, c.nbbs, input);
			gmon_unload(&f);
		}
		for (k = 0; k < d.n; k++)
			printf("error %s\n", d.msg[k].text);
		rc |= d.n != 0;
		diag_release(&d);
	}
	return rc;
}
