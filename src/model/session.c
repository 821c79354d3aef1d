/* session: what the browser shows, owned in one place: the loaded profile, its narrowings, the comparison, the measure, the report. */
#include "session.h"

#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

/*
 * What the session owns.  The profiles shown are LOADED and OLD_LOADED
 * themselves without narrowings, else SHOWN and OLD_SHOWN, narrowed from
 * them with the symspecs SPEC[0 .. 2 * nnarrow): each narrowing is two,
 * -E and -e (x) or -F and -f (f), naming the function NAME[k].  DIFF
 * compares the loaded two, NDIFF the narrowed two (diff_again() of DIFF:
 * the names are not matched again).  A narrowing to threads (TIDS[k] not
 * NULL: NTIDS[k] thread ids, NAME[k] what says so) has no symspecs: it
 * narrows MEASURE into SHOWN_MEASURE (the last such narrowing in force
 * wins), and the profiles are narrowed by the others' symspecs only.
 */
struct session_own {
	struct profile *loaded;
	struct pf_measure *measure;
	struct profile *shown;		/* NULL: not narrowed */
	struct profile *old_loaded;	/* NULL: not comparing */
	struct profile *old_shown;
	struct pf_diff *diff;		/* comparing: LOADED against OLD_LOADED, once made */
	struct pf_diff *ndiff;		/* narrowed: SHOWN against OLD_SHOWN */
	struct diff_opts dopts;		/* how DIFF was made (session_compare()) */
	struct pf_spec spec[2 * SESSION_NARROW];
	char *name[SESSION_NARROW];
	uint32_t *tids[SESSION_NARROW];	/* a narrowing to threads: their ids; else NULL */
	size_t ntids[SESSION_NARROW];
	struct pf_measure *shown_measure;	/* MEASURE narrowed to threads, or NULL */
	struct pf_spec fspec[2 * SESSION_NARROW];	/* the function narrowings' symspecs, in force */
	int broken;			/* no report could be made: nothing to show */
};

/*
 * The analysis shown is freed (with its report and narrowed comparison):
 * what was loaded is shown, not compared until compare_again().
 */
static void
drop(struct session *s)
{
	struct session_own *own = s->priv;

	report_free(s->r);
	diff_free(own->ndiff);
	profile_free(own->shown);
	profile_free(own->old_shown);
	measure_free(own->shown_measure);
	own->shown_measure = NULL;
	s->measure = own->measure;
	s->nfunc = 0;
	s->r = NULL;
	own->ndiff = NULL;
	own->shown = own->old_shown = NULL;
	s->p = own->loaded;
	s->old = own->old_loaded;
	s->diff = NULL;
}

/* The narrowings from N on forgotten. */
static void
forget(struct session *s, size_t n)
{
	size_t k;

	for (k = n; k < s->nnarrow; k++) {
		free(s->priv->name[k]);
		free(s->priv->tids[k]);
		s->priv->tids[k] = NULL;
	}
	s->nnarrow = n < s->nnarrow ? n : s->nnarrow;
}

/* The symspecs of the function narrowings among the first N into own->fspec; how many. */
static size_t
func_specs(struct session *s, size_t n)
{
	struct session_own *own = s->priv;
	size_t k, nf = 0;

	for (k = 0; k < n; k++)
		if (own->tids[k] == NULL) {
			own->fspec[nf++] = own->spec[2 * k];
			own->fspec[nf++] = own->spec[2 * k + 1];
		}
	return nf;
}

/*
 * The measure shown: the loaded one narrowed to the threads of the last
 * narrowing to threads among the first N (the loaded measure's threads of
 * those ids), if any.  0, or -1 with the reason in D.
 */
static int
thread_measure(struct session *s, size_t n, struct diag *d)
{
	struct session_own *own = s->priv;
	const struct pf_measure *m = own->measure;
	unsigned char *chosen;
	size_t k = n, j;
	uint32_t t;
	int rc = 0, any = 0;

	while (k > 0 && own->tids[k - 1] == NULL)
		k--;
	if (k == 0)
		return 0;
	if (m == NULL) {
		diag_add(d, DIAG_ERROR, "no call stacks: no threads");
		return -1;
	}
	if ((chosen = calloc((size_t)m->nthread + 1, 1)) == NULL)
		return diag_oom(d);
	for (t = 0; t < m->nthread; t++)
		for (j = 0; j < own->ntids[k - 1] && !chosen[t]; j++)
			if (m->thread[t].tid == own->tids[k - 1][j])
				chosen[t] = 1, any = 1;
	if (!any) {
		diag_add(d, DIAG_ERROR, "%s: none of these threads is in the profile", own->name[k - 1]);
		rc = -1;
	} else if (measure_threads(m, own->loaded, chosen, &own->shown_measure) != 0) {
		rc = diag_oom(d);
	}
	free(chosen);
	if (rc == 0)
		s->measure = own->shown_measure;
	return rc;
}

/*
 * The old profile narrowed with the first N narrowings and compared with
 * P (the loaded two compared first, once); 0, or -1 with the reason in D.
 */
static int
compare_again(struct session *s, size_t n, struct diag *d)
{
	struct session_own *own = s->priv;

	diff_free(own->ndiff);
	profile_free(own->old_shown);
	own->ndiff = NULL;
	own->old_shown = NULL;
	s->old = own->old_loaded;
	s->diff = NULL;
	if (own->old_loaded == NULL)
		return 0;
	own->dopts.truth = s->truth;
	if (own->diff == NULL && diff_profiles(own->old_loaded, own->loaded, &own->dopts, &own->diff, d) != 0)
		return -1;
	n = func_specs(s, n);
	if (n > 0 && (profile_narrow(own->old_loaded, own->fspec, n, &own->old_shown, d) != 0 ||
	    diff_again(own->diff, own->old_shown, s->p, &own->ndiff, d) != 0))
		return -1;
	s->old = own->old_shown != NULL ? own->old_shown : own->old_loaded;
	s->diff = own->ndiff != NULL ? own->ndiff : own->diff;
	return 0;
}

/* After drop(): both profiles with the first N narrowings, compared; 0, or -1 with D. */
static int
analyse(struct session *s, size_t n, struct diag *d)
{
	struct session_own *own = s->priv;
	size_t nf = func_specs(s, n);

	if (nf > 0 && profile_narrow(own->loaded, own->fspec, nf, &own->shown, d) != 0)
		return -1;
	s->nfunc = nf / 2;
	s->p = own->shown != NULL ? own->shown : own->loaded;
	if (thread_measure(s, n, d) != 0)
		return -1;
	return compare_again(s, n, d);
}

/* The comparison ends (its profiles freed). */
static void
end_comparison(struct session *s)
{
	struct session_own *own = s->priv;

	diff_free(own->ndiff);
	diff_free(own->diff);
	profile_free(own->old_shown);
	profile_free(own->old_loaded);
	own->ndiff = own->diff = NULL;
	own->old_shown = own->old_loaded = NULL;
	s->old = NULL;
	s->diff = NULL;
}

/* P's report made (else the session is broken), and the change counted; 0, or -1 with D. */
static int
show(struct session *s, struct diag *d)
{
	s->gen++;
	s->names++;
	if ((s->r = report_new(s->p, &s->ro)) == NULL) {
		s->priv->broken = 1;
		return diag_oom(d);
	}
	return 0;
}

/*
 * Shows the analysis with the first N narrowings, else (it cannot be
 * made) with the first BACK, else with none; the one shown is freed
 * first.  0, or -1 with the reason in D.
 */
static int
apply(struct session *s, size_t n, size_t back, struct diag *d)
{
	struct diag quiet;
	int rc = 0;

	drop(s);
	if (analyse(s, n, d) != 0) {
		rc = -1;
		diag_init(&quiet);	/* what was made once can be made again, or fails as it did */
		drop(s);
		if (back == 0 || analyse(s, back, &quiet) != 0) {
			drop(s);
			back = 0;
			if (compare_again(s, 0, &quiet) != 0)
				end_comparison(s);
		}
		diag_release(&quiet);
		n = back;
	}
	forget(s, n);
	return show(s, d) != 0 ? -1 : rc;
}

/* What the loaded profile says once: clones folded, its times summed (what is taken out). */
static void
facts(struct session *s)
{
	const struct profile *p = s->priv->loaded;
	uint32_t k;

	s->nfolded = 0;
	for (k = 0; k < p->nsyms; k++)
		s->nfolded += p->sym[k].fold != PF_NONE;
	s->sums = truth_sum(p, s->call_ps, &s->truth);
}

int
session_new(struct profile *p, struct pf_measure *m, const struct report_opts *ro,
    const struct truth_opts *truth, double call_ps, struct session **out, struct diag *d)
{
	struct session *s = calloc(1, sizeof *s);

	*out = NULL;
	if (s == NULL || (s->priv = calloc(1, sizeof *s->priv)) == NULL) {
		free(s);
		measure_free(m);
		profile_free(p);
		return diag_oom(d);
	}
	s->priv->loaded = p;
	s->priv->measure = m;
	s->p = p;
	s->measure = m;
	s->ro = *ro;
	s->loaded = 1;
	s->truth = *truth;
	s->call_ps = m != NULL ? m->call_ps : call_ps > 0 ? call_ps : 0;
	if (show(s, d) != 0) {
		session_free(s);
		return -1;
	}
	facts(s);
	*out = s;
	return 0;
}

void
session_free(struct session *s)
{
	if (s == NULL)
		return;
	drop(s);
	end_comparison(s);
	forget(s, 0);
	measure_free(s->priv->measure);
	profile_free(s->priv->loaded);
	free(s->priv);
	free(s);
}

int
session_narrow(struct session *s, uint32_t fn, int focus, struct diag *d)
{
	struct session_own *own = s->priv;
	size_t n = s->nnarrow;

	if (fn >= s->p->nsyms || s->p->sym[fn].name == NULL) {
		diag_add(d, DIAG_ERROR, "select a function first");
		return -1;
	}
	if (n == SESSION_NARROW) {
		diag_add(d, DIAG_ERROR, "%d at most; u undoes one", SESSION_NARROW);
		return -1;
	}
	if ((own->name[n] = strdup(s->p->sym[fn].name)) == NULL)
		return diag_oom(d);
	own->spec[2 * n].text = own->spec[2 * n + 1].text = own->name[n];
	own->spec[2 * n].table = focus ? SPEC_INCL_TIME : SPEC_EXCL_TIME;
	own->spec[2 * n + 1].table = focus ? SPEC_INCL_GRAPH : SPEC_EXCL_GRAPH;
	s->nnarrow = n + 1;
	return apply(s, n + 1, n, d);
}

int
session_threads(struct session *s, const unsigned char *chosen, struct diag *d)
{
	struct session_own *own = s->priv;
	const struct pf_measure *m = own->measure;
	size_t n = s->nnarrow, k = 0;
	struct sbuf sb;
	uint32_t t;

	if (m == NULL || m->nthread == 0) {
		diag_add(d, DIAG_ERROR, "no threads: the stacks files have no thread records");
		return -1;
	}
	if (n == SESSION_NARROW) {
		diag_add(d, DIAG_ERROR, "%d at most; u undoes one", SESSION_NARROW);
		return -1;
	}
	for (t = 0; t < m->nthread; t++)
		k += chosen[t] != 0;
	if (k == 0) {
		diag_add(d, DIAG_ERROR, "choose a thread first");
		return -1;
	}
	if ((own->tids[n] = calloc(k, sizeof *own->tids[n])) == NULL)
		return diag_oom(d);
	sbuf_init(&sb);
	sbuf_puts(&sb, k > 1 ? "threads " : "thread ");
	for (k = 0, t = 0; t < m->nthread; t++)
		if (chosen[t]) {
			sbuf_printf(&sb, "%s%s-%lu", k > 0 ? ", " : "", m->thread[t].name, (unsigned long)m->thread[t].tid);
			own->tids[n][k++] = m->thread[t].tid;
		}
	own->ntids[n] = k;
	own->name[n] = sb.failed ? NULL : strdup(sbuf_str(&sb));
	sbuf_release(&sb);
	if (own->name[n] == NULL) {
		free(own->tids[n]);
		own->tids[n] = NULL;
		return diag_oom(d);
	}
	s->nnarrow = n + 1;
	return apply(s, n + 1, n, d);
}

int
session_undo(struct session *s, struct diag *d)
{
	if (s->nnarrow == 0) {
		diag_add(d, DIAG_ERROR, "nothing to undo");
		return -1;
	}
	return apply(s, s->nnarrow - 1, 0, d);
}

int
session_compare(struct session *s, struct profile *old, const struct diff_opts *o, struct diag *d)
{
	end_comparison(s);
	s->priv->old_loaded = old;
	s->priv->dopts = o != NULL ? *o : (struct diff_opts){ { 1, 1 }, { 0, 0 }, { 0, 0, TRUTH_CPU } };
	s->gen++;
	if (compare_again(s, s->nnarrow, d) != 0) {
		end_comparison(s);
		return -1;
	}
	return 0;
}

void
session_stop_comparing(struct session *s)
{
	if (s->priv->old_loaded == NULL)
		return;
	end_comparison(s);
	s->gen++;
}

/* The measure weighed again as O says; 0, or -1 (out of memory: as it was). */
static int
reweigh(struct session *s, const struct truth_opts *o)
{
	struct session_own *own = s->priv;
	struct pf_measure *m;

	if (own->measure == NULL)
		return 0;
	if (measure_reweigh(own->measure, own->loaded, o, &m) != 0)
		return -1;
	measure_free(own->shown_measure);	/* made again from the new one (session_truth()) */
	own->shown_measure = NULL;
	measure_free(own->measure);
	own->measure = m;
	s->measure = m;
	return 0;
}

int
session_replace(struct session *s, struct profile *p, struct pf_measure *m, struct diag *d)
{
	struct session_own *own = s->priv;
	int rc;

	drop(s);
	diff_free(own->diff);	/* of the profile that goes */
	own->diff = NULL;
	measure_free(own->measure);
	profile_free(own->loaded);
	own->loaded = p;
	own->measure = m;
	s->measure = m;
	s->loaded++;
	if (m != NULL)
		s->call_ps = m->call_ps;
	if (m != NULL && (m->truth.raw != s->truth.raw || m->truth.with_profiler != s->truth.with_profiler) &&
	    reweigh(s, &s->truth) != 0)
		s->truth = m->truth;	/* out of memory: the new measure as it was made */
	rc = apply(s, s->nnarrow, 0, d);
	if (s->r != NULL)
		facts(s);
	return rc;
}

int
session_truth(struct session *s, const struct truth_opts *o, struct diag *d)
{
	size_t k;

	if (reweigh(s, o) != 0)
		return diag_oom(d);
	s->truth = *o;
	s->gen++;
	facts(s);
	for (k = 0; k < s->nnarrow && s->priv->tids[k] == NULL; k++)
		;
	if (k < s->nnarrow && apply(s, s->nnarrow, 0, d) != 0)	/* the threads' measure, weighed anew */
		return -1;
	if (s->priv->old_loaded != NULL) {	/* compared anew, with the times as they are now */
		diff_free(s->priv->diff);
		s->priv->diff = NULL;
		if (compare_again(s, s->nnarrow, d) != 0) {
			end_comparison(s);
			return -1;
		}
	}
	return 0;
}

int
session_names(struct session *s, const struct report_opts *ro)
{
	struct report *r = report_new(s->p, ro);

	if (r == NULL)
		return -1;
	report_free(s->r);
	s->r = r;
	s->ro = *ro;
	s->names++;
	return 0;
}

const char *
session_narrowing(const struct session *s, size_t k, int *focus)
{
	*focus = s->priv->tids[k] != NULL || s->priv->spec[2 * k].table == SPEC_INCL_TIME;
	return s->priv->name[k];
}

int
session_narrowing_threads(const struct session *s, size_t k)
{
	return s->priv->tids[k] != NULL;
}

uint32_t
session_old_id(const struct session *s, uint32_t id)
{
	return s->diff != NULL && id < s->p->nsyms ? s->diff->old_of[id] : PF_NONE;
}

int
session_usable(const struct session *s)
{
	return !s->priv->broken;
}

int
session_export(const struct session *s, const struct export_format *ef, const struct export_opts *eo,
    const char *path, struct diag *d)
{
	struct report_opts ro = s->ro;
	struct export_opts e = *eo;
	struct report *r;
	int rc;

	ro.template_dots = NULL;
	e.stacks = s->nfunc == 0 ? s->measure : NULL;	/* narrowed to threads: theirs */
	e.truth = s->truth;
	e.call_ps = s->call_ps;
	e.measured = e.measured && e.stacks != NULL;	/* no measured times without the stacks */
	if ((r = report_new(s->p, &ro)) == NULL)
		return diag_oom(d);
	rc = export_save(ef, r, &e, path, d);
	report_free(r);
	return rc;
}
