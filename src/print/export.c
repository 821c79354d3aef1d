/* export: the analysed profile in the formats other tools read (tgprof --export=FORMAT). */
#include "export.h"

#include <errno.h>
#include <string.h>

#include "util/afile.h"

#include "callgrind.h"
#include "dot.h"
#include "estfold.h"
#include "jsonexp.h"
#include "pprof.h"

/* The formats, in the order the help lists them. */
static const struct export_format formats[] = {
	{ "callgrind", 0, 1, callgrind_write },
	{ "dot", 0, 0, dot_write },
	{ "json", 0, 1, jsonexp_write },
	{ "folded", 0, 0, estfold_write },
	{ "pprof", 1, 0, pprof_write },
};

int
export_shown(struct report *r, const struct export_opts *eo, uint32_t id)
{
	const struct profile *p = report_profile(r);

	return report_flat_listed(r, id) || (p->caller_start != NULL &&
	    (p->callee_start[id + 1] > p->callee_start[id] || p->caller_start[id + 1] > p->caller_start[id])) ||
	    (eo->measured && eo->stacks != NULL && eo->stacks->incl[id] > 0);
}

double
export_self(struct report *r, const struct export_opts *eo, uint32_t id)
{
	const struct profile *p = report_profile(r);
	const struct pf_measure *m = eo->stacks;

	/* Some threads', or another clock's: their stacks' leaves, and the library time charged to them. */
	if (eo->measured && m != NULL && (m->chosen != NULL || m->truth.clock != TRUTH_CPU))
		return m->hz > 0 && id < p->nsyms ? (m->self[id] + m->lib_charged[id]) * (double)p->hz /
		    (double)m->hz : 0;
	return truth_counts(p, id, &eo->truth) ? truth_self(p, id, eo->call_ps, &eo->truth) : 0;
}

void
export_truth_note(struct report *r, const struct export_opts *eo, struct sbuf *sb)
{
	struct truth_sums s = truth_sum(report_profile(r), eo->call_ps, &eo->truth);

	report_truth_note(sb, &s, &eo->truth);
}

const struct export_format *
export_find(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof formats / sizeof *formats; k++)
		if (strcmp(formats[k].name, name) == 0)
			return &formats[k];
	return NULL;
}

void
export_names(struct sbuf *sb)
{
	size_t k;

	for (k = 0; k < sizeof formats / sizeof *formats; k++)
		sbuf_printf(sb, "%s%s", k > 0 ? ", " : "", formats[k].name);
}

/*
 * The writer's messages W into D; when it FAILED, the last (its error)
 * as PATH's, one line: "PATH: what is wrong".
 */
static void
pass_on(struct diag *d, const struct diag *w, const char *path, int failed)
{
	size_t i, n = failed && w->n > 0 ? w->n - 1 : w->n;

	for (i = 0; i < n; i++)
		diag_add(d, w->msg[i].level, "%s", w->msg[i].text);
	if (failed)
		diag_add(d, DIAG_ERROR, "%s: %s", path, w->n > 0 ? w->msg[w->n - 1].text : "cannot write");
}

int
export_save(const struct export_format *ef, struct report *r, const struct export_opts *eo,
    const char *path, struct diag *d)
{
	struct afile af;
	struct diag w;
	int rc = 0;

	if (afile_open(&af, path) != 0) {
		diag_add(d, DIAG_ERROR, "%s: %s", path, strerror(errno));
		return -1;
	}
	diag_init(&w);
	if (ef->write(af.f, r, eo, &w) != 0) {
		afile_abort(&af);
		rc = -1;
	} else if (afile_commit(&af) != 0) {
		diag_add(&w, DIAG_ERROR, "%s", strerror(errno));
		rc = -1;
	}
	pass_on(d, &w, path, rc != 0);
	diag_release(&w);
	return rc;
}
