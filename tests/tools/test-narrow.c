/* test-narrow: the batch report of a profile narrowed with profile_narrow(), to compare with tgprof --batch's. */
/*
 * Usage: test-narrow [-f|-u] ARGS... -- EXTRA... [-- EXTRA...]
 *
 * ARGS is a tgprof command line (options, executable, gmon files); each
 * EXTRA group holds only -e -E -f -F -n -N options.  The profile of ARGS
 * is loaded, then narrowed with the symspecs of each group in turn
 * (profile_narrow() on the result of the one before, which is freed at
 * once: a narrowed profile must need only the loaded one), and printed as
 * tgprof --batch ARGS EXTRA... prints it: the same styles and options.
 * The profile is loaded as the browser loads it, ready to be narrowed
 * (pf_opts.narrowable); with -u without that, so that profile_narrow()
 * makes what it needs itself.  With -f it is instead loaded afresh with
 * all those symspecs (profile_load(), in profile_narrow()'s order: the
 * command line's, then each group's), for comparison.  Messages go to standard error as
 * tgprof's; exit status as tgprof's (0, or 1 on an error), 2 for a usage
 * error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "core/profile.h"
#include "print/batch.h"
#include "util/diag.h"

#define MAXGROUPS 16

static void
usage(void)
{
	fprintf(stderr, "usage: test-narrow [-f|-u] ARGS... -- EXTRA... [-- EXTRA...]\n");
	exit(2);
}

static void
parse(struct opts *o, int argc, char **argv)
{
	if (opts_parse(o, argc, argv) != OPTS_RUN)
		usage();
}

/*
 * The symspecs of one group: what opts_parse() gives for it less those it
 * adds to every command line (gprof's mcount names, last).
 */
static size_t
group_specs(struct opts *o, int argc, char **argv, size_t nadded)
{
	parse(o, argc, argv);
	if (o->nspec < nadded)
		usage();
	return o->nspec - nadded;
}

static int
print(struct opts *full, const struct profile *p, struct diag *d)
{
	unsigned style = full->out.style;

	if (style == 0)
		style = batch_default_style(p) & ~full->user_specified;
	full->out.style = style;
	return batch_print(stdout, p, &full->out, d) != 0;
}

static void
print_diags(const struct diag *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		fprintf(stderr, "tgprof: %s\n", d->msg[i].text);
}

/* ARGV[0..ARGC) split at each "--": group 0 the command line, then the EXTRA groups. */
static int
split(int argc, char **argv, char **start[], int count[])
{
	int n = 0, i;

	start[0] = argv;
	count[0] = 0;
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--") != 0) {
			count[n]++;
			continue;
		}
		if (++n == MAXGROUPS)
			usage();
		start[n] = argv + i + 1;
		count[n] = 0;
	}
	return n + 1;
}

/* The symspecs of the EXTRA groups: ALL holds the command line's then each group's; their ends in END. */
static struct pf_spec *
extras(char **start[], const int count[], int ngroups, size_t nadded, const struct opts *base,
    size_t end[])
{
	struct pf_spec *all = calloc(base->nspec + 1, sizeof *all);
	size_t n = base->nspec;
	int g;

	if (all == NULL)
		exit(2);
	memcpy(all, base->spec, base->nspec * sizeof *all);
	end[0] = n;
	for (g = 1; g < ngroups; g++) {
		char *argv[256];
		struct opts o;
		size_t k;

		if (count[g] + 1 > 255)
			usage();
		argv[0] = "test-narrow";
		memcpy(argv + 1, start[g], (size_t)count[g] * sizeof *argv);
		argv[count[g] + 1] = NULL;
		k = group_specs(&o, count[g] + 1, argv, nadded);
		if ((all = realloc(all, (n + k + 1) * sizeof *all)) == NULL)
			exit(2);
		memcpy(all + n, o.spec, k * sizeof *all);
		end[g] = n += k;
		opts_release(&o);	/* the texts are argv's */
	}
	return all;
}

int
main(int argc, char **argv)
{
	char **start[MAXGROUPS], *none[] = { "test-narrow", NULL };
	int count[MAXGROUPS], ngroups, g, rc;
	int fresh = argc > 1 && strcmp(argv[1], "-f") == 0, prepared = !(argc > 1 && strcmp(argv[1], "-u") == 0);
	struct opts base, full, empty;
	struct pf_spec *all;
	struct profile *root = NULL, *cur, *q;
	size_t end[MAXGROUPS], nadded;
	struct diag d;
	char **fargv;

	if (argc - fresh - !prepared < 3)
		usage();
	ngroups = split(argc - 1 - fresh - !prepared, argv + 1 + fresh + !prepared, start, count);
	nadded = group_specs(&empty, 1, none, 0);
	opts_release(&empty);
	/* The command line alone, then with every group: tgprof --batch ARGS EXTRA... */
	if ((fargv = calloc((size_t)argc + 1, sizeof *fargv)) == NULL)
		return 2;
	fargv[0] = argv[0];
	memcpy(fargv + 1, start[0], (size_t)count[0] * sizeof *fargv);
	parse(&base, count[0] + 1, fargv);
	all = extras(start, count, ngroups, nadded, &base, end);
	for (rc = count[0] + 1, g = 1; g < ngroups; g++) {
		memcpy(fargv + rc, start[g], (size_t)count[g] * sizeof *fargv);
		rc += count[g];
	}
	parse(&full, rc, fargv);
	if (full.out.style & BATCH_SUM)
		usage();
	diag_init(&d);
	if (fresh) {
		base.load.spec = all;
		base.load.nspec = end[ngroups - 1];
	}
	base.load.narrowable = prepared && !fresh;
	rc = profile_load(&root, &base.load, &d) != 0;
	cur = root;
	for (g = 1; rc == 0 && !fresh && g < ngroups; g++) {
		rc = profile_narrow(cur, all + end[g - 1], end[g] - end[g - 1], &q, &d) != 0;
		if (cur != root)
			profile_free(cur);	/* q borrows from root only */
		cur = rc == 0 ? q : NULL;
	}
	if (rc == 0)
		rc = print(&full, cur, &d);
	if (cur != root)
		profile_free(cur);
	profile_free(root);
	print_diags(&d);
	diag_release(&d);
	free(all);
	free(fargv);
	opts_release(&base);
	opts_release(&full);
	return rc;
}
