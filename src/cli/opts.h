/* opts: tgprof's command line, which is GNU gprof's plus a few options of its own. */
#ifndef TGPROF_OPTS_H
#define TGPROF_OPTS_H

#include <stddef.h>

#include "config.h"

#include "core/profile.h"
#include "core/truth.h"
#include "print/batch.h"
#include "print/diffout.h"
#include "print/export.h"

struct opts {
	struct pf_opts load;		/* what shapes the analysis */
	struct batch_opts out;		/* what batch mode prints */
	unsigned user_specified;	/* BATCH_* styles named on the command line */
	int batch;			/* --batch */
	int clones_given;		/* --clones was on the command line */
	int mouse;			/* the browser takes mouse events */
	int tabstop;			/* the browser's source pane: tab stops every N columns */
	const char *stacks;		/* --stacks: the one gmon file's stacks file, or NULL */
	int no_stacks;			/* --no-stacks */
	int folded;			/* --folded: print the stacks folded, not the report */
	int measured;			/* --measured: the call graph's times from the stacks */
	int estimated;			/* --estimated: exports and trees keep gprof's estimates */
	int tree;			/* --tree: print the call tree */
	const char *tree_root;		/* --tree=FUNC: its root, or NULL: the whole program */
	int tree_callers;		/* --callers: the tree of the callers, bottom-up */
	int collapse;			/* --collapse: recursion in trees, FLAME_RECURSION_* (core/flame.h) */
	int library_rows;		/* --library-rows: the browser shows library time as rows */
	const char *thread;		/* --thread=SPEC: the threads whose stacks are measured, or NULL: all */
	int threads;			/* --threads: print the threads */
	int thread_frames;		/* --thread-frames: folded stacks under their thread's frame */
	struct truth_opts truth;	/* --raw, --with-profiler: what is taken out of the times */
	int files_given;		/* file names on the command line (the rest: a.out, gmon.out) */
	double call_ps;			/* --call-cost, picoseconds; < 0: what the stacks files say */
	const struct export_format *export;	/* --export=FORMAT, or NULL */
	const char *output;		/* -o FILE: where an export goes, NULL for stdout */
	double node_pct, edge_pct;	/* --node-threshold, --edge-threshold (dot) */
	int diff;			/* --diff: compare two profiles (diffcmd.c) */
	int json;			/* --format=json */
	struct diffout_opts cmp;	/* --fail-if-*; its sides are diffcmd.c's */
	unsigned long min_count;	/* -m */
	int table_length;		/* -t */
	int all_lines;			/* -x */
	int separate_files;		/* -y */
	char **search;			/* -I dirs then $GPROF_PATH, colon lists */
	size_t nsearch;
	struct pf_spec *spec;		/* owned array; texts point into argv */
	size_t nspec, speccap;
	const char **gmon;		/* owned array; texts point into argv */
};

/* What opts_parse() decided. */
enum opts_result {
	OPTS_RUN,		/* go on */
	OPTS_EXIT_OK,		/* -h or -v printed; exit 0 */
	OPTS_EXIT_FAIL		/* message printed; exit 1 */
};

/*
 * Parses ARGV (after @FILE expansion) with gprof's rules: GNU getopt with
 * gprof's option string, so options and files may be mixed and optional
 * arguments must be attached (-pfoo, --flat-profile=foo).
 */
enum opts_result opts_parse(struct opts *o, int argc, char **argv);
/*
 * O's analysis as the browser needs it: GCC's clones folded unless
 * --clones says, the source lines, what makes x and f fast; and freed
 * memory kept (the narrowings and refreshes make and drop tables of the
 * profile's size).
 */
void opts_browser_load(struct opts *o);

/* Where libraries' detached debugging files are, by build ID: $TGPROF_DEBUG_DIR, else /usr/lib/debug. */
const char *opts_debug_dir(void);
/* O with the defaults of a command line that names nothing (opts_parse() starts there). */
void opts_defaults(struct opts *o);
void opts_release(struct opts *o);

/* Prints the usage text to F. */
void opts_usage(FILE *f);

#if HAVE_UI
#include "ui/browser.h"

/* The browser's options from O, for the screen of TGPROF_SIZE (80x24 by default). */
void opts_browser(const struct opts *o, struct browser_opts *b);
#endif

#endif
