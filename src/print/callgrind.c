/* callgrind: the profile in valgrind's Callgrind format, for KCachegrind, QCachegrind and callgrind_annotate. */
#include "config.h"
#include "callgrind.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "threadlist.h"

#include "core/srclines.h"

/*
 * The format is valgrind's docs/cl-format: a header, then per function
 * "fl=" its file, "fn=" its name and "LINE COST" lines, each call as
 * "cfi=", "cfn=", "calls=COUNT LINE" and "LINE INCLUSIVE".  Names and
 * files are compressed: "(N) name" the first time, "(N)" after.
 */

struct cg {
	FILE *f;
	struct report *r;
	const struct profile *p;
	const struct export_opts *eo;
	struct sbuf sb;
	uint8_t *fn_named;	/* per symbol: its "(N) name" was written */
	uint8_t *fl_named;	/* per file, and one more for "???" */
	double us;		/* microseconds a tick */
};

/* TICKS in whole microseconds. */
static unsigned long long
to_us(const struct cg *c, double ticks)
{
	double v = ticks * c->us;

	return v > 0 && isfinite(v) ? (unsigned long long)llround(v) : 0;
}

/* S without control characters (a name from the file must not end a line). */
static void
put_clean(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		putc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i], f);
}

/* "KEY=(N) file" or "KEY=(N)": file FILE (PF_NONE: "???"). */
static void
put_file(struct cg *c, const char *key, uint32_t file)
{
	uint32_t nf = profile_nfiles(c->p), k = file < nf ? file : nf;
	const char *name = file < nf ? profile_file_name(c->p, file) : "???";

	fprintf(c->f, "%s=(%lu)", key, (unsigned long)k + 1);
	if (!c->fl_named[k]) {
		c->fl_named[k] = 1;
		putc(' ', c->f);
		put_clean(c->f, name, strlen(name));
	}
	putc('\n', c->f);
}

/* "KEY=(N) name" or "KEY=(N)": function ID, named as the flat profile names it. */
static void
put_fn(struct cg *c, const char *key, uint32_t id)
{
	fprintf(c->f, "%s=(%lu)", key, (unsigned long)id + 1);
	if (!c->fn_named[id]) {
		c->fn_named[id] = 1;
		sbuf_reset(&c->sb);
		report_name_only(c->r, &c->sb, id);
		putc(' ', c->f);
		put_clean(c->f, c->sb.s != NULL ? c->sb.s : "", c->sb.len);
	}
	putc('\n', c->f);
}

/*
 * Function ID's self cost on its lines, in shares of its flat time (the
 * line table's ticks, scaled so that they add up to it exactly); what no
 * line has, and all of it without lines, on its entry line.
 */
static void
put_self(struct cg *c, uint32_t id)
{
	const struct pf_sym *s = &c->p->sym[id];
	unsigned long long total = to_us(c, export_self(c->r, c->eo, id)), done = 0, at;
	struct pf_lines l;
	struct diag quiet;
	double cum = 0;
	size_t k;

	diag_init(&quiet);
	memset(&l, 0, sizeof l);
	if (total > 0 && profile_lines(c->p, id, &l, &quiet) == 0 && l.ticks > 0) {
		for (k = 0; k < l.n; k++) {
			cum += l.line[k].ticks;
			at = (unsigned long long)llround((double)total * cum / l.ticks);
			if (at <= done)
				continue;
			if (l.line[k].file != s->file)	/* inlined from another file */
				put_file(c, "fi", l.line[k].file);
			fprintf(c->f, "%lu %llu\n", (unsigned long)l.line[k].line, at - done);
			done = at;
			if (l.line[k].file != s->file)
				put_file(c, "fe", s->file);
		}
	}
	profile_lines_release(&l);
	diag_release(&quiet);
	if (total > done || total == 0)
		fprintf(c->f, "%d %llu\n", s->line > 0 ? s->line : 0, total - done);
}

/* ID's calls: each arc out of it, from its entry line, with its count and inclusive cost. */
static void
put_calls(struct cg *c, uint32_t id)
{
	const struct profile *p = c->p;
	const struct pf_measure *m = c->eo->measured ? c->eo->stacks : NULL;
	const struct pf_sym *s = &p->sym[id];
	uint32_t k, arc;

	for (k = p->callee_start[id]; k < p->callee_start[id + 1]; k++) {
		const struct pf_arc *a = &p->arc[arc = p->callee_arc[k]];
		const struct pf_sym *callee = &p->sym[a->child];
		double incl = m != NULL ? m->arc_incl[arc] * (double)p->hz / (double)m->hz :
		    a->time + a->child_time;

		if (callee->file != s->file)
			put_file(c, "cfi", callee->file);
		put_fn(c, "cfn", a->child);
		fprintf(c->f, "calls=%llu %d\n", (unsigned long long)a->count,
		    callee->line > 0 ? callee->line : 0);
		fprintf(c->f, "%d %llu\n", s->line > 0 ? s->line : 0, to_us(c, incl));
	}
}

static void
put_header(struct cg *c)
{
	const struct profile *p = c->p;
	unsigned long long total = 0;
	uint32_t id;

	for (id = 0; id < p->nsyms; id++)
		if (export_shown(c->r, c->eo, id))
			total += to_us(c, export_self(c->r, c->eo, id));
	fputs("# callgrind format\nversion: 1\ncreator: tgprof " TGPROF_VERSION "\n", c->f);
	fputs("cmd: ", c->f);
	put_clean(c->f, c->eo->image, strlen(c->eo->image));
	fputs("\npart: 1\n", c->f);
	fputs(c->eo->measured && c->eo->stacks != NULL ?
	    "desc: Calls' inclusive times: measured from libtgmon's call stacks\n" :
	    "desc: Calls' inclusive times: gprof's estimates (a callee's time shared by calls)\n", c->f);
	sbuf_reset(&c->sb);
	export_truth_note(c->r, c->eo, &c->sb);
	if (c->sb.len > 0)
		fprintf(c->f, "desc: Times: %s (tgprof --raw: as sampled)\n", sbuf_str(&c->sb));
	sbuf_reset(&c->sb);
	if (c->eo->measured)
		threadlist_note(&c->sb, c->eo->stacks);
	if (c->sb.len > 0) {	/* the self times too are the stacks' then (export_self()) */
		fputs("desc: Measured for ", c->f);
		put_clean(c->f, sbuf_str(&c->sb), c->sb.len);
		fputs(", self times too\n", c->f);
	}
	fputs("positions: line\nevent: us : Time (microseconds)\nevents: us\n", c->f);
	fprintf(c->f, "summary: %llu\n\nob=", total);
	put_clean(c->f, c->eo->image, strlen(c->eo->image));
	putc('\n', c->f);
}

int
callgrind_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d)
{
	const struct profile *p = report_profile(r);
	struct cg c = { f, r, p, eo, { 0 }, NULL, NULL, 0 };
	uint32_t id;
	int rc = 0;

	sbuf_init(&c.sb);
	c.us = p->hz > 0 ? 1e6 / (double)p->hz : 0;
	c.fn_named = calloc((size_t)p->nsyms + 1, 1);
	c.fl_named = calloc((size_t)profile_nfiles(p) + 1, 1);
	if (c.fn_named == NULL || c.fl_named == NULL) {
		rc = diag_oom(d);
		goto out;
	}
	put_header(&c);
	for (id = 0; id < p->nsyms; id++) {
		if (!export_shown(r, eo, id))
			continue;
		putc('\n', f);
		put_file(&c, "fl", p->sym[id].file);
		put_fn(&c, "fn", id);
		put_self(&c, id);
		if (p->caller_start != NULL)
			put_calls(&c, id);
	}
	if (ferror(f) || c.sb.failed)
		rc = c.sb.failed ? diag_oom(d) : (diag_add(d, DIAG_ERROR, "%s", strerror(errno)), -1);
out:
	free(c.fn_named);
	free(c.fl_named);
	sbuf_release(&c.sb);
	return rc;
}
