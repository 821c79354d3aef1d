/* batch: prints a profile exactly as GNU gprof 2.40 prints it (tgprof --batch). */
#include "batch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blurb.h"
#include "linkorder.h"
#include "rowpipe.h"
#include "shown.h"
#include "util/fmt.h"
#include "util/job.h"
#include "util/mem.h"
#include "util/msort.h"
#include "util/path.h"

/* Output state: gprof's first_output flag and a reusable line buffer. */
struct out {
	FILE *f;
	const struct profile *p;
	const struct batch_opts *o;
	struct report *r;	/* the main thread's; rows also use rt[1] */
	struct report *rt[2];	/* per formatting thread (rowpipe) */
	struct sbuf sb;
	int first;		/* nothing printed yet: no form feed before a section */
	/* The rows of the section being printed (rowpipe items). */
	uint32_t *row;
	uint8_t *kind;		/* the call graph's: each row's ROW_ kind */
	double *accum;		/* flat profile: cumulative time up to each row */
	double total;		/* flat profile: time base */
	struct report_unit unit;
	uint32_t nrows;		/* index: rows of three cells */
	int failed;
	struct diag *diag;
};

/* Hands the rows of a section to two threads; the header must be flushed first. */
static void
rows_out(struct out *w, uint32_t n, uint32_t chunk,
    void (*format)(void *, struct sbuf *, uint32_t, uint32_t, int))
{
	struct rowpipe_job job = { n, chunk, format, w };

	if (rowpipe_run(w->f, &job) != 0)
		w->failed = 1;
}

static void
flush(struct out *w)
{
	fwrite(sbuf_str(&w->sb), 1, w->sb.len, w->f);
	sbuf_reset(&w->sb);
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

/* How many rows ahead the flat profile's symbols are asked for (their names half as far). */
#define ROW_AHEAD 8

static void
flat_rows(void *ctx, struct sbuf *sb, uint32_t from, uint32_t to, int thread)
{
	struct out *w = ctx;
	const struct shown *sh = report_shown(w->rt[thread]);
	uint32_t i;

	for (i = from; i < to; i++) {
		/* The rows' symbols are all over memory: each, then its name, asked for ahead. */
		if (i + 2 * ROW_AHEAD < to)
			shown_ask_flat(sh, w->row[i + 2 * ROW_AHEAD]);
		if (i + ROW_AHEAD < to)
			shown_ask_name(sh, w->row[i + ROW_AHEAD]);
		report_flat_row(w->rt[thread], sb, w->row[i], w->accum[i], w->total, &w->unit);
		sbuf_putc(sb, '\n');
	}
}

/* The listed rows of the flat profile and the cumulative time at each. */
static int
flat_listing(struct out *w)
{
	const struct profile *p = w->p;
	const struct shown *sh = report_shown(w->r);
	double accum = 0.0;
	uint32_t k, n = 0;

	w->row = mem_array(p->nsyms, sizeof *w->row);
	w->accum = mem_array(p->nsyms, sizeof *w->accum);
	if (w->row == NULL || w->accum == NULL)
		return -1;
	for (k = 0; k < p->nsyms; k++) {
		uint32_t id = p->flat_order[k];

		if (k + 2 * ROW_AHEAD < p->nsyms)
			shown_ask_flat(sh, p->flat_order[k + 2 * ROW_AHEAD]);
		if (!report_flat_listed(w->r, id))
			continue;
		accum += p->sym[id].time;
		w->row[n] = id;
		w->accum[n++] = accum;
	}
	return (int)n;
}

/* gprof's hist_print(). */
static void
print_flat(struct out *w)
{
	const struct profile *p = w->p;
	int n;

	w->unit = report_flat_unit(w->r);
	w->total = report_flat_total(w->r);

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
	report_flat_columns(w->r, &w->sb, &w->unit);
	flush(w);
	if ((n = flat_listing(w)) < 0)
		w->failed = 1;
	else
		rows_out(w, (uint32_t)n, 2048, flat_rows);
	free(w->row);
	free(w->accum);
	w->row = NULL;
	w->accum = NULL;
	if (!w->o->brief && !w->o->ro.bsd)
		sbuf_puts(&w->sb, blurb_flat);
}

/* Not gprof's (--measured): what the call graph's times are, in place of gprof's line. */
static void
measured_note(struct sbuf *sb, const struct pf_measure *m)
{
	double n = m->samples > 0 ? (double)m->samples : 1, t = m->total > 0 ? m->total : 1;

	sbuf_printf(sb, " for %.2f%% of %.2f seconds\n", 100.0 / t, m->total / m->hz);
	sbuf_printf(sb, "times measured from %llu call stacks, %.1f%% of them complete "
	    "(not gprof's estimates)", (unsigned long long)m->samples, 100.0 * (double)m->root / n);
	if (m->profiler > 0 || m->calls > 0) {
		sbuf_puts(sb, "; ");
		report_measure_note(sb, m);
	}
	sbuf_puts(sb, "\n\n");
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
	if (w->o->measure != NULL)
		measured_note(sb, w->o->measure);
	else if (p->print_time > 0.0)
		sbuf_printf(sb, " for %.2f%% of %.2f seconds\n\n", 100.0 / p->print_time,
		    p->print_time / p->hz);
	else
		sbuf_puts(sb, " no time propagated\n\n");
	report_cg_columns(w->r, sb);
}

/*
 * The call graph's rows: an entry, or a cycle's line and then one row for
 * each member's line (a cycle can hold most of the program: its lines
 * are split between the threads as any others).  ROW_END: the entry's
 * separator follows the row.
 */
#define ROW_ENTRY 1
#define ROW_CYCLE 2
#define ROW_MEMBER 4
#define ROW_END 8

/* How many rows ahead a cycle's members are asked for (their names half as far). */
#define MEMBER_AHEAD 8

static void
cg_entry(const struct profile *p, struct report *r, struct sbuf *sb, uint32_t id)
{
	uint32_t i;

	if (p->caller_start[id] == p->caller_start[id + 1]) {
		report_cg_spontaneous(r, sb);
		sbuf_putc(sb, '\n');
	}
	for (i = p->caller_start[id]; i < p->caller_start[id + 1]; i++) {
		report_cg_parent(r, sb, id, p->caller_arc[i]);
		sbuf_putc(sb, '\n');
	}
	report_cg_primary(r, sb, id);
	sbuf_putc(sb, '\n');
	for (i = p->callee_start[id]; i < p->callee_start[id + 1]; i++) {
		report_cg_child(r, sb, id, p->callee_arc[i]);
		sbuf_putc(sb, '\n');
	}
}

/*
 * An entry's reads wait one on another, all over memory: its symbol and
 * where its lists start, its lists, their arcs, the symbols at the arcs'
 * other ends, their names.  Each is asked of the cache a stage ahead:
 * entry I + S at stage S (STAGES first) as entry I is written; an
 * entry's first LINE_ASKS callers and callees.
 */
#define STAGES 5
#define LINE_ASKS 64

/*
 * Stage 3, 2 or 1 of the line of ARC (CALLER: a caller's line): the arc,
 * the other end's line name (or its symbol), its name if a long one.
 */
static void
ask_line(const struct profile *p, const struct shown *sh, uint32_t arc, int caller, int stage)
{
	const struct pf_arc *a = &p->arc[arc];

	if (stage == 3) {
		mem_ask(a);
		mem_ask((const char *)(a + 1) - 1);
	} else if (stage == 2)
		shown_ask_peer(sh, caller ? a->parent : a->child);
	else
		shown_ask_name(sh, caller ? a->parent : a->child);
}

/* Stage STAGE of entry ID. */
static void
ask_entry(const struct profile *p, const struct shown *sh, uint32_t id, int stage)
{
	uint32_t b0, b1, k;

	if (stage == 5) {
		mem_ask(&p->caller_start[id]);
		mem_ask(&p->callee_start[id]);
		shown_ask(sh, id);
		return;
	}
	b0 = p->caller_start[id];
	b1 = p->callee_start[id];
	if (stage == 4) {
		mem_ask(&p->caller_arc[b0]);
		mem_ask(&p->callee_arc[b1]);
		shown_ask_name(sh, id);		/* (its own line's) */
		return;
	}
	for (k = b0; k < p->caller_start[id + 1] && k - b0 < LINE_ASKS; k++)
		ask_line(p, sh, p->caller_arc[k], 1, stage);
	for (k = b1; k < p->callee_start[id + 1] && k - b1 < LINE_ASKS; k++)
		ask_line(p, sh, p->callee_arc[k], 0, stage);
}

static void
graph_entries(void *ctx, struct sbuf *sb, uint32_t from, uint32_t to, int thread)
{
	struct out *w = ctx;
	struct report *r = w->rt[thread];
	const struct shown *sh = report_shown(r);
	uint32_t i, s;

	for (i = from; i < to; i++) {
		for (s = STAGES; s >= 1; s--)
			if (i + s < to && (w->kind[i + s] & ROW_ENTRY))
				ask_entry(w->p, sh, w->row[i + s], (int)s);
		/* (members all over memory: each, then its name, asked for ahead) */
		if (i + 2 * MEMBER_AHEAD < to && (w->kind[i + 2 * MEMBER_AHEAD] & ROW_MEMBER))
			shown_ask(sh, w->row[i + 2 * MEMBER_AHEAD]);
		if (i + MEMBER_AHEAD < to && (w->kind[i + MEMBER_AHEAD] & ROW_MEMBER))
			shown_ask_name(sh, w->row[i + MEMBER_AHEAD]);
		if (w->kind[i] & ROW_ENTRY)
			cg_entry(w->p, r, sb, w->row[i]);
		else {
			if (w->kind[i] & ROW_CYCLE)
				report_cg_cycle(r, sb, w->row[i]);
			else
				report_cg_member(r, sb, w->row[i]);
			sbuf_putc(sb, '\n');
		}
		if (w->kind[i] & ROW_END)
			sbuf_puts(sb, w->o->ro.bsd ? "\n-----------------------------------------------\n\n" :
			    "-----------------------------------------------\n");
	}
}

/* Row N of kind KIND, for symbol ID. */
static void
add_row(struct out *w, uint32_t *n, uint32_t id, uint8_t kind)
{
	w->row[*n] = id;
	w->kind[(*n)++] = kind;
}

/*
 * The listed entries in the call graph's order as rows, a cycle's members
 * each a row after its own (their print order made here, once): how
 * many, or UINT32_MAX if memory ran out.
 */
static uint32_t
graph_rows(struct out *w)
{
	const struct profile *p = w->p;
	const struct shown *sh = report_shown(w->r);
	size_t room = 2 * ((size_t)p->nsyms + p->ncycles) + 1, nm, i;	/* (members: nsyms at most) */
	uint32_t k, n = 0, id, *m;

	if (room >= UINT32_MAX)
		return UINT32_MAX;	/* (rows are counted in 32 bits) */
	w->row = mem_array(room, sizeof *w->row);
	w->kind = mem_array(room, sizeof *w->kind);
	if (w->row == NULL || w->kind == NULL)
		return UINT32_MAX;
	for (k = 0; k < p->nsyms + p->ncycles; k++) {
		if (k + 2 * ROW_AHEAD < p->nsyms + p->ncycles)
			shown_ask(sh, p->cg_order[k + 2 * ROW_AHEAD]);	/* (all over memory, as the flat rows) */
		if (!report_cg_listed(w->r, id = p->cg_order[k]))
			continue;
		if (p->sym[id].name != NULL) {
			add_row(w, &n, id, ROW_ENTRY | ROW_END);
			continue;
		}
		if ((nm = report_cg_members(w->r, id, &m)) == 0 && m == NULL)
			return UINT32_MAX;
		add_row(w, &n, id, nm == 0 ? ROW_CYCLE | ROW_END : ROW_CYCLE);
		for (i = 0; i < nm && n < room; i++)
			add_row(w, &n, m[i], i + 1 < nm ? ROW_MEMBER : ROW_MEMBER | ROW_END);
		free(m);
	}
	return n;
}

/* A range of symbols whose line names SH makes. */
struct names_half {
	struct shown *sh;
	uint32_t from, to;
};

static int
make_names(void *arg)
{
	struct names_half *h = arg;

	shown_lines_make(h->sh, h->from, h->to);
	return 0;
}

/*
 * The lines' names made ahead (shown_lines_begin()), the later half on a
 * helper thread: 0, or -1 if there is no room for them (printed without).
 */
static int
line_names(struct out *w)
{
	uint32_t n = w->p->nsyms + w->p->ncycles;
	struct names_half later = { report_shown(w->rt[1]), n / 2, n };
	struct job job;

	if (shown_lines_begin(report_shown(w->r)) != 0)
		return -1;
	job_start(&job, make_names, &later);
	shown_lines_make(report_shown(w->r), 0, n / 2);
	job_join(&job);
	return 0;
}

/* gprof's cg_print(). */
static void
print_graph(struct out *w)
{
	uint32_t n;

	if (!w->o->brief && w->o->ro.bsd)
		sbuf_puts(&w->sb, blurb_callg_bsd);
	cg_header(w);
	flush(w);
	if ((n = graph_rows(w)) == UINT32_MAX)
		w->failed = 1;
	else {
		line_names(w);
		rows_out(w, n, 256, graph_entries);
		shown_lines_end(report_shown(w->r));
	}
	free(w->row);
	free(w->kind);
	w->row = NULL;
	w->kind = NULL;
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
index_cell(const struct out *w, struct report *r, struct sbuf *sb, uint32_t id, int *col,
    int start)
{
	const struct pf_sym *s = &w->p->sym[id];
	char buf[48];
	int n = index_tag(buf, s);

	if (w->o->ro.bsd) {
		sbuf_field(sb, buf, 6, 0);		/* "%6.6s %-19.19s" */
		sbuf_putc(sb, ' ');
		if (s->name == NULL)
			cycle_tag(buf, s);
		sbuf_field(sb, s->name != NULL ? s->name : buf, 19, 1);
		return;
	}
	for (*col += n; *col < start + 5; ++*col)
		sbuf_putc(sb, ' ');
	sbuf_putc(sb, ' ');				/* " %s " */
	sbuf_puts(sb, buf);
	sbuf_putc(sb, ' ');
	if (s->name == NULL) {
		*col += cycle_tag(buf, s);
		sbuf_puts(sb, buf);
		return;
	}
	*col += (int)report_name_only(r, sb, id);
	if (!w->o->ro.line && s->is_static && s->file != PF_NONE) {
		const char *f = profile_file_name(w->p, s->file);

		if (!w->o->ro.full_path)
			f = path_base(f);
		sbuf_printf(sb, " (%s)", f);
		*col += (int)strlen(f) + 3;
	}
}

/* Index rows FROM..TO: row i holds entries i, i + rows and i + 2 * rows. */
static void
index_rows(void *ctx, struct sbuf *sb, uint32_t from, uint32_t to, int thread)
{
	struct out *w = ctx;
	const struct shown *sh = report_shown(w->rt[thread]);
	uint32_t i, j, n = w->nrows;
	int width = (w->o->width - 1) / 3, col, start;

	for (i = from; i < to; i++) {
		col = start = 0;
		/* (the cells' symbols all over memory: each, then its name, asked for ahead) */
		for (j = i + 2 * ROW_AHEAD; i + 2 * ROW_AHEAD < to && j < n; j += (n + 2) / 3)
			shown_ask(sh, w->row[j]);
		for (j = i + ROW_AHEAD; i + ROW_AHEAD < to && j < n; j += (n + 2) / 3)
			shown_ask_name(sh, w->row[j]);
		for (j = i; j < n; j += (n + 2) / 3) {
			index_cell(w, w->rt[thread], sb, w->row[j], &col, start);
			start += width;
		}
		sbuf_putc(sb, '\n');
	}
}

/* gprof's cg_print_index(): names sorted by raw name, then the cycles, in three columns. */
static int
print_index(struct out *w)
{
	const struct profile *p = w->p;
	const struct shown *sh = report_shown(w->r);
	uint32_t *v = mem_array((size_t)p->nsyms + p->ncycles, sizeof *v), n = 0, i;

	if (v == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		const struct pf_sym *s = &p->sym[p->name_order[i]];

		if (i + 2 * ROW_AHEAD < p->nsyms)
			shown_ask_flat(sh, p->name_order[i + 2 * ROW_AHEAD]);	/* (its time: the second line) */
		if (w->o->ro.zeros || s->ncalls != 0 || s->time != 0)
			v[n++] = p->name_order[i];
	}
	for (i = 0; i < p->ncycles; i++)
		v[n++] = p->nsyms + i;
	sbuf_puts(&w->sb, "\f\nIndex by function name\n\n");
	flush(w);
	w->row = v;
	w->nrows = n;
	rows_out(w, (n + 2) / 3, 1024, index_rows);
	free(v);
	w->row = NULL;
	return 0;
}

/* gprof's cmp_bb(): file name, then line (when both have a file), then address. */
static int
cmp_bb(const void *a, const void *b, void *ctx)
{
	const struct profile *p = ctx;
	const struct pf_sym *l = &p->sym[*(const uint32_t *)a], *r = &p->sym[*(const uint32_t *)b];

	if (l->file != PF_NONE && r->file != PF_NONE) {
		int c = strcmp(profile_file_name(p, l->file), profile_file_name(p, r->file));

		if (c != 0)
			return c;
		if (l->line != r->line)
			return l->line < r->line ? -1 : 1;
	}
	return l->addr < r->addr ? -1 : l->addr > r->addr;
}

/* One "file:line: (name:0xaddr) N executions" line. */
static void
exec_line(struct out *w, const struct pf_sym *s, uint64_t addr, uint64_t count)
{
	sbuf_printf(&w->sb, "%s:%d: (%s:0x%lx) %lu executions\n",
	    s->file != PF_NONE ? profile_file_name(w->p, s->file) : "<unknown>", s->line, s->name,
	    (unsigned long)addr, (unsigned long)count);
	if (w->sb.len > 65536)
		flush(w);
}

/* gprof's print_exec_counts(): calls of each symbol and, with -l, of its basic blocks. */
static int
print_exec(struct out *w)
{
	const struct profile *p = w->p;
	uint32_t *v = mem_array(p->nsyms, sizeof *v), n = 0, i;
	int j;

	if (v == NULL)
		return -1;
	section(w);
	for (i = 0; i < p->nsyms; i++)
		if (profile_in_exec(p, i))
			v[n++] = i;
	if (msort_ids(v, n, cmp_bb, (void *)p) != 0) {
		free(v);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct pf_sym *s = &p->sym[v[i]];
		const struct pf_bb *bb = p->bb != NULL ? &p->bb[v[i]] : NULL;

		if (s->ncalls > 0 || w->o->ro.zeros)
			exec_line(w, s, s->addr, s->ncalls);
		for (j = 0; bb != NULL && j < PF_NBBS && bb->addr[j] != 0; j++)
			if (bb->calls[j] > 0 || w->o->ro.zeros)
				exec_line(w, s, bb->addr[j], bb->calls[j]);
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
	if ((style & BATCH_EXEC) && print_exec(w) != 0)
		return -1;
	if (style & BATCH_ANNO) {
		flush(w);
		if (anno_print(w->f, w->p, &w->o->anno, &w->first, w->diag) != 0)
			return -1;
	}
	if ((style & BATCH_FUNC_ORDER) && ordering_functions(w->f, w->p, w->diag) != 0)
		return -1;
	if ((style & BATCH_FILE_ORDER) && ordering_files(w->f, w->p, w->diag) != 0)
		return -1;
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
	w.diag = d;
	w.first = 1;
	sbuf_init(&w.sb);
	if (o->style & BATCH_INFO)
		print_info(&w);
	flush(&w);
	if (check_inputs(p, o->style, d) != 0)
		return -1;
	w.r = w.rt[0] = report_new(p, &o->ro);
	w.rt[1] = report_new(p, &o->ro);
	if (w.r != NULL && w.rt[1] != NULL) {
		report_share_names(w.rt[1], w.rt[0]);	/* (each name demangled once, by either thread) */
		if (o->measure != NULL) {
			report_use_measure(w.rt[0], o->measure);
			report_use_measure(w.rt[1], o->measure);
		}
	}
	if (w.r == NULL || w.rt[1] == NULL || print_sections(&w, o->style) != 0 || w.sb.failed ||
	    w.failed)
		rc = diag_errors(d) ? -1 : diag_oom(d);
	flush(&w);
	report_free(w.rt[1]);
	report_free(w.rt[0]);
	sbuf_release(&w.sb);
	if (rc == 0 && (fflush(out) != 0 || ferror(out))) {
		diag_add(d, DIAG_ERROR, "standard output: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}
