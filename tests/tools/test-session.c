/* test-session: drives a browser session (model/session.h) and its call trees with commands, as text in and text out. */
/*
 * Usage: test-session < COMMANDS
 *
 * Each line of standard input is a command (blank lines and lines
 * starting with # are skipped); what it shows goes to standard output:
 *
 *   load ARGS...     the session of tgprof's command line ARGS (options,
 *                    executable, gmon files), loaded as the browser loads
 *                    it (ready to narrow); --stacks=FILE measures it
 *   compare ARGS...  the old profile of ARGS (loaded so too) compared
 *   stop             the comparison ends
 *   replace ARGS...  the loaded profile replaced by that of ARGS
 *   reload ARGS...   the same, read by profile_reload() with the
 *                    executable of the first load's command line (loaded
 *                    again once, to be reused: tgprof top's refreshes)
 *   narrow NAME      x: the function with the raw name NAME analysed away
 *   focus NAME       f: it alone
 *   undo             u
 *   threads SPEC     the thread view's Enter: the threads SPEC names
 *                    (--thread's: tids and name globs, comma-separated)
 *   names raw|demangled
 *   state            "gen G names N loaded L narrowed: ...; comparing: yes|no"
 *   flat, graph      tgprof --batch -b -p, -b -q of the profile shown
 *   old              tgprof --batch -b -q of the comparison's old profile
 *   diff             the comparison's rows (tgprof --diff's), then each
 *                    named function of the profile shown and its old match
 *   tree [NAME [callers]]  the call tree of the whole program, or of NAME
 *                    (a raw name, or #N: the call graph's entry [N], a
 *                    cycle's too) and what it calls or its callers, every
 *                    node open, as the browser's P writes it (ASCII marks);
 *                    with call stacks, made of them
 *   recursion shown|indirect|all   how the next trees of call stacks
 *                    collapse recursion (indirect at first)
 *
 * An operation that fails prints "error: WHY" and the session goes on.
 * Exit status 0; 1 if a load fails; 2 for a command it does not know.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "model/calltree.h"
#include "model/session.h"
#include "model/treetext.h"
#include "print/batch.h"
#include "print/diffout.h"

#define MAXARGS 64
#define MAXLOADS 64

static struct session *s;
static struct opts first;	/* the first load's: how the profiles print */
static int loaded;
static int recursion = FLAME_RECURSION_INDIRECT;	/* the trees' (the recursion command) */
static char *kept[MAXLOADS];	/* the command lines loaded: their options and profiles point into them */
static size_t nkept;

static void
fail(const char *what, const char *line)
{
	fprintf(stderr, "test-session: %s: %s\n", what, line);
	exit(2);
}

static void
error(const struct diag *d)
{
	printf("error: %s\n", d->n > 0 ? d->msg[d->n - 1].text : "(no reason given)");
}

/*
 * The profile (and, with --stacks, the measure) of the command line in
 * LINE (split at blanks, as a shell would without quotes), loaded as the
 * browser loads it; O keeps its options.  0, or -1 having said why.
 */
static struct profile *image;	/* reload's: the first load's command line loaded again, reusable */
static struct opts io;		/* its options */
static char *first_args;

/*
 * REUSING: 1, the profile is loaded to be read again (pf_opts.reusable);
 * 2, it is read again with IMAGE's executable (profile_reload()).
 */
static int
load_as(const char *args, struct opts *o, struct profile **p, struct pf_measure **m, int reusing)
{
	char *argv[MAXARGS + 2], *w, *line;
	int argc = 0;
	struct diag d;

	if (nkept == MAXLOADS || (line = kept[nkept++] = strdup(args)) == NULL)
		fail("too many loads", "");
	argv[argc++] = "tgprof";
	for (w = strtok(line, " "); w != NULL && argc <= MAXARGS; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	if (opts_parse(o, argc, argv) != OPTS_RUN)
		exit(1);
	o->load.narrowable = 1;
	o->load.source_lines = 1;
	o->load.reusable = reusing;
	*m = NULL;
	diag_init(&d);
	if ((reusing == 2 ? profile_reload(image, &o->load, p, &d) : profile_load(p, &o->load, &d)) != 0 ||
	    (o->stacks != NULL &&
	    measure_load(*p, &o->stacks, 1, &(struct measure_opts){ NULL, NULL, { 0, 0 }, -1, NULL }, m, &d) != 0)) {
		error(&d);
		exit(1);
	}
	diag_release(&d);
	return 0;
}

static int
load(const char *args, struct opts *o, struct profile **p, struct pf_measure **m)
{
	return load_as(args, o, p, m, 0);
}

/* "reload ARGS": IMAGE made once from the first load's command line, then ARGS read with it. */
static void
reload_args(const char *args, struct opts *o, struct profile **p, struct pf_measure **m)
{
	struct pf_measure *im;

	if (image == NULL) {
		load_as(first_args, &io, &image, &im, 1);
		measure_free(im);
	}
	load_as(args, o, p, m, 2);
}

/* "load ARGS": the session; "compare", "replace", "reload": the profile given to it. */
static void
cmd_load(const char *cmd, const char *args)
{
	struct opts o, *op = loaded ? &o : &first;
	struct pf_measure *m;
	struct profile *p;
	struct diag d;
	int rc;

	if (!loaded && strcmp(cmd, "load") != 0)
		fail("load first", cmd);
	if (strcmp(cmd, "reload") == 0)
		reload_args(args, op, &p, &m);
	else
		load(args, op, &p, &m);
	if (strcmp(cmd, "load") == 0 && (first_args = strdup(args)) == NULL)
		fail("out of memory", cmd);
	diag_init(&d);
	if (strcmp(cmd, "load") == 0) {
		if (loaded)
			fail("loaded already", cmd);
		rc = session_new(p, m, &first.out.ro, &(struct truth_opts){ 0, 0 }, -1, &s, &d);
		loaded = rc == 0;
	} else if (strcmp(cmd, "compare") == 0) {
		measure_free(m);
		rc = session_compare(s, p, NULL, &d);
	} else {
		rc = session_replace(s, p, m, &d);
	}
	if (rc != 0)
		error(&d);
	diag_release(&d);
	if (op == &o)
		opts_release(&o);
	if (!loaded)
		exit(1);
}

/* The function of the profile shown whose raw name is NAME, or PF_NONE. */
static uint32_t
named(const char *name)
{
	uint32_t i;

	for (i = 0; i < s->p->nsyms; i++)
		if (s->p->sym[i].name != NULL && strcmp(s->p->sym[i].name, name) == 0)
			return i;
	return PF_NONE;
}

static void
state(void)
{
	size_t k;
	int focus;

	printf("gen %u names %u loaded %u narrowed:", s->gen, s->names, s->loaded);
	for (k = 0; k < s->nnarrow; k++) {
		const char *name = session_narrowing(s, k, &focus);

		printf(" %s %s", focus ? "only" : "without", name);
	}
	printf("%s; comparing: %s\n", s->nnarrow == 0 ? " none" : "", s->diff != NULL ? "yes" : "no");
}

/* P printed as tgprof --batch -b with STYLE prints it. */
static void
print(const struct profile *p, unsigned style)
{
	struct batch_opts bo = first.out;
	struct diag d;

	bo.style = style;
	bo.brief = 1;
	diag_init(&d);
	fflush(stdout);
	if (batch_print(stdout, p, &bo, &d) != 0)
		error(&d);
	diag_release(&d);
}

/* The rows as tgprof --diff prints them, then every named function's match. */
static void
diff(void)
{
	struct sbuf sb, name;
	size_t i;
	uint32_t k, o;

	if (s->diff == NULL) {
		printf("not comparing\n");
		return;
	}
	sbuf_init(&sb);
	sbuf_init(&name);
	diffout_columns(&sb);
	for (i = 0; i < s->diff->n; i++) {
		const struct pf_diff_row *w = &s->diff->row[i];

		sbuf_reset(&name);
		if (w->side[DIFF_NEW].id != PF_NONE)
			report_name_only(s->r, &name, w->side[DIFF_NEW].id);
		else
			sbuf_puts(&name, w->name);
		diffout_row(&sb, w, sbuf_str(&name));
		sbuf_putc(&sb, '\n');
	}
	fputs(sbuf_str(&sb), stdout);
	for (k = 0; k < s->p->nsyms; k++) {
		if (s->p->sym[k].name == NULL)
			continue;
		o = session_old_id(s, k);
		printf("match %s %s -> %s %s\n", s->p->sym[k].name,
		    s->p->sym[k].file != PF_NONE ? profile_file_name(s->p, s->p->sym[k].file) : "-",
		    o == PF_NONE ? "none" : s->old->sym[o].name,
		    o == PF_NONE || s->old->sym[o].file == PF_NONE ? "-" : profile_file_name(s->old, s->old->sym[o].file));
	}
	sbuf_release(&sb);
	sbuf_release(&name);
}

/* The function or cycle whose call-graph index is N, or PF_NONE. */
static uint32_t
indexed(long n)
{
	uint32_t i;

	for (i = 0; n > 0 && i < s->p->nsyms + s->p->ncycles; i++)
		if (s->p->sym[i].index == n)
			return i;
	return PF_NONE;
}

/* "tree [NAME [callers]]": every node open, as the tree pane's P writes it. */
static void
tree(char *args)
{
	char *name = args != NULL ? strtok(args, " ") : NULL, *how = name != NULL ? strtok(NULL, " ") : NULL;
	uint32_t root = name == NULL ? PF_NONE : name[0] == '#' ? indexed(strtol(name + 1, NULL, 10)) :
	    named(name);
	int inverted = how != NULL && strcmp(how, "callers") == 0, measured = s->measure != NULL && s->nfunc == 0;
	struct calltree *ct;
	struct sbuf sb;
	size_t i, sel = 0;

	if (name != NULL && root == PF_NONE) {
		printf("error: no function %s\n", name);
		return;
	}
	if ((ct = calltree_new(s->p, measured ? s->measure : NULL)) == NULL ||
	    calltree_make(ct, s->r, root, inverted, recursion) != 0 || calltree_open_all(ct, &sel) < 0) {
		printf("error: out of memory\n");
		calltree_free(ct);
		return;
	}
	sbuf_init(&sb);
	treetext_header(&sb, s->r, root, inverted, measured, recursion);
	sbuf_putc(&sb, '\n');
	for (i = 0; i < calltree_nrows(ct); i++) {
		treetext_row(&sb, ct, s->r, i, 0);
		sbuf_putc(&sb, '\n');
	}
	fputs(sbuf_str(&sb), stdout);
	sbuf_release(&sb);
	calltree_free(ct);
}

/* The operations: 0, or -1 with the reason in D. */
static int
op_narrow(const char *args, struct diag *d)
{
	return session_narrow(s, args != NULL ? named(args) : PF_NONE, 0, d);
}

static int
op_threads(const char *args, struct diag *d)
{
	const struct pf_measure *m = s->measure;
	unsigned char *chosen;
	int rc;

	if (m == NULL) {
		diag_add(d, DIAG_ERROR, "no call stacks");
		return -1;
	}
	if ((chosen = calloc((size_t)m->nthread + 1, 1)) == NULL)
		return diag_oom(d);
	rc = measure_thread_match(m, args != NULL ? args : "", chosen, d) < 0 ? -1 : session_threads(s, chosen, d);
	free(chosen);
	return rc;
}

static int
op_focus(const char *args, struct diag *d)
{
	return session_narrow(s, args != NULL ? named(args) : PF_NONE, 1, d);
}

static int
op_undo(const char *args, struct diag *d)
{
	return session_undo(s, d);
}

static int
op_stop(const char *args, struct diag *d)
{
	session_stop_comparing(s);
	return 0;
}

static int
op_recursion(const char *args, struct diag *d)
{
	static const char *const how[] = { "shown", "indirect", "all" };
	int k;

	for (k = 0; k < 3; k++)
		if (args != NULL && strcmp(args, how[k]) == 0)
			recursion = k;
	return 0;
}

static int
op_names(const char *args, struct diag *d)
{
	struct report_opts ro = s->ro;

	ro.demangle = args == NULL || strcmp(args, "raw") != 0;
	return session_names(s, &ro) != 0 ? diag_oom(d) : 0;
}

/* What is shown: state, flat, graph, old, diff, tree. */
static int
op_show(const char *cmd, char *args)
{
	if (strcmp(cmd, "state") == 0)
		state();
	else if (strcmp(cmd, "flat") == 0 || strcmp(cmd, "graph") == 0)
		print(s->p, cmd[0] == 'f' ? BATCH_FLAT : BATCH_GRAPH);
	else if (strcmp(cmd, "old") == 0 && s->old != NULL)
		print(s->old, BATCH_GRAPH);
	else if (strcmp(cmd, "old") == 0)
		printf("not comparing\n");
	else if (strcmp(cmd, "diff") == 0)
		diff();
	else if (strcmp(cmd, "tree") == 0)
		tree(args);
	else
		return -1;
	return 0;
}

static const struct {
	const char *name;
	int (*run)(const char *args, struct diag *d);
} ops[] = {
	{ "narrow", op_narrow }, { "focus", op_focus }, { "undo", op_undo }, { "stop", op_stop },
	{ "names", op_names }, { "recursion", op_recursion }, { "threads", op_threads },
};

/* One command; 0, or -1 if it is not one. */
static int
run(char *line)
{
	char *args = strchr(line, ' '), *cmd = line;
	struct diag d;
	size_t k;

	if (args != NULL)
		*args++ = '\0';
	if (strcmp(cmd, "load") == 0 || strcmp(cmd, "compare") == 0 || strcmp(cmd, "replace") == 0 ||
	    strcmp(cmd, "reload") == 0) {
		cmd_load(cmd, args != NULL ? args : "");
		return 0;
	}
	if (!loaded)
		fail("load first", cmd);
	for (k = 0; k < sizeof ops / sizeof *ops && strcmp(ops[k].name, cmd) != 0; k++)
		;
	if (k == sizeof ops / sizeof *ops)
		return op_show(cmd, args);
	diag_init(&d);
	if (ops[k].run(args, &d) != 0)
		error(&d);
	diag_release(&d);
	return 0;
}

int
main(void)
{
	char line[4096];

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	while (fgets(line, sizeof line, stdin) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\0' || line[0] == '#')
			continue;
		if (run(line) != 0)
			fail("not a command", line);
	}
	session_free(s);
	profile_free(image);	/* (after the profiles that borrow from it) */
	if (image != NULL)
		opts_release(&io);
	free(first_args);
	if (loaded)
		opts_release(&first);
	while (nkept > 0)
		free(kept[--nkept]);
	return 0;
}
