/* hist: histogram records and the assignment of their samples to symbols, as gprof does it. */
#include "hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

/*
 * Histogram units are 2-byte "UNIT"s: bin i of a record covers scaled
 * addresses [lowpc/2 + trunc(scale*i), lowpc/2 + trunc(scale*(i+1))).
 * A symbol covers [addr/2, next symbol's addr/2).  A bin's count is split
 * among the symbols it overlaps, in proportion to the overlap:
 *
 *        sym_low                                      sym_high
 *           v                                            v
 *           +--------------------------------------------+
 *      |  ->|   |<-        ->|      |<-        ->|    |<-  |
 *      +--------+            +------+            +---------+
 *   bin_low  bin_high    bin_low  bin_high    bin_low  bin_high
 *
 * credit = overlap * count / scale.  Because the bin bounds are truncated
 * while the divisor is not, a bin can credit more than its count (gprof's
 * "100.16%"); that is reproduced.
 */

/*
 * (uint64_t)V as GCC's x86-64 code computes it for gprof's bin bounds,
 * defined for every V: a damaged file can make the scale infinite or NaN
 * (no bins), where C leaves the conversion undefined.
 */
uint64_t
hist_u64(double v)
{
	const double two63 = 9223372036854775808.0;

	if (v < two63)		/* false for NaN */
		return v >= -two63 ? (uint64_t)(int64_t)v : 0x8000000000000000ULL;
	v -= two63;
	return (v < two63 ? (uint64_t)(int64_t)v : 0x8000000000000000ULL) ^ 0x8000000000000000ULL;
}

static double
scale_of(uint64_t lowpc, uint64_t highpc, uint32_t num_bins)
{
	return (double)((highpc - lowpc) / 2) / num_bins;
}

int
hist_clip(const struct profile *p, uint64_t *lo, uint64_t *hi)
{
	uint32_t i;
	int found = 0;

	if (p->nhist == 0) {
		*hi = *lo;
		return 0;
	}
	for (i = 0; i < p->nhist; i++) {
		uint64_t cl = p->hist[i].lowpc > *lo ? p->hist[i].lowpc : *lo;
		uint64_t ch = p->hist[i].highpc < *hi ? p->hist[i].highpc : *hi;

		if (cl < ch) {
			if (found)
				return -1;
			found = 1;
			*lo = cl;
			*hi = ch;
		}
	}
	if (!found)
		*hi = *lo;
	return found;
}

static unsigned
bin_at(const unsigned char *b, uint32_t i, int big)
{
	return big ? (unsigned)b[2 * i] << 8 | b[2 * i + 1] : (unsigned)b[2 * i + 1] << 8 | b[2 * i];
}

/* Bin I of H, where it is not summed: in its file while they are read, then in its blocks. */
static unsigned
stored_bin(const struct profile *p, const struct pf_hist *h, uint32_t i)
{
	uint32_t b;

	if (h->raw != NULL)
		return bin_at(h->raw, i, p->priv->big_endian);
	b = h->block[i / PF_HIST_BLOCK];
	return b != 0 ? h->bin[(size_t)(b - 1) * PF_HIST_BLOCK + i % PF_HIST_BLOCK] : 0;
}

int
profile_hist_bin(const struct profile *p, const struct pf_hist *h, uint32_t i)
{
	return h->sum != NULL ? h->sum[i] : (int)stored_bin(p, h, i);
}

/* How many of N bins block B holds. */
static uint32_t
block_len(uint32_t n, uint32_t b)
{
	return n - b * PF_HIST_BLOCK < PF_HIST_BLOCK ? n - b * PF_HIST_BLOCK : PF_HIST_BLOCK;
}

/* Whether a bin of block B of the N bins at RAW has a count. */
static int
block_counted(const unsigned char *raw, uint32_t n, uint32_t b)
{
	const unsigned char *at = raw + 2 * (size_t)b * PF_HIST_BLOCK;
	uint32_t len = block_len(n, b), k;
	uint64_t word, any = 0;

	for (k = 0; k + 4 <= len; k += 4) {
		memcpy(&word, at + 2 * k, sizeof word);
		any |= word;
	}
	for (; k < len; k++)
		any |= at[2 * k] | at[2 * k + 1];
	return any != 0;
}

/* H's bins copied from its file (RAW): the blocks with a count.  0 or -1 (out of memory). */
static int
store_bins(struct pf_hist *h, int big)
{
	const unsigned char *raw = h->raw;
	uint32_t nblock = h->num_bins / PF_HIST_BLOCK + 1, used = 0, b, k, len;

	if ((h->block = mem_calloc(nblock, sizeof *h->block)) == NULL)
		return -1;
	for (b = 0; (uint64_t)b * PF_HIST_BLOCK < h->num_bins; b++)
		if (block_counted(raw, h->num_bins, b))
			h->block[b] = ++used;
	if ((h->bin = mem_array((size_t)used * PF_HIST_BLOCK + 1, sizeof *h->bin)) == NULL)
		return -1;
	for (b = 0; (uint64_t)b * PF_HIST_BLOCK < h->num_bins; b++) {
		uint16_t *to;

		if (h->block[b] == 0)
			continue;
		to = h->bin + (size_t)(h->block[b] - 1) * PF_HIST_BLOCK;
		len = block_len(h->num_bins, b);
		for (k = 0; k < len; k++)
			to[k] = (uint16_t)bin_at(raw + 2 * (size_t)b * PF_HIST_BLOCK, k, big);
	}
	h->raw = NULL;
	return 0;
}

/* A record of its own, its bins at BINS (in the file) until hist_assign(). */
static int
new_record(struct profile *p, uint64_t lowpc, uint64_t highpc, uint32_t num_bins,
    const unsigned char *bins, struct diag *d)
{
	struct pf_hist *h;

	if (mem_reserve(&p->hist, &p->priv->histcap, p->nhist + 1, sizeof *p->hist) != 0)
		return diag_oom(d);
	h = &p->hist[p->nhist++];
	memset(h, 0, sizeof *h);
	h->lowpc = lowpc;
	h->highpc = highpc;
	h->num_bins = num_bins;
	h->raw = bins;
	return 0;
}

/* Record H's bins as sums of its own (H->sum), once; 0 or -1 (out of memory). */
static int
own_sums(const struct profile *p, struct pf_hist *h)
{
	uint32_t i;

	if (h->sum != NULL)
		return 0;
	if ((h->sum = mem_array(h->num_bins, sizeof *h->sum)) == NULL)
		return -1;
	for (i = 0; i < h->num_bins; i++)
		h->sum[i] = (int)stored_bin(p, h, i);
	free(h->block);
	free(h->bin);
	h->block = NULL;
	h->bin = NULL;
	h->raw = NULL;
	return 0;
}

/* Adds the N bins at BINS to record H, as gprof's int sums (wrapping). */
static int
add_bins(struct profile *p, struct pf_hist *h, const unsigned char *bins, uint32_t n,
    struct diag *d)
{
	int big = p->priv->big_endian;
	uint32_t i;

	if (own_sums(p, h) != 0)
		return diag_oom(d);
	for (i = 0; i < n; i++)
		h->sum[i] = (int)((unsigned)h->sum[i] + bin_at(bins, i, big));
	return 0;
}

int
hist_take_out(struct profile *p, uint64_t lowpc, uint64_t highpc, uint32_t n, const unsigned char *bins)
{
	struct pf_hist *h = NULL;
	uint32_t i;
	int b;

	for (i = 0; i < p->nhist && h == NULL; i++)
		if (p->hist[i].lowpc == lowpc && p->hist[i].highpc == highpc && p->hist[i].num_bins == n)
			h = &p->hist[i];
	if (h == NULL)
		return 1;
	if (own_sums(p, h) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		b = (int)bin_at(bins, i, p->priv->big_endian);
		h->sum[i] = h->sum[i] > b ? h->sum[i] - b : 0;
	}
	return 0;
}

/* Later magic records must keep the first one's unit and scale. */
static int
check_compatible(struct profile *p, const struct gmon_hist *h, double scale, struct diag *d)
{
	if (strncmp(h->dimen, p->dimension, 15) != 0) {
		diag_add(d, DIAG_ERROR, "dimension unit changed between histogram records "
		    "from '%s' to '%.15s'", p->dimension, h->dimen);
		return -1;
	}
	if (h->abbrev != p->dimension_abbrev) {
		diag_add(d, DIAG_ERROR, "dimension abbreviation changed between histogram "
		    "records from '%c' to '%c'", p->dimension_abbrev, h->abbrev);
		return -1;
	}
	if (fabs(p->hist_scale - scale) > 0.000001) {
		diag_add(d, DIAG_ERROR, "different scales in histogram records");
		return -1;
	}
	return 0;
}

/* gprof's hist_read_rec() header handling for a GNU magic record. */
static enum gmon_status
magic_record(struct profile *p, const struct gmon_hist *h, const unsigned char *bins,
    uint32_t *nbins, struct diag *d)
{
	double scale = scale_of(h->lowpc, h->highpc, h->num_bins);
	uint64_t lo = h->lowpc, hi = h->highpc;
	uint32_t i;
	int found;

	if (p->nhist == 0) {
		p->hz = h->prof_rate;
		memcpy(p->dimension, h->dimen, 15);
		p->dimension_abbrev = h->abbrev;
		p->hist_scale = scale;
	} else if (check_compatible(p, h, scale, d) != 0) {
		return GMON_ERR;
	}
	for (i = 0; i < p->nhist; i++) {
		if (p->hist[i].lowpc == h->lowpc && p->hist[i].highpc == h->highpc) {
			*nbins = p->hist[i].num_bins;
			if (h->avail < *nbins)
				return GMON_SHORT;
			return add_bins(p, &p->hist[i], bins, *nbins, d) ? GMON_ERR : GMON_OK;
		}
	}
	found = hist_clip(p, &lo, &hi);
	if (found < 0 || lo != hi) {
		diag_add(d, DIAG_ERROR, "%s", found < 0 ?
		    "found a symbol that covers several histogram records" :
		    "overlapping histogram records");
		return GMON_ERR;
	}
	*nbins = h->num_bins;
	if (h->avail < h->num_bins)
		return GMON_SHORT;
	return new_record(p, h->lowpc, h->highpc, h->num_bins, bins, d) ? GMON_ERR : GMON_OK;
}

/* The histogram of a BSD file: all such files must match the first one. */
static enum gmon_status
bsd_record(struct profile *p, const struct gmon_hist *h, const unsigned char *bins,
    const char *file, uint32_t *nbins, struct diag *d)
{
	if (p->nhist > 0 && (h->lowpc != p->hist[0].lowpc || h->highpc != p->hist[0].highpc ||
	    h->num_bins != p->hist[0].num_bins)) {
		diag_add(d, DIAG_ERROR, "%s: incompatible with first gmon file", file);
		return GMON_ERR;
	}
	if (h->samp_bytes < 0 || (p->nhist > 0 ? p->hist[0].lowpc > p->hist[0].highpc :
	    h->lowpc > h->highpc)) {
		diag_add(d, DIAG_ERROR, "%s: file does not appear to be in gmon.out format", file);
		return GMON_ERR;
	}
	*nbins = h->num_bins;
	if (h->avail < h->num_bins)
		return GMON_SHORT;
	if (p->nhist > 0)
		return add_bins(p, &p->hist[0], bins, h->num_bins, d) ? GMON_ERR : GMON_OK;
	p->hist_scale = scale_of(h->lowpc, h->highpc, h->num_bins);
	return new_record(p, h->lowpc, h->highpc, h->num_bins, bins, d) ? GMON_ERR : GMON_OK;
}

enum gmon_status
hist_on_record(struct profile *p, const struct gmon_hist *h, const unsigned char *bins,
    const char *file, uint32_t *nbins, struct diag *d)
{
	p->last_hist_highpc = h->highpc;
	p->last_hist_word = h->bsd ? h->ncnt : h->num_bins;
	if (h->bsd)
		return bsd_record(p, h, bins, file, nbins, d);
	return magic_record(p, h, bins, nbins, d);
}

int
hist_on_bsd_rate(struct profile *p, uint32_t rate, const char *file, struct diag *d)
{
	if (p->nhist == 0)
		p->hz = rate;
	else if (p->hz != (int)rate) {
		diag_add(d, DIAG_ERROR, "%s: profiling rate incompatible with first gmon file", file);
		return -1;
	}
	return 0;
}

void
hist_on_bsd_end(struct profile *p)
{
	if (p->hz == 0) {
		p->hz = gmon_hertz();
		if (p->hz <= 0)
			p->hz = 1;
	}
}

/* One record's bins, credited to the symbols they overlap (gprof's hist_assign_samples_1). */
static void
assign_record(struct profile *p, const struct pf_hist *r)
{
	uint64_t lowpc = r->lowpc / 2, bin_low, bin_high, sym_low, sym_high, overlap;
	const uint64_t *addr = p->priv->index.addr;
	uint32_t j, k = 1, len = p->nsyms;
	uint64_t i;
	double count_time, credit;

	for (i = 0; i < r->num_bins; i++) {
		unsigned bin_count;

		/* Most blocks are empty: stepped over. */
		if (r->sum == NULL && i % PF_HIST_BLOCK == 0 && r->block[i / PF_HIST_BLOCK] == 0) {
			i += PF_HIST_BLOCK - 1;
			continue;
		}
		bin_count = r->sum ? (unsigned)r->sum[i] : stored_bin(p, r, (uint32_t)i);
		if (bin_count == 0)
			continue;
		bin_low = lowpc + hist_u64(p->hist_scale * i);
		bin_high = lowpc + hist_u64(p->hist_scale * (i + 1));
		count_time = bin_count;
		p->total_time += count_time;
		for (j = k - 1; j < len; k = ++j) {
			sym_low = addr[j] / 2;
			/* gprof reads sym[len] here: a never-scaled entry, i.e. 0. */
			sym_high = j + 1 < len ? addr[j + 1] / 2 : 0;
			if (bin_high < sym_low)
				break;
			if (bin_low >= sym_high)
				continue;
			overlap = (bin_high < sym_high ? bin_high : sym_high) -
			    (bin_low > sym_low ? bin_low : sym_low);
			if (overlap > 0) {
				struct pf_sym *s = &p->sym[p->sym[j].fold != PF_NONE ? p->sym[j].fold : j];

				credit = overlap * count_time / p->hist_scale;
				if (s->flat_ok)
					s->time += credit;
				else
					p->total_time -= credit;
			}
		}
	}
}

int
hist_assign(struct profile *p)
{
	uint32_t i;

	for (i = 0; i < p->nhist; i++) {
		if (p->hist[i].raw != NULL && store_bins(&p->hist[i], p->priv->big_endian) != 0)
			return -1;
		assign_record(p, &p->hist[i]);
	}
	return 0;
}
