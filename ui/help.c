/* help: the help pane, the key table's rows shown over the other panes by ? or F1. */
#include <string.h>

#include "ui.h"

static int
help_fill(struct tui *t, struct pane *pn)
{
	char names[64];

	for (pn->nrows = 0; keys_help_row(pn->nrows, names, sizeof names) != NULL; pn->nrows++)
		;
	return 0;
}

static void
help_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	sbuf_puts(sb, "Keys (q, Esc or ? closes this; man tgprof says more)");
}

/* The key names in 20 columns, two blanks at least, then the text. */
static void
help_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	char names[64];
	const char *s = keys_help_row(i, names, sizeof names);

	if (s != NULL)
		sbuf_printf(sb, "%-18s  %.*s", names, (int)strcspn(s, "\n"), s);
}

static uint32_t
help_target(struct tui *t, struct pane *pn, size_t i)
{
	return PF_NONE;
}

static void
help_release(struct pane *pn)
{
	pn->data = NULL;	/* the rows are the table's */
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
