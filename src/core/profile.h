/* profile: the analysed profile, built once by profile_load() and read-only afterwards. */
#ifndef TGPROF_PROFILE_H
#define TGPROF_PROFILE_H

/*
 * This is the engine's public interface: batch printing and the browser
 * read a profile only through this header (and report.h).  A profile is
 * immutable once loaded; everything it points to is owned by it and lives
 * until profile_free(), but what a narrowed one borrows (profile_narrow()).
 * The engine never prints and never exits: failures
 * come back as messages in a struct diag.
 *
 * Numbers follow GNU gprof 2.40 exactly (see docs in man/tgprof.1): times
 * are in histogram ticks (divide by hz for seconds), counts are 64-bit.
 *
 * load.c implements profile_load(), narrow.c profile_narrow(), profile.c
 * the rest.  What the engine
 * does to the process, beyond its own memory:
 *   - profile_load() and profile_narrow() run short-lived threads of
 *     their own (joined before they return), and profile_load() maps the
 *     gmon files until profile_free();
 *   - reading a BSD-format file without a rate probes the system's tick
 *     rate with ITIMER_REAL, set back as it was (input/gmon.h gmon_hertz());
 *   - profile_demangle_style() selects libiberty's demangling style, which
 *     is process-wide: it applies to every profile, loaded or not;
 *   - allocations obey the process-wide limit of mem_set_limit() (util/mem.h),
 *     which the caller sets.
 * It sets no signal handler and changes no descriptor it did not open.
 */

#include <stddef.h>
#include <stdint.h>

#include "input/gmon.h"
#include "util/diag.h"
#include "util/sbuf.h"

#define PF_NONE UINT32_MAX

/*
 * A symbol: a function, with -l a source line, or a cycle ("cycle header").
 * 128 bytes, the array on a cache line (mem_lines()): the first line holds
 * all a line of the call graph reads of the symbol at either end of a
 * call (its name, index, cycle and calls) and what lists it there, the
 * second its addresses, flat times and the analysis' own fields.
 */
struct pf_sym {
	const char *name;	/* raw (mangled) name; NULL for a cycle */
	uint64_t ncalls;	/* calls from other functions (a cycle: from outside it) */
	uint64_t self_calls;	/* recursive calls (a cycle: calls between members) */
	double prop_self;	/* self time shown in the call graph */
	double prop_child;	/* callee time shown in the call graph */
	int index;		/* call-graph index [N], 0 when there are no arcs */
	int cycle;		/* cycle number (1..), 0 if none */
	uint32_t cyc_head;	/* its cycle's header id; itself if not in a cycle */
	uint32_t fold;		/* PF_CLONES_FOLD: the function a clone is folded into, or PF_NONE */
	uint8_t is_func;	/* a function entry (not a line or a label) */
	uint8_t is_static;	/* a local symbol */
	uint8_t mapped;		/* an object file standing for its functions (-R) */
	uint8_t print_flag;	/* gprof gives it a call-graph entry */
	uint8_t flat_ok;	/* passes -p/-P: listed in the flat profile (set as the symbols are made) */
	uint8_t profiler;	/* a function of an mcount runtime: its time is profiling's (core/truth.h) */
	uint16_t clone;		/* PF_CLONES_SHOW/FOLD: where a clone's name suffix starts, or 0 */
	/* (second line) */
	uint64_t addr;		/* entry address; 0 for a cycle */
	uint64_t end_addr;	/* last address gprof assigns to it */
	double time;		/* self time in ticks (gprof hist.time) */
	double child_time;	/* time of callees, not weighted by fract (flat "total") */
	double fract;		/* share of its time that propagates to callers */
	uint32_t file;		/* source file id (profile_file_name()), PF_NONE if unknown */
	int line;		/* source line, 0 if unknown */
	int top_order;		/* topological number: callees are smaller */
	uint32_t cyc_next;	/* next cycle member in gprof's (glom) order, or PF_NONE */
	uint32_t parents;	/* first arc in which it is the callee, newest first */
	uint32_t children;	/* first arc in which it is the caller, newest first */
};
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct pf_sym) == 128 && offsetof(struct pf_sym, addr) == 64,
    "struct pf_sym: two cache lines, the call graph's fields in the first");
#endif

/* A call arc, as gprof keeps it: one per (caller, callee) pair. */
struct pf_arc {
	uint32_t parent, child;		/* symbol ids */
	uint32_t next_parent;		/* next arc into the same child, or PF_NONE */
	uint32_t next_child;		/* next arc out of the same parent, or PF_NONE */
	uint64_t count;			/* calls; 0 for arcs found by -c */
	double time, child_time;	/* callee time propagated along it (ticks) */
};

/*
 * A histogram record: the sum of all records with the same range.  Its
 * bins are read in place from the first file that had it while the
 * files are read, then copied (hist_assign()), PF_HIST_BLOCK at a time,
 * the blocks with a count alone (most of a large program's have none);
 * once a second record adds to them, they are summed, as gprof sums,
 * into ints.  Nothing is read of a file after the load: a program run
 * again rewrites its gmon.out in place.  Read them with
 * profile_hist_bin().
 */
#define PF_HIST_BLOCK 1024
struct pf_hist {
	uint64_t lowpc, highpc;
	uint32_t num_bins;
	const unsigned char *raw;	/* while the files are read: the first record's bins, in its file */
	uint32_t *block;	/* then, per block: 1 + its place in BIN (in blocks), or 0 (every bin 0); owned */
	uint16_t *bin;		/* the blocks with a count; owned */
	int *sum;		/* or the sums once records were added (no BLOCK, BIN, RAW); owned */
};

/* What -i reports about one gmon file. */
struct pf_gmon_info {
	const char *path;
	struct gmon_counts counts;
};

/* Up to 10 basic blocks per symbol, as gprof records them (-l only). */
#define PF_NBBS 10
struct pf_bb {
	uint64_t addr[PF_NBBS];
	uint64_t calls[PF_NBBS];
};

/* The tables symspec options fill (gprof's sym_ids.h order): each exclude table follows its include table. */
enum spec_table {
	SPEC_INCL_GRAPH, SPEC_EXCL_GRAPH,	/* -f/-q, -e/-Q */
	SPEC_INCL_ARCS, SPEC_EXCL_ARCS,		/* -q a/b, -k and -Q a/b */
	SPEC_INCL_FLAT, SPEC_EXCL_FLAT,		/* -p, -P */
	SPEC_INCL_TIME, SPEC_EXCL_TIME,		/* -F/-n, -E/-N */
	SPEC_INCL_ANNO, SPEC_EXCL_ANNO,		/* -A, -J */
	SPEC_INCL_EXEC, SPEC_EXCL_EXEC,		/* -C, -Z */
	SPEC_NTABLES
};

/* One symspec option and the table it fills. */
struct pf_spec {
	const char *text;
	enum spec_table table;
};

/*
 * What becomes of GCC's clones of a function (foo.isra.0, foo.part.0,
 * foo.cold, ...: clones.h).  Batch mode keeps gprof's way.
 */
enum pf_clones {
	PF_CLONES_GPROF,	/* gprof's name filter: most clones add to the symbol before them */
	PF_CLONES_SHOW,		/* every clone a function of its own, "foo [clone .isra.0]" */
	PF_CLONES_FOLD		/* clones' time and calls are their original function's */
};

/* Options that shape the analysis (gprof's command line). */
struct pf_opts {
	const char *image;		/* executable, "a.out" by default */
	const char *const *gmon;	/* profile files; "-" is stdin */
	size_t ngmon;
	enum gmon_format format;	/* -O */
	const struct pf_spec *spec;	/* symspecs in command-line order */
	size_t nspec;
	const char *extsyms;		/* -S file */
	const char *map_file;		/* -R file: functions to object files */
	int line;			/* -l (also forced by -s) */
	int no_static;			/* -a */
	int functions_only;		/* -D */
	int static_calls;		/* -c */
	int want_bb_warning;		/* warn when basic-block counts are ignored */
	int source_lines;		/* keep what profile_lines() needs (srclines.h) */
	enum pf_clones clones;		/* not a gprof option: PF_CLONES_GPROF there */
	int flat_only;			/* only the flat profile will be read: no call graph's
					 * order (index numbers, callers' and callees' lists) */
	/*
	 * An earlier snapshot of the run that wrote the one gmon file
	 * (libtgmon's snapshots, core/since.h): its counts are taken out, and
	 * the profile is of the interval between the two.  NULL: none.
	 */
	const char *since;
	int reusable;			/* keep the symbols for profile_reload() (about 100 bytes a symbol) */
	int narrowable;			/* keep what makes profile_narrow() fast (memory: about
					 * 40 bytes a symbol and 30 an arc) */
	/*
	 * With narrowable: called once the symbols and arcs are read, before
	 * the analysis, with what profile_narrow_bytes() will say (for a
	 * caller that makes that memory ready meanwhile); or NULL.
	 */
	void (*sized)(void *ctx, size_t narrow_bytes);
	void *sized_ctx;
	/*
	 * Called as each step of profile_load() starts, with what it does
	 * ("reading the symbols") and how far the load is, in thousandths
	 * (about: its share of the time at a million functions); last with
	 * NULL and 1000.  NULL: not called.  It must not print through D.
	 */
	void (*progress)(void *ctx, const char *step, int permille);
	void *progress_ctx;
};

/* The analysed profile.  All fields are read-only for callers. */
struct profile {
	struct pf_sym *sym;	/* nsyms symbols by address, then ncycles cycles */
	uint32_t nsyms;
	uint32_t ncycles;	/* cycle k (1..) is sym[nsyms + k - 1] */
	struct pf_arc *arc;
	uint32_t narcs;
	uint32_t ntallied;	/* arcs 0..ntallied-1 came from gmon files */
	struct pf_hist *hist;
	uint32_t nhist;
	struct pf_bb *bb;	/* per symbol, or NULL without basic-block records */
	double hist_scale;	/* address units (2 bytes) per bin */
	long hz;		/* ticks per second; 0 if the files gave none */
	char dimension[16];	/* "seconds" */
	char dimension_abbrev;	/* 's' */
	double total_time;	/* flat profile total (ticks) */
	double print_time;	/* call-graph total (ticks) */
	unsigned input;		/* GMON_IN_* seen in the files */
	uint32_t *name_order;	/* symbols by raw name (strcmp), ties in address order */
	uint32_t *name_rank;	/* per symbol: its name's rank in name_order (equal names, equal ranks) */
	uint32_t *flat_order;	/* symbols in flat-profile order (gprof's cmp_time) */
	uint32_t *cg_order;	/* symbols and cycles in call-graph order (index - 1) */
	/*
	 * Callers of symbol i, in the order gprof prints them (least
	 * important first): caller_arc[caller_start[i] .. caller_start[i+1]).
	 * Callees likewise, most important first.  Arc ids.  cg_order and
	 * these are NULL when no file had call-graph data (input lacks
	 * GMON_IN_CG).
	 */
	uint32_t *caller_start, *caller_arc;
	uint32_t *callee_start, *callee_arc;
	struct pf_gmon_info *gmon;	/* one per file read */
	size_t ngmon;
	int line_mode;		/* built with -l */
	/*
	 * gprof writes 12 uninitialised stack bytes into gmon.sum's header;
	 * they hold the last histogram header it read: highpc, then num_bins
	 * (magic) or ncnt (BSD), in host byte order.  Kept for -s.
	 */
	uint64_t last_hist_highpc;
	uint32_t last_hist_word;
	struct pf_private *priv;	/* the engine's own state */
};

/*
 * Reads the executable and profile files and analyses them.  Returns 0
 * with *OUT set, or -1 with the reasons in D (warnings may be added either
 * way).  The caller owns *OUT.
 */
int profile_load(struct profile **out, const struct pf_opts *o, struct diag *d);
void profile_free(struct profile *p);

/*
 * The gmon files of O (and O->since) analysed as profile_load() would
 * analyse them with the executable of LIKE, without reading it again:
 * LIKE was loaded with pf_opts.reusable from the same executable, and
 * its options are used but for O's files (gmon, ngmon, format, since) and
 * progress.  For the snapshots of one running program, read again and
 * again.  0 with *OUT set, or -1 with the reasons in D.  *OUT borrows
 * LIKE's executable, symbols, names, symspecs and source lines: LIKE
 * must outlive it, and every profile narrowed from it.
 */
int profile_reload(const struct profile *like, const struct pf_opts *o, struct profile **out,
    struct diag *d);

/*
 * BASE analysed again with the symspecs EXTRA[0..N) after those it was
 * analysed with (the command line's, then those of the profile_narrow()
 * calls that made BASE): exactly what profile_load() given them all makes,
 * in a fraction of its time.  Only call-graph and time symspecs
 * (SPEC_INCL_GRAPH, SPEC_EXCL_GRAPH, SPEC_INCL_TIME, SPEC_EXCL_TIME: -f
 * -e -F -E -n -N) may be added: they act only once the files are read,
 * so the executable, symbols, histogram, arcs and cycles stay, and only
 * the propagation of flags and times and the orders that follow from it
 * are made anew.  Returns 0 with *OUT set, or -1 with the reasons in D
 * (the warnings of reading the files are not given again).
 *
 * *OUT is immutable like any profile, and the caller frees it with
 * profile_free(); but it borrows the read-only data of the profile that
 * profile_load() made (BASE, or the one BASE was narrowed from), which
 * must outlive it.  BASE itself may be freed first when it was narrowed.
 */
int profile_narrow(const struct profile *base, const struct pf_spec *extra, size_t n,
    struct profile **out, struct diag *d);

/*
 * About the memory profile_narrow() of P takes: its own tables and the
 * working arrays of the analysis (measured at a million functions: about
 * 190 bytes a symbol and 70 an arc), for a caller that would have it
 * ready in advance.
 */
size_t profile_narrow_bytes(const struct profile *p);

/* The count of bin I of H (gprof's int sum over the files). */
int profile_hist_bin(const struct profile *p, const struct pf_hist *h, uint32_t i);

/* The cycle header of cycle K (1..ncycles). */
const struct pf_sym *profile_cycle(const struct profile *p, int k);

/*
 * The members of the cycle whose header is symbol ID, in gprof's order
 * (the header's cyc_next list), *N of them: an array the profile owns
 * (one read in order, not a walk of the list, all over memory).  NULL
 * (*N 0) if ID is no cycle's header.
 */
const uint32_t *profile_cycle_members(const struct profile *p, uint32_t id, size_t *n);

/* Source file path for a file id (as the debugging information names it). */
const char *profile_file_name(const struct profile *p, uint32_t file);

/* Number of source files; ids are 0..n-1 in the order they were met. */
uint32_t profile_nfiles(const struct profile *p);

/*
 * The symbol containing ADDR as gprof finds it, or PF_NONE.  With
 * PF_CLONES_FOLD, a clone's addresses give the function it is folded into.
 */
uint32_t profile_lookup(const struct profile *p, uint64_t addr);

/*
 * Demangled name of a symbol as gprof prints it (bfd_demangle with gprof's
 * flags), or NULL if the name is not mangled.  The caller frees it.
 */
char *profile_demangle(const struct profile *p, const char *name);
/*
 * The same appended to OUT: 1, or 0 (OUT as it was) if NAME is not
 * mangled.  In the usual styles nothing is allocated but OUT's room:
 * threads demangling at once do not take the heap's lock for each name.
 */
int profile_demangle_into(const struct profile *p, const char *name, struct sbuf *out);

/*
 * Selects the demangling style (gprof's --demangle=STYLE) for the whole
 * process (libiberty keeps it in a global); 0, or -1 if STYLE is unknown.
 */
int profile_demangle_style(const char *style);

/* Address size of the executable in bytes, its byte order (-s writes both). */
int profile_addr_bytes(const struct profile *p);
int profile_big_endian(const struct profile *p);

/* -R: the map of functions to object files (input/mapfile.h); empty without -R. */
struct mapfile;
const struct mapfile *profile_map(const struct profile *p);

/*
 * Sorts IDS[0..N) by KEY[0..N) (aligned with IDS), the greatest first,
 * stably (equal keys keep their order; -0 equals 0; NaN keys go last),
 * in linear time: for the browser's sorts.  0, or -1 when out of memory
 * (IDS unchanged).
 */
int profile_sort_down(uint32_t *ids, const double *key, size_t n);

/* Whether a symbol passes -C/-Z (exec counts) and -A/-J (annotation). */
int profile_in_exec(const struct profile *p, uint32_t id);
int profile_in_anno(const struct profile *p, uint32_t id);

#endif
