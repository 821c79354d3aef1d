/* opts: tgprof's command line, which is GNU gprof's plus a few options of its own. */
#include "config.h"
#include "opts.h"

#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/sbuf.h"

/* gprof 2.40's option string; -g and -G are in its switch but not here. */
#define GPROF_SHORTOPTS "aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::"
/* tgprof's own short options, after gprof's. */
#define OWN_SHORTOPTS "o:"

enum {
	OPT_DEMANGLE = 150,
	OPT_NO_DEMANGLE,
	OPT_INLINE_FILE_NAMES,
	OPT_BATCH,
	OPT_NO_MOUSE,
	OPT_TABSTOP,
	OPT_CLONES,
	OPT_STACKS,
	OPT_SINCE,
	OPT_NO_STACKS,
	OPT_FOLDED,
	OPT_MEASURED,
	OPT_ESTIMATED,
	OPT_TREE,
	OPT_CALLERS,
	OPT_COLLAPSE,
	OPT_LIBRARY_ROWS,
	OPT_THREAD,
	OPT_THREADS,
	OPT_THREAD_FRAMES,
	OPT_CLOCK,
	OPT_RAW,
	OPT_WITH_PROFILER,
	OPT_CALL_COST,
	OPT_EXPORT,
	OPT_NODE_THRESHOLD,
	OPT_EDGE_THRESHOLD,
	OPT_DIFF,
	OPT_FORMAT,
	OPT_FAIL_CALLS,
	OPT_FAIL_SLOWER,
	OPT_FAIL_TOTAL
};

static const struct option long_options[] = {
	{ "line", no_argument, NULL, 'l' },
	{ "no-static", no_argument, NULL, 'a' },
	{ "ignore-non-functions", no_argument, NULL, 'D' },
	{ "external-symbol-table", required_argument, NULL, 'S' },
	{ "annotated-source", optional_argument, NULL, 'A' },
	{ "no-annotated-source", optional_argument, NULL, 'J' },
	{ "flat-profile", optional_argument, NULL, 'p' },
	{ "no-flat-profile", optional_argument, NULL, 'P' },
	{ "graph", optional_argument, NULL, 'q' },
	{ "no-graph", optional_argument, NULL, 'Q' },
	{ "exec-counts", optional_argument, NULL, 'C' },
	{ "no-exec-counts", optional_argument, NULL, 'Z' },
	{ "function-ordering", no_argument, NULL, 'r' },
	{ "file-ordering", required_argument, NULL, 'R' },
	{ "file-info", no_argument, NULL, 'i' },
	{ "sum", no_argument, NULL, 's' },
	{ "all-lines", no_argument, NULL, 'x' },
	{ "demangle", optional_argument, NULL, OPT_DEMANGLE },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "directory-path", required_argument, NULL, 'I' },
	{ "display-unused-functions", no_argument, NULL, 'z' },
	{ "inline-file-names", no_argument, NULL, OPT_INLINE_FILE_NAMES },
	{ "min-count", required_argument, NULL, 'm' },
	{ "print-path", no_argument, NULL, 'L' },
	{ "separate-files", no_argument, NULL, 'y' },
	{ "static-call-graph", no_argument, NULL, 'c' },
	{ "table-length", required_argument, NULL, 't' },
	{ "time", required_argument, NULL, 'n' },
	{ "no-time", required_argument, NULL, 'N' },
	{ "width", required_argument, NULL, 'w' },
	{ "brief", no_argument, NULL, 'b' },
	{ "debug", optional_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ "file-format", required_argument, NULL, 'O' },
	{ "traditional", no_argument, NULL, 'T' },
	{ "version", no_argument, NULL, 'v' },
	{ "batch", no_argument, NULL, OPT_BATCH },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "tabstop", required_argument, NULL, OPT_TABSTOP },
	{ "clones", required_argument, NULL, OPT_CLONES },
	{ "stacks", required_argument, NULL, OPT_STACKS },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "no-stacks", no_argument, NULL, OPT_NO_STACKS },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "measured", no_argument, NULL, OPT_MEASURED },
	{ "estimated", no_argument, NULL, OPT_ESTIMATED },
	{ "tree", optional_argument, NULL, OPT_TREE },
	{ "callers", no_argument, NULL, OPT_CALLERS },
	{ "collapse", required_argument, NULL, OPT_COLLAPSE },
	{ "library-rows", no_argument, NULL, OPT_LIBRARY_ROWS },
	{ "thread", required_argument, NULL, OPT_THREAD },
	{ "threads", no_argument, NULL, OPT_THREADS },
	{ "thread-frames", no_argument, NULL, OPT_THREAD_FRAMES },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "with-profiler", no_argument, NULL, OPT_WITH_PROFILER },
	{ "call-cost", required_argument, NULL, OPT_CALL_COST },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "output", required_argument, NULL, 'o' },
	{ "node-threshold", required_argument, NULL, OPT_NODE_THRESHOLD },
	{ "edge-threshold", required_argument, NULL, OPT_EDGE_THRESHOLD },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "fail-if-calls-changed", optional_argument, NULL, OPT_FAIL_CALLS },
	{ "fail-if-slower", required_argument, NULL, OPT_FAIL_SLOWER },
	{ "fail-if-total-slower", required_argument, NULL, OPT_FAIL_TOTAL },
	{ NULL, 0, NULL, 0 }
};

/* Functions gprof leaves out of every output unless asked (its default_excluded_list). */
static const char *const excluded[] = {
	"_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal", "__mcleanup", NULL
};

void
opts_usage(FILE *f)
{
	fputs("Usage: tgprof [options] [executable [gmon.out...]]\n"
"       tgprof record [-o FILE] -- PROG ARGS   run PROG (built -pg) under libtgmon\n"
"       tgprof top [--batch [-n N]] [-d S] [-o FILE] -- PROG ARGS | -p PID\n"
"                                         its call rates, live (or printed) every S seconds\n"
"Browse a gprof profile interactively, or print exactly what GNU gprof prints.\n"
"\n"
"Mode:\n"
"      --batch                  print gprof's report (the default without a terminal)\n"
"      --no-mouse               the browser ignores the mouse\n"
"      --tabstop=N              the browser's source: a tab stop every N columns (8)\n"
"Call stacks (libtgmon's GMON.stacks beside each gmon file; not gprof's):\n"
"      --measured               the call graph's times measured from the stacks,\n"
"                               not gprof's estimates\n"
"      --estimated              exports and trees: gprof's estimates, though there\n"
"                               are stacks (measured times are their default)\n"
"      --folded                 print the stacks folded, for flame graphs\n"
"      --tree[=FUNC]            print the call tree: the whole program, or FUNC\n"
"                               and what it calls (measured where there are stacks)\n"
"      --callers                with --tree: the callers, bottom-up\n"
"      --collapse=HOW           recursion in the trees: none, indirect (through\n"
"                               other functions: the default) or all\n"
"      --with-profiler          the profiler's own functions count in the times\n"
"                               and shares (by default they are shown, out of them)\n"
"      --raw                    the times as sampled: nothing of -pg's taken out\n"
"      --call-cost=NS           take -pg's cost of one call, NS nanoseconds, out of\n"
"                               each function's time, times its calls (default: none)\n"
"      --library-rows           the browser's flat profile: time in libraries as\n"
"                               rows of its own (memcpy@libc.so.6), out of their\n"
"                               callers' (the key O)\n"
"      --threads                print the threads: tid, CPU time, samples, share\n"
"      --thread=SPEC            --folded, --tree, --export: the stacks of these\n"
"                               threads only (SPEC: tids and names, comma-separated;\n"
"                               a name may be a glob); calls stay all threads'\n"
"      --thread-frames          --folded, --export=folded: each stack under a frame\n"
"                               naming its thread (NAME-TID)\n"
"      --clock=cpu|wait|wall    --folded, --tree, --export: the threads' CPU time\n"
"                               (the default), their waits off CPU, or both\n"
"      --stacks=FILE            the stacks of the one gmon file are in FILE\n"
"      --no-stacks              do not read stacks files\n"
"      --since=FILE             the interval since FILE, an earlier snapshot of the\n"
"                               run (libtgmon's gmon.out.live): its counts and its\n"
"                               stacks (FILE.stacks) taken out of the one gmon file's\n"
"Comparison (not gprof's): tgprof --diff PROG OLD NEW, or OLDPROG OLD NEWPROG NEW\n"
"      --diff                   compare two profiles (OLD, NEW: gmon files, a,b,c summed)\n"
"      --format=text|json       the comparison as a table (the default) or JSON\n"
"      --fail-if-calls-changed[=FUNC]  exit 3 if a function's (FUNC's) calls changed\n"
"      --fail-if-slower=PCT     exit 3 if a function's self or inclusive time grew\n"
"                               by more than PCT%, beyond sampling error\n"
"      --fail-if-total-slower=PCT  exit 3 if the total did\n"
"Export (not gprof's): the analysed profile for other tools\n"
"      --export=FORMAT          write it in FORMAT: callgrind, dot, json, folded,\n"
"                               pprof\n"
"      --node-threshold=PCT     dot: leave out functions under PCT% of the time (0.5)\n"
"      --edge-threshold=PCT     dot: leave out calls under PCT% of the time (0.1)\n"
"  -o, --output=FILE            to FILE (written whole or not at all), not stdout\n"
"Output (as GNU gprof; [=SPEC] limits the output to matching symbols):\n"
"  -p, --flat-profile[=SPEC]    flat profile          -P, --no-flat-profile[=SPEC]\n"
"  -q, --graph[=SPEC]           call graph            -Q, --no-graph[=SPEC]\n"
"  -B                           call graph\n"
"  -C, --exec-counts[=SPEC]     execution counts      -Z, --no-exec-counts[=SPEC]\n"
"  -A, --annotated-source[=SPEC] annotated source     -J, --no-annotated-source[=SPEC]\n"
"  -i, --file-info              what each gmon.out file holds\n"
"  -r, --function-ordering      suggested function order\n"
"  -R, --file-ordering=MAP      suggested object file order (MAP: nm output)\n"
"  -s, --sum                    write the sum of the profiles to gmon.sum\n"
"Analysis:\n"
"  -a, --no-static              leave out static functions\n"
"  -c, --static-call-graph      add calls found in the machine code\n"
"  -D, --ignore-non-functions   leave out static symbols that are not functions\n"
"  -e SPEC, -f SPEC             leave out / keep only SPEC in the call graph\n"
"  -E SPEC, -F SPEC             as -e / -f, and leave out / keep only its time\n"
"  -k FROM/TO                   leave out the arcs from FROM to TO\n"
"  -n, --time=SPEC              propagate time only from SPEC\n"
"  -N, --no-time=SPEC           do not propagate time from SPEC\n"
"  -l, --line                   line-by-line profile\n"
"      --clones=HOW             GCC's clones (foo.isra.0, foo.cold): gprof (its\n"
"                               way, the default: they add to the symbol before\n"
"                               them), show (as \"foo [clone .isra.0]\") or fold\n"
"                               (into foo); show and fold are not gprof's output\n"
"  -S, --external-symbol-table=FILE  symbols from an nm or /proc/kallsyms listing\n"
"  -O, --file-format=FORMAT     auto, magic, bsd or 4.4bsd\n"
"Presentation:\n"
"  -b, --brief                  leave out the explanations\n"
"  -T, --traditional            BSD layout\n"
"  -z, --display-unused-functions  also list functions never called or sampled\n"
"  -w, --width=N                width of the call-graph index\n"
"  -L, --print-path             full source paths\n"
"      --inline-file-names      append file:line to names\n"
"      --demangle[=STYLE], --no-demangle  C++ names (styles: auto, gnu-v3, java,\n"
"                               gnat, dlang, rust)\n"
"  -I, --directory-path=DIRS    where to find sources (also $GPROF_PATH)\n"
"  -m, --min-count=N  -t, --table-length=N  -x, --all-lines  -y, --separate-files\n"
"                               annotated source settings\n"
"  -d, --debug[=N]              accepted for compatibility; prints nothing\n"
"  -h, --help                   this help            -v, --version  version\n"
"  @FILE                        read arguments from FILE (quoted as in a shell)\n"
"\n"
"SPEC is a function name, file.c, file.c:function, file.c:line or a line\n"
"number; FROM/TO names a caller and a callee.  Defaults: a.out, gmon.out.\n"
"In the browser, ? lists the keys (man tgprof has them too); NO_COLOR turns its\n"
"colours off, o runs $VISUAL or $EDITOR.  Without a terminal it can use (TERM\n"
"unset or dumb), the report is printed.  TGPROF_MAX_MEMORY=SIZE[KMG] caps the\n"
"memory tgprof uses (default: what the system has).  libtgmon: man libtgmon.\n", f);
}

static int
add_spec(struct opts *o, const char *text, enum spec_table t)
{
	if (mem_reserve(&o->spec, &o->speccap, o->nspec + 1, sizeof *o->spec) != 0)
		return -1;
	o->spec[o->nspec].text = text;
	o->spec[o->nspec].table = t;
	o->nspec++;
	return 0;
}

static int
add_search(struct opts *o, const char *dirs)
{
	char **v = realloc(o->search, (o->nsearch + 1) * sizeof *v);

	if (v == NULL)
		return -1;
	o->search = v;
	o->search[o->nsearch] = mem_strndup(dirs, strlen(dirs));
	if (o->search[o->nsearch] == NULL)
		return -1;
	o->nsearch++;
	return 0;
}

/* A style option with an optional symspec: -p -q -C -A (on) and -P -Q -Z -J (off). */
static int
style_opt(struct opts *o, unsigned style, const char *arg, enum spec_table t, int off)
{
	if (arg != NULL) {
		if (add_spec(o, arg, t) != 0)
			return -1;
		o->out.style |= style;
	} else if (off) {
		o->out.style &= ~style;
	} else {
		o->out.style |= style;
	}
	o->user_specified |= style;
	return 0;
}

static int
format_opt(struct opts *o, const char *arg)
{
	switch (arg[0]) {
	case 'a': o->load.format = GMON_FMT_AUTO; return 0;
	case 'm': o->load.format = GMON_FMT_MAGIC; return 0;
	case 'b': o->load.format = GMON_FMT_BSD; return 0;
	case '4': o->load.format = GMON_FMT_BSD44; return 0;
	case 'p': o->load.format = GMON_FMT_PROF; return 0;
	default:
		fprintf(stderr, "tgprof: unknown file format %s\n", arg);
		return -1;
	}
}

static int
demangle_opt(struct opts *o, const char *arg)
{
	o->out.ro.demangle = 1;
	if (arg != NULL && profile_demangle_style(arg) != 0) {
		fprintf(stderr, "tgprof: unknown demangling style `%s'\n", arg);
		return -1;
	}
	return 0;
}

/*
 * ARG as one of the three WORDS of option NAME: its index, or -1 said on
 * standard error ("--NAME: ARG is not A, B or C").
 */
static int
one_of(const char *name, const char *arg, const char *const words[3])
{
	int k;

	for (k = 0; k < 3; k++)
		if (strcmp(arg, words[k]) == 0)
			return k;
	fprintf(stderr, "tgprof: --%s: %s is not %s, %s or %s\n", name, arg, words[0], words[1], words[2]);
	return -1;
}

/* --clones=gprof|show|fold (core's enum pf_clones order). */
static int
clones_opt(struct opts *o, const char *arg)
{
	static const char *const how[3] = { "gprof", "show", "fold" };
	int k = one_of("clones", arg, how);

	if (k < 0)
		return -1;
	o->load.clones = (enum pf_clones)k;
	o->clones_given = 1;
	return 0;
}

/* --collapse=none|indirect|all: recursion in the trees (core/flame.h's FLAME_RECURSION_*). */
static int
collapse_opt(struct opts *o, const char *arg)
{
	static const char *const how[3] = { "none", "indirect", "all" };
	int k = one_of("collapse", arg, how);

	if (k < 0)
		return -1;
	o->collapse = k;
	return 0;
}

/* --clock=cpu|wait|wall: which time the measured outputs are (core/truth.h's enum truth_clock order). */
static int
clock_opt(struct opts *o, const char *arg)
{
	static const char *const how[3] = { "cpu", "wait", "wall" };
	int k = one_of("clock", arg, how);

	if (k < 0)
		return -1;
	o->truth.clock = (enum truth_clock)k;
	return 0;
}

/* Options that name symspec tables; 1 if C was one of them, -1 on failure. */
static int
tabstop_opt(struct opts *o, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (end == arg || *end != '\0' || n < 1 || n > 64) {
		fprintf(stderr, "tgprof: --tabstop: %s is not a number from 1 to 64\n", arg);
		return -1;
	}
	o->tabstop = (int)n;
	return 0;
}

static int
spec_opt(struct opts *o, int c, const char *arg)
{
	switch (c) {
	case 'E':
		return add_spec(o, arg, SPEC_EXCL_TIME) || add_spec(o, arg, SPEC_EXCL_GRAPH) ? -1 : 1;
	case 'e':
		return add_spec(o, arg, SPEC_EXCL_GRAPH) ? -1 : 1;
	case 'F':
		return add_spec(o, arg, SPEC_INCL_TIME) || add_spec(o, arg, SPEC_INCL_GRAPH) ? -1 : 1;
	case 'f':
		return add_spec(o, arg, SPEC_INCL_GRAPH) ? -1 : 1;
	case 'k':
		return add_spec(o, arg, SPEC_EXCL_ARCS) ? -1 : 1;
	case 'n':
		return add_spec(o, arg, SPEC_INCL_TIME) ? -1 : 1;
	case 'N':
		return add_spec(o, arg, SPEC_EXCL_TIME) ? -1 : 1;
	case 'A':
		return style_opt(o, BATCH_ANNO, arg, SPEC_INCL_ANNO, 0) ? -1 : 1;
	case 'J':
		return style_opt(o, BATCH_ANNO, arg, SPEC_EXCL_ANNO, 1) ? -1 : 1;
	case 'C':
		return style_opt(o, BATCH_EXEC, arg, SPEC_INCL_EXEC, 0) ? -1 : 1;
	case 'Z':
		return style_opt(o, BATCH_EXEC, arg, SPEC_EXCL_EXEC, 1) ? -1 : 1;
	case 'p':
		return style_opt(o, BATCH_FLAT, arg, SPEC_INCL_FLAT, 0) ? -1 : 1;
	case 'P':
		return style_opt(o, BATCH_FLAT, arg, SPEC_EXCL_FLAT, 1) ? -1 : 1;
	case 'q':
		return style_opt(o, BATCH_GRAPH, arg, arg && strchr(arg, '/') ?
		    SPEC_INCL_ARCS : SPEC_INCL_GRAPH, 0) ? -1 : 1;
	case 'Q':
		return style_opt(o, BATCH_GRAPH, arg, arg && strchr(arg, '/') ?
		    SPEC_EXCL_ARCS : SPEC_EXCL_GRAPH, 1) ? -1 : 1;
	default:
		return 0;
	}
}

static void
print_version(void)
{
	printf("tgprof %s\n", TGPROF_VERSION);
	printf("Batch output follows GNU gprof 2.40 (GNU Binutils).\n");
	printf("This is free software (GPL-3.0-or-later); there is NO warranty.\n");
}

/* --export=FORMAT: a format export.h knows. */
static int
export_opt(struct opts *o, const char *arg)
{
	struct sbuf sb;

	if ((o->export = export_find(arg)) != NULL)
		return 0;
	sbuf_init(&sb);
	export_names(&sb);
	fprintf(stderr, "tgprof: --export: no format \"%s\" (formats: %s)\n", arg,
	    sb.s != NULL ? sb.s : "");
	sbuf_release(&sb);
	return -1;
}

/* A percentage from 0 to 100 into *PCT; an opts_result. */
/* --call-cost=NS: nanoseconds, 0 to 1000. */
static int
cost_opt(struct opts *o, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end != '\0' || !(v >= 0 && v <= 1000)) {
		fprintf(stderr, "tgprof: --call-cost: not nanoseconds from 0 to 1000: %s\n", arg);
		return OPTS_EXIT_FAIL;
	}
	o->call_ps = v * 1000;
	return OPTS_RUN;
}

static int
pct_opt(const char *name, const char *arg, double *pct)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end != '\0' || !(v >= 0 && v <= 100)) {
		fprintf(stderr, "tgprof: %s: not a percentage from 0 to 100: %s\n", name, arg);
		return OPTS_EXIT_FAIL;
	}
	*pct = v;
	return OPTS_RUN;
}

/* --format=text|json (the comparison's); an opts_result. */
static int
format_out_opt(struct opts *o, const char *arg)
{
	if (strcmp(arg, "text") != 0 && strcmp(arg, "json") != 0) {
		fprintf(stderr, "tgprof: --format: text or json, not %s\n", arg);
		return OPTS_EXIT_FAIL;
	}
	o->json = strcmp(arg, "json") == 0;
	return OPTS_RUN;
}

/* A growth in percent, 0 or more, into *PCT; an opts_result. */
static int
growth_opt(const char *name, const char *arg, double *pct)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end != '\0' || !(v >= 0 && v < 1e9)) {
		fprintf(stderr, "tgprof: %s: not a percentage: %s\n", name, arg);
		return OPTS_EXIT_FAIL;
	}
	*pct = v;
	return OPTS_RUN;
}

/* The options without symspecs; returns an opts_result, or -2 if C is unknown. */
static int
plain_opt(struct opts *o, int c, const char *arg)
{
	switch (c) {
	case 'a': o->load.no_static = 1; break;
	case 'b': o->out.brief = 1; break;
	case 'B': o->out.style |= BATCH_GRAPH; o->user_specified |= BATCH_GRAPH; break;
	case 'c': o->load.static_calls = 1; break;
	case 'd': break;
	case 'D': o->load.functions_only = 1; break;
	case 'h': opts_usage(stdout); return OPTS_EXIT_OK;
	case 'i': o->out.style |= BATCH_INFO; o->user_specified |= BATCH_INFO; break;
	case 'I': if (add_search(o, arg) != 0) return OPTS_EXIT_FAIL; break;
	case 'l': o->load.line = 1; break;
	case 'L': o->out.ro.full_path = 1; break;
	case 'm': o->min_count = strtoul(arg, NULL, 10); break;
	case 'O': return format_opt(o, arg) ? OPTS_EXIT_FAIL : OPTS_RUN;
	case 'r': o->out.style |= BATCH_FUNC_ORDER; o->user_specified |= BATCH_FUNC_ORDER; break;
	case 'R':
		o->out.style |= BATCH_FILE_ORDER;
		o->user_specified |= BATCH_FILE_ORDER;
		o->load.map_file = arg;
		break;
	case 's': o->out.style |= BATCH_SUM; o->user_specified |= BATCH_SUM; break;
	case 'S': o->load.extsyms = arg; break;
	case 't': o->table_length = atoi(arg) < 0 ? 0 : atoi(arg); break;
	case 'T': o->out.ro.bsd = 1; break;
	case 'v': print_version(); return OPTS_EXIT_OK;
	case 'w': o->out.width = atoi(arg) < 1 ? 1 : atoi(arg); break;
	case 'x': o->all_lines = 1; break;
	case 'y': o->separate_files = 1; break;
	case 'z': o->out.ro.zeros = 1; break;
	case OPT_DEMANGLE: return demangle_opt(o, arg) ? OPTS_EXIT_FAIL : OPTS_RUN;
	case OPT_NO_DEMANGLE: o->out.ro.demangle = 0; break;
	case OPT_INLINE_FILE_NAMES: o->out.ro.inline_files = 1; break;
	case OPT_BATCH: o->batch = 1; break;
	case OPT_NO_MOUSE: o->mouse = 0; break;
	case OPT_TABSTOP: return tabstop_opt(o, arg) ? OPTS_EXIT_FAIL : OPTS_RUN;
	case OPT_CLONES: return clones_opt(o, arg) ? OPTS_EXIT_FAIL : OPTS_RUN;
	case OPT_STACKS: o->stacks = arg; break;
	case OPT_SINCE: o->load.since = arg; break;
	case OPT_NO_STACKS: o->no_stacks = 1; break;
	case OPT_FOLDED: o->folded = 1; break;
	case OPT_MEASURED: o->measured = 1; break;
	case OPT_ESTIMATED: o->estimated = 1; break;
	case OPT_TREE: o->tree = 1; o->tree_root = arg; break;
	case OPT_CALLERS: o->tree_callers = 1; break;
	case OPT_COLLAPSE: return collapse_opt(o, arg) ? OPTS_EXIT_FAIL : OPTS_RUN;
	case OPT_LIBRARY_ROWS: o->library_rows = 1; break;
	case OPT_THREAD: o->thread = arg; break;
	case OPT_THREADS: o->threads = 1; break;
	case OPT_THREAD_FRAMES: o->thread_frames = 1; break;
	case OPT_CLOCK: return clock_opt(o, arg) ? OPTS_EXIT_FAIL : OPTS_RUN;
	case OPT_RAW: o->truth.raw = 1; break;
	case OPT_WITH_PROFILER: o->truth.with_profiler = 1; break;
	case OPT_CALL_COST: return cost_opt(o, arg);
	case OPT_EXPORT: return export_opt(o, arg) ? OPTS_EXIT_FAIL : OPTS_RUN;
	case 'o': o->output = arg; break;
	case OPT_DIFF: o->diff = 1; break;
	case OPT_FORMAT: return format_out_opt(o, arg);
	case OPT_FAIL_CALLS: o->cmp.fail_calls = 1; o->cmp.fail_calls_name = arg; break;
	case OPT_FAIL_SLOWER: return growth_opt("--fail-if-slower", arg, &o->cmp.fail_slower);
	case OPT_FAIL_TOTAL: return growth_opt("--fail-if-total-slower", arg, &o->cmp.fail_total_slower);
	case OPT_NODE_THRESHOLD: return pct_opt("--node-threshold", arg, &o->node_pct);
	case OPT_EDGE_THRESHOLD: return pct_opt("--edge-threshold", arg, &o->edge_pct);
	default: return -2;
	}
	return OPTS_RUN;
}

void
opts_defaults(struct opts *o)
{
	memset(o, 0, sizeof *o);
	o->load.image = "a.out";
	o->load.want_bb_warning = 1;
	o->out.width = 80;
	o->out.ro.demangle = 1;
	o->mouse = 1;
	o->tabstop = 8;
	o->min_count = 1;
	o->table_length = 10;
	o->collapse = 1;	/* FLAME_RECURSION_INDIRECT */
	o->call_ps = -1;	/* the stacks files' */
	o->node_pct = 0.5;	/* gprof2dot's defaults */
	o->edge_pct = 0.1;
	o->cmp.fail_slower = o->cmp.fail_total_slower = -1;	/* no rule */
}

/* Positional arguments, defaults, and the functions gprof always leaves out. */
static int
finish(struct opts *o, int argc, char **argv)
{
	const char *env = getenv("GPROF_PATH");
	int i;

	if (env != NULL && add_search(o, env) != 0)
		return -1;
	o->files_given = argc - optind;
	if (optind < argc)
		o->load.image = argv[optind++];
	o->gmon = mem_array(argc - optind + 1, sizeof *o->gmon);
	if (o->gmon == NULL)
		return -1;
	o->out.anno.all_lines = o->all_lines;
	o->out.anno.table_length = o->table_length;
	o->out.anno.min_count = o->min_count;
	o->out.anno.separate_files = o->separate_files;
	o->out.anno.zeros = o->out.ro.zeros;
	o->out.anno.search = o->search;
	o->out.anno.nsearch = o->nsearch;
	o->load.ngmon = 0;
	for (i = optind; i < argc; i++)
		o->gmon[o->load.ngmon++] = argv[i];
	if (o->load.ngmon == 0)
		o->gmon[o->load.ngmon++] = "gmon.out";
	o->load.gmon = o->gmon;
	for (i = 0; excluded[i] != NULL; i++)
		if (add_spec(o, excluded[i], SPEC_EXCL_TIME) || add_spec(o, excluded[i], SPEC_EXCL_GRAPH) ||
		    add_spec(o, excluded[i], SPEC_EXCL_FLAT))
			return -1;
	o->load.spec = o->spec;
	o->load.nspec = o->nspec;
	/* -s sums line-level data, so it implies -l (as in gprof). */
	if (o->out.style & BATCH_SUM)
		o->load.line = 1;
	o->out.ro.line = o->load.line;
	return 0;
}

enum opts_result
opts_parse(struct opts *o, int argc, char **argv)
{
	int c, r;

	opts_defaults(o);
	optind = 0;	/* GNU getopt: start afresh, even after a scan left halfway */
	while ((c = getopt_long(argc, argv, GPROF_SHORTOPTS OWN_SHORTOPTS, long_options, NULL)) != -1) {
		r = spec_opt(o, c, optarg);
		if (r < 0)
			goto oom;
		if (r > 0)
			continue;
		r = plain_opt(o, c, optarg);
		if (r == -2) {
			opts_usage(stderr);
			return OPTS_EXIT_FAIL;
		}
		if (r != OPTS_RUN)
			return (enum opts_result)r;
	}
	if ((o->user_specified & BATCH_FUNC_ORDER) && (o->user_specified & BATCH_FILE_ORDER)) {
		fputs("tgprof: Only one of --function-ordering and --file-ordering may be specified.\n",
		    stderr);
		return OPTS_EXIT_FAIL;
	}
	if (finish(o, argc, argv) != 0)
		goto oom;
	return OPTS_RUN;
oom:
	fputs("tgprof: out of memory\n", stderr);
	return OPTS_EXIT_FAIL;
}

void
opts_release(struct opts *o)
{
	size_t i;

	for (i = 0; i < o->nsearch; i++)
		free(o->search[i]);
	free(o->search);
	free(o->spec);
	free(o->gmon);
	memset(o, 0, sizeof *o);
}

/*
 * Where libraries' detached debugging files are, by build ID:
 * $TGPROF_DEBUG_DIR, else /usr/lib/debug (Debian's *-dbg packages).
 */
const char *
opts_debug_dir(void)
{
	const char *v = getenv("TGPROF_DEBUG_DIR");

	return v != NULL && *v != '\0' ? v : "/usr/lib/debug";
}

void
opts_browser_load(struct opts *o)
{
	if (!o->clones_given)
		o->load.clones = PF_CLONES_FOLD;
	o->load.source_lines = 1;
	o->load.narrowable = 1;
	/* The narrowings (x, f, u) and a live view's refreshes make and drop tables of the profile's size: keep their memory. */
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
}

#if HAVE_UI
/* The browser's options from the command line's, for the screen of TGPROF_SIZE (80x24 by default). */
void
opts_browser(const struct opts *o, struct browser_opts *b)
{
	const char *size = getenv("TGPROF_SIZE");

	memset(b, 0, sizeof *b);
	b->image = o->load.image;
	b->gmon = o->load.gmon;
	b->ngmon = o->load.ngmon;
	b->search = o->search;
	b->nsearch = o->nsearch;
	b->mouse = o->mouse;
	b->tabstop = o->tabstop;
	b->libraries = o->library_rows;
	b->recursion = o->collapse;
	b->export = (struct export_opts){ o->load.image, o->load.gmon, o->load.ngmon, NULL, !o->estimated,
	    o->node_pct, o->edge_pct, o->truth, 0, 0 };	/* what is taken out: the session's */
	b->script = getenv("TGPROF_SCRIPT");
	if (size == NULL || sscanf(size, "%dx%d", &b->cols, &b->lines) != 2)
		b->cols = 80, b->lines = 24;
}
#endif
