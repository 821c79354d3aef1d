/* export: the analysed profile in the formats other tools read (tgprof --export=FORMAT). */
#ifndef TGPROF_EXPORT_H
#define TGPROF_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"
#include "core/measure.h"
#include "util/diag.h"
#include "util/sbuf.h"

/* What the writers need beyond the report. */
struct export_opts {
	const char *image;		/* the executable as named on the command line */
	const char *const *gmon;	/* the gmon files, as named */
	size_t ngmon;
	/* Call stacks, or NULL: folded and pprof write them, json adds their times. */
	const struct pf_measure *stacks;
	int measured;			/* with STACKS: their times, not gprof's (the default, but --estimated) */
	double node_pct, edge_pct;	/* dot: nodes and edges under these shares of the time left out */
	/* What is taken out of the histogram's times (core/truth.h; STACKS' own are already). */
	struct truth_opts truth;
	double call_ps;
	int thread_frames;		/* folded: each stack under a frame naming its thread (--thread-frames) */
};

/*
 * A format: its name for --export, whether it is binary (never written to
 * a terminal), whether it needs the source lines (pf_opts.source_lines),
 * and its writer: the whole profile of R to F.  0, or -1 with the reason
 * in D (a write error leaves errno).
 */
struct export_format {
	const char *name;
	int binary;
	int lines;
	int (*write)(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d);
};

/* Whether function ID is exported: it has a flat-profile row, an arc, or measured time (EO's stacks). */
int export_shown(struct report *r, const struct export_opts *eo, uint32_t id);

/*
 * Function ID's self time as exported, ticks: the program's own as EO
 * says (core/truth.h); 0 for a profiler's function whose time does not
 * count.  When EO's measured stacks are narrowed to some threads
 * (measure_threads()), the samples with it innermost in their stacks
 * (the measure's self, in the histogram's ticks) instead: the
 * histogram is the whole process's.
 */
double export_self(struct report *r, const struct export_opts *eo, uint32_t id);

/* What EO's times have taken out, for a format's metadata (report_truth_note()'s words), or nothing. */
void export_truth_note(struct report *r, const struct export_opts *eo, struct sbuf *sb);

/* The format called NAME, or NULL. */
const struct export_format *export_find(const char *name);

/*
 * R exported in format EF (with EO) to the file PATH, written whole or
 * not at all (util/afile.h): the command line's -o and the browser's W.
 * 0, or -1 with the reason in D.
 */
int export_save(const struct export_format *ef, struct report *r, const struct export_opts *eo,
    const char *path, struct diag *d);

/* The formats' names, ", "-separated, into SB (for messages and help). */
void export_names(struct sbuf *sb);

#endif
