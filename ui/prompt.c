/* prompt: the keys that ask for a line (search, index, filter, limit, file names) and the line's editing. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

/*
 * Keys that ask for a line: the bottom line shows what is asked (FMT, as
 * printf) and what is typed (prompt_key() edits it), and Enter hands the
 * line to DONE.
 */
static void
ask(struct tui *t, int c, void (*done)(struct tui *t, const char *line), const char *fmt, ...)
{
	va_list ap;

	t->prompt.key = (char)c;
	va_start(ap, fmt);
	vsnprintf(t->prompt.text, sizeof t->prompt.text, fmt, ap);
	va_end(ap);
	t->prompt.input[0] = '\0';
	t->prompt.over = 0;
	t->prompt.done = done;
}

static void
search_line(struct tui *t, const char *line)
{
	snprintf(t->needle, sizeof t->needle, "%s", line);
	keys_search(t, 1, 1);
}

void
prompt_search(struct tui *t, int c)
{
	ask(t, c, search_line, "/");
}

/* The function or cycle with call-graph index [LINE]. */
static void
index_line(struct tui *t, const char *line)
{
	long n = strtol(line, NULL, 10);
	uint32_t i;

	const struct profile *p = t->s->p;

	for (i = 0; n > 0 && i < p->nsyms + p->ncycles; i++) {
		if (p->sym[i].index == n && report_cg_listed(t->s->r, i)) {
			tui_open(t, i);
			flat_select(&t->pane[PANE_FLAT], i);
			t->focus = PANE_GRAPH;
			return;
		}
	}
	snprintf(t->message, sizeof t->message, "no call-graph entry [%s]", line);
}

/* The highest call-graph index, or 0 when there is none. */
static int
last_index(const struct tui *t)
{
	const struct profile *p = t->s->p;
	uint32_t i;
	int n = 0;

	for (i = 0; i < p->nsyms + p->ncycles; i++)
		n = p->sym[i].index > n ? p->sym[i].index : n;
	return n;
}

void
prompt_index(struct tui *t, int c)
{
	ask(t, c, index_line, "go to call-graph index [1-%d]: ", last_index(t));
}

static void
filter_line(struct tui *t, const char *line)
{
	snprintf(t->view.filter, sizeof t->view.filter, "%s", line);
	t->view.gen++;
}

void
prompt_filter(struct tui *t, int c)
{
	if (t->view.filter[0] == '\0')
		ask(t, c, filter_line, "flat profile, only names with: ");
	else
		ask(t, c, filter_line, "flat profile, only names with (now \"%.40s%s\"; empty: all): ",
		    t->view.filter, strlen(t->view.filter) > 40 ? "..." : "");
}

static void
limit_line(struct tui *t, const char *line)
{
	char *end;
	double v = strtod(line, &end);

	if (end == line || v < 0 || v > 100) {
		snprintf(t->message, sizeof t->message, "a percent from 0 to 100, please");
		return;
	}
	t->view.limit = v;
	t->view.gen++;
}

void
prompt_limit(struct tui *t, int c)
{
	ask(t, c, limit_line, "flat profile, hide rows under percent (now %g): ", t->view.limit);
}

/* The focused pane as text into the file LINE (by default tgprof-PANE.txt). */
static void
write_line(struct tui *t, const char *line)
{
	struct pane *pn = &t->pane[t->focus];
	char name[256];

	if (line[0] == '\0') {
		snprintf(name, sizeof name, "tgprof-%s.txt", pn->ops->name);
		line = name;
	}
	if (list_write(t, pn, line) != 0)
		snprintf(t->message, sizeof t->message, "%.200s: %s", line, strerror(errno));
	else
		snprintf(t->message, sizeof t->message, "wrote %zu rows to %.200s", pn->nrows, line);
}

void
prompt_save(struct tui *t, int c)
{
	ask(t, c, change_export, "export the profile as FORMAT FILE (empty: callgrind callgrind.out.tgprof): ");
}

void
prompt_write(struct tui *t, int c)
{
	struct pane *pn = &t->pane[t->focus];

	ask(t, c, write_line, "write the %s pane to file (empty: tgprof-%s.txt): ", pn->ops->name,
	    pn->ops->name);
}

/* A key while a line is typed: Esc cancels, Enter is done, Backspace deletes. */
void
prompt_key(struct tui *t, int c)
{
	struct prompt *pr = &t->prompt;
	size_t n = strlen(pr->input);

	if (c == 27) {
		pr->key = 0;
	} else if ((c == '\r' || c == '\n' || c == KEY_ENTER) && pr->over) {
		pr->key = 0;
		snprintf(t->message, sizeof t->message, "too long: at most %zu characters; nothing done",
		    sizeof pr->input - 1);
	} else if (c == '\r' || c == '\n' || c == KEY_ENTER) {
		pr->key = 0;
		pr->done(t, pr->input);
	} else if (c == KEY_BACKSPACE || c == 127 || c == 8) {
		if (n > 0)
			pr->input[n - 1] = '\0';
		else
			pr->key = 0;
	} else if (c >= ' ' && c < 256 && n + 1 < sizeof pr->input) {
		pr->input[n] = (char)c;
		pr->input[n + 1] = '\0';
	} else if (c >= ' ' && c < 256) {
		pr->over = 1;
	}
}
