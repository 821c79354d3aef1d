/* session: what the browser shows, owned in one place: the loaded profile, its narrowings, the comparison, the measure, the report. */
#include "session.h"

#include <stdlib.h>
#include <string.h>

/*
 * What the session owns.  The profiles shown are LOADED and OLD_LOADED
 * themselves without narrowings, else SHOWN and OLD_SHOWN, narrowed from
 * them with the symspecs SPEC[0 .. 2 * nnarrow): each narrowing is two,
 * -E and -e (x) or -F and -f (f), naming the function NAME[k].  DIFF
 * compares the loaded two, NDIFF the narrowed two (diff_again() of DIFF:
 * the names are not matched again).
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

	for (k = n; k < s->nnarrow; k++)
		free(s->priv->name[k]);
	s->nnarrow = n < s->nnarrow ? n : s->nnarrow;
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
	if (n > 0 && (profile_narrow(own->old_loaded, own->spec, 2 * n, &own->old_shown, d) != 0 ||
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

	if (n > 0 && profile_narrow(own->loaded, own->spec, 2 * n, &own->shown, d) != 0)
		return -1;
	s->p = own->shown != NULL ? own->shown : own->loaded;
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
	s->priv->dopts = o != NULL ? *o : (struct diff_opts){ { 1, 1 }, { 0, 0 }, { 0, 0 } };
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
	if (reweigh(s, o) != 0)
		return diag_oom(d);
	s->truth = *o;
	s->gen++;
	facts(s);
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
	*focus = s->priv->spec[2 * k].table == SPEC_INCL_TIME;
	return s->priv->name[k];
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
	e.stacks = s->nnarrow == 0 ? s->measure : NULL;
	e.truth = s->truth;
	e.call_ps = s->call_ps;
	e.measured = e.measured && e.stacks != NULL;	/* no measured times without the stacks */
	if ((r = report_new(s->p, &ro)) == NULL)
		return diag_oom(d);
	rc = export_save(ef, r, &e, path, d);
	report_free(r);
	return rc;
}
