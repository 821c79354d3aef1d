/* draw: UTF-8 text into the curses screen, cut to a width, and the colours of row attributes. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui.h"

/*
 * Draws S at (Y, X) in at most W columns, padded with blanks, in ATTR.
 * A tab shows as a blank, invalid UTF-8 bytes and unprintable characters
 * as '?'; a character is never cut in half.
 */
void
draw_text(int y, int x, int w, const char *s, int attr)
{
	mbstate_t st;
	size_t left = strlen(s);
	int col = 0;

	memset(&st, 0, sizeof st);
	attrset(attr);
	move(y, x);
	while (*s != '\0' && col < w) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, left, &st);
		int cw;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof st);
			wc = L'?';
			n = 1;
		}
		if (wc == L'\t')
			wc = L' ';
		cw = wcwidth(wc);
		if (cw < 0)
			wc = L'?', cw = 1;
		if (col + cw > w)
			break;
		addnwstr(&wc, 1);
		col += cw;
		s += n;
		left -= n;
	}
	for (; col < w; col++)
		addch(' ');
	attrset(A_NORMAL);
}

/*
 * The curses attributes of a row with UI_* FLAGS, SELECTED or not.  The
 * colour pairs are term.c's: 1 hot, 2 warm, 3 the top and bottom lines,
 * 4 notes.
 */
int
draw_attr(const struct tui *t, int flags, int selected)
{
	int a = A_NORMAL;

	if (t->colors && (flags & UI_HOT))
		a |= COLOR_PAIR(1);
	else if (t->colors && (flags & UI_WARM))
		a |= COLOR_PAIR(2);
	if (flags & UI_STRONG)
		a |= A_BOLD;
	if (flags & UI_NOTE)
		a |= t->colors ? COLOR_PAIR(4) : A_DIM;
	else if (flags & UI_DIM)
		a |= A_DIM;
	if (flags & UI_ESTIMATE)
		a |= A_ITALIC;
	if (selected)
		a |= A_REVERSE;
	return a;
}
