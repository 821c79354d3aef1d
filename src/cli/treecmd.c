/* treecmd: tgprof --tree, the call tree printed as text: measured from the call stacks where there are some. */
#include "treecmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/calltree.h"
#include "model/treetext.h"
#include "print/threadlist.h"

/*
 * The function named NAME: by its raw name, else as the flat profile
 * names it; a clone's, the function it is folded into (the stacks know
 * only that one); PF_NONE if none.
 */
static uint32_t
find(struct report *r, const char *name)
{
	const struct profile *p = report_profile(r);
	struct sbuf sb;
	uint32_t i, hit = PF_NONE;

	for (i = 0; i < p->nsyms && hit == PF_NONE; i++)
		if (p->sym[i].name != NULL && strcmp(p->sym[i].name, name) == 0)
			hit = i;
	sbuf_init(&sb);
	for (i = 0; i < p->nsyms && hit == PF_NONE; i++) {
		sbuf_reset(&sb);
		report_name_only(r, &sb, i);
		if (!sb.failed && strcmp(sbuf_str(&sb), name) == 0)
			hit = i;
	}
	sbuf_release(&sb);
	return hit != PF_NONE && p->sym[hit].fold != PF_NONE ? p->sym[hit].fold : hit;
}

/* CT's rows, all open, after their header, to standard output; 0, or -1 with D. */
static int
print(struct calltree *ct, struct report *r, uint32_t root, const struct opts *o, int measured,
    struct diag *d)
{
	struct sbuf sb;
	size_t i, sel = 0;
	int rc = 0;

	if (calltree_make(ct, r, root, o->tree_callers, o->collapse) != 0 ||
	    calltree_open_all(ct, &sel) < 0)
		return diag_oom(d);
	sbuf_init(&sb);
	if (measured && calltree_measure(ct) != NULL && calltree_measure(ct)->chosen != NULL) {
		sbuf_puts(&sb, "Measured for ");
		threadlist_note(&sb, calltree_measure(ct));
		sbuf_putc(&sb, '\n');
	}
	treetext_header(&sb, r, root, o->tree_callers, measured, o->collapse);
	sbuf_putc(&sb, '\n');
	if (calltree_nrows(ct) == 0)
		sbuf_puts(&sb, measured ? "(on no call stack: never sampled)\n" : "(no time, no calls)\n");
	for (i = 0; i < calltree_nrows(ct) && !sb.failed; i++) {
		treetext_row(&sb, ct, r, i, 0);
		sbuf_putc(&sb, '\n');
		if (sb.len >= 1 << 16) {	/* written as it goes: a tree may be large */
			fputs(sbuf_str(&sb), stdout);
			sbuf_reset(&sb);
		}
	}
	if (sb.failed)
		rc = diag_oom(d);
	else
		fputs(sbuf_str(&sb), stdout);
	sbuf_release(&sb);
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
		diag_add(d, DIAG_ERROR, "standard output: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

int
treecmd_run(const struct opts *o, const struct profile *p, const struct pf_measure *m,
    struct diag *d)
{
	const struct pf_measure *use = o->estimated ? NULL : m;
	uint32_t root = PF_NONE;
	struct calltree *ct;
	struct report *r;
	int rc = -1;

	if (p->caller_start == NULL) {
		diag_add(d, DIAG_ERROR, "--tree: no call graph in the profile files");
		return -1;
	}
	if ((r = report_new(p, &o->out.ro)) == NULL)
		return diag_oom(d);
	if (o->tree_root != NULL && (root = find(r, o->tree_root)) == PF_NONE)
		diag_add(d, DIAG_ERROR, "--tree=%s: no such function in %s", o->tree_root, o->load.image);
	else if (o->tree_callers && root == PF_NONE && use == NULL)
		diag_add(d, DIAG_ERROR, "--callers: of a function (--tree=FUNC), or of the whole "
		    "program from call stacks");
	else if ((ct = calltree_new(p, use)) == NULL)
		diag_oom(d);
	else {
		rc = print(ct, r, root, o, use != NULL, d);
		calltree_free(ct);
	}
	report_free(r);
	return rc;
}
