/* threadlist: the threads of a measure as rows of text (tgprof --threads, and the browser's thread view). */
#include "threadlist.h"

#include <errno.h>
#include <string.h>

#include "folded.h"

/* The samples of stacks of no thread record: the whole process's less the threads'. */
static uint64_t
unthreaded(const struct pf_measure *m)
{
	uint64_t n = 0;
	uint32_t t;

	for (t = 0; t < m->nthread; t++)
		n += m->thread[t].samples;
	return m->thread_samples > n ? m->thread_samples - n : 0;
}

uint32_t
threadlist_rows(const struct pf_measure *m)
{
	return m->nthread + (unthreaded(m) > 0);
}

void
threadlist_head(struct sbuf *sb)
{
	sbuf_puts(sb, "  % samples   samples   signals     CPU s        tid  thread");
}

void
threadlist_row(struct sbuf *sb, const struct pf_measure *m, uint32_t t)
{
	const struct pf_thread *th = t < m->nthread ? &m->thread[t] : NULL;
	uint64_t n = th != NULL ? th->samples : unthreaded(m);

	sbuf_printf(sb, "%c %9.2f %9llu ", th != NULL && m->chosen != NULL && m->chosen[t] ? '*' : ' ',
	    m->thread_samples > 0 ? 100.0 * (double)n / (double)m->thread_samples : 0.0, (unsigned long long)n);
	if (th == NULL) {
		sbuf_printf(sb, "%9s %9s %10s  [other threads]", "-", "-", "-");
		return;
	}
	sbuf_printf(sb, "%9llu ", (unsigned long long)th->signals);
	if (th->flags & PF_THREAD_CPU)
		sbuf_printf(sb, "%9.3f ", (double)th->cpu_ns / 1e9);
	else
		sbuf_printf(sb, "%9s ", "?");
	sbuf_printf(sb, "%10lu  %s%s", (unsigned long)th->tid, th->name,
	    (th->flags & PF_THREAD_MAIN) ? " (main)" : (th->flags & PF_THREAD_ENDED) ? " (ended)" : "");
}

void
threadlist_note(struct sbuf *sb, const struct pf_measure *m)
{
	uint32_t t, shown = 0;

	if (m == NULL || m->chosen == NULL)
		return;
	sbuf_puts(sb, m->nchosen > 1 ? "threads " : "thread ");
	for (t = 0; t < m->nthread; t++)
		if (m->chosen[t] && shown++ < 4) {
			if (shown > 1)
				sbuf_puts(sb, ", ");
			folded_thread_frame(sb, m, t);
		}
	sbuf_printf(sb, "%s (%lu of %lu); calls: all threads", shown > 4 ? ", ..." : "",
	    (unsigned long)m->nchosen, (unsigned long)m->nthread);
}

int
threadlist_write(FILE *f, const struct pf_measure *m, struct diag *d)
{
	struct sbuf sb;
	uint32_t t, n = threadlist_rows(m);
	int rc = 0;

	sbuf_init(&sb);
	sbuf_printf(&sb, "Threads: %lu, %llu samples%s\n\n", (unsigned long)m->nthread,
	    (unsigned long long)m->thread_samples, m->chosen != NULL ? " (*: chosen, --thread)" : "");
	threadlist_head(&sb);
	sbuf_putc(&sb, '\n');
	for (t = 0; t < n; t++) {
		threadlist_row(&sb, m, t);
		sbuf_putc(&sb, '\n');
	}
	sbuf_puts(&sb, "\nSamples are counted per thread; calls are not: they are all threads'.\n");
	if (measure_waits_why(m) == NULL)
		sbuf_printf(&sb, "Waits off CPU: %.3f s recorded (--clock=wait, --clock=wall).\n", (double)m->wait_ns / 1e9);
	else
		sbuf_printf(&sb, "Waits off CPU: %s.\n", measure_waits_why(m));
	if (sb.failed)
		rc = diag_oom(d);
	else if (fwrite(sb.s, 1, sb.len, f) != sb.len || fflush(f) != 0) {
		diag_add(d, DIAG_ERROR, "cannot write the threads: %s", strerror(errno));
		rc = -1;
	}
	sbuf_release(&sb);
	return rc;
}
