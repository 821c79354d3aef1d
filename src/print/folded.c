/* folded: measured call stacks in the folded format of flamegraph.pl, inferno, speedscope and the Firefox profiler. */
#include "folded.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/gmon_out.h"
#include "util/mem.h"
#include "util/sbuf.h"

void
folded_clean(struct sbuf *sb, size_t start)
{
	size_t i;

	for (i = start; !sb->failed && i < sb->len; i++) {
		unsigned char c = (unsigned char)sb->s[i];

		if (c == ';')
			sb->s[i] = ':';
		else if (c < ' ' || c == 0x7f)
			sb->s[i] = '?';
	}
}

/* Frame F's name into SB, made safe for the format. */
static void
put_frame(struct sbuf *sb, struct report *r, const struct pf_measure *m, uint32_t f)
{
	size_t start = sb->len;

	if (f == PF_FRAME_UNKNOWN)
		sbuf_puts(sb, "[unknown]");
	else if (f >= PF_FRAME_OTHER && f - PF_FRAME_OTHER < m->nother)
		sbuf_puts(sb, m->other[f - PF_FRAME_OTHER]);
	else
		report_name_only(r, sb, f);
	folded_clean(sb, start);
}

void
folded_thread_frame(struct sbuf *sb, const struct pf_measure *m, uint32_t t)
{
	size_t start = sb->len;

	if (t == PF_NO_THREAD || t >= m->nthread)
		sbuf_puts(sb, "[other threads]");
	else
		sbuf_printf(sb, "%s-%lu", m->thread[t].name[0] != '\0' ? m->thread[t].name : "thread",
		    (unsigned long)m->thread[t].tid);
	folded_clean(sb, start);
}

/* Stack ST's frames, ';'-separated, under its thread's frame if THREADS, and a NUL, into SB. */
static void
put_stack(struct sbuf *sb, struct report *r, const struct pf_measure *m, const struct pf_mstack *st,
    int threads)
{
	uint32_t k;

	if (threads) {
		folded_thread_frame(sb, m, st->thread);
		sbuf_putc(sb, ';');
	}
	if (st->flags & TGSTACKS_TRUNCATED)
		sbuf_puts(sb, "[truncated];");
	else if (!(st->flags & TGSTACKS_ROOT))
		sbuf_puts(sb, "[incomplete];");
	for (k = 0; k < st->depth; k++) {
		if (k > 0)
			sbuf_putc(sb, ';');
		put_frame(sb, r, m, m->frame[st->first + k]);
	}
	sbuf_putc(sb, '\0');
}

static int
cmp_line(const void *a, const void *b, void *text)
{
	return strcmp((const char *)text + ((const struct folded_line *)a)->off,
	    (const char *)text + ((const struct folded_line *)b)->off);
}

int
folded_emit(FILE *f, const char *text, struct folded_line *l, size_t n)
{
	size_t i, j;

	qsort_r(l, n, sizeof *l, cmp_line, (void *)text);
	for (i = 0; i < n; i = j) {
		double count = l[i].count;

		for (j = i + 1; j < n && strcmp(text + l[j].off, text + l[i].off) == 0; j++)
			count += l[j].count;
		if (count >= 0.5 && fprintf(f, "%s %.0f\n", text + l[i].off, count) < 0)
			return -1;
	}
	return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

/* A first line saying what the counts have taken out of the samples, if anything; 0, or -1 (errno). */
static int
taken_out(FILE *f, const struct pf_measure *m)
{
	struct sbuf note;
	int rc = 0;

	if (m->profiler <= 0 && m->calls <= 0 && m->truth.clock == TRUTH_CPU)
		return 0;
	sbuf_init(&note);
	report_measure_note(&note, m);
	if (note.len > 0 && fprintf(f, "# tgprof: %s%s\n", sbuf_str(&note),
	    m->profiler > 0 || m->calls > 0 ? " (--raw: as sampled)" : "") < 0)
		rc = -1;
	sbuf_release(&note);
	return rc;
}

int
folded_write(FILE *f, struct report *r, const struct pf_measure *m, struct diag *d)
{
	return folded_write_threads(f, r, m, 0, d);
}

int
folded_write_threads(FILE *f, struct report *r, const struct pf_measure *m, int threads, struct diag *d)
{
	struct folded_line *l = mem_calloc(m->nstack + 1, sizeof *l);
	struct sbuf sb;
	size_t i;
	int rc = 0;

	sbuf_init(&sb);
	for (i = 0; l != NULL && i < m->nstack; i++) {
		l[i].off = sb.len;
		l[i].count = m->stack[i].weight;
		put_stack(&sb, r, m, &m->stack[i], threads);
	}
	if (l == NULL || sb.failed)
		rc = diag_oom(d);
	else if (taken_out(f, m) != 0 || folded_emit(f, sb.s != NULL ? sb.s : "", l, m->nstack) != 0) {
		diag_add(d, DIAG_ERROR, "cannot write the stacks: %s", strerror(errno));
		rc = -1;
	}
	free(l);
	sbuf_release(&sb);
	return rc;
}
