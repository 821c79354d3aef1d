/* help: the key map, one for every pane, shown over the panes by ? or F1. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <stdio.h>
#include <string.h>

#include "ui.h"

static const char *const keys[] = {
	"j k Down Up         move",
	"PgDn PgUp Space     page down, up",
	"C-d C-u             half a page down, up",
	"g G Home End        first, last row",
	"Tab BTab            next, previous pane",
	"Enter l Right       open the selected function's call graph",
	"                    (on a cycle member's own line: the cycle)",
	"Backspace h Left    back to the function before",
	"M-Right             forward again",
	"a                   the source of the function",
	"o                   $EDITOR at the source line",
	"/ n N               search the pane, next, previous match",
	"\\                   flat profile: only names with ...",
	"L                   flat profile: hide rows under ... %",
	"s S                 flat profile: next sort column, reverse",
	"x f u               without / only this function (-E, -F); undo",
	":                   go to call-graph index [N]",
	"d                   demangle C++ names or not",
	"P                   write the pane as text to a file",
	"i                   what the profile files hold",
	"Esc                 cancel the search",
	"? F1                this help",
	"q                   close the help, or quit",
	"Q                   quit",
	"mouse               click selects, double click opens, wheel",
};

static int
help_fill(struct tui *t, struct pane *pn)
{
	pn->nrows = sizeof keys / sizeof *keys;
	return 0;
}

static void
help_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	sbuf_puts(sb, "Keys (q, Esc or ? closes this; man tgprof says more)");
}

static void
help_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	sbuf_puts(sb, keys[i]);
}

static uint32_t
help_target(struct tui *t, struct pane *pn, size_t i)
{
	return PF_NONE;
}

static void
help_release(struct pane *pn)
{
	pn->data = NULL;	/* the rows are the constant table */
}

/* The key map is a pane of its own, over the others while it is up. */
static const struct pane_ops help_ops = {
	.name = "help",
	.fill = help_fill,
	.header = help_header,
	.row = help_row,
	.target = help_target,
	.release = help_release,
};

void
help_init(struct pane *pn)
{
	pn->ops = &help_ops;
}

/* i: what the profile files held, as gprof -i counts it, and the histogram's ranges. */
void
help_info(struct tui *t)
{
	const struct profile *p = t->p;
	int y = 2, w = COLS;
	char line[512];
	size_t k;

	draw_text(y++, 0, w, "  Profile files (any key closes this)", A_BOLD);
	draw_text(y++, 0, w, "", A_NORMAL);
	for (k = 0; k < p->ngmon && y < LINES - 4; k++) {
		const struct pf_gmon_info *g = &p->gmon[k];

		snprintf(line, sizeof line, "  %s: version %d, %d histogram records, %d call-graph "
		    "records, %d basic-block records", g->path, g->counts.version, g->counts.nhist,
		    g->counts.narcs, g->counts.nbbs);
		draw_text(y++, 0, w, line, A_NORMAL);
	}
	for (k = 0; k < p->nhist && y < LINES - 3; k++) {
		snprintf(line, sizeof line, "  histogram %#llx-%#llx, %u bins of %g bytes",
		    (unsigned long long)p->hist[k].lowpc, (unsigned long long)p->hist[k].highpc,
		    p->hist[k].num_bins, 2 * p->hist_scale);
		draw_text(y++, 0, w, line, A_NORMAL);
	}
	snprintf(line, sizeof line, "  %ld samples a second (%s); %u functions, %u arcs, %u cycles",
	    p->hz, p->dimension, p->nsyms, p->narcs, p->ncycles);
	draw_text(y++, 0, w, line, A_NORMAL);
	draw_text(y, 0, w, "", A_NORMAL);
}
