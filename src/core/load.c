/* load: profile_load(), the pipeline that reads the executable and the gmon files and analyses them. */
#include "profile.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ahead.h"
#include "arcs.h"
#include "arcsort.h"
#include "cg.h"
#include "core.h"
#include "hist.h"
#include "linemap.h"
#include "names.h"
#include "order.h"
#include "since.h"
#include "syms.h"
#include "util/job.h"
#include "util/busguard.h"
#include "util/prefault.h"

/*
 * The steps, in order (each reads what the ones before it wrote):
 *   1. bin_open(): the executable, through libbfd (input/bin.h);
 *   2. syms_load(): symbols, source files, symspec tables, clones;
 *   3. the gmon files, mapped, then parsed record by record: histograms
 *      to hist.c, arcs to arcs.c, basic blocks here; meanwhile a second
 *      thread sorts the names (names.h) and a third faults in the
 *      memory the records fill (util/prefault.h);
 *   4. hist_assign(): samples to symbols, while a second thread finds the
 *      call sites' instructions (with pf_opts.source_lines);
 *   5. cg_assemble(): cycles and propagated times, while a second thread
 *      orders the flat profile;
 *   6. the call graph's orders, half of them on a second thread.
 * Nothing after profile_load() returns changes the profile.
 */

/* The caller's progress callback, if any (pf_opts.progress). */
static void
step(const struct pf_opts *o, const char *what, int permille)
{
	if (o->progress != NULL)
		o->progress(o->progress_ctx, what, permille);
}

/* gmon reader callbacks: the reader knows nothing of profiles. */
static enum gmon_status
on_hist(void *ctx, const struct gmon_hist *h, const unsigned char *bins, const char *file,
    uint32_t *nbins, struct diag *d)
{
	return hist_on_record(ctx, h, bins, file, nbins, d);
}

static int
on_bsd_rate(void *ctx, uint32_t rate, const char *file, struct diag *d)
{
	return hist_on_bsd_rate(ctx, rate, file, d);
}

static void
on_bsd_end(void *ctx)
{
	hist_on_bsd_end(ctx);
}

static int
on_arc(void *ctx, uint64_t from, uint64_t self, uint64_t count, size_t at, struct diag *d)
{
	struct profile *p = ctx;
	const struct arc_verdict *v = ahead_verdict(p->priv->ahead, at);

	if (v != NULL)	/* (the records queued before it first) */
		return arcs_flush(p, d) != 0 || arcs_apply(p, from, count, v, d) != 0 ? -1 : 0;

	if (p->priv->since != NULL && since_take(p->priv->since, from, self, &count) != 0)
		return diag_oom(d);
	if (count == 0 && p->priv->since != NULL)
		return 0;	/* no call in the interval */
	return arcs_queue(ctx, from, self, count, d);
}

/* gprof's bb_read_rec(): up to PF_NBBS blocks per symbol, and only with -l. */
static int
on_bb(void *ctx, uint64_t addr, uint64_t count, struct diag *d)
{
	struct profile *p = ctx;
	uint32_t id, i;

	if (!p->line_mode) {
		if (!p->priv->bb_warned && p->priv->opts->want_bb_warning)
			diag_add(d, DIAG_WARN, "warning: ignoring basic-block exec counts (use -l or --line)");
		p->priv->bb_warned = 1;
		return 0;
	}
	if ((id = profile_lookup(p, addr)) == PF_NONE)
		return 0;
	if (p->bb == NULL && (p->bb = mem_calloc(p->priv->symcap, sizeof *p->bb)) == NULL)
		return diag_oom(d);
	for (i = 0; i < PF_NBBS; i++) {
		if (p->bb[id].addr[i] == 0 || p->bb[id].addr[i] == addr) {
			p->bb[id].addr[i] = addr;
			p->bb[id].calls[i] += count;
			break;
		}
	}
	return 0;
}

static const struct gmon_ops reader_ops = {
	on_hist, on_bsd_rate, on_bsd_end, on_arc, on_bb
};

/*
 * Room for as many arcs (and call sites, with pf_opts.source_lines) as
 * the files have arc records, so that tallying never copies them; PF
 * faults it in ahead of the tally.  Tallied by sorting (arcsort.h) where
 * the keys fit; else through the index, which is touched all over: it
 * starts at a quarter of that and doubles as needed.
 */
static void
reserve_arcs(struct profile *p, const struct pf_opts *o, size_t n, struct prefault *pf)
{
	if (n > ((size_t)1 << 26))
		n = (size_t)1 << 26;
	if (mem_reserve(&p->arc, &p->priv->arccap, n, sizeof *p->arc) == 0) {
		mem_huge(p->arc, n * sizeof *p->arc);
		if (arcs_sort_begin(p, n) == 0)
			arcs_reserve_index(p, n / 4);
	}
	if (o->source_lines)
		linemap_reserve_sites(p, n);	/* (else as they come) */
	/* What the records will fill, faulted in meanwhile on another thread. */
	prefault_add(pf, p->arc, p->priv->arccap >= n ? n * sizeof *p->arc : 0);
	prefault_add(pf, p->priv->arckey, p->priv->arckeycap >= n ? n * sizeof *p->priv->arckey : 0);
	prefault_add(pf, p->priv->site_rec, p->priv->sitecap >= n ? n * sizeof *p->priv->site_rec : 0);
	prefault_start(pf);
}

/*
 * What reads the mapped gmon files works on, under a guard (busguard.h):
 * a file cut short meanwhile (a program run again rewrites its gmon.out
 * in place) is refused, not a SIGBUS.
 */
struct reading {
	struct profile *p;
	const struct pf_opts *o;
	const struct gmon_layout *lay;
	struct diag *d;
	size_t i, narcs;	/* the file being parsed; arc records counted */
	int version;
};

static int
count_arcs(void *arg)
{
	struct reading *r = arg;
	size_t i;

	r->narcs = 1;
	for (i = 0; i < r->p->priv->ngfiles; i++)
		r->narcs += gmon_count_arcs(&r->p->priv->gfile[i], r->o->format, r->lay);
	return 0;
}

static int
parse_file(void *arg)
{
	struct reading *r = arg;
	struct profile *p = r->p;

	return gmon_parse(&p->priv->gfile[r->i], r->o->gmon[r->i], r->o->format, r->lay, &reader_ops,
	    p, &p->input, &r->version, &p->gmon[r->i].counts, r->d) != 0 || arcs_flush(p, r->d) != 0;
}

static int
read_since(void *arg)
{
	struct reading *r = arg;

	return since_load(r->p->priv->since, r->o->since, r->o->format, r->lay, r->d);
}

/* The file of O that is now shorter than when it was mapped (or the first). */
static const char *
shrunk(const struct profile *p, const struct pf_opts *o)
{
	struct stat st;
	size_t i;

	for (i = 0; i < p->priv->ngfiles; i++)
		if (p->priv->gfile[i].mapped && stat(o->gmon[i], &st) == 0 &&
		    (size_t)st.st_size < p->priv->gfile[i].len)
			return o->gmon[i];
	return o->since != NULL && p->priv->since != NULL ? o->since : o->gmon[0];
}

/* FN(R) under the guard: 0, or -1 with the reason in R's diag. */
static int
guarded(int (*fn)(void *), struct reading *r)
{
	int rc = busguard_run(fn, r);

	if (rc == BUSGUARD_SHRANK)
		diag_add(r->d, DIAG_ERROR, "%s: cut short while it was read (was it written again?)",
		    shrunk(r->p, r->o));
	return rc != 0 ? -1 : 0;
}

/* pf_opts.since read, for one gmon file; 0, or -1 with the reason in D. */
static int
since_start(struct reading *r)
{
	if (r->o->ngmon != 1) {
		diag_add(r->d, DIAG_ERROR, "%s: an earlier snapshot is taken out of one gmon file, not %zu",
		    r->o->since, r->o->ngmon);
		return -1;
	}
	if ((r->p->priv->since = mem_calloc(1, sizeof *r->p->priv->since)) == NULL)
		return diag_oom(r->d);
	return guarded(read_since, r);
}

/* Once the gmon file is read: pf_opts.since's histogram taken out of it, and it freed; 0 or -1. */
static int
since_end(struct profile *p, const struct pf_opts *o, struct diag *d)
{
	struct since *s = p->priv->since;
	int rc = -1;

	if (s->runid == 0 || s->runid != p->gmon[0].counts.runid)
		diag_add(d, DIAG_ERROR, "%s: not an earlier snapshot of the run that wrote %s "
		    "(run identifiers differ)", o->since, o->gmon[0]);
	else
		rc = since_hist(s, p, o->since, d);
	since_free(s);
	free(s);
	p->priv->since = NULL;
	return rc;
}

/*
 * The call sites' instructions (linemap_finish), on a second thread while
 * the arcs settle and the histogram and the call graph are assembled: it
 * writes the sites alone, and reads the symbols' addresses and the text,
 * which nothing changes (the text is read before it starts, on this
 * thread: libbfd's).
 */
static int sites_job(void *p) { return linemap_finish(p); }

static void
sites_start(struct profile *p, struct job *sites)
{
	struct diag quiet;

	diag_init(&quiet);
	bin_text(p->priv->bin, &quiet);
	diag_release(&quiet);
	job_start(sites, sites_job, p);
}

/*
 * The gmon files read into P; with pf_opts.source_lines, the call sites'
 * job started (SITES) as soon as the arcs are in.  0 or -1.
 */
static int
read_profiles(struct profile *p, const struct pf_opts *o, struct job *sites, struct diag *d)
{
	struct gmon_layout lay = {
		p->priv->addr_bytes, p->priv->big_endian, bin_sign_extend(p->priv->bin)
	};
	struct reading r = { p, o, &lay, d, 0, 0, 0 };
	struct prefault pf;
	int rc = 0;
	size_t i;

	prefault_init(&pf);
	if (o->format == GMON_FMT_PROF) {
		diag_add(d, DIAG_ERROR, "sorry, file format `prof' is not yet supported");
		return -1;
	}
	p->gmon = mem_calloc(o->ngmon, sizeof *p->gmon);
	p->priv->gfile = mem_calloc(o->ngmon, sizeof *p->priv->gfile);
	if (p->gmon == NULL || p->priv->gfile == NULL)
		return diag_oom(d);
	for (i = 0; i < o->ngmon; i++) {
		if (gmon_load(o->gmon[i], &p->priv->gfile[i], d) != 0)
			return -1;
		p->priv->ngfiles++;
	}
	if (guarded(count_arcs, &r) != 0)
		return -1;
	reserve_arcs(p, o, r.narcs, &pf);
	arcs_tally_begin(p);
	rc = o->since != NULL && since_start(&r) != 0;
	for (i = 0; rc == 0 && i < o->ngmon; i++) {
		p->gmon[i].path = o->gmon[i];
		if (o->since == NULL)
			p->priv->ahead = ahead_start(p, &p->priv->gfile[i], &lay);
		r.i = i;
		rc = guarded(parse_file, &r) != 0;
		ahead_free(p->priv->ahead);
		p->priv->ahead = NULL;
		p->ngmon += rc == 0;
	}
	prefault_stop(&pf);
	arcs_tally_end(p);
	if (rc != 0)
		return -1;
	if (o->source_lines)	/* (settling writes the symbols' lists, not their addresses) */
		sites_start(p, sites);
	if (arcs_settle(p) != 0)
		return diag_oom(d);
	return o->since != NULL ? since_end(p, o, d) : 0;
}

static int
assign_hist(void *arg)
{
	struct reading *r = arg;

	if (hist_assign(r->p) == 0)
		return 0;
	return diag_oom(r->d);
}

/*
 * The samples to the symbols, the histograms copied: nothing is read of
 * the files after this.  A program run again rewrites its gmon.out in
 * place, which a mapping would show, or end tgprof with SIGBUS where it
 * shrank: until then they are read under the guard.  0, or -1 with the
 * reason in D.
 */
static int
samples(struct profile *p, const struct pf_opts *o, struct diag *d)
{
	struct reading r = { p, o, NULL, d, 0, 0, 0 };
	size_t i;
	int rc = (p->input & GMON_IN_HIST) ? guarded(assign_hist, &r) : 0;

	for (i = 0; i < p->priv->ngfiles; i++)
		gmon_unload(&p->priv->gfile[i]);
	return rc;
}

/* The text for -c, or NULL where gprof cannot scan (it says so once). */
static const unsigned char *
scan_text(struct profile *p, const struct pf_opts *o, struct diag *d)
{
	if (!o->static_calls)
		return NULL;
	if (bin_arch(p->priv->bin) == BIN_ARCH_OTHER) {
		diag_add(d, DIAG_WARN, "-c not supported on architecture %s",
		    bin_arch_name(p->priv->bin));
		return NULL;
	}
	return bin_text(p->priv->bin, d);
}

/* The load's jobs (util/job.h), on a profile. */
static int names_job(void *p) { return names_sort(p); }
static int flat_job(void *p) { return order_flat(p); }
static int plan_job(void *p) { return pf_narrow_begin(p); }

/* The callees' half of the call graph's orders (order_all()). */
static int
order_callees_half(void *arg)
{
	struct profile *p = arg;

	if (!(p->input & GMON_IN_CG))
		return 0;
	return p->priv->opts->narrowable ? pf_narrow_group(p, ORDER_CALLEES) : order_callees(p);
}

/*
 * The call graph's orders, once it is done (the flat profile's is
 * analyse()'s): independent of each other, the callees' on a second
 * thread.  They only read what the analysis wrote and each writes its own
 * arrays.  pf_opts.narrowable makes the plan profile_narrow() needs and
 * takes them from it (its first part is assemble()'s); pf_opts.flat_only
 * wants none.
 */
static int
order_all(struct profile *p, const struct pf_opts *o)
{
	struct job callees;
	int rc;

	if (o->flat_only)
		return o->narrowable && pf_narrow_prepare(p) != 0 ? -1 : 0;
	job_start(&callees, order_callees_half, p);
	if (o->narrowable)
		rc = pf_narrow_group(p, ORDER_CALLERS) != 0 || pf_narrow_finish(p) != 0;
	else
		rc = (p->input & GMON_IN_CG) && (order_cg(p) != 0 || order_callers(p) != 0);
	rc |= job_join(&callees) != 0;
	if (o->narrowable)
		pf_narrow_end(p);
	return rc ? -1 : 0;
}

/*
 * Reads the profiles while a second thread sorts the names (it reads only
 * names, the reader writes only counts and arcs), and starts the call
 * sites' job (SITES).  Returns 0, -1 (read failed, message in D) or -2
 * (out of memory).
 */
static int
read_and_sort_names(struct profile *p, const struct pf_opts *o, struct job *sites,
    struct diag *d)
{
	struct job names;
	int rc, names_failed;

	if (p->priv->image != NULL)	/* reloaded: the names' orders are its image's, copied */
		return read_profiles(p, o, sites, d) != 0 ? -1 : 0;
	job_start(&names, names_job, p);
	rc = read_profiles(p, o, sites, d);
	names_failed = job_join(&names) != 0;
	return rc != 0 ? -1 : names_failed ? -2 : 0;
}

/*
 * The arc records that enter their function at one of the three offsets
 * most of them enter at: in the program's own profile, its prologues'
 * call to mcount (one offset, or a few with other prologues; not with
 * -a, where a static function's calls enter the one before it).
 */
static uint64_t
entered(const struct profile *p)
{
	uint64_t top[3] = { 0, 0, 0 }, c;
	size_t i, k;

	for (i = 0; i < ARCS_ENTRY_REACH; i++) {
		c = p->priv->arc_offset[i];
		for (k = 0; k < 3; k++)
			if (c > top[k]) {
				uint64_t t = top[k];

				top[k] = c;
				c = t;
			}
	}
	return top[0] + top[1] + top[2];
}

/* The directory PATH is in, stat()ed into *ST: 0, or -1. */
static int
dir_of(const char *path, struct stat *st)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	if (slash == NULL)
		return stat(".", st);
	if ((size_t)(slash - path) >= sizeof dir)
		return -1;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash == path ? 1 : slash - path] = '\0';
	if (slash == path)
		dir[0] = '/';
	return stat(dir, st);
}

/*
 * Whether gmon file PATH, beside the executable IMAGE in one directory
 * (where the program writes it), is older than IMAGE by more than a
 * second: the program was built again after the run that wrote it.
 * Files elsewhere were put there (copies, a profile sent with its
 * program), and a copy's time tells nothing.
 */
static int
older_than(const char *path, const char *image)
{
	struct stat g, x, gd, xd;

	if (strcmp(path, "-") == 0 || stat(path, &g) != 0 || stat(image, &x) != 0 ||
	    !S_ISREG(g.st_mode) || !S_ISREG(x.st_mode) || dir_of(path, &gd) != 0 ||
	    dir_of(image, &xd) != 0 || gd.st_dev != xd.st_dev || gd.st_ino != xd.st_ino)
		return 0;
	return x.st_mtim.tv_sec > g.st_mtim.tv_sec + 1;
}

/*
 * A profile of another program still gives a report (gprof's, of nothing
 * much): say what looks wrong, on standard error, without changing it.
 */
static void
check_belongs(const struct profile *p, const struct pf_opts *o, struct diag *d)
{
	uint64_t lo = bin_text_vma(p->priv->bin), hi = lo + bin_text_size(p->priv->bin);
	unsigned long arcs = 0;
	uint32_t i;
	size_t k;

	for (i = 0; i < p->nhist; i++)
		if (p->hist[i].lowpc < hi && p->hist[i].highpc > lo)
			break;
	if (p->nhist > 0 && i == p->nhist)
		diag_add(d, DIAG_WARN, "%s: warning: the histogram does not cover %s's code: "
		    "is this its profile?", o->gmon[0], o->image);
	for (k = 0; k < p->ngmon; k++)
		arcs += (unsigned long)p->gmon[k].counts.narcs;
	for (k = 0; k < o->ngmon; k++)
		if (older_than(o->gmon[k], o->image)) {
			diag_add(d, DIAG_WARN, "%s: warning: older than %s: was it built again after the "
			    "run that wrote it? Run it again for a profile of this build", o->gmon[k], o->image);
			break;
		}
	if (arcs > 0 && p->priv->arcs_known == 0)
		diag_add(d, DIAG_WARN, "%s: warning: none of its %lu call arcs is in %s's code: "
		    "is this its profile?", o->gmon[0], arcs, o->image);
	else if (p->priv->arcs_known >= 8 && !o->no_static && 2 * entered(p) < p->priv->arcs_known)
		diag_add(d, DIAG_WARN, "%s: warning: %lu of its %lu call arcs enter %s's functions where "
		    "a prologue calls mcount, the others elsewhere: is this its profile?", o->gmon[0],
		    (unsigned long)entered(p), (unsigned long)p->priv->arcs_known, o->image);
}

/*
 * Whether a processor can be spared while the call graph is numbered:
 * the flat order's job is done by then (it is short).  The sites' (the
 * browser's source lines) may not be, but it has until the load's end,
 * and shares the processor with the search's scout to gain (the first
 * screen at a million functions 3% sooner).
 */
static int
spare_cpu(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

/*
 * The call graph assembled while a second thread orders the flat profile,
 * which needs no more than the self times, the calls (once cg_recursion()
 * took the recursive ones out) and the names: it reads those of the
 * symbols alone, which cg_assemble() leaves as they are.  With
 * pf_opts.narrowable, the plan's first part (pf_narrow_begin()) on
 * another while the times are propagated.  0, -1 (reason in D) or -2 (out
 * of memory).
 */
static int
assemble(struct profile *p, const unsigned char *text, const struct pf_opts *o,
    struct diag *d)
{
	struct job flat, plan = { NULL };
	int cg = (p->input & GMON_IN_CG) != 0, rc, failed;

	if (cg)
		cg_recursion(p);
	job_start(&flat, flat_job, p);
	rc = cg && cg_cycles(p, text, spare_cpu(), d) != 0 ? -1 : 0;
	if (rc == 0 && o->narrowable && !o->flat_only)
		job_start(&plan, plan_job, p);
	if (rc == 0 && cg)
		rc = cg_propagate(p, d) != 0 ? -1 : 0;
	failed = job_join(&plan) != 0;
	failed |= job_join(&flat) != 0;
	return failed && rc == 0 ? -2 : rc;
}

static int
analyse(struct profile *p, const struct pf_opts *o, struct diag *d)
{
	const unsigned char *text;
	struct job sites = { NULL };
	int rc, sites_failed;

	if (o->narrowable && o->sized != NULL)
		o->sized(o->sized_ctx, profile_narrow_bytes(p));
	step(o, "reading the profile", 100);
	text = scan_text(p, o, d);
	switch (read_and_sort_names(p, o, &sites, d)) {
	case -1:
		job_join(&sites);
		return -1;
	case -2:
		job_join(&sites);
		return diag_oom(d);
	}
	p->ntallied = p->narcs;
	if (o->extsyms == NULL && o->ngmon > 0 && o->since == NULL)
		check_belongs(p, o, d);	/* (an interval's calls may all be elsewhere) */
	step(o, "the histogram", 560);
	if (samples(p, o, d) != 0) {
		job_join(&sites);
		return -1;
	}
	step(o, "the call graph", 565);
	rc = assemble(p, text, o, d);
	sites_failed = job_join(&sites) != 0;
	/* Only the sites and -c read the text: its memory serves what comes later (x, f). */
	bin_text_release(p->priv->bin);
	if ((sites_failed && rc == 0) || rc == -2)
		return diag_oom(d);
	if (rc)
		return diag_errors(d) ? -1 : diag_oom(d);
	step(o, "sorting", 770);
	if (order_all(p, o) != 0)
		return diag_oom(d);
	return 0;
}

/* pf_opts.reusable: the symbols as syms_load() made them, for profile_reload(); 0 or -1. */
static int
keep_pristine(struct profile *p, const struct pf_opts *o, struct diag *d)
{
	if (!o->reusable)
		return 0;
	if ((p->priv->pristine = mem_array((size_t)p->nsyms + 1, sizeof *p->sym)) == NULL)
		return diag_oom(d);
	memcpy(p->priv->pristine, p->sym, p->nsyms * sizeof *p->sym);
	return 0;
}

/* profile_load()'s steps on P; 0, or -1 with the reason in D. */
static int
load_all(struct profile *p, const struct pf_opts *o, struct diag *d)
{
	struct pf_private *pv = p->priv;

	step(o, "reading the executable", 0);
	if (bin_open(&pv->bin, o->image, d) != 0 || (pv->addr_bytes = bin_addr_bytes(pv->bin, d)) == 0)
		return -1;
	pv->big_endian = bin_big_endian(pv->bin);
	step(o, "reading the symbols", 20);
	syms_prepare(p, o);
	return syms_load(p, o, d) != 0 || keep_pristine(p, o, d) != 0 || analyse(p, o, d) != 0 ? -1 : 0;
}

/* The end of a load: the progress line erased; P given to *OUT, or freed if FAILED.  0 or -1. */
static int
finish(struct profile *p, const struct pf_opts *o, int failed, struct profile **out)
{
	step(o, NULL, 1000);
	if (failed) {
		profile_free(p);
		return -1;
	}
	p->priv->opts = NULL;
	*out = p;
	return 0;
}

int
profile_load(struct profile **out, const struct pf_opts *o, struct diag *d)
{
	struct profile *p = mem_calloc(1, sizeof *p);
	struct pf_private *pv = mem_calloc(1, sizeof *pv);

	*out = NULL;
	if (p == NULL || pv == NULL) {
		free(p);
		free(pv);
		return diag_oom(d);
	}
	p->priv = pv;
	pv->opts = o;
	srcfiles_init(&pv->files);
	strpool_init(&pv->names);
	strpool_init(&pv->spec_names);
	strcpy(p->dimension, "seconds");
	p->dimension_abbrev = 's';
	p->line_mode = o->line;
	if (pf_keep_specs(pv, o->spec, o->nspec, NULL, 0) != 0) {
		profile_free(p);
		return diag_oom(d);
	}
	return finish(p, o, load_all(p, o, d) != 0, out);
}

/*
 * A reloaded profile's state: LIKE's borrowed (its executable, source
 * files, symspecs and their texts, names, -R map, symbol index, clones'
 * links, the symspecs' symbol table, the text's source lines), the rest
 * its own and empty (profile.c's free_analysis() frees it).
 */
static void
borrow(struct pf_private *pv, const struct profile *like, const struct pf_opts *o)
{
	*pv = *like->priv;
	memset(&pv->arcmap, 0, sizeof pv->arcmap);
	memset(&pv->arcq, 0, sizeof pv->arcq);
	pv->arckey = NULL;
	pv->arckeycap = 0;
	pv->idbits = pv->seqbits = 0;
	memset(pv->arc_offset, 0, sizeof pv->arc_offset);
	memset(&pv->graph, 0, sizeof pv->graph);
	memset(&pv->oplan, 0, sizeof pv->oplan);
	pv->group_slot[0] = pv->group_slot[1] = NULL;
	pv->gfile = NULL;
	pv->ngfiles = pv->arccap = pv->histcap = 0;
	pv->symcap = like->priv->symcap;	/* (room for the cycles' headers: copy_symbols()) */
	pv->bb_warned = 0;
	pv->opts = o;
	pv->since = NULL;
	pv->arcs_known = 0;
	pv->site = NULL;
	pv->site_rec = NULL;
	pv->nsite = pv->sitecap = 0;
	pv->cyc_member = pv->cyc_member_start = NULL;
	pv->root = NULL;
	pv->pristine = NULL;
	pv->image = like;
}

/* P's symbols and their names' orders, as LIKE's were before its analysis; 0 or -1. */
static int
copy_symbols(struct profile *p, const struct profile *like)
{
	size_t n = like->nsyms;

	p->sym = mem_lines(p->priv->symcap, sizeof *p->sym);	/* never moved: cycles' headers go after */
	p->name_order = mem_array(n + 1, sizeof *p->name_order);
	p->name_rank = mem_array(n + 1, sizeof *p->name_rank);
	if (p->sym == NULL || p->name_order == NULL || p->name_rank == NULL)
		return -1;
	memcpy(p->sym, like->priv->pristine, n * sizeof *p->sym);
	memcpy(p->name_order, like->name_order, n * sizeof *p->name_order);
	memcpy(p->name_rank, like->name_rank, n * sizeof *p->name_rank);
	p->nsyms = like->nsyms;
	return 0;
}

int
profile_reload(const struct profile *like, const struct pf_opts *o, struct profile **out,
    struct diag *d)
{
	struct profile *p;
	struct pf_private *pv;

	*out = NULL;
	if (like->priv == NULL || like->priv->pristine == NULL) {
		diag_add(d, DIAG_ERROR, "%s: its symbols were not kept to be read again", o->image);
		return -1;
	}
	p = mem_calloc(1, sizeof *p);
	pv = mem_calloc(1, sizeof *pv);
	if (p == NULL || pv == NULL) {
		free(p);
		free(pv);
		return diag_oom(d);
	}
	borrow(pv, like, o);
	p->priv = pv;
	strcpy(p->dimension, "seconds");
	p->dimension_abbrev = 's';
	p->line_mode = o->line;
	if (copy_symbols(p, like) != 0 || analyse(p, o, d) != 0) {
		if (diag_errors(d) == 0)
			diag_oom(d);
		return finish(p, o, 1, out);
	}
	return finish(p, o, 0, out);
}
