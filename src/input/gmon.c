/* gmon: reads gmon.out files (GNU magic, old BSD, 4.4BSD; either byte order) as a stream of records. */
#include "gmon.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "gmon_out.h"
#include "util/mem.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

/* A mapped file is walked a window at a time (see slide()). */
#define WINDOW ((size_t)16 << 20)

/* The whole file in memory and a read position; every read is bounds-checked. */
struct cur {
	const unsigned char *buf;
	size_t len, off;
	const struct gmon_layout *lay;
	const char *path;
	int mapped;		/* buf is a mapping of the file: slide() over it */
	size_t back, front;	/* pages of [back, front) are in memory */
};

/*
 * Called as C's position moves on: the window it reaches is faulted in at
 * once (as MAP_POPULATE would, without the whole file), those behind are
 * given back.  Memory stays at about a window however large the file; a
 * page read again later (a histogram's bins) comes back from the file.
 */
static void
slide(struct cur *c)
{
	size_t from = c->off / WINDOW * WINDOW;

	if (!c->mapped || c->off >= c->len || from < c->front)
		return;
	if (from > c->back)
		madvise((void *)(c->buf + c->back), from - c->back, MADV_DONTNEED);
	c->back = from;
	c->front = c->len - from > WINDOW ? from + WINDOW : c->len;
	madvise((void *)(c->buf + from), c->front - from, MADV_POPULATE_READ);
}

/*
 * Opens PATH ("-": standard input, which may be a socket too) if it is a
 * regular file or a FIFO: a
 * device (a link to /dev/zero, as a tarball can ship it), a directory or a
 * socket is refused before it is opened, and checked again once open.
 * The descriptor, or -1 with a message in D.
 */
static int
open_profile(const char *path, struct stat *st, struct diag *d)
{
	struct stat before;
	int fd;

	if (strcmp(path, "-") == 0) {
		if (fstat(0, st) != 0) {
			diag_add(d, DIAG_ERROR, "%s: %s", path, strerror(errno));
			return -1;
		}
		if (S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode))
			return 0;
		diag_add(d, DIAG_ERROR, "%s: standard input is not a file or a pipe", path);
		return -1;
	}
	if (stat(path, &before) == 0 && !S_ISREG(before.st_mode) && !S_ISFIFO(before.st_mode)) {
		diag_add(d, DIAG_ERROR, "%s: not a regular file", path);
		return -1;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, st) != 0) {
		diag_add(d, DIAG_ERROR, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode)) {
		diag_add(d, DIAG_ERROR, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Reads what is not a regular file (a pipe, standard input) into *BUF,
 * up to GMON_MAX_STREAM bytes: more is refused, not read for ever.
 */
static int
read_stream(int fd, const char *path, unsigned char **buf, size_t *len, struct diag *d)
{
	size_t cap = 0, n = 0;
	ssize_t r = 0;

	for (;;) {
		if (n > GMON_MAX_STREAM) {
			diag_add(d, DIAG_ERROR, "%s: more than %zu MiB from a pipe (give a regular file)",
			    path, GMON_MAX_STREAM >> 20);
			return -1;
		}
		if (mem_reserve(buf, &cap, n + 65536, 1) != 0)
			return diag_oom(d);
		r = read(fd, *buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	if (r < 0)
		diag_add(d, DIAG_ERROR, "%s: %s", path, strerror(errno));
	return r < 0 ? -1 : 0;
}

/* Maps or reads PATH; fills *BUF and *LEN, *MAPPED says how to free it. */
static int
load_file(const char *path, unsigned char **buf, size_t *len, int *mapped, struct diag *d)
{
	struct stat st;
	int fd, rc;

	*buf = NULL;
	*mapped = 0;
	if ((fd = open_profile(path, &st, d)) < 0)
		return -1;
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p != MAP_FAILED) {
			*buf = p;
			*len = (size_t)st.st_size;
			*mapped = 1;
			if (fd != 0)
				close(fd);
			return 0;
		}
	}
	rc = read_stream(fd, path, buf, len, d);
	if (rc != 0) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	if (fd != 0)
		close(fd);
	return rc;
}

/* N more bytes are there (the offset may already be past the end). */
static int
have(const struct cur *c, size_t n)
{
	return c->off <= c->len && c->len - c->off >= n;
}

static uint64_t
get_n(struct cur *c, int n)
{
	const unsigned char *p = c->buf + c->off;
	uint64_t v = 0;
	int i;

	c->off += (size_t)n;
	if (c->lay->big_endian) {
		for (i = 0; i < n; i++)
			v = v << 8 | p[i];
		return v;
	}
	for (i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* Reads an address; returns -1 (nothing consumed) at end of data. */
static int
get_vma(struct cur *c, uint64_t *v)
{
	int n = c->lay->addr_bytes;

	if (!have(c, (size_t)n))
		return -1;
	*v = get_n(c, n);
	if (n == 4 && c->lay->sign_extend)
		*v = (uint64_t)(int64_t)(int32_t)(uint32_t)*v;
	return 0;
}

static int
get_u32(struct cur *c, uint32_t *v)
{
	if (!have(c, 4))
		return -1;
	*v = (uint32_t)get_n(c, 4);
	return 0;
}

static int
eof_error(struct cur *c, struct diag *d)
{
	diag_add(d, DIAG_ERROR, "%s: unexpected end of file", c->path);
	return -1;
}

static int
read_hist_rec(struct cur *c, const struct gmon_ops *ops, void *ctx, struct diag *d)
{
	struct gmon_hist h;
	uint32_t nbins = 0;

	memset(&h, 0, sizeof h);
	if (get_vma(c, &h.lowpc) || get_vma(c, &h.highpc) || get_u32(c, &h.num_bins) ||
	    get_u32(c, &h.prof_rate) || !have(c, 16))
		return eof_error(c, d);
	memcpy(h.dimen, c->buf + c->off, 15);
	h.abbrev = (char)c->buf[c->off + 15];
	c->off += 16;
	h.avail = (c->len - c->off) / 2 > UINT32_MAX ? UINT32_MAX : (uint32_t)((c->len - c->off) / 2);
	switch (ops->hist(ctx, &h, c->buf + c->off, c->path, &nbins, d)) {
	case GMON_ERR:
		return -1;
	case GMON_SHORT:
		diag_add(d, DIAG_ERROR, "%s: unexpected EOF after reading %u of %u samples",
		    c->path, h.avail, nbins);
		return -1;
	case GMON_OK:
		break;
	}
	c->off += (size_t)nbins * 2;
	return 0;
}

static int
read_arc_rec(struct cur *c, const struct gmon_ops *ops, void *ctx, struct diag *d)
{
	size_t at = c->off - 1;
	uint64_t from, self;
	uint32_t count;

	if (get_vma(c, &from) || get_vma(c, &self) || get_u32(c, &count))
		return eof_error(c, d);
	return ops->arc(ctx, from, self, count, at, d);
}

/* Version 0 wrote host-sized fields and strings; skip a NUL-terminated one. */
static void
skip_string(struct cur *c)
{
	while (c->off < c->len && c->buf[c->off++] != '\0')
		;
}

static int
read_bb_rec(struct cur *c, int version, const struct gmon_ops *ops, void *ctx, struct diag *d)
{
	uint32_t nblocks, b;
	uint64_t addr, count;

	if (get_u32(c, &nblocks))
		return eof_error(c, d);
	/* gprof converts the count from target byte order twice. */
	if (c->lay->big_endian)
		nblocks = __builtin_bswap32(nblocks);
	if (version == 0)
		skip_string(c);
	for (b = 0; b < nblocks; b++) {
		if (version == 0) {
			if (!have(c, 16))
				goto short_rec;
			memcpy(&count, c->buf + c->off, 8);
			memcpy(&addr, c->buf + c->off + 8, 8);
			c->off += 16;
			skip_string(c);
			skip_string(c);
			if (!have(c, 4))
				goto short_rec;
			c->off += 4;
		} else if (get_vma(c, &addr) || get_vma(c, &count)) {
			goto short_rec;
		}
		if (ops->bb(ctx, addr, count, d) != 0)
			return -1;
	}
	return 0;
short_rec:
	diag_add(d, DIAG_ERROR, "%s: truncated basic-block record at byte %zu", c->path, c->off);
	return -1;
}

static int
read_magic(struct cur *c, int *version, const struct gmon_ops *ops, void *ctx,
    unsigned *input, struct gmon_counts *n, struct diag *d)
{
	int rc = 0;

	c->off = 4;
	*version = (int)get_n(c, 4);
	if (*version != GMON_VERSION && *version != 0) {
		diag_add(d, DIAG_ERROR, "%s: file has unsupported version %d", c->path, *version);
		return -1;
	}
	c->off = GMON_HDR_SIZE;
	while (rc == 0 && c->off < c->len) {
		unsigned tag;

		slide(c);
		tag = c->buf[c->off++];

		switch (tag) {
		case GMON_TAG_TIME_HIST:
			n->nhist++;
			*input |= GMON_IN_HIST;
			rc = read_hist_rec(c, ops, ctx, d);
			break;
		case GMON_TAG_CG_ARC:
			n->narcs++;
			*input |= GMON_IN_CG;
			rc = read_arc_rec(c, ops, ctx, d);
			break;
		case GMON_TAG_BB_COUNT:
			n->nbbs++;
			*input |= GMON_IN_BB;
			rc = read_bb_rec(c, *version, ops, ctx, d);
			break;
		default:
			diag_add(d, DIAG_ERROR, "%s: found bad tag %u at byte %zu (file corrupted?)",
			    c->path, tag, c->off - 1);
			rc = -1;
		}
	}
	return rc;
}

/* The histogram part of a BSD file, after its header. */
static int
read_bsd_hist(struct cur *c, struct gmon_hist *h, const struct gmon_ops *ops, void *ctx,
    struct gmon_counts *n, struct diag *d)
{
	uint32_t nbins = 0;

	h->avail = (c->len - c->off) / 2 > UINT32_MAX ? UINT32_MAX : (uint32_t)((c->len - c->off) / 2);
	switch (ops->hist(ctx, h, c->buf + c->off, c->path, &nbins, d)) {
	case GMON_ERR:
		return -1;
	case GMON_SHORT:
		diag_add(d, DIAG_ERROR, "%s: unexpected EOF after reading %d/%d bins",
		    c->path, (int)h->avail - 1, (int)nbins);
		return -1;
	case GMON_OK:
		break;
	}
	if (h->num_bins)
		n->nhist++;
	c->off += (size_t)nbins * 2;
	return 0;
}

static int
read_bsd(struct cur *c, enum gmon_format fmt, const struct gmon_ops *ops, void *ctx,
    unsigned *input, struct gmon_counts *n, struct diag *d)
{
	int big = c->lay->addr_bytes == 8;
	uint32_t ncnt, version, rate, hdrsize;
	uint64_t from, self, count;
	struct gmon_hist h;

	memset(&h, 0, sizeof h);
	*input = GMON_IN_HIST | GMON_IN_CG;
	c->off = 0;
	if (get_vma(c, &h.lowpc) || get_vma(c, &h.highpc) || get_u32(c, &ncnt) ||
	    get_u32(c, &version))
		goto too_short;
	if (version == GMON_BSD44_VERSION) {
		if (get_u32(c, &rate))
			goto too_short;
		if (ops->bsd_rate(ctx, rate, c->path, d) != 0)
			return -1;
		hdrsize = big ? GMON_HDRSIZE_BSD44_64 : GMON_HDRSIZE_BSD44_32;
	} else if (fmt == GMON_FMT_BSD44) {
		diag_add(d, DIAG_ERROR, "%s: file has bad magic cookie", c->path);
		return -1;
	} else {
		hdrsize = big ? GMON_HDRSIZE_OLDBSD_64 : GMON_HDRSIZE_OLDBSD_32;
	}
	c->off = hdrsize < c->len ? hdrsize : c->len;
	h.bsd = 1;
	h.ncnt = ncnt;
	h.samp_bytes = (int)(ncnt - hdrsize);
	h.num_bins = (uint32_t)((size_t)(long)h.samp_bytes / 2);
	if (read_bsd_hist(c, &h, ops, ctx, n, d) != 0)
		return -1;
	for (;; slide(c)) {
		size_t at = c->off;

		if (get_vma(c, &from) || get_vma(c, &self) || !have(c, big ? 8 : 4))
			break;
		count = get_n(c, big ? 8 : 4);
		n->narcs++;
		if (ops->arc(ctx, from, self, count, at, d) != 0)
			return -1;
	}
	ops->bsd_end(ctx);
	return 0;
too_short:
	diag_add(d, DIAG_ERROR, "%s: file too short to be a gmon file", c->path);
	return -1;
}

/* libtgmon's run identifier in a GNU header's spare bytes (gmon_out.h), little-endian; 0: none. */
static uint64_t
runid(const unsigned char *hdr)
{
	uint64_t id = 0;
	int i;

	for (i = GMON_RUNID_LEN - 1; i >= 0; i--)
		id = id << 8 | hdr[GMON_RUNID_OFFSET + i];
	return id;
}

static int
parse(struct cur *c, enum gmon_format fmt, const struct gmon_ops *ops, void *ctx,
    unsigned *input, int *version, struct gmon_counts *n, struct diag *d)
{
	int magic;

	if (c->len < GMON_HDR_SIZE) {
		diag_add(d, DIAG_ERROR, "%s: file too short to be a gmon file", c->path);
		return -1;
	}
	magic = memcmp(c->buf, GMON_MAGIC, GMON_MAGIC_LEN) == 0;
	if (fmt == GMON_FMT_MAGIC && !magic) {
		diag_add(d, DIAG_ERROR, "%s: file has bad magic cookie", c->path);
		return -1;
	}
	if (fmt == GMON_FMT_MAGIC || (fmt == GMON_FMT_AUTO && magic)) {
		n->runid = runid(c->buf);
		return read_magic(c, version, ops, ctx, input, n, d);
	}
	return read_bsd(c, fmt, ops, ctx, input, n, d);
}

size_t
gmon_count_arcs(struct gmon_file *f, enum gmon_format fmt, const struct gmon_layout *lay)
{
	size_t vma = (size_t)lay->addr_bytes, off = GMON_HDR_SIZE, n = 0;
	struct cur c = { f->buf, f->len, 0, lay, "", f->mapped, 0, 0 };
	uint32_t k;

	f->first_arc = f->narcs = 0;
	if (f->len < GMON_HDR_SIZE)
		return 0;
	if (fmt == GMON_FMT_BSD || fmt == GMON_FMT_BSD44 ||
	    (fmt == GMON_FMT_AUTO && memcmp(f->buf, GMON_MAGIC, GMON_MAGIC_LEN) != 0))
		return f->len / (3 * vma);	/* BSD: arcs fill the file after the histogram */
	while ((c.off = off) < f->len) {
		unsigned tag;

		slide(&c);
		tag = f->buf[off++];
		c.off = off + 2 * vma;
		if (tag == GMON_TAG_CG_ARC) {
			if (n++ == 0)
				f->first_arc = off - 1;
			off += 2 * vma + 4;
		} else if (tag == GMON_TAG_TIME_HIST && have(&c, 4)) {
			k = (uint32_t)get_n(&c, 4);
			off += 2 * vma + 8 + 16 + 2 * (size_t)k;
		} else if (tag == GMON_TAG_BB_COUNT) {
			c.off = off;
			if (!have(&c, 4))
				break;
			k = (uint32_t)get_n(&c, 4);
			off += 4 + 2 * vma * k;
		} else {
			break;
		}
	}
	return f->narcs = n;
}

size_t
gmon_arc_size(const struct gmon_layout *lay)
{
	return 1 + 2 * (size_t)lay->addr_bytes + 4;
}

int
gmon_arc_at(const struct gmon_file *f, const struct gmon_layout *lay, size_t at,
    uint64_t *from, uint64_t *self)
{
	struct cur c = { f->buf, f->len, at, lay, "", 0, 0, 0 };

	if (!have(&c, gmon_arc_size(lay)) || f->buf[at] != GMON_TAG_CG_ARC)
		return -1;
	c.off++;
	return get_vma(&c, from) != 0 || get_vma(&c, self) != 0 ? -1 : 0;
}

int
gmon_load(const char *path, struct gmon_file *f, struct diag *d)
{
	f->len = 0;
	f->narcs = f->first_arc = 0;
	return load_file(path, &f->buf, &f->len, &f->mapped, d);
}

void
gmon_unload(struct gmon_file *f)
{
	if (f->mapped)
		munmap(f->buf, f->len);
	else
		free(f->buf);
	f->buf = NULL;
	f->len = 0;
	f->mapped = 0;
}

int
gmon_parse(const struct gmon_file *f, const char *path, enum gmon_format fmt,
    const struct gmon_layout *lay, const struct gmon_ops *ops, void *ctx,
    unsigned *input, int *version, struct gmon_counts *counts, struct diag *d)
{
	struct cur c;
	int rc;

	memset(counts, 0, sizeof *counts);
	c.buf = f->buf;
	c.len = f->len;
	c.off = 0;
	c.lay = lay;
	c.path = path;
	c.mapped = f->mapped;
	c.back = c.front = 0;
	rc = parse(&c, fmt, ops, ctx, input, version, counts, d);
	counts->version = *version;
	return rc;
}

long
gmon_hertz(void)
{
	struct itimerval tim, old;

	memset(&tim, 0, sizeof tim);
	tim.it_interval.tv_usec = 1;
	if (setitimer(ITIMER_REAL, &tim, &old) != 0)
		return sysconf(_SC_CLK_TCK);
	setitimer(ITIMER_REAL, &old, &tim);
	if (tim.it_interval.tv_usec >= 2)
		return 1000000 / tim.it_interval.tv_usec;
	return sysconf(_SC_CLK_TCK);
}
