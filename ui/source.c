/* source: the source pane, the selected function's file with its time and calls line by line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/srclines.h"
#include "ui.h"

#define MAX_SOURCE (64L << 20)	/* larger files are not shown */
#define CONTEXT 3		/* lines shown above the function's first */

struct source {
	uint32_t shown;		/* the function, PF_NONE before the first fill */
	unsigned gen;		/* the session's generation its lines are of */
	unsigned loaded;	/* the session's loaded profile whose file ids FILE is one of */
	struct pf_lines lines;	/* its time and calls by line */
	struct pf_lines old;	/* tgprof --diff: the old profile's function's, or none (n 0) */
	uint32_t file;		/* the file whose text is loaded, PF_NONE if none */
	char *text;		/* the file, NUL-terminated lines */
	char **line;		/* line k + 1 starts at line[k] */
	size_t nline;
	char note[512];		/* why there is nothing to show, or "" */
	char path[4096];	/* where the text was found */
};

/* Reads the whole of F into s->text, cut into lines. */
static int
read_text(struct source *s, FILE *f)
{
	long size;
	size_t n, k, i;

	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || size > MAX_SOURCE ||
	    fseek(f, 0, SEEK_SET) != 0)
		return -1;
	if ((s->text = malloc((size_t)size + 1)) == NULL)
		return -1;
	n = fread(s->text, 1, (size_t)size, f);
	s->text[n] = '\0';
	for (i = 0, k = 1; i < n; i++)
		k += s->text[i] == '\n';
	if ((s->line = calloc(k, sizeof *s->line)) == NULL)
		return -1;
	s->line[0] = s->text;
	for (i = 0, s->nline = 1; i < n; i++) {
		if (s->text[i] != '\n')
			continue;
		s->text[i] = '\0';
		if (i + 1 < n)
			s->line[s->nline++] = &s->text[i + 1];
	}
	return 0;
}

static void
drop_text(struct source *s)
{
	free(s->text);
	free(s->line);
	s->text = NULL;
	s->line = NULL;
	s->nline = 0;
	s->file = PF_NONE;
}

/* The text of the function's file, kept while the next function is in the same file. */
static void
load_file(struct tui *t, struct source *s, uint32_t file)
{
	const char *name = profile_file_name(t->s->p, file);
	FILE *f;

	if (s->file == file && s->text != NULL)
		return;
	drop_text(s);
	if ((f = profile_source_open(t->o->search, t->o->nsearch, name, s->path,
	    sizeof s->path)) == NULL) {
		snprintf(s->note, sizeof s->note,
		    "%s: not found (-I DIR or GPROF_PATH say where sources are)", name);
		return;
	}
	if (read_text(s, f) != 0) {
		drop_text(s);
		snprintf(s->note, sizeof s->note, "%s: cannot be read (or over 64 MiB)", name);
	} else {
		s->file = file;
	}
	fclose(f);
}

/*
 * Where the function opens: its definition, the line of its entry address
 * (not the lowest line with code: code inlined from further up the file
 * is there too), else the first line of its own file that has code.
 */
static size_t
first_line(const struct tui *t, const struct source *s)
{
	const struct pf_sym *f = &t->s->p->sym[s->shown];
	size_t k;

	if (f->file == s->lines.file && f->line > 0)
		return (size_t)f->line;
	for (k = 0; k < s->lines.n; k++)
		if (s->lines.line[k].file == s->lines.file)
			return s->lines.line[k].line;
	return 1;
}

/* The lines of the function shown, its old lines in a comparison, its file's text; else a note. */
static void
fill_lines(struct tui *t, struct source *s)
{
	const struct session *ss = t->s;
	uint32_t old = session_old_id(ss, t->cur);
	struct diag d;

	diag_init(&d);
	if (t->cur == PF_NONE || t->cur >= ss->p->nsyms)
		snprintf(s->note, sizeof s->note, "no function selected (a cycle has no source)");
	else if (report_profiler_own(ss->r, t->cur))
		snprintf(s->note, sizeof s->note, "a function of the profiler (libtgmon's or the C "
		    "library's mcount): its time is the cost of profiling, not the program's");
	else if (profile_lines(ss->p, t->cur, &s->lines, &d) != 0)
		snprintf(s->note, sizeof s->note, "%s", d.n > 0 ? d.msg[0].text : "out of memory");
	else if (s->lines.file == PF_NONE)
		snprintf(s->note, sizeof s->note,
		    "no line information for this function (compile it with -g)");
	else
		load_file(t, s, s->lines.file);
	if (s->note[0] == '\0' && old != PF_NONE && profile_lines(ss->old, old, &s->old, &d) != 0)
		memset(&s->old, 0, sizeof s->old);	/* the old side's lines are a bonus */
	diag_release(&d);
}

static int
source_fill(struct tui *t, struct pane *pn)
{
	struct source *s = pn->data;

	if (s == NULL) {
		if ((s = calloc(1, sizeof *s)) == NULL)
			return -1;
		s->shown = s->file = PF_NONE;
		pn->data = s;
	}
	if (s->shown == t->cur && s->shown != PF_NONE && s->gen == t->s->gen)
		return 0;
	profile_lines_release(&s->lines);
	profile_lines_release(&s->old);
	memset(&s->old, 0, sizeof s->old);
	if (s->loaded != t->s->loaded)
		drop_text(s);	/* a file id of another profile */
	s->shown = t->cur;
	s->gen = t->s->gen;
	s->loaded = t->s->loaded;
	s->note[0] = '\0';
	pn->nrows = pn->sel = pn->top = 0;
	fill_lines(t, s);
	if (s->note[0] != '\0') {
		pn->nrows = 1;
		return 0;
	}
	pn->nrows = s->nline;
	list_to(pn, first_line(t, s) - 1);
	pn->top = pn->sel > CONTEXT ? pn->sel - CONTEXT : 0;	/* the declarator above the '{' */
	return 0;
}

static void
source_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	const struct source *s = pn->data;

	sbuf_puts(sb, "Source: ");
	if (s != NULL && s->file != PF_NONE && s->note[0] == '\0')
		sbuf_printf(sb, "%s, ", profile_file_name(t->s->p, s->file));
	if (t->cur != PF_NONE)
		report_name_only(t->s->r, sb, t->cur);
	if (t->s->diff != NULL)
		sbuf_puts(sb, "; the old profile's time first, by line number");
	sbuf_puts(sb, t->s->diff != NULL ? "\nold time    time    calls   line  source" :
	    "\n    time    calls   line  source");
}

/* The time and calls of line K + 1 of L's own file (the function's). */
static const struct pf_line *
line_data(const struct pf_lines *lines, size_t k)
{
	size_t lo = 0, hi = lines->n;

	while (lo < hi) {	/* the own file's lines come first, by line */
		size_t mid = lo + (hi - lo) / 2;
		const struct pf_line *l = &lines->line[mid];

		if (l->file != lines->file || l->line > k + 1)
			hi = mid;
		else if (l->line < k + 1)
			lo = mid + 1;
		else
			return l;
	}
	return NULL;
}

#define MAX_COLUMNS 16384	/* a line is shown up to there (a file of tabs stays small) */

/*
 * TEXT into SB with each tab expanded to the next multiple of TAB columns
 * (a UTF-8 character counts as one), up to MAX_COLUMNS.
 */
static void
put_expanded(struct sbuf *sb, const char *text, int tab)
{
	const char *c, *run = text;
	size_t col = 0;

	for (c = text; *c != '\0' && col < MAX_COLUMNS; c++) {
		if (*c == '\t') {
			size_t n = (size_t)tab - col % (size_t)tab;

			sbuf_printf(sb, "%.*s%*s", (int)(c - run), run, (int)n, "");
			col += n;
			run = c + 1;
		} else if (((unsigned char)*c & 0xC0) != 0x80) {
			col++;
		}
	}
	sbuf_printf(sb, "%.*s", (int)(c - run), run);
}

/*
 * TICKS (HZ a second) in 8 columns, in the unit that shows them (s, ms,
 * us): a line's time is often a few milliseconds, which seconds with two
 * decimals would show as 0.00.
 */
static void
put_time(struct sbuf *sb, double ticks, double hz)
{
	double t = ticks / hz;

	if (t <= 0)
		sbuf_puts(sb, "       0");
	else if (t >= 1)
		sbuf_printf(sb, "%6.2f s", t);
	else if (t >= 1e-3)
		sbuf_printf(sb, "%6.2fms", t * 1e3);
	else
		sbuf_printf(sb, "%6.1fus", t * 1e6);
}

static void
source_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct source *s = pn->data;
	const struct pf_line *l;
	double hz = t->s->p->hz > 0 ? (double)t->s->p->hz : 1;

	if (s->note[0] != '\0') {
		sbuf_puts(sb, s->note);
		*attr = UI_NOTE;
		return;
	}
	if (t->s->diff != NULL) {	/* the old profile's time at the same line number */
		const struct pf_line *o = line_data(&s->old, i);
		double ohz = t->s->old->hz > 0 ? (double)t->s->old->hz : 1;

		if (o != NULL) {
			put_time(sb, o->ticks, ohz);
			sbuf_putc(sb, ' ');
		} else
			sbuf_puts(sb, "         ");
	}
	l = line_data(&s->lines, i);
	if (l == NULL)
		sbuf_puts(sb, "                 ");
	else {
		put_time(sb, l->ticks, hz);
		if (l->calls != 0)
			sbuf_printf(sb, " %8llu", (unsigned long long)l->calls);
		else
			sbuf_puts(sb, "         ");
	}
	sbuf_printf(sb, " %6zu  ", i + 1);
	put_expanded(sb, s->line[i], t->o->tabstop > 0 ? t->o->tabstop : 8);
	if (l != NULL && l->ticks > 0)
		*attr = l->ticks >= 0.2 * s->lines.ticks ? UI_HOT : UI_WARM;
}

static uint32_t
source_target(struct tui *t, struct pane *pn, size_t i)
{
	return PF_NONE;
}

/*
 * The hottest line (DIR 0: the most ticks, the first of equals), or the
 * next (1) or previous (-1) hot line from the selection, of the
 * function's own file; -1 if none.  A hot line has 1% of the function's
 * time or more (a bin's ticks shared among lines leave crumbs elsewhere).
 */
static long
hot_line(const struct source *s, size_t sel, int dir)
{
	long best = -1;
	double most = 0;
	size_t k;

	for (k = 0; k < s->lines.n; k++) {
		const struct pf_line *l = &s->lines.line[k];
		long at = (long)l->line - 1;

		if (l->file != s->lines.file || l->ticks <= 0 || l->ticks < s->lines.ticks / 100 ||
		    l->line == 0 || at >= (long)s->nline)
			continue;
		if (dir == 0 ? l->ticks > most || (l->ticks == most && at < best) :
		    dir > 0 ? at > (long)sel && (best < 0 || at < best) :
		    at < (long)sel && at > best) {
			best = at;
			most = l->ticks;
		}
	}
	return best;
}

void
source_hot(struct tui *t, struct pane *pn, int dir)
{
	const struct source *s = pn->data;
	long at;

	if (s == NULL || s->note[0] != '\0' || s->text == NULL) {
		snprintf(t->message, sizeof t->message, "no source to search for time");
		return;
	}
	if ((at = hot_line(s, pn->sel, dir)) < 0) {
		snprintf(t->message, sizeof t->message, dir == 0 ? "no line of the function has time" :
		    dir > 0 ? "no hot line below" : "no hot line above");
		return;
	}
	list_to(pn, (size_t)at);
}

const char *
source_path(const struct pane *pn)
{
	const struct source *s = pn->data;

	return s != NULL && s->text != NULL && s->note[0] == '\0' ? s->path : NULL;
}

static void
source_release(struct pane *pn)
{
	struct source *s = pn->data;

	if (s != NULL) {
		profile_lines_release(&s->lines);
		profile_lines_release(&s->old);
		drop_text(s);
	}
	free(s);
	pn->data = NULL;
}

static const struct pane_ops source_ops = {
	.name = "source",
	.hints = { "o", "H", "Backspace", "Tab", "/", "?" },
	.fill = source_fill,
	.header = source_header,
	.row = source_row,
	.target = source_target,
	.release = source_release,
};

void
source_init(struct pane *pn)
{
	pn->ops = &source_ops;
}
