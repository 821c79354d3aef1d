/* compare: tgprof --diff, two profiles loaded with the same options and compared. */
#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diff.h"
#include "print/diffout.h"
#include "print/report.h"

#define COMPARE_BROKEN 3	/* the exit status when a --fail-if rule is broken */

/* One side: its executable, its gmon files (LIST split at commas, in BUF). */
struct side {
	const char *image;
	const char *list;
	char *buf;
	const char **gmon;
	size_t ngmon;
	struct profile *p;
	struct report *r;
};

/* Splits S->list at its commas; 0, or -1 with the reason in D. */
static int
split(struct side *s, struct diag *d)
{
	size_t n = 1;
	char *c;

	for (c = strchr(s->list, ','); c != NULL; c = strchr(c + 1, ','))
		n++;
	if ((s->buf = strdup(s->list)) == NULL || (s->gmon = calloc(n, sizeof *s->gmon)) == NULL)
		return diag_oom(d);
	for (c = strtok(s->buf, ","); c != NULL; c = strtok(NULL, ","))
		s->gmon[s->ngmon++] = c;
	if (s->ngmon == 0) {
		diag_add(d, DIAG_ERROR, "--diff: no gmon file in \"%s\"", s->list);
		return -1;
	}
	return 0;
}

/* The two sides from the positional arguments; 0, or -1 with the reason in D. */
static int
sides(const struct opts *o, struct side s[2], struct diag *d)
{
	memset(s, 0, 2 * sizeof *s);
	if (o->load.ngmon == 2) {	/* PROG OLD NEW */
		s[0].image = s[1].image = o->load.image;
		s[0].list = o->gmon[0];
		s[1].list = o->gmon[1];
	} else if (o->load.ngmon == 3) {	/* OLDPROG OLD NEWPROG NEW */
		s[0].image = o->load.image;
		s[0].list = o->gmon[0];
		s[1].image = o->gmon[1];
		s[1].list = o->gmon[2];
	} else {
		diag_add(d, DIAG_ERROR, "--diff: give PROG OLD NEW, or OLDPROG OLD NEWPROG NEW");
		return -1;
	}
	return split(&s[0], d) != 0 || split(&s[1], d) != 0 ? -1 : 0;
}

/* Side S loaded and analysed with O's options; 0, or -1 with the reason in D. */
static int
load(const struct opts *o, struct side *s, struct diag *d)
{
	struct pf_opts lo = o->load;

	lo.image = s->image;
	lo.gmon = s->gmon;
	lo.ngmon = s->ngmon;
	if (profile_load(&s->p, &lo, d) != 0)
		return -1;
	if ((s->r = report_new(s->p, &o->out.ro)) == NULL)
		return diag_oom(d);
	return 0;
}

static void
release(struct side s[2])
{
	int k;

	for (k = 0; k < 2; k++) {
		report_free(s[k].r);
		profile_free(s[k].p);
		free(s[k].buf);
		free(s[k].gmon);
	}
}

int
compare_run(struct opts *o, struct diag *d)
{
	struct side s[2];
	struct pf_diff *df = NULL;
	struct report *r[2];
	int rc = 1, broken;

	if (sides(o, s, d) != 0 || load(o, &s[0], d) != 0 || load(o, &s[1], d) != 0 ||
	    diff_profiles(s[0].p, s[1].p, &df, d) != 0)
		goto done;
	r[0] = s[0].r;
	r[1] = s[1].r;
	o->cmp.image[0] = s[0].image;
	o->cmp.image[1] = s[1].image;
	o->cmp.gmon[0] = s[0].list;
	o->cmp.gmon[1] = s[1].list;
	broken = diffout_gate(stderr, r, df, &o->cmp);
	fflush(stderr);
	if ((o->json ? diffout_json(stdout, r, df, &o->cmp, d) : diffout_text(stdout, r, df, &o->cmp, d)) != 0)
		goto done;
	rc = broken > 0 ? COMPARE_BROKEN : 0;
done:
	diff_free(df);
	release(s);
	return rc;
}
