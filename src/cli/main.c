/* main: tgprof's entry point: parse gprof's options, load the profile, print it or browse it. */
#include "config.h"

#include <limits.h>
#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argfile.h"
#include "opts.h"
#include "core/profile.h"
#include "print/batch.h"
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

static int
run(struct opts *o, struct diag *d)
{
	struct profile *p;
	int rc;

	if (profile_load(&p, &o->load, d) != 0)
		return 1;
	o->out.style = styles(o, p);
	rc = 0;
	if ((o->out.style & BATCH_SUM) && sumfile_write(p, "gmon.sum", o->load.format, d) != 0)
		rc = 1;
	if (rc == 0 && batch_print(stdout, p, &o->out, d) != 0)
		rc = 1;
	profile_free(p);
	return rc;
}

#if HAVE_UI
/*
 * browser_opts.reload: the command line's analysis (CTX, the profile
 * loaded, which outlives the browser) with EXTRA symspecs after its own,
 * without reading the files again.
 */
static int
reload(void *ctx, const struct pf_spec *extra, size_t n, struct profile **out, struct diag *d)
{
	return profile_narrow(ctx, extra, n, out, d);
}
#endif

/*
 * The browser, for a terminal (or a TGPROF_SCRIPT, on a virtual screen of
 * TGPROF_SIZE, "COLSxLINES", 80x24 by default).  It folds GCC's clones into
 * their functions unless --clones says otherwise, and needs the lines.
 */
static int
browse(struct opts *o, struct diag *d)
{
#if !HAVE_UI
	return run(o, d);	/* built without ncursesw */
#else
	struct browser_opts b;
	struct profile *p;
	const char *size = getenv("TGPROF_SIZE");
	int rc;

	if (!o->clones_given)
		o->load.clones = PF_CLONES_FOLD;
	o->load.source_lines = 1;
	o->load.narrowable = 1;
	/* The narrowings (x, f, u) make and drop tables of the profile's size: keep their memory. */
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
	if (profile_load(&p, &o->load, d) != 0)
		return 1;
	memset(&b, 0, sizeof b);
	b.image = o->load.image;
	b.gmon = o->load.gmon;
	b.ngmon = o->load.ngmon;
	b.ro = o->out.ro;
	b.search = o->search;
	b.nsearch = o->nsearch;
	b.mouse = o->mouse;
	b.script = getenv("TGPROF_SCRIPT");
	b.reload = reload;
	b.reload_ctx = p;
	if (size == NULL || sscanf(size, "%dx%d", &b.cols, &b.lines) != 2)
		b.cols = 80, b.lines = 24;
	rc = browser_run(p, &b, d) != 0;
	profile_free(p);
	return rc;
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
	if (o->batch || (o->out.style & BATCH_SUM))
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
	 * page fault on fresh memory can cost microseconds.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	setlocale(LC_CTYPE, "");
	diag_init(&d);
	/* @FILE: a new argv, which the options point into. */
	if (set_memory_limit(&d) != 0 || argfile_expand(&af, argc, argv, &d) != 0) {
		print_diags(&d);
		diag_release(&d);
		return 1;
	}
	switch (opts_parse(&o, af.argc, af.argv)) {
	case OPTS_EXIT_OK:
		rc = 0;
		break;
	case OPTS_EXIT_FAIL:
		break;
	case OPTS_RUN:
		if (want_browser(&o))
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
