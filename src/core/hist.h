/* hist: histogram records and the assignment of their samples to symbols, as gprof does it. */
#ifndef TGPROF_HIST_H
#define TGPROF_HIST_H

#include <stdint.h>

#include "input/gmon.h"

struct profile;

/*
 * The histogram's callbacks from the gmon reader (input/gmon.h), then
 * hist_assign() once all files are read.  Times are in ticks.
 */
enum gmon_status hist_on_record(struct profile *p, const struct gmon_hist *h,
    const unsigned char *bins, const char *file, uint32_t *nbins, struct diag *d);
int hist_on_bsd_rate(struct profile *p, uint32_t rate, const char *file, struct diag *d);
void hist_on_bsd_end(struct profile *p);

/*
 * The N bins at BINS (an earlier snapshot's, since.h) taken out of P's
 * record of the range [LOWPC, HIGHPC) and N bins, each down to 0 at
 * least: 0; 1 if P has no such record; -1 out of memory.
 */
int hist_take_out(struct profile *p, uint64_t lowpc, uint64_t highpc, uint32_t n, const unsigned char *bins);

/*
 * Copies each record's bins from its file (profile.h's pf_hist), then
 * credits every bin's samples to the symbols it overlaps (p->sym[].time,
 * total_time).  0, or -1 out of memory.
 */
int hist_assign(struct profile *p);

/* (uint64_t)V as gprof's x86-64 build computes it, for any V (NaN and infinities too). */
uint64_t hist_u64(double v);

/*
 * gprof's hist_clip_symbol_address(): clips [*LO, *HI) to the histogram
 * record it overlaps (empty if none); 1 if one does, 0 if none, -1 if it
 * overlaps several.
 */
int hist_clip(const struct profile *p, uint64_t *lo, uint64_t *hi);

#endif
