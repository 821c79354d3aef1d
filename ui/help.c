/* help: the help pane, the key table's rows shown over the other panes by ? or F1, wrapped to the screen. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <stdlib.h>
#include <string.h>

#include "ui.h"

#define NAMES_COLS 20	/* the key names, two blanks at least after them */
#define TEXT_MIN 24	/* the text's columns on the narrowest screen */
#define TEXT_MAX 70	/* and on a wide one: lines a reader's eye can follow */

/* The rows, made by help_fill for the screen's width: ROW[i] is an offset into TEXT. */
struct help {
	struct sbuf text;
	size_t *row, n, cap;
};

static int
help_push(struct help *h, size_t at)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64, *r = realloc(h->row, cap * sizeof *r);

		if (r == NULL)
			return -1;
		h->row = r;
		h->cap = cap;
	}
	h->row[h->n++] = at;
	return 0;
}

/* Columns of the N bytes at S (UTF-8: continuation bytes take none). */
static int
cols(const char *s, size_t n)
{
	int c = 0;

	for (; n > 0; s++, n--)
		c += ((unsigned char)*s & 0xc0) != 0x80;
	return c;
}

/* One key's text PARA (its lines joined) as rows of WIDTH columns, NAMES before the first. */
static int
help_para(struct help *h, const char *names, const char *para, int width)
{
	const char *s = para;
	int used = -1;

	while (*s != '\0') {
		size_t n = strcspn(s, " ");

		if (used < 0 || (used > 0 && used + 1 + cols(s, n) > width)) {
			sbuf_putc(&h->text, '\0');
			if (help_push(h, h->text.len) != 0)
				return -1;
			sbuf_printf(&h->text, "%-*s", NAMES_COLS, used < 0 ? names : "");
			used = 0;
		} else if (used > 0) {
			sbuf_putc(&h->text, ' ');
			used++;
		}
		sbuf_printf(&h->text, "%.*s", (int)n, s);
		used += cols(s, n);
		s += n + strspn(s + n, " ");
	}
	return 0;
}

static void
help_release(struct pane *pn)
{
	struct help *h = pn->data;

	if (h != NULL) {
		sbuf_release(&h->text);
		free(h->row);
		free(h);
	}
	pn->data = NULL;
}

/* Each key's lines of the table (keys_help_row) joined and wrapped anew for this screen. */
static int
help_fill(struct tui *t, struct pane *pn)
{
	struct help *h;
	struct sbuf para;
	char names[64], first[64] = "";
	const char *s;
	size_t i;
	int width = COLS - NAMES_COLS - 1, rc = 0;

	width = width < TEXT_MIN ? TEXT_MIN : width > TEXT_MAX ? TEXT_MAX : width;
	help_release(pn);
	if ((h = calloc(1, sizeof *h)) == NULL)
		return -1;
	sbuf_init(&h->text);
	sbuf_init(&para);
	for (i = 0; rc == 0 && ((s = keys_help_row(i, names, sizeof names)) != NULL || i > 0); i++) {
		if (s == NULL || names[0] != '\0') {	/* the next key's: this one's text is whole */
			if (i > 0)
				rc = help_para(h, first, sbuf_str(&para), width);
			sbuf_reset(&para);
			if (s == NULL)
				break;
			memcpy(first, names, sizeof first);
		}
		sbuf_printf(&para, "%s%.*s", para.len > 0 ? " " : "", (int)strcspn(s, "\n"), s);
	}
	if (h->text.failed || para.failed)
		rc = -1;
	sbuf_release(&para);
	pn->data = h;
	pn->nrows = h->n;
	return rc;
}

static void
help_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	sbuf_puts(sb, "Keys (q, Esc or ? closes this; man tgprof says more)");
}

static void
help_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct help *h = pn->data;

	if (h != NULL && i < h->n)
		sbuf_puts(sb, sbuf_str(&h->text) + h->row[i]);
}

static uint32_t
help_target(struct tui *t, struct pane *pn, size_t i)
{
	return PF_NONE;
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
