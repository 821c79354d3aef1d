/* help: the key map, one for every pane, shown over the panes by ? or F1. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <string.h>

#include "ui.h"

static const char *const keys[] = {
	"j k Down Up         move",
	"PgDn PgUp Space     page down, up",
	"C-d C-u             half a page down, up",
	"g G Home End        first, last row",
	"Tab BTab            next, previous pane",
	"Enter l Right       open: the selected function's call graph",
	"Backspace h Left    back to the function before",
	"M-Right             forward again",
	"a                   the source of the function",
	"/ n N               search the pane, next, previous match",
	":                   go to call-graph index [N]",
	"d                   demangle C++ names or not",
	"Esc                 cancel the search",
	"? F1                this help",
	"q                   close the help, or quit",
	"Q                   quit",
};

void
help_draw(struct tui *t)
{
	int n = (int)(sizeof keys / sizeof *keys), w = 62, h = n + 4;
	int y = (LINES - h) / 2, x = (COLS - w) / 2, i;

	if (y < 0)
		y = 0;
	if (x < 0)
		x = 0;
	if (w > COLS)
		w = COLS;
	draw_text(y, x, w, "  tgprof keys (any key closes this)", A_BOLD);
	draw_text(y + 1, x, w, "", A_NORMAL);
	for (i = 0; i < n && y + 2 + i < LINES; i++)
		draw_text(y + 2 + i, x, w, keys[i], A_NORMAL);
	if (y + 2 + n < LINES)
		draw_text(y + 2 + n, x, w, "", A_NORMAL);
	if (y + 3 + n < LINES)
		draw_text(y + 3 + n, x, w, "  man tgprof has the rest.", A_NORMAL);
}
