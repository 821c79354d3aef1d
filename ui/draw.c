/* draw: UTF-8 text into the curses screen, cut to a width, and the colours of row attributes. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui.h"

/*
 * The character at S (LEFT bytes) as draw_text() shows it: its wide
 * character in *WC and columns in *CW; returns its bytes (1 or more).  A
 * tab shows as a blank, invalid UTF-8 bytes and unprintable characters as
 * '?'.
 */
static size_t
next_char(const char *s, size_t left, mbstate_t *st, wchar_t *wc, int *cw)
{
	size_t n = mbrtowc(wc, s, left, st);

	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		memset(st, 0, sizeof *st);
		*wc = L'?';
		n = 1;
	}
	if (*wc == L'\t')
		*wc = L' ';
	if ((*cw = wcwidth(*wc)) < 0)
		*wc = L'?', *cw = 1;
	return n;
}

/*
 * Draws S at (Y, X) in at most W columns, padded with blanks, in ATTR,
 * leaving out its first SKIP columns; a character is never cut in half
 * (half a wide one scrolled off shows as a blank).
 */
void
draw_text_from(int y, int x, int w, const char *s, int skip, int attr)
{
	mbstate_t st;
	size_t left = strlen(s);
	int col = -skip;

	memset(&st, 0, sizeof st);
	attrset(attr);
	move(y, x);
	while (*s != '\0' && col < w) {
		wchar_t wc;
		int cw;
		size_t n = next_char(s, left, &st, &wc, &cw);

		if (col + cw > w)
			break;
		if (col >= 0)
			addnwstr(&wc, 1);
		else if (col + cw > 0)
			addch(' ');
		col += cw;
		s += n;
		left -= n;
	}
	for (col = col < 0 ? 0 : col; col < w; col++)
		addch(' ');
	attrset(A_NORMAL);
}

void
draw_text(int y, int x, int w, const char *s, int attr)
{
	draw_text_from(y, x, w, s, 0, attr);
}

/* The bytes of S's first characters that fit in W columns; their width in *COLS if not NULL. */
static size_t
fitting(const char *s, int w, int *cols)
{
	mbstate_t st;
	size_t left = strlen(s), used = 0;
	int col = 0;

	memset(&st, 0, sizeof st);
	while (used < left) {
		wchar_t wc;
		int cw;
		size_t n = next_char(s + used, left - used, &st, &wc, &cw);

		if (col + cw > w)
			break;
		col += cw;
		used += n;
	}
	if (cols != NULL)
		*cols = col;
	return used;
}

int
draw_width(const char *s)
{
	int cols;

	fitting(s, INT_MAX, &cols);
	return cols;
}

/* The start of S's longest tail that is W columns wide at most (found from the start: O(strlen(S))). */
const char *
draw_tail(const char *s, int w)
{
	mbstate_t st;
	size_t left = strlen(s), used = 0;
	int col = 0, drop = draw_width(s) - w;

	memset(&st, 0, sizeof st);
	while (col < drop && used < left) {
		wchar_t wc;
		int cw;

		used += next_char(s + used, left - used, &st, &wc, &cw);
		col += cw;
	}
	return s + used;
}

void
draw_elide(struct sbuf *sb, const char *s, int w)
{
	const char *dots = MB_CUR_MAX > 1 ? "\u2026" : "...";
	int dw = MB_CUR_MAX > 1 ? 1 : 3, head;

	if (draw_width(s) <= w) {
		sbuf_puts(sb, s);
		return;
	}
	if (w <= dw) {
		sbuf_printf(sb, "%.*s", (int)fitting(s, w, NULL), s);
		return;
	}
	head = (w - dw) / 3;	/* the end of a name says most: it gets two thirds */
	sbuf_printf(sb, "%.*s", (int)fitting(s, head, &head), s);
	sbuf_puts(sb, dots);
	sbuf_puts(sb, draw_tail(s, w - dw - head));
}

void
draw_prefix_lines(struct sbuf *sb, const char *cols, const char *first, const char *rest)
{
	const char *line = cols;
	int k;

	for (k = 0; *line != '\0'; k++) {
		const char *end = strchr(line, '\n');
		size_t n = end != NULL ? (size_t)(end - line) + 1 : strlen(line);

		sbuf_printf(sb, "%s%.*s", k == 0 ? first : rest, (int)n, line);
		line += n;
	}
}

/*
 * The curses attributes of a row with UI_* FLAGS, SELECTED or not.  The
 * colour pairs are term.c's: 1 hot, 2 warm, 3 the top and bottom lines,
 * 4 notes, 5 waits (without colours: underlined).
 */
int
draw_attr(const struct tui *t, int flags, int selected)
{
	int a = A_NORMAL;

	if (flags & UI_WAIT)
		a |= t->colors ? COLOR_PAIR(5) : A_UNDERLINE;
	else if (t->colors && (flags & UI_HOT))
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
