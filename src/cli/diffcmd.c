/* diffcmd: tgprof --diff, two profiles loaded with the same options and compared. */
#include "diffcmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/stacks.h"
#include "progress.h"
#include "print/diffout.h"

#define COMPARE_BROKEN 3	/* the exit status when a --fail-if rule is broken */

/* Splits S->list at its commas; 0, or -1 with the reason in D. */
static int
split(struct comparison_side *s, struct diag *d)
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
sides(const struct opts *o, struct comparison_side s[2], struct diag *d)
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
load(const struct opts *o, struct comparison_side *s, struct diag *d)
{
	struct pf_opts lo = o->load;
	struct progress pr;

	lo.image = s->image;
	lo.gmon = s->gmon;
	lo.ngmon = s->ngmon;
	progress_watch(&pr, &lo, s->ngmon > 0 ? s->gmon[0] : s->image);
	return profile_load(&s->p, &lo, d);
}

/*
 * Side K's sampling from its stacks files (GMON.stacks beside each gmon
 * file, where there is one): the samples a signal brought, into C's
 * options, with -pg's cost a call to take out (--call-cost).  A file
 * that cannot be read counts as none.
 */
static void
sampling(const struct opts *o, struct comparison *c, int k)
{
	const struct comparison_side *s = &c->side[k];
	double samples = 0, signals = 0;
	struct stacks_file sf;
	struct diag quiet;
	struct stat st;
	char path[4096];
	size_t i;

	for (i = 0; i < s->ngmon; i++) {
		diag_init(&quiet);
		if (snprintf(path, sizeof path, "%s.stacks", s->gmon[i]) < (int)sizeof path &&
		    stat(path, &st) == 0 && S_ISREG(st.st_mode) && stacks_read(path, &sf, &quiet) == 0) {
			samples += (double)sf.samples;
			signals += (double)sf.signals;
			stacks_free(&sf);
		}
		diag_release(&quiet);
	}
	c->opts.per_signal[k] = signals > 0 && samples > signals ? samples / signals : 1;
	c->opts.call_ps[k] = o->call_ps > 0 ? o->call_ps : 0;
}

void
diffcmd_release(struct comparison *c)
{
	int k;

	for (k = 0; k < 2; k++) {
		profile_free(c->side[k].p);
		free(c->side[k].buf);
		free(c->side[k].gmon);
	}
	memset(c, 0, sizeof *c);
}

int
diffcmd_load(struct opts *o, struct comparison *c, struct diag *d)
{
	struct comparison_side *s = c->side;

	memset(c, 0, sizeof *c);
	if (sides(o, s, d) != 0 || load(o, &s[0], d) != 0 || load(o, &s[1], d) != 0)
		return -1;
	sampling(o, c, DIFF_OLD);
	sampling(o, c, DIFF_NEW);
	c->opts.truth = o->truth;
	o->cmp.image[0] = s[0].image;
	o->cmp.image[1] = s[1].image;
	o->cmp.gmon[0] = s[0].list;
	o->cmp.gmon[1] = s[1].list;
	return 0;
}

int
diffcmd_run(struct opts *o, struct diag *d)
{
	struct comparison c;
	struct report *r[2] = { NULL, NULL };
	struct pf_diff *df = NULL;
	int rc = 1, broken;

	if (diffcmd_load(o, &c, d) != 0)
		goto done;
	r[0] = report_new(c.side[0].p, &o->out.ro);
	r[1] = report_new(c.side[1].p, &o->out.ro);
	if (r[0] == NULL || r[1] == NULL) {
		diag_oom(d);
		goto done;
	}
	if (diffout_check(r, &o->cmp, d) != 0 || diff_profiles(c.side[0].p, c.side[1].p, &c.opts, &df, d) != 0)
		goto done;
	broken = diffout_gate(stderr, r, df, &o->cmp);
	fflush(stderr);
	if ((o->json ? diffout_json(stdout, r, df, &o->cmp, d) :
	    diffout_text(stdout, r, df, &o->cmp, d)) != 0)
		goto done;
	rc = broken > 0 ? COMPARE_BROKEN : 0;
done:
	diff_free(df);
	report_free(r[0]);
	report_free(r[1]);
	diffcmd_release(&c);
	return rc;
}
