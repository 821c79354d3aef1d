/* threadview: the thread view (p), the threads of the call stacks over the panes, chosen to narrow every pane to them. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/threadlist.h"
#include "ui.h"

/* The pane's data: the threads marked (Space), for the session's generation GEN. */
struct threadview {
	unsigned char *mark;	/* per thread of the measure */
	uint32_t n;
	unsigned gen;
};

static void
threadview_release(struct pane *pn)
{
	struct threadview *v = pn->data;

	if (v != NULL)
		free(v->mark);
	free(v);
	pn->data = NULL;
}

static int
threadview_fill(struct tui *t, struct pane *pn)
{
	const struct pf_measure *m = t->s->measure;
	struct threadview *v = pn->data;

	if (v != NULL && v->gen == t->s->gen)
		return 0;
	threadview_release(pn);
	pn->nrows = 1;	/* a note, without threads */
	pn->sel = pn->top = 0;
	if (m == NULL || m->nthread == 0)
		return 0;
	if ((v = calloc(1, sizeof *v)) == NULL || (v->mark = calloc((size_t)m->nthread + 1, 1)) == NULL) {
		free(v);
		return -1;
	}
	v->n = m->nthread;
	v->gen = t->s->gen;
	pn->data = v;
	pn->nrows = threadlist_rows(m);
	return 0;
}

static void
threadview_header(struct tui *t, struct pane *pn, struct sbuf *sb)
{
	const struct pf_measure *m = t->s->measure;

	sbuf_puts(sb, "Threads (Space marks, Enter: every pane of the marked or selected; u undoes; q closes)");
	if (m != NULL && m->chosen != NULL) {
		sbuf_puts(sb, ": shown: ");
		threadlist_note(sb, m);
	}
	sbuf_putc(sb, '\n');
	if (pn->data != NULL) {
		sbuf_putc(sb, ' ');
		threadlist_head(sb);
	}
}

static void
threadview_row(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr)
{
	const struct threadview *v = pn->data;

	if (v == NULL) {
		sbuf_puts(sb, t->s->measure == NULL ? "no call stacks: no threads" :
		    "no threads: the stacks files have no thread records (libtgmon's stacks files from version 3 have)");
		*attr |= UI_NOTE;
		return;
	}
	sbuf_putc(sb, i < v->n && v->mark[i] ? '+' : ' ');
	threadlist_row(sb, t->s->measure, (uint32_t)i);
}

static uint32_t
threadview_target(struct tui *t, struct pane *pn, size_t i)
{
	return PF_NONE;
}

/* Enter: the marked threads (else the selected one) chosen: every pane narrowed to them. */
static void
choose(struct tui *t, struct pane *pn)
{
	struct threadview *v = pn->data;
	unsigned char *chosen;
	uint32_t k, n = 0;

	for (k = 0; k < v->n; k++)
		n += v->mark[k] != 0;
	if (n == 0 && pn->sel >= v->n) {
		snprintf(t->message, sizeof t->message, "[other threads]: their stacks cannot be chosen");
		return;
	}
	if ((chosen = calloc(v->n + 1, 1)) == NULL) {
		snprintf(t->message, sizeof t->message, "out of memory");
		return;
	}
	if (n > 0)
		memcpy(chosen, v->mark, v->n);
	else
		chosen[pn->sel] = 1;
	t->threads = 0;
	change_threads(t, chosen);
	free(chosen);
}

/* The view's own keys: Space marks the selected thread (and moves down), Enter chooses, q and Esc close. */
static int
threadview_key(struct tui *t, struct pane *pn, int c)
{
	struct threadview *v = pn->data;

	if (c == 'q' || c == 27 || c == 'p') {
		t->threads = 0;
		return 1;
	}
	if (v == NULL)
		return c == ' ' || c == '\r' || c == '\n' || c == KEY_ENTER;
	if (c == ' ') {
		if (pn->sel < v->n)
			v->mark[pn->sel] = !v->mark[pn->sel];
		list_move(pn, 1);
		return 1;
	}
	if (c == '\r' || c == '\n' || c == KEY_ENTER) {
		choose(t, pn);
		return 1;
	}
	return 0;
}

/* The threads are a pane of their own, over the others while they are up (as the help is). */
static const struct pane_ops threadview_ops = {
	.name = "threads",
	.fill = threadview_fill,
	.header = threadview_header,
	.row = threadview_row,
	.target = threadview_target,
	.release = threadview_release,
	.key = threadview_key,
	.own_hint = "Space:mark Enter:narrow u:undo q:close",
};

void
threadview_toggle(struct tui *t)
{
	if (t->s->measure == NULL || t->s->measure->nthread == 0) {
		snprintf(t->message, sizeof t->message, "no threads: the stacks files have no thread records "
		    "(libtgmon's stacks files from version 3 have)");
		return;
	}
	t->threads = !t->threads;
	if (t->threads && list_fill(t, &t->threads_pane) != 0) {
		t->threads = 0;
		snprintf(t->message, sizeof t->message, "out of memory");
	}
}

void
threadview_init(struct pane *pn)
{
	pn->ops = &threadview_ops;
}
