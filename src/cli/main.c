/* main: tgprof's entry point: parse gprof's options, load the profile, print it or browse it. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argfile.h"
#include "diffcmd.h"
#include "firstaid.h"
#include "progress.h"
#include "record.h"
#include "topcmd.h"
#include "treecmd.h"
#include "warm.h"
#include "opts.h"
#include "core/profile.h"
#include "core/measure.h"
#include "print/threadlist.h"
#include "model/session.h"
#include "print/batch.h"
#include "print/folded.h"
#include "print/sumfile.h"
#include "ui/browser.h"
#include "util/mem.h"
#include "util/sysmem.h"

static void
print_diags(const struct diag *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		fprintf(stderr, "tgprof: %s\n", d->msg[i].text);
	if (d->lost)
		fprintf(stderr, "tgprof: %d more messages lost (out of memory)\n", d->lost);
}

/* gprof's choice of output when none was asked for. */
static unsigned
styles(const struct opts *o, const struct profile *p)
{
	unsigned style = o->out.style;

	if (style == 0)
		style = batch_default_style(p) & ~o->user_specified;
	return style;
}

/* Gmon file K's stacks file: --stacks, else GMON.stacks; malloc'd, NULL if out of memory. */
static char *
stacks_path(const struct opts *o, size_t k)
{
	const char *g = o->load.gmon[k];
	char *path;

	if (o->stacks != NULL)
		return strdup(o->stacks);
	if ((path = malloc(strlen(g) + sizeof ".stacks")) != NULL)
		sprintf(path, "%s.stacks", g);
	return path;
}

/*
 * Whether the stacks file PATH beside gmon file GMON is there to read:
 * a regular file (found, not named: a FIFO or a device there would hang
 * or mislead, and is refused with a warning in D); never for stdin's.
 */
static int
beside(const char *gmon, const char *path, struct diag *d)
{
	struct stat st;

	if (strcmp(gmon, "-") == 0 || stat(path, &st) != 0)
		return 0;
	if (!S_ISREG(st.st_mode)) {
		diag_add(d, DIAG_WARN, "%s: not a regular file: not read", path);
		return 0;
	}
	return 1;
}

/*
 * --since=FILE's stacks file, FILE.stacks, into *OUT (NULL without
 * --since): the gmon file's stacks are read, so the earlier snapshot's
 * must be too, or the interval's times would be the whole run's.  0, or
 * -1 with the reason in D.
 */
static int
since_stacks(const struct opts *o, char **out, struct diag *d)
{
	const char *f = o->load.since;

	*out = NULL;
	if (f == NULL)
		return 0;
	if ((*out = malloc(strlen(f) + sizeof ".stacks")) == NULL)
		return diag_oom(d);
	sprintf(*out, "%s.stacks", f);
	if (beside(f, *out, d))
		return 0;
	diag_add(d, DIAG_ERROR, "%s: no call stacks of the earlier snapshot (--since); --no-stacks "
	    "reads none", *out);
	return -1;
}

/*
 * The call stacks libtgmon recorded beside the gmon files, measured
 * against P into *M (NULL if there are none, or --no-stacks).  Every gmon
 * file needs its stacks file, or none is used (the stacks of some runs
 * would measure part of the profile only).  NEEDED: their absence is an
 * error (--measured, --folded), else a warning where some are missing.
 * 0, or -1 with the reason in D.
 */
static int
load_measure(const struct opts *o, const struct profile *p, int needed, struct pf_measure **m,
    struct diag *d)
{
	size_t n = o->load.ngmon, k, found = 0, missing = n;
	char **path = calloc(n + 1, sizeof *path), *since = NULL;
	int rc = 0;

	*m = NULL;
	if (path == NULL)
		return diag_oom(d);
	if (o->stacks != NULL && n != 1) {
		diag_add(d, DIAG_ERROR, "--stacks: names the stacks of one gmon file, not of %zu", n);
		rc = -1;
	}
	for (k = 0; rc == 0 && k < n && !o->no_stacks; k++) {
		if ((path[k] = stacks_path(o, k)) == NULL)
			rc = diag_oom(d);
		else if (o->stacks != NULL || beside(o->load.gmon[k], path[k], d))
			found++;
		else if (missing == n)
			missing = k;
	}
	if (rc == 0 && found == n && n > 0 && !o->no_stacks && (rc = since_stacks(o, &since, d)) == 0)
		rc = measure_load(p, (const char *const *)path, n,
		    &(struct measure_opts){ opts_debug_dir(), o->load.image, o->truth, o->call_ps, since }, m, d);
	else if (rc == 0 && (needed || found > 0))
		diag_add(d, needed ? DIAG_ERROR : DIAG_WARN, "%s: no call stacks%s (libtgmon records "
		    "them: see libtgmon(3))", o->no_stacks ? "--no-stacks" : path[missing],
		    needed ? "" : ", so none is measured");
	if (rc == 0 && needed && *m == NULL)
		rc = -1;
	for (k = 0; k < n; k++)
		free(path[k]);
	free(path);
	free(since);
	return rc;
}

/*
 * --thread=SPEC: *M narrowed to the threads SPEC names (measure_threads()),
 * the whole process's measure freed.  0, or -1 with the reason in D.
 */
static int
narrow_threads(const struct opts *o, const struct profile *p, struct pf_measure **m, struct diag *d)
{
	unsigned char *chosen;
	struct pf_measure *n = NULL;
	int rc = 0;

	if (o->thread == NULL)
		return 0;
	if ((chosen = calloc((size_t)(*m)->nthread + 1, 1)) == NULL)
		return diag_oom(d);
	if (measure_thread_match(*m, o->thread, chosen, d) < 0)
		rc = -1;
	else if (measure_threads(*m, p, chosen, &n) != 0)
		rc = diag_oom(d);
	free(chosen);
	if (rc == 0) {
		measure_free(*m);
		*m = n;
	}
	return rc;
}

/* --folded: the measured stacks, not the report. */
static int
print_folded(const struct profile *p, const struct opts *o, const struct pf_measure *m,
    struct diag *d)
{
	struct report *r = report_new(p, &o->out.ro);
	int rc = r != NULL ? folded_write_threads(stdout, r, m, o->thread_frames, d) : diag_oom(d);

	report_free(r);
	return rc;
}

/*
 * --export: the profile in O's format, to -o FILE (a complete file or
 * none) or stdout; a binary format is not written to a terminal.  M: the
 * stacks, or NULL; their times are the export's unless --estimated.
 */
static int
export(const struct profile *p, const struct opts *o, const struct pf_measure *m, struct diag *d)
{
	struct export_opts eo = { o->load.image, o->load.gmon, o->load.ngmon, m, m != NULL && !o->estimated,
	    o->node_pct, o->edge_pct, o->truth, m != NULL ? m->call_ps : o->call_ps > 0 ? o->call_ps : 0,
	    o->thread_frames };
	struct report *r = report_new(p, &o->out.ro);
	int rc;

	if (r == NULL)
		return diag_oom(d);
	if (o->output != NULL) {
		rc = export_save(o->export, r, &eo, o->output, d);
	} else if (o->export->binary && isatty(STDOUT_FILENO)) {
		diag_add(d, DIAG_ERROR, "--export=%s: not to a terminal (-o FILE)", o->export->name);
		rc = -1;
	} else {
		rc = o->export->write(stdout, r, &eo, d);
		if (rc == 0 && fflush(stdout) != 0)
			rc = -1, diag_add(d, DIAG_ERROR, "standard output: %s", strerror(errno));
	}
	report_free(r);
	return rc;
}

/*
 * What tgprof's own outputs change in the analysis: GCC's clones are
 * folded into their functions, as the browser shows them, unless --clones
 * says; the source lines an export needs.  0, or -1 (a conflict, said).
 */
static int
own_outputs(struct opts *o, struct diag *d)
{
	if (o->measured && o->estimated) {
		diag_add(d, DIAG_ERROR, "--measured and --estimated: one or the other");
		return -1;
	}
	if ((o->thread != NULL || o->thread_frames) && !o->folded && !o->tree && o->export == NULL &&
	    !o->threads) {
		diag_add(d, DIAG_ERROR, "--%s: with --folded, --tree, --export or --threads (the report's "
		    "times are the histogram's, of every thread)", o->thread != NULL ? "thread" : "thread-frames");
		return -1;
	}
	if (o->truth.clock != TRUTH_CPU && ((!o->folded && !o->tree && o->export == NULL) || o->measured ||
	    o->estimated)) {
		diag_add(d, DIAG_ERROR, "--clock: with --folded, --tree or --export, measured (the report's "
		    "times are the histogram's, CPU time)");
		return -1;
	}
	if (o->thread != NULL && (o->measured || o->estimated)) {
		diag_add(d, DIAG_ERROR, "--thread: not with --%s (only the stacks are counted per thread)",
		    o->measured ? "measured" : "estimated");
		return -1;
	}
	if (o->tree_callers && !o->tree) {
		diag_add(d, DIAG_ERROR, "--callers: of a --tree");
		return -1;
	}
	if ((o->export != NULL || o->folded || o->tree) && !o->clones_given)
		o->load.clones = PF_CLONES_FOLD;
	if (o->export != NULL && o->export->lines)
		o->load.source_lines = 1;
	return 0;
}

static int
run(struct opts *o, struct diag *d)
{
	struct pf_measure *m = NULL;
	struct progress pr;
	struct profile *p;
	int rc = 0, need;

	if (own_outputs(o, d) != 0 || firstaid_files(o, d) != 0)
		return 1;
	progress_watch(&pr, &o->load, o->load.ngmon > 0 ? o->load.gmon[0] : o->load.image);
	/* -p alone: the call graph's orders are not made (a fifth of the load at a million functions). */
	o->load.flat_only = o->out.style == BATCH_FLAT && !o->folded && !o->tree && o->export == NULL &&
	    !o->measured && !o->threads && o->thread == NULL && !o->thread_frames;
	rc = profile_load(&p, &o->load, d);
	o->load.progress = NULL;	/* PR is this function's */
	if (rc != 0)
		return 1;
	o->out.style = styles(o, p);
	need = o->folded || o->measured || o->threads || o->thread != NULL || o->thread_frames ||
	    o->truth.clock != TRUTH_CPU;
	if (need && load_measure(o, p, 1, &m, d) != 0)
		rc = 1;
	else if (!need && (o->export != NULL || o->tree))
		load_measure(o, p, 0, &m, d);	/* stacks if there are: a warning where some miss */
	if (rc == 0 && narrow_threads(o, p, &m, d) != 0)
		rc = 1;
	if (rc == 0 && o->truth.clock != TRUTH_CPU && measure_waits_why(m) != NULL) {
		diag_add(d, DIAG_ERROR, "--clock=%s: no waits in the stacks files: %s",
		    o->truth.clock == TRUTH_WAIT ? "wait" : "wall", measure_waits_why(m));
		rc = 1;
	}
	o->out.measure = o->measured ? m : NULL;
	if (rc == 0 && o->threads) {
		if (m->nthread == 0) {
			diag_add(d, DIAG_ERROR, "--threads: the stacks files have no thread records (libtgmon "
			    "writes them from version 3 of its stacks files)");
			rc = 1;
		} else {
			rc = threadlist_write(stdout, m, d) != 0;
		}
		measure_free(m);
		profile_free(p);
		return rc;
	}
	if (rc == 0 && o->tree) {
		rc = treecmd_run(o, p, m, d) != 0;
		measure_free(m);
		profile_free(p);
		return rc;
	}
	if (rc == 0 && o->export != NULL) {
		rc = export(p, o, m, d) != 0;
		measure_free(m);
		profile_free(p);
		return rc;
	}
	if (rc == 0 && o->folded && print_folded(p, o, m, d) != 0)
		rc = 1;
	if (rc == 0 && !o->folded && (o->out.style & BATCH_SUM) &&
	    sumfile_write(p, "gmon.sum", o->load.format, d) != 0)
		rc = 1;
	if (rc == 0 && !o->folded && batch_print(stdout, p, &o->out, d) != 0)
		rc = 1;
	measure_free(m);
	profile_free(p);
	return rc;
}

#if HAVE_UI
/* The memory of the first narrowing of each profile loaded, made ready during its analysis. */
struct warming {
	struct warm *w[2];
	int n;
};

static void
on_sized(void *ctx, size_t narrow_bytes)
{
	struct warming *wm = ctx;

	if (wm->n < 2)
		wm->w[wm->n++] = warm_start(narrow_bytes);
}

/* The loads are done: the memory warmed goes back to the heap, for x and f. */
static void
warm_done(struct warming *wm)
{
	while (wm->n > 0)
		warm_release(wm->w[--wm->n]);
}

/*
 * What the browser needs of the analysis: GCC's clones folded unless
 * --clones says, the lines, and what makes x and f fast (WM: their memory
 * made ready during the analysis, warm.h).
 */
static void
browse_options(struct opts *o, struct warming *wm)
{
	opts_browser_load(o);
	o->load.sized = on_sized;
	o->load.sized_ctx = wm;
}

/*
 * The browser on P (taken over), for a terminal (or a TGPROF_SCRIPT, on
 * a virtual screen of TGPROF_SIZE, "COLSxLINES"); with OLD (tgprof
 * --diff, taken over too), in comparison mode as DOPTS says.  The exit
 * status.
 */
static int
browse_profile(struct opts *o, struct profile *p, struct profile *old, const struct diff_opts *dopts,
    struct diag *d)
{
	struct browser_opts b;
	struct pf_measure *m = NULL;
	struct session *s;
	int rc;

	opts_browser(o, &b);
	/* Stacks that cannot be used leave a warning, and the browser shows gprof's estimates. */
	load_measure(o, p, 0, &m, d);
	if (session_new(p, m, &o->out.ro, &o->truth, o->call_ps, &s, d) != 0) {
		profile_free(old);
		return 1;
	}
	if (old != NULL && session_compare(s, old, dopts, d) != 0) {
		session_free(s);
		return 1;
	}
	rc = browser_run(s, &b, d) != 0;
	session_free(s);
	return rc;
}
#endif

/* The browser on the profile of the command line. */
static int
browse(struct opts *o, struct diag *d)
{
#if !HAVE_UI
	return run(o, d);	/* built without ncursesw */
#else
	struct warming wm = { { NULL, NULL }, 0 };
	struct progress pr;
	struct profile *p;
	int rc;

	if (firstaid_files(o, d) != 0)
		return 1;
	browse_options(o, &wm);
	progress_watch(&pr, &o->load, o->load.ngmon > 0 ? o->load.gmon[0] : o->load.image);
	rc = profile_load(&p, &o->load, d);
	o->load.progress = NULL;	/* PR is this function's */
	warm_done(&wm);
	if (rc != 0)
		return 1;
	return browse_profile(o, p, NULL, NULL, d);
#endif
}

static int want_browser(const struct opts *o);

/*
 * tgprof --diff: the comparison in the browser with a terminal and no
 * JSON or rules, else printed; GCC's clones folded into their functions
 * unless --clones says (a rule names a function, not its clones).
 */
static int
compare(struct opts *o, struct diag *d)
{
	if (!o->clones_given)
		o->load.clones = PF_CLONES_FOLD;
#if HAVE_UI
	struct warming wm = { { NULL, NULL }, 0 };
	struct comparison c;
	struct profile *p, *old;
	int rc;

	if (o->json || o->cmp.fail_calls || o->cmp.fail_slower >= 0 || o->cmp.fail_total_slower >= 0 ||
	    !want_browser(o))
		return diffcmd_run(o, d);
	browse_options(o, &wm);	/* x and f narrow both sides */
	rc = diffcmd_load(o, &c, d);
	warm_done(&wm);
	if (rc != 0) {
		diffcmd_release(&c);
		return 1;
	}
	/* The profile browsed is the new side: its files name it, and its stacks measure it. */
	o->load.image = c.side[DIFF_NEW].image;
	o->load.gmon = c.side[DIFF_NEW].gmon;
	o->load.ngmon = c.side[DIFF_NEW].ngmon;
	p = c.side[DIFF_NEW].p;
	old = c.side[DIFF_OLD].p;
	c.side[DIFF_NEW].p = c.side[DIFF_OLD].p = NULL;	/* the session's now */
	rc = browse_profile(o, p, old, &c.opts, d);
	diffcmd_release(&c);
	return rc;
#else
	return diffcmd_run(o, d);
#endif
}

/*
 * The most the engine's heap may hold: $TGPROF_MAX_MEMORY, else what the
 * system has left (see mem_set_limit()).
 */
static int
set_memory_limit(struct diag *d)
{
	const char *v = getenv("TGPROF_MAX_MEMORY");
	size_t bytes;

	if (v == NULL || *v == '\0') {
		mem_set_limit(sysmem_available());
		return 0;
	}
	if (sysmem_parse_size(v, &bytes) != 0) {
		diag_add(d, DIAG_ERROR, "TGPROF_MAX_MEMORY: not a size (bytes, or with K, M or G): %s", v);
		return -1;
	}
	mem_set_limit(bytes);
	return 0;
}

/*
 * The browser for a terminal (or a script), unless --batch or -s; a
 * terminal it cannot use (TERM unset or dumb, no /dev/tty) gets the
 * report, with one line saying why.
 */
static int
want_browser(const struct opts *o)
{
	if (o->batch || (o->out.style & BATCH_SUM) || o->folded || o->measured || o->export != NULL ||
	    o->tree)
		return 0;
	if (getenv("TGPROF_SCRIPT") != NULL)
		return 1;
	if (!isatty(STDOUT_FILENO))
		return 0;
#if HAVE_UI
	char why[256];

	if (!browser_usable(why, sizeof why)) {
		fprintf(stderr, "tgprof: %s: printing the report instead (--batch)\n", why);
		return 0;
	}
#endif
	return 1;
}

/*
 * tgprof record [-o FILE] -- PROG ARGS: the program run under libtgmon,
 * then its profile browsed (or printed without a terminal); the exit
 * status is the program's.
 */
static int
record(int argc, char **argv, struct diag *d)
{
	struct recording r;
	char *args[3];
	struct opts o;
	int rc;

	if (record_run(argc, argv, &r, d) != 0)
		return r.status != 0 ? r.status : 1;
	args[0] = argv[0];
	args[1] = r.image;
	args[2] = r.gmon;
	if (opts_parse(&o, 3, args) != OPTS_RUN) {
		record_finish(&r);
		return 1;
	}
	rc = want_browser(&o) ? browse(&o, d) : run(&o, d);
	opts_release(&o);
	record_finish(&r);
	return rc != 0 ? rc : r.status;
}

int
main(int argc, char **argv)
{
	struct argfile af;
	struct opts o;
	struct diag d;
	int rc = 1;

	/*
	 * Keep freed memory for reuse instead of returning it to the kernel:
	 * the engine builds and drops large tables, and on virtual machines a
	 * page fault on fresh memory can cost microseconds.  One heap for
	 * every thread: what the load's helper threads free serves the next
	 * tables too (a heap each kept theirs: 40-60 MB more at a million
	 * functions); they allocate a few large blocks, so they rarely wait.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_ARENA_MAX, 1);
	setlocale(LC_CTYPE, "");
	diag_init(&d);
	/* @FILE: a new argv, which the options point into. */
	if (set_memory_limit(&d) != 0 || argfile_expand(&af, argc, argv, &d) != 0) {
		print_diags(&d);
		diag_release(&d);
		return 1;
	}
	if (firstaid_record(af.argc, af.argv, &d)) {
		print_diags(&d);
		diag_release(&d);
		argfile_release(&af);
		return 1;
	}
	if (topcmd_wanted(af.argc, af.argv)) {
		rc = topcmd_run(af.argc, af.argv, &d);
		print_diags(&d);
		diag_release(&d);
		argfile_release(&af);
		return rc;
	}
	if (record_wanted(af.argc, af.argv)) {
		rc = record(af.argc, af.argv, &d);
		print_diags(&d);
		diag_release(&d);
		argfile_release(&af);
		return rc;
	}
	switch (opts_parse(&o, af.argc, af.argv)) {
	case OPTS_EXIT_OK:
		rc = 0;
		break;
	case OPTS_EXIT_FAIL:
		break;
	case OPTS_RUN:
		if (o.diff)
			rc = compare(&o, &d);
		else if (want_browser(&o))
			rc = browse(&o, &d);
		else
			rc = run(&o, &d);
		print_diags(&d);
		break;
	}
	diag_release(&d);
	opts_release(&o);
	argfile_release(&af);
	return rc;
}
