/* sumfile: writes gmon.sum (-s), the sum of the profiles, byte for byte as GNU gprof does. */
#include "sumfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/gmon_out.h"
#include "util/afile.h"
#include "util/mem.h"

struct writer {
	FILE *f;
	int addr_bytes, big;
};

static void
put_n(struct writer *w, uint64_t v, int n)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < n; i++)
		b[w->big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	fwrite(b, 1, (size_t)n, w->f);
}

static void
put_vma(struct writer *w, uint64_t v)
{
	put_n(w, v, w->addr_bytes);
}

/* Arcs read from the gmon files (not those -c added), callers in address order. */
static void
put_arcs(struct writer *w, const struct profile *p, int magic)
{
	uint32_t i, a;

	for (i = 0; i < p->nsyms; i++) {
		for (a = p->sym[i].children; a != PF_NONE; a = p->arc[a].next_child) {
			const struct pf_arc *arc = &p->arc[a];

			if (a >= p->ntallied)
				continue;
			if (magic)
				fputc(GMON_TAG_CG_ARC, w->f);
			put_vma(w, p->sym[arc->parent].addr);
			put_vma(w, p->sym[arc->child].addr);
			put_n(w, arc->count, magic ? 4 : w->addr_bytes);
		}
	}
}

static void
put_bins(struct writer *w, const struct profile *p, const struct pf_hist *h)
{
	uint32_t i;

	for (i = 0; i < h->num_bins; i++)
		put_n(w, (uint64_t)(unsigned)profile_hist_bin(p, h, i), 2);
}

static void
put_blocks(struct writer *w, const struct profile *p)
{
	uint32_t i, n = 0;
	int k;

	for (i = 0; p->bb != NULL && i < p->nsyms; i++)
		for (k = 0; k < PF_NBBS && p->bb[i].addr[k] != 0; k++)
			n++;
	fputc(GMON_TAG_BB_COUNT, w->f);
	put_n(w, n, 4);
	for (i = 0; p->bb != NULL && i < p->nsyms; i++) {
		for (k = 0; k < PF_NBBS && p->bb[i].addr[k] != 0; k++) {
			put_vma(w, p->bb[i].addr[k]);
			put_vma(w, p->bb[i].calls[k]);
		}
	}
}

static void
write_magic(struct writer *w, const struct profile *p)
{
	uint64_t spare_pc = p->last_hist_highpc;
	uint32_t spare_word = p->last_hist_word, r;

	fwrite(GMON_MAGIC, 1, GMON_MAGIC_LEN, w->f);
	put_n(w, GMON_VERSION, 4);
	/* The "spare" bytes gprof leaves uninitialised (see struct profile). */
	fwrite(&spare_pc, sizeof spare_pc, 1, w->f);
	fwrite(&spare_word, sizeof spare_word, 1, w->f);
	for (r = 0; (p->input & GMON_IN_HIST) && r < p->nhist; r++) {
		fputc(GMON_TAG_TIME_HIST, w->f);
		put_vma(w, p->hist[r].lowpc);
		put_vma(w, p->hist[r].highpc);
		put_n(w, p->hist[r].num_bins, 4);
		put_n(w, (uint64_t)p->hz, 4);
		fwrite(p->dimension, 1, GMON_DIMEN_LEN, w->f);
		fputc(p->dimension_abbrev, w->f);
		put_bins(w, p, &p->hist[r]);
	}
	if (p->input & GMON_IN_CG)
		put_arcs(w, p, 1);
	if (p->input & GMON_IN_BB)
		put_blocks(w, p);
}

static int
write_bsd(struct writer *w, const struct profile *p, enum gmon_format format, struct diag *d)
{
	static const unsigned char pad[12];
	int bsd44 = format == GMON_FMT_BSD44 || p->hz != gmon_hertz();
	uint32_t hdr;

	if (p->nhist == 0) {
		diag_add(d, DIAG_ERROR, "no histogram to write in BSD format");
		return -1;
	}
	if (bsd44)
		hdr = w->addr_bytes == 8 ? GMON_HDRSIZE_BSD44_64 : GMON_HDRSIZE_BSD44_32;
	else
		hdr = w->addr_bytes == 8 ? GMON_HDRSIZE_OLDBSD_64 : GMON_HDRSIZE_OLDBSD_32;
	put_vma(w, p->hist[0].lowpc);
	put_vma(w, p->hist[0].highpc);
	put_n(w, (uint32_t)(p->hist[0].num_bins * 2 + hdr), 4);
	if (bsd44) {
		put_n(w, GMON_BSD44_VERSION, 4);
		put_n(w, (uint32_t)p->hz, 4);
		fwrite(pad, 1, sizeof pad, w->f);
	}
	put_bins(w, p, &p->hist[0]);
	put_arcs(w, p, 0);
	return 0;
}

int
sumfile_write(const struct profile *p, const char *path, enum gmon_format format,
    struct diag *d)
{
	struct afile af;
	struct writer w;
	int rc = 0;

	if (afile_open(&af, path) != 0) {
		diag_add(d, DIAG_ERROR, "%s: %s", path, strerror(errno));
		return -1;
	}
	w.f = af.f;
	w.addr_bytes = profile_addr_bytes(p);
	w.big = profile_big_endian(p);
	if (format == GMON_FMT_BSD || format == GMON_FMT_BSD44)
		rc = write_bsd(&w, p, format, d);
	else
		write_magic(&w, p);
	if (rc != 0) {
		afile_abort(&af);
		return -1;
	}
	if (afile_commit(&af) != 0) {
		diag_add(d, DIAG_ERROR, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
