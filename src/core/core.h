/* core: the engine's private profile state, shared by the modules in src/core that build a profile. */
#ifndef TGPROF_PFPRIV_H
#define TGPROF_PFPRIV_H

/*
 * Only src/ includes this.  The modules that build a profile (syms, hist,
 * arcs, cg, profile) share it while profile_load() runs; afterwards it
 * keeps what lookups, demangling and the symspec filters still need.
 */

#include "input/bin.h"
#include "input/mapfile.h"
#include "util/mem.h"
#include "util/strpool.h"
#include "profile.h"
#include "srcfile.h"
#include "symindex.h"
#include "symspec.h"
#include "util/u64map.h"

/*
 * With pf_opts.source_lines: the text's source lines.  From span[i].lo to
 * span[i + 1].lo (the last: to END) the code is line LINE of file FILE
 * (PF_NONE: no line there).
 */
struct pf_linespan {
	uint64_t lo;
	uint32_t file, line;
};

struct pf_linemap {
	struct pf_linespan *span;
	size_t n, cap;
	uint64_t end;
	int kept;		/* built: profile_lines() may read it */
};

/*
 * A call site: COUNT calls to symbol CHILD with return address FROM (one
 * gmon arc record); AT is the call instruction's last byte (callsite.h).
 */
struct pf_site {
	uint64_t from, at, count;
	uint32_t child;
};

/*
 * The arcs by (parent, child): open addressing over arc ids, the keys read
 * from the arcs themselves, so a slot is 4 bytes (10 million arcs: 64 MiB).
 */
struct arcindex {
	uint32_t *slot;			/* owned; PF_NONE marks an empty slot */
	size_t cap;			/* a power of two, or 0 */
};

struct pf_private {
	struct bin *bin;		/* the executable; open for the profile's lifetime */
	struct srcfiles files;		/* source files in gprof's creation order */
	struct symspecs specs;		/* symspec tables */
	struct strpool names;		/* names the profile owns (-l, -S) */
	struct mapfile map;		/* -R: functions to object files */
	struct arcindex arcmap;		/* until the call graph is assembled */
	struct gmon_file *gfile;	/* the gmon files, loaded: histograms point into them */
	size_t ngfiles;
	size_t arccap, histcap, symcap;
	struct symindex index;		/* symbol start addresses, for lookups */
	/*
	 * PF_CLONES_FOLD: per symbol, a function's first clone folded into
	 * it, a clone's next sibling; PF_NONE ends a list.  NULL otherwise.
	 */
	uint32_t *clone_link;
	int has_after;			/* see struct symtab: gprof's sym[len] */
	uint64_t after_addr;
	int addr_bytes, big_endian;
	int bb_warned;			/* "ignoring basic-block exec counts" said once */
	const struct pf_opts *opts;	/* during profile_load() only */
	uint64_t arcs_known;		/* arc records between two known symbols, filtered or not */
	struct pf_linemap lines;	/* source_lines: the text's lines */
	struct pf_site *site;		/* source_lines: call sites, by FROM once loaded */
	size_t nsite, sitecap;
};

/* syms.c: fills p->sym (real symbols), p->priv->files and p->priv->specs. */
int syms_load(struct profile *p, const struct pf_opts *o, struct diag *d);

/* profile.c: profile_lookup() before folding (a clone's addresses give the clone). */
uint32_t pf_sym_at(const struct profile *p, uint64_t addr);

/* hist.c: the gmon reader's histogram callbacks and sample assignment. */
enum gmon_status hist_on_record(struct profile *p, const struct gmon_hist *h,
    const unsigned char *bins, const char *file, uint32_t *nbins, struct diag *d);
int hist_on_bsd_rate(struct profile *p, uint32_t rate, const char *file, struct diag *d);
void hist_on_bsd_end(struct profile *p);
void hist_assign(struct profile *p);
/* (uint64_t)V as gprof's x86-64 build computes it, for any V (NaN and infinities too). */
uint64_t hist_u64(double v);
/*
 * gprof's hist_clip_symbol_address(): clips [*LO, *HI) to the histogram
 * record it overlaps (empty if none); 1 if one does, 0 if none, -1 if it
 * overlaps several.
 */
int hist_clip(const struct profile *p, uint64_t *lo, uint64_t *hi);

/* arcs.c: call arcs. */
int arcs_tally(struct profile *p, uint64_t from, uint64_t self, uint64_t count, struct diag *d);
int arcs_add(struct profile *p, uint32_t parent, uint32_t child, uint64_t count, int by_range);
uint32_t arcs_find(const struct profile *p, uint32_t parent, uint32_t child);
/* Room for N arcs in the index without growing it; 0 or -1. */
int arcs_reserve_index(struct profile *p, size_t n);
void arcs_release_index(struct profile *p);

/* callscan.c: -c, arcs found in machine code. */
int callscan_symbol(struct profile *p, uint32_t id, const unsigned char *text, struct diag *d);

/* srclines.c: what profile_lines() reads, gathered while loading. */
int srclines_map_add(struct pf_linemap *m, uint64_t lo, uint32_t file, uint32_t line);
int srclines_add_site(struct profile *p, uint64_t from, uint32_t child, uint64_t count);
int srclines_finish(struct profile *p);	/* after the arcs are read */
void srclines_release(struct pf_private *pv);

/* cg.c: cycles, propagation and the call-graph order (gprof's cg_assemble). */
int cg_assemble(struct profile *p, const unsigned char *text, struct diag *d);

/* order.c: flat-profile order (gprof's cmp_time), call-graph order and indices (cmp_total). */
int order_names(struct profile *p);
int order_flat(struct profile *p);
int order_cg(struct profile *p);
/*
 * order.c: the arcs grouped by caller and by callee in creation order
 * (profile caller_arc, callee_arc), then sorted into gprof's print order.
 */
int order_group(struct profile *p);
int order_callers(struct profile *p);
int order_callees(struct profile *p);

#endif
