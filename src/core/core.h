/* core: the engine's private profile state, shared by the modules in src/core that build a profile. */
#ifndef TGPROF_CORE_H
#define TGPROF_CORE_H

/*
 * Only src/core includes this.  load.c runs the pipeline that builds a
 * profile (syms, then the gmon files through hist and arcs, then cg and
 * order, each with a header of its own); those modules share this state
 * while profile_load() runs.  Afterwards it keeps what lookups,
 * demangling, the symspec filters and profile_lines() still need, and
 * profile_free() releases it.
 */

#include "linemap.h"
#include "order.h"
#include "profile.h"
#include "prop.h"
#include "srcfile.h"
#include "symindex.h"
#include "symspec.h"
#include "input/bin.h"
#include "input/mapfile.h"
#include "util/mem.h"
#include "util/prefault.h"
#include "util/strpool.h"
#include "util/u64map.h"

/*
 * The arcs by (parent, child): open addressing over arc ids, the keys read
 * from the arcs themselves, so a slot is 4 bytes (10 million arcs: 64 MiB).
 */
struct arcindex {
	uint32_t *slot;			/* owned; PF_NONE marks an empty slot */
	size_t cap;			/* a power of two, or 0 */
};

/*
 * What tallying an arc record reads of a symbol (arcs_tally_begin()), 16
 * bytes apiece where the symbols are 128: the lookups at random of a
 * million records stay in the caches.
 */
struct tally_fact {
	uint64_t end_addr;	/* the symbol's */
	uint32_t lookup;	/* profile_lookup() in it: the symbol, or the function it is folded into */
	uint32_t callee;	/* what a call into it counts for (TALLY_FOLDED: folded into it), or PF_NONE */
};
#define TALLY_FOLDED 0x80000000u

/* Arc records waiting for arcs_flush() (arcs.h), in the file's order. */
#define ARCS_BATCH 64
struct arcqueue {
	uint64_t from[ARCS_BATCH], self[ARCS_BATCH], count[ARCS_BATCH];
	unsigned n;
};

struct pf_private {
	struct bin *bin;		/* the executable; open for the profile's lifetime */
	struct srcfiles files;		/* source files in gprof's creation order */
	struct symspecs specs;		/* symspec tables */
	struct strpool names;		/* names the profile owns (-l, -S) */
	struct mapfile map;		/* -R: functions to object files */
	struct arcindex arcmap;		/* until the call graph is assembled */
	struct arcqueue arcq;		/* while the gmon files are read */
	struct ahead *ahead;		/* while one is read: its later records judged ahead */
	/*
	 * Tallying by sorting (arcs.h), while the gmon files are read: each
	 * record kept is a provisional arc, and a key of (parent, child,
	 * record number) in IDBITS, IDBITS and SEQBITS bits; arcs_settle()
	 * merges them.  ARCKEY NULL: tallied through the index instead.
	 */
	uint64_t *arckey;
	size_t arckeycap;
	unsigned idbits, seqbits;
	struct prefault sym_fault;	/* syms_prepare()'s, stopped by syms_load() */
	/* Between arcs_tally_begin() and arcs_tally_end(): each symbol's facts, and room to count calls into it. */
	struct tally_fact *fact;
	uint64_t *calls;
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
	struct since *since;		/* during profile_load() with pf_opts.since only */
	uint64_t arcs_known;		/* arc records into a known symbol, filtered or not */
	/*
	 * Of them, how many enter their symbol at each offset (ARCS_ENTRY_REACH
	 * at most): a program's own profile has them at its prologues' one or
	 * two offsets of mcount's call, another program's all over.
	 */
	uint64_t arc_offset[64];
	struct pf_linemap lines;	/* source_lines: the text's lines */
	struct pf_site_rec *site_rec;	/* source_lines: call sites as read... */
	struct pf_site *site;		/* ... and once loaded (linemap_finish()), by AT */
	size_t nsite, sitecap;
	/*
	 * Each cycle's members in gprof's order (its header's cyc_next list),
	 * cycle by cycle: cycle K's (header nsyms + K) at cyc_member[
	 * cyc_member_start[K] .. cyc_member_start[K + 1]).  Owned; a narrowed
	 * profile borrows its root's (the same cycles).
	 */
	uint32_t *cyc_member, *cyc_member_start;
	/*
	 * The symspecs the profile was analysed with (the command line's,
	 * then profile_narrow()'s), their texts in spec_names: both owned.
	 */
	struct pf_spec *spec;
	size_t nspec;
	struct strpool spec_names;
	/*
	 * A profile made by profile_narrow(): the loaded profile whose data
	 * it borrows (narrow.c lists what it owns); NULL for a loaded one.
	 */
	const struct profile *root;
	/*
	 * pf_opts.reusable: the symbols as syms_load() made them, before the
	 * analysis, for profile_reload(); owned.  A profile made by
	 * profile_reload(): IMAGE, the profile whose executable, symbols,
	 * names, symspecs and source lines it borrows (load.c lists them),
	 * else NULL.
	 */
	struct pf_sym *pristine;
	const struct profile *image;
	/*
	 * pf_opts.narrowable: what profile_narrow() needs (narrow.c), owned:
	 * cg.c's graph, the order plan, and for each place of the plan's
	 * groups the graph's slot of its arc (or PF_NONE).  Else empty.
	 */
	struct prop_graph graph;
	struct order_plan oplan;
	uint32_t *group_slot[2];
	struct symtab spec_syms;	/* the symbols as symspec_build() reads them */
};

/*
 * profile_lookup() before folding: the symbol containing ADDR as gprof's
 * sym_lookup() finds it (a clone's addresses give the clone), or PF_NONE.
 * profile.c.
 */
uint32_t pf_sym_at(const struct profile *p, uint64_t addr);

/*
 * Keeps A[0..NA) then B[0..NB) as PV's symspecs (pv->spec, texts copied
 * into pv->spec_names, which must be initialised); 0 or -1 (out of
 * memory).  narrow.c.
 */
int pf_keep_specs(struct pf_private *pv, const struct pf_spec *a, size_t na,
    const struct pf_spec *b, size_t nb);

/* pf_opts.narrowable: the rest of what profile_narrow() needs, once the call graph is assembled; 0 or -1.  narrow.c. */
int pf_narrow_prepare(struct profile *p);

/*
 * pf_narrow_prepare() and the orders from its plan, in parts for two
 * threads: pf_narrow_begin() once the cycles are known (cg_cycles(), and
 * while cg_propagate() runs if wanted: it reads the symbols' names,
 * calls and cycles and the arcs' ends), then, the propagation done,
 * pf_narrow_group() for the callers (J 0) and the callees (J 1) and
 * pf_narrow_finish() (the call graph's order), at the same time if
 * wanted: each writes only its own arrays and reads what the analysis
 * wrote; then pf_narrow_end() once all three have returned (whatever they
 * returned).  The orders are those order_cg(), order_callers() and
 * order_callees() give, from the plan in linear time (through those
 * where there is no plan).  0 or -1.  narrow.c.
 */
int pf_narrow_begin(struct profile *p);
int pf_narrow_group(struct profile *p, int j);
int pf_narrow_finish(struct profile *p);
void pf_narrow_end(struct profile *p);

#endif
