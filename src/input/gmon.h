/* gmon: reads gmon.out files (GNU magic, old BSD, 4.4BSD; either byte order) as a stream of records. */
#ifndef TGPROF_GMON_H
#define TGPROF_GMON_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

enum gmon_format {
	GMON_FMT_AUTO,		/* magic if the file starts with "gmon", else BSD */
	GMON_FMT_MAGIC,
	GMON_FMT_BSD,
	GMON_FMT_BSD44,
	GMON_FMT_PROF		/* refused, as gprof does */
};

/* What gprof's gmon_input records (-i, default output styles, -s). */
enum {
	GMON_IN_HIST = 1,
	GMON_IN_CG = 2,
	GMON_IN_BB = 4
};

/* How addresses and integers are encoded: the executable's conventions. */
struct gmon_layout {
	int addr_bytes;		/* 4 or 8 */
	int big_endian;
	int sign_extend;	/* 32-bit addresses are sign-extended */
};

/* A histogram header. */
struct gmon_hist {
	uint64_t lowpc, highpc;
	uint32_t num_bins;
	uint32_t avail;		/* complete bins the file still holds */
	uint32_t prof_rate;	/* magic format only */
	char dimen[15];		/* magic format only; not NUL-terminated */
	char abbrev;		/* magic format only */
	int bsd;		/* from a BSD header */
	uint32_t ncnt;		/* BSD: header plus histogram bytes */
	int samp_bytes;		/* BSD: ncnt minus the header size, as gprof's int */
};

/* Answers of the hist callback. */
enum gmon_status {
	GMON_OK,
	GMON_ERR,		/* refused; the message is in the diag */
	GMON_SHORT		/* acceptable, but fewer bins than announced */
};

/*
 * The profile builder.  Every callback may refuse with a message in D;
 * reading stops there, as gprof exits there.
 */
struct gmon_ops {
	/*
	 * A histogram header; BINS points at the h->avail 16-bit counts that
	 * follow it in the file (valid while the file stays loaded).  Sets
	 * *NBINS to how many bins the record takes: gprof reads as many as
	 * the record it adds to holds, whatever this header says.
	 */
	enum gmon_status (*hist)(void *ctx, const struct gmon_hist *h, const unsigned char *bins,
	    const char *file, uint32_t *nbins, struct diag *d);
	/* A 4.4BSD header's profiling rate (before its histogram). */
	int (*bsd_rate)(void *ctx, uint32_t rate, const char *file, struct diag *d);
	/* The end of a BSD file (gprof then asks the system for a rate). */
	void (*bsd_end)(void *ctx);
	/* An arc record; AT: where it starts in the file (a GNU record's tag). */
	int (*arc)(void *ctx, uint64_t from, uint64_t self, uint64_t count, size_t at,
	    struct diag *d);
	int (*bb)(void *ctx, uint64_t addr, uint64_t count, struct diag *d);
};

/* What -i reports for one file. */
struct gmon_counts {
	int version;		/* gprof's global file version after this file */
	int nhist, narcs, nbbs;
	uint64_t runid;		/* libtgmon's run identifier (gmon_out.h), 0 if none */
};

/* A gmon file in memory: mapped, or read (standard input). */
struct gmon_file {
	unsigned char *buf;
	size_t len;
	int mapped;	/* buf is mmap()ed from the file: its pages may be dropped and read again */
	/* What gmon_count_arcs() found: its arc records, where a GNU file's first starts (or 0). */
	size_t narcs, first_arc;
};

/*
 * Loads PATH ("-" = standard input); 0, or -1 with a message in D.  A
 * regular file is mapped, whatever its size; a FIFO or standard input is
 * read up to GMON_MAX_STREAM bytes; anything else (a device, a
 * directory) is refused without being read.
 */
#define GMON_MAX_STREAM ((size_t)4 << 30)
int gmon_load(const char *path, struct gmon_file *f, struct diag *d);
void gmon_unload(struct gmon_file *f);

/*
 * The tick rate of a BSD file that does not state one: this system's,
 * probed as gprof's hertz() probes it (an interval timer of 1 us, read
 * back).  The process's ITIMER_REAL is set back as it was.
 */
long gmon_hertz(void);

/*
 * The number of call-arc records in F, without checking it (a size hint:
 * 0 for what does not parse), also into F's narcs; into its first_arc,
 * where the first starts in a GNU file (0: none, or not a GNU file).
 */
size_t gmon_count_arcs(struct gmon_file *f, enum gmon_format fmt, const struct gmon_layout *lay);

/* The size of a GNU file's arc record under LAY. */
size_t gmon_arc_size(const struct gmon_layout *lay);

/*
 * FROM and SELF of the arc record at byte AT of the GNU file F, as
 * gmon_parse() would give them were a record to start there: 0, or -1
 * when no arc record's tag is there or the record would pass the end.
 * Safe from any thread while F stays loaded (it reads F alone).
 */
int gmon_arc_at(const struct gmon_file *f, const struct gmon_layout *lay, size_t at,
    uint64_t *from, uint64_t *self);

/*
 * Parses F (named PATH in messages), calling OPS.  *INPUT and *VERSION
 * carry gprof's global state from file to file.  Returns 0, or -1 with a
 * message in D.
 */
int gmon_parse(const struct gmon_file *f, const char *path, enum gmon_format fmt,
    const struct gmon_layout *lay, const struct gmon_ops *ops, void *ctx,
    unsigned *input, int *version, struct gmon_counts *counts, struct diag *d);

#endif
