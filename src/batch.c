/* batch: prints a profile exactly as GNU gprof 2.40 prints it (tgprof --batch). */
#include "batch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blurb.h"
#include "mem.h"
#include "msort.h"
#include "srcfile.h"

/* Output state: gprof's first_output flag and a reusable line buffer. */
struct out {
	FILE *f;
	const struct profile *p;
	const struct batch_opts *o;
	struct report *r;
	struct sbuf sb;
	int first;		/* nothing printed yet: no form feed before a section */
};

static void
flush(struct out *w)
{
	fwrite(sbuf_str(&w->sb), 1, w->sb.len, w->f);
	sbuf_reset(&w->sb);
}

/* Ends the current line; writes the buffer out now and then. */
static void
endl(struct out *w)
{
	sbuf_putc(&w->sb, '\n');
	if (w->sb.len > 65536)
		flush(w);
}

/* Sections after the first one start with a form feed. */
static void
section(struct out *w)
{
	if (w->first)
		w->first = 0;
	else
		sbuf_puts(&w->sb, "\f\n");
}

static void
print_info(struct out *w)
{
	size_t i;

	for (i = 0; i < w->p->ngmon; i++) {
		const struct gmon_counts *c = &w->p->gmon[i].counts;

		sbuf_printf(&w->sb, "File `%s' (version %d) contains:\n", w->p->gmon[i].path,
		    c->version);
		sbuf_printf(&w->sb, c->nhist == 1 ? "\t%d histogram record\n" :
		    "\t%d histogram records\n", c->nhist);
		sbuf_printf(&w->sb, c->narcs == 1 ? "\t%d call-graph record\n" :
		    "\t%d call-graph records\n", c->narcs);
		sbuf_printf(&w->sb, c->nbbs == 1 ? "\t%d basic-block count record\n" :
		    "\t%d basic-block count records\n", c->nbbs);
	}
	w->first = 0;
}

/* gprof's hist_print(). */
static void
print_flat(struct out *w)
{
	const struct profile *p = w->p;
	struct report_unit u = report_flat_unit(w->r);
	double total = report_flat_total(w->r), accum = 0.0;
	uint32_t k;

	section(w);
	if (!w->o->ro.bsd)
		sbuf_puts(&w->sb, "Flat profile:\n");
	else if (!w->o->brief)
		sbuf_printf(&w->sb, "\n\n\nflat profile:\n%s", blurb_flat);
	if (w->o->ro.bsd) {
		sbuf_printf(&w->sb, "\ngranularity: each sample hit covers %ld byte(s)",
		    report_granularity(w->r));
		if (p->total_time > 0.0)
			sbuf_printf(&w->sb, " for %.2f%% of %.2f %s\n\n", 100.0 / p->total_time,
			    p->total_time / p->hz, p->dimension);
	} else {
		sbuf_printf(&w->sb, "\nEach sample counts as %g %s.\n", 1.0 / p->hz, p->dimension);
	}
	if (p->total_time <= 0.0)
		sbuf_puts(&w->sb, " no time accumulated\n\n");
	report_flat_columns(w->r, &w->sb, &u);
	for (k = 0; k < p->nsyms; k++) {
		uint32_t id = p->flat_order[k];

		if (!report_flat_listed(w->r, id))
			continue;
		accum += p->sym[id].time;
		report_flat_row(w->r, &w->sb, id, accum, total, &u);
		endl(w);
	}
	if (!w->o->brief && !w->o->ro.bsd)
		sbuf_puts(&w->sb, blurb_flat);
}

static void
cg_header(struct out *w)
{
	const struct profile *p = w->p;
	struct sbuf *sb = &w->sb;

	section(w);
	if (!w->o->ro.bsd)
		sbuf_puts(sb, w->o->brief ? "\t\t\tCall graph\n\n" :
		    "\t\t     Call graph (explanation follows)\n\n");
	sbuf_printf(sb, "\ngranularity: each sample hit covers %ld byte(s)",
	    report_granularity(w->r));
	if (p->print_time > 0.0)
		sbuf_printf(sb, " for %.2f%% of %.2f seconds\n\n", 100.0 / p->print_time,
		    p->print_time / p->hz);
	else
		sbuf_puts(sb, " no time propagated\n\n");
	if (!w->o->ro.bsd) {
		sbuf_puts(sb, "index % time    self  children    called     name\n");
		return;
	}
	sbuf_printf(sb, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n",
	    "", "", "", "", "called", "total", "parents");
	sbuf_printf(sb, "%-6.6s %5.5s %7.7s %11.11s %7.7s+%-7.7s %-8.8s\t%5.5s\n",
	    "index", "%time", "self", "descendants", "called", "self", "name", "index");
	sbuf_printf(sb, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n\n",
	    "", "", "", "", "called", "total", "children");
}

static void
cg_cycle_entry(struct out *w, uint32_t id)
{
	uint32_t *m = NULL;
	size_t n = report_cg_members(w->r, id, &m), i;

	report_cg_cycle(w->r, &w->sb, id);
	endl(w);
	for (i = 0; i < n; i++) {
		report_cg_member(w->r, &w->sb, m[i]);
		endl(w);
	}
	free(m);
}

static void
cg_entry(struct out *w, uint32_t id)
{
	const struct profile *p = w->p;
	uint32_t i;

	if (p->caller_start[id] == p->caller_start[id + 1]) {
		report_cg_spontaneous(w->r, &w->sb);
		endl(w);
	}
	for (i = p->caller_start[id]; i < p->caller_start[id + 1]; i++) {
		report_cg_parent(w->r, &w->sb, id, p->caller_arc[i]);
		endl(w);
	}
	report_cg_primary(w->r, &w->sb, id);
	endl(w);
	for (i = p->callee_start[id]; i < p->callee_start[id + 1]; i++) {
		report_cg_child(w->r, &w->sb, id, p->callee_arc[i]);
		endl(w);
	}
}

/* gprof's cg_print(). */
static void
print_graph(struct out *w)
{
	const struct profile *p = w->p;
	uint32_t k;

	if (!w->o->brief && w->o->ro.bsd)
		sbuf_puts(&w->sb, blurb_callg_bsd);
	cg_header(w);
	for (k = 0; k < p->nsyms + p->ncycles; k++) {
		uint32_t id = p->cg_order[k];

		if (!report_cg_listed(w->r, id))
			continue;
		if (p->sym[id].name == NULL)
			cg_cycle_entry(w, id);
		else
			cg_entry(w, id);
		sbuf_puts(&w->sb, w->o->ro.bsd ? "\n-----------------------------------------------\n\n" :
		    "-----------------------------------------------\n");
	}
	if (!w->o->brief && !w->o->ro.bsd)
		sbuf_puts(&w->sb, blurb_callg_fsf);
}

/* "[N]" or "(N)" into BUF; returns its length. */
static int
index_tag(char *buf, const struct pf_sym *s)
{
	char *q = buf;

	*q++ = s->print_flag ? '[' : '(';
	q = fmt_uint(q, (unsigned long)s->index, 0, 0);
	*q++ = s->print_flag ? ']' : ')';
	*q = '\0';
	return (int)(q - buf);
}

/* "<cycle N>" into BUF; returns its length. */
static int
cycle_tag(char *buf, const struct pf_sym *s)
{
	char *q = fmt_str(buf, "<cycle ", 7);

	q = fmt_uint(q, (unsigned long)s->cycle, 0, 0);
	*q++ = '>';
	*q = '\0';
	return (int)(q - buf);
}

/* One index cell in gprof's FSF layout; *COL and START track gprof's column arithmetic. */
static void
index_cell(struct out *w, uint32_t id, int *col, int start)
{
	const struct pf_sym *s = &w->p->sym[id];
	char buf[48];
	int n = index_tag(buf, s);

	if (w->o->ro.bsd) {
		sbuf_field(&w->sb, buf, 6, 0);		/* "%6.6s %-19.19s" */
		sbuf_putc(&w->sb, ' ');
		if (s->name == NULL)
			cycle_tag(buf, s);
		sbuf_field(&w->sb, s->name != NULL ? s->name : buf, 19, 1);
		return;
	}
	for (*col += n; *col < start + 5; ++*col)
		sbuf_putc(&w->sb, ' ');
	sbuf_putc(&w->sb, ' ');				/* " %s " */
	sbuf_puts(&w->sb, buf);
	sbuf_putc(&w->sb, ' ');
	if (s->name == NULL) {
		*col += cycle_tag(buf, s);
		sbuf_puts(&w->sb, buf);
		return;
	}
	*col += (int)report_name_only(w->r, &w->sb, id);
	if (!w->o->ro.line && s->is_static && s->file != PF_NONE) {
		const char *f = profile_file_name(w->p, s->file);

		if (!w->o->ro.full_path)
			f = srcfiles_basename(f);
		sbuf_printf(&w->sb, " (%s)", f);
		*col += (int)strlen(f) + 3;
	}
}

/* gprof's cg_print_index(): names sorted by raw name, then the cycles, in three columns. */
static int
print_index(struct out *w)
{
	const struct profile *p = w->p;
	uint32_t *v = mem_array((size_t)p->nsyms + p->ncycles, sizeof *v), n = 0, i, j, rows;
	int width = (w->o->width - 1) / 3, col, start;

	if (v == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		const struct pf_sym *s = &p->sym[p->name_order[i]];

		if (w->o->ro.zeros || s->ncalls != 0 || s->time != 0)
			v[n++] = p->name_order[i];
	}
	for (i = 0; i < p->ncycles; i++)
		v[n++] = p->nsyms + i;
	sbuf_puts(&w->sb, "\f\nIndex by function name\n\n");
	rows = (n + 2) / 3;
	for (i = 0; i < rows; i++) {
		col = start = 0;
		for (j = i; j < n; j += rows) {
			index_cell(w, v[j], &col, start);
			start += width;
		}
		endl(w);
	}
	free(v);
	return 0;
}

unsigned
batch_default_style(const struct profile *p)
{
	unsigned style = 0;

	if (p->input & GMON_IN_HIST)
		style |= BATCH_FLAT;
	if (p->input & GMON_IN_CG)
		style |= BATCH_GRAPH;
	return style ? style : BATCH_EXEC;
}

static int
check_inputs(const struct profile *p, unsigned style, struct diag *d)
{
	if ((style & BATCH_FLAT) && !(p->input & GMON_IN_HIST)) {
		diag_add(d, DIAG_ERROR, "gmon.out file is missing histogram");
		return -1;
	}
	if ((style & BATCH_GRAPH) && !(p->input & GMON_IN_CG)) {
		diag_add(d, DIAG_ERROR, "gmon.out file is missing call-graph data");
		return -1;
	}
	return 0;
}

static int
print_sections(struct out *w, unsigned style)
{
	int have_cg = (w->p->input & GMON_IN_CG) != 0;

	if (have_cg && (style & BATCH_GRAPH) && w->o->ro.bsd)
		print_graph(w);
	if (style & BATCH_FLAT)
		print_flat(w);
	if (have_cg && (style & BATCH_GRAPH)) {
		if (!w->o->ro.bsd)
			print_graph(w);
		if (print_index(w) != 0)
			return -1;
	}
	return 0;
}

int
batch_print(FILE *out, const struct profile *p, const struct batch_opts *o, struct diag *d)
{
	struct out w;
	int rc = 0;

	memset(&w, 0, sizeof w);
	w.f = out;
	w.p = p;
	w.o = o;
	w.first = 1;
	sbuf_init(&w.sb);
	if (o->style & BATCH_INFO)
		print_info(&w);
	flush(&w);
	if (check_inputs(p, o->style, d) != 0)
		return -1;
	w.r = report_new(p, &o->ro);
	if (w.r == NULL || print_sections(&w, o->style) != 0 || w.sb.failed)
		rc = diag_oom(d);
	flush(&w);
	report_free(w.r);
	sbuf_release(&w.sb);
	if (rc == 0 && (fflush(out) != 0 || ferror(out))) {
		diag_add(d, DIAG_ERROR, "standard output: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}
