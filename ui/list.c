/* list: what every pane does with its rows: selection, scrolling, search, drawing, writing. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui.h"
#include "util/afile.h"

int
list_fill(struct tui *t, struct pane *pn)
{
	if (pn->ops->fill(t, pn) == 0)
		return 0;
	pn->nrows = pn->sel = pn->top = 0;	/* the rows may be gone: none is safe */
	return -1;
}

void
list_to(struct pane *pn, size_t row)
{
	pn->sel = pn->nrows == 0 ? 0 : row < pn->nrows ? row : pn->nrows - 1;
}

void
list_move(struct pane *pn, long delta)
{
	long s = (long)pn->sel + delta;

	list_to(pn, s < 0 ? 0 : (size_t)s);
}

/* tolower() of every byte, made once (the locale is set before the browser starts). */
static const unsigned char *
lower_table(void)
{
	static unsigned char low[256];
	static int made;
	int c;

	if (!made) {
		for (c = 0; c < 256; c++)
			low[c] = (unsigned char)tolower(c);
		made = 1;
	}
	return low;
}

int
list_matches(const char *text, const char *needle)
{
	const unsigned char *low, *s = (const unsigned char *)text, *nd = (const unsigned char *)needle;
	size_t n = strlen(needle), i;

	for (i = 0; i < n; i++)
		if (isupper(nd[i]))
			return strstr(text, needle) != NULL;
	if (n == 0)
		return 1;
	for (low = lower_table(); *s != '\0'; s++) {
		if (low[*s] != nd[0])
			continue;
		for (i = 1; i < n && s[i] != '\0' && low[s[i]] == nd[i]; i++)
			;
		if (i == n)
			return 1;
	}
	return 0;
}

/* Row I of PN matches NEEDLE (a note never does): by the pane's match if it can tell, else by its text. */
static int
row_matches(struct tui *t, struct pane *pn, size_t i, const char *needle)
{
	int attr = 0, m;

	if (pn->ops->match != NULL && (m = pn->ops->match(t, pn, i, needle)) >= 0)
		return m;
	sbuf_reset(&t->sb);
	pn->ops->row(t, pn, i, &t->sb, &attr);
	return !(attr & UI_NOTE) && list_matches(sbuf_str(&t->sb), needle);
}

long
list_find(struct tui *t, struct pane *pn, const char *needle, int dir, int from_sel)
{
	size_t k, i;

	if (pn->nrows == 0 || needle[0] == '\0')
		return -1;
	for (k = from_sel ? 0 : 1; k <= pn->nrows; k++) {
		i = (pn->sel + pn->nrows + (dir > 0 ? k : pn->nrows - k % pn->nrows)) % pn->nrows;
		if (row_matches(t, pn, i, needle))
			return (long)i;
	}
	return -1;
}

size_t
list_count(struct tui *t, struct pane *pn, const char *needle)
{
	size_t i, n = 0;

	for (i = 0; needle[0] != '\0' && i < pn->nrows; i++)
		n += row_matches(t, pn, i, needle);
	return n;
}

/* Scrolls as little as shows the selection in H rows, leaving no row blank that could show one. */
static void
scroll_to_sel(struct pane *pn, int h)
{
	if (h <= 0)
		return;
	if (pn->sel < pn->top)
		pn->top = pn->sel;
	else if (pn->sel >= pn->top + (size_t)h)
		pn->top = pn->sel - (size_t)h + 1;
	if (pn->top + (size_t)h > pn->nrows)
		pn->top = pn->nrows > (size_t)h ? pn->nrows - (size_t)h : 0;
}

/*
 * The pane in the box (Y, X, H, W): its first header line as the title
 * (marked "> " when it has the focus), the others underlined, then rows,
 * the search's matches underlined; all but the title scrolled sideways
 * by pn->hscroll columns.  The box and the rows' height are kept
 * in PN for the mouse and for paging.
 */
void
list_draw(struct tui *t, struct pane *pn, int y, int x, int h, int w, int focused)
{
	char *line, *next;
	int row = y, i;

	if (pn->ops->draw != NULL) {
		pn->ops->draw(t, pn, y, x, h, w, focused);
		return;
	}
	sbuf_reset(&t->sb);
	sbuf_puts(&t->sb, focused ? "> " : "  ");
	pn->ops->header(t, pn, &t->sb);
	if (t->sb.failed)
		return;
	if (t->sb.len > 0 && t->sb.s[t->sb.len - 1] == '\n')
		t->sb.s[--t->sb.len] = '\0';
	for (line = t->sb.s; row < y + h; line = next + 1) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next = '\0';
		draw_text_from(row, x, w, line, row == y ? 0 : pn->hscroll, row == y ? A_BOLD : A_UNDERLINE);
		row++;
		if (next == NULL)
			break;
	}
	pn->height = y + h - row;
	pn->box_y = y, pn->box_x = x, pn->box_h = h, pn->box_w = w, pn->rows_y = row;
	scroll_to_sel(pn, pn->height);
	for (i = 0; row < y + h; i++, row++) {
		size_t k = pn->top + (size_t)i;
		int attr = 0, a;

		if (k >= pn->nrows) {
			draw_text(row, x, w, "", A_NORMAL);
			continue;
		}
		sbuf_reset(&t->sb);
		pn->ops->row(t, pn, k, &t->sb, &attr);
		a = draw_attr(t, attr, focused && k == pn->sel);
		if (t->needle[0] != '\0' && !(attr & UI_NOTE) && list_matches(sbuf_str(&t->sb), t->needle))
			a |= A_UNDERLINE;
		draw_text_from(row, x, w, t->sb.failed ? "(out of memory)" : sbuf_str(&t->sb), pn->hscroll, a);
	}
}

/* Header and rows of PN to F; 0, or -1 on a write error. */
static int
write_rows(struct tui *t, struct pane *pn, FILE *f)
{
	size_t i;
	int attr;

	sbuf_reset(&t->sb);
	pn->ops->header(t, pn, &t->sb);
	fprintf(f, "%s", sbuf_str(&t->sb));
	if (t->sb.len > 0 && t->sb.s[t->sb.len - 1] != '\n')
		fputc('\n', f);
	for (i = 0; i < pn->nrows; i++) {
		sbuf_reset(&t->sb);
		attr = 0;
		pn->ops->row(t, pn, i, &t->sb, &attr);
		fprintf(f, "%s\n", sbuf_str(&t->sb));
	}
	return t->sb.failed || ferror(f) ? -1 : 0;
}

/* Written whole or not at all, with the mode fopen() would give (util/afile.h). */
int
list_write(struct tui *t, struct pane *pn, const char *path)
{
	struct afile af;

	if (afile_open(&af, path) != 0)
		return -1;
	if (write_rows(t, pn, af.f) != 0) {
		afile_abort(&af);
		return -1;
	}
	return afile_commit(&af);
}
