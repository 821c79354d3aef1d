/* watch: the browser's live view of a running program (tgprof top): each new snapshot shown as it comes, paused (Z), its last interval or the whole run (c). */
#include <stdio.h>

#include "model/follow.h"
#include "ui.h"

#define WATCH_SCRIPT_WAIT_MS 20000	/* a script's "tick" waits this long for a snapshot at most */

/* The last message of D, or WHAT. */
static const char *
why(const struct diag *d, const char *what)
{
	return d->n > 0 ? d->msg[d->n - 1].text : what;
}

/* The live object's last snapshot loaded again as its interval (ON) or the whole run. */
static void
reload(struct tui *t, int on)
{
	struct profile *p;
	struct pf_measure *m;
	struct diag d;

	diag_init(&d);
	switch (follow_interval(t->o->live, on, &p, &m, &d)) {
	case 1:
		change_live(t, p, m);
		break;
	case -1:
		snprintf(t->message, sizeof t->message, "%s", why(&d, "cannot read the snapshot"));
		break;
	}
	diag_release(&d);
}

void
watch_wait(struct tui *t)
{
	if (t->o->live != NULL && !t->paused)
		follow_wait(t->o->live, WATCH_SCRIPT_WAIT_MS);
}

int
watch_tick(struct tui *t)
{
	struct follow_status st;
	struct profile *p;
	struct pf_measure *m;
	struct diag d;
	int rc;

	if (t->o->live == NULL || t->paused)
		return 0;
	diag_init(&d);
	switch (rc = follow_poll(t->o->live, 0, &p, &m, &d)) {
	case 1:
		change_live(t, p, m);
		follow_status(t->o->live, &st);
		if (st.now.final && st.interval)	/* the program ended: its whole profile */
			reload(t, 0);
		break;
	case -1:
		snprintf(t->message, sizeof t->message, "%s", why(&d, "cannot read the snapshot"));
		break;
	}
	diag_release(&d);
	return rc == 1;
}

void
watch_interval(struct tui *t, int c)
{
	struct follow_status st;

	if (t->o->live == NULL) {
		snprintf(t->message, sizeof t->message, "%c: only a live program's (tgprof top) has intervals", c);
		return;
	}
	follow_status(t->o->live, &st);
	reload(t, !st.interval);
}

void
watch_pause(struct tui *t, int c)
{
	if (t->o->live == NULL) {
		snprintf(t->message, sizeof t->message, "%c: only a live program's view (tgprof top) refreshes", c);
		return;
	}
	t->paused = !t->paused;
	snprintf(t->message, sizeof t->message, "%s", t->paused ? "paused: no refresh until Z" :
	    "refreshed at each snapshot");
}

double
watch_interval_secs(const struct tui *t)
{
	struct follow_status st;

	if (t->o->live == NULL)
		return 0;
	follow_status(t->o->live, &st);
	if (st.interval && st.before.seq == 0 && st.now.start_ns != 0 && st.now.mono_ns > st.now.start_ns)
		return (double)(st.now.mono_ns - st.now.start_ns) / 1e9;	/* the first: since the start */
	if (!st.interval || st.before.seq == 0 || st.now.mono_ns <= st.before.mono_ns)
		return 0;
	return (double)(st.now.mono_ns - st.before.mono_ns) / 1e9;
}

void
watch_note(const struct tui *t, struct sbuf *sb)
{
	struct follow_status st;
	double secs = watch_interval_secs(t);

	if (t->o->live == NULL)
		return;
	follow_status(t->o->live, &st);
	if (st.now.seq == 0)
		sbuf_puts(sb, " live: waiting for the first snapshot");
	else if (secs > 0)	/* (before the first snapshot, BEFORE is all zero: the run's start) */
		sbuf_printf(sb, " live: snapshot %u, its %s %.2f s, %.0f%% CPU%s", st.now.seq,
		    st.before.seq == 0 ? "first" : "last", secs, st.now.cpu_ns >= st.before.cpu_ns ?
		    (double)(st.now.cpu_ns - st.before.cpu_ns) / 1e7 / secs : 0.0,
		    st.before.seq == 0 ? "" : " (c: the whole run)");
	else if (st.interval && st.before.seq == 0)
		sbuf_printf(sb, " live: snapshot %u, the first interval: the run so far", st.now.seq);
	else
		sbuf_printf(sb, " live: snapshot %u, the whole run%s (c: the last interval)", st.now.seq,
		    st.now.final ? " (final: the program ended)" : " so far");
	if (t->paused)
		sbuf_puts(sb, " | paused (Z)");
	else if (st.ended && !st.now.final)
		sbuf_puts(sb, " | the program ended");
	sbuf_puts(sb, " |");
}
