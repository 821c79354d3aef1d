/* topview: tgprof top in the browser, a running program's snapshots followed by a live session. */
#include "topview.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "opts.h"

#define TOPVIEW_REFRESH_MS 100	/* how often the browser looks for a new snapshot */

#if HAVE_UI
#include "model/follow.h"
#include "model/session.h"
#include "ui/browser.h"

int
topview_wanted(void)
{
	char why[256];

	if (getenv("TGPROF_SCRIPT") != NULL)
		return 1;
	if (!isatty(STDOUT_FILENO))
		return 0;
	if (!browser_usable(why, sizeof why)) {
		fprintf(stderr, "tgprof: %s: printing tables instead (--batch)\n", why);
		return 0;
	}
	return 1;
}

/* The first snapshot of LV, loaded into a session for O; 0, or -1 with the reason in D. */
static int
first(struct follow *lv, double wait_secs, const struct opts *o, struct session **s, struct diag *d)
{
	struct follow_status st;
	struct profile *p;
	struct pf_measure *m;
	int rc = follow_poll(lv, (int)(wait_secs * 1000), &p, &m, d);

	follow_status(lv, &st);
	if (rc == 0)
		diag_add(d, DIAG_ERROR, "top: no snapshot came%s", st.ended ?
		    ": the program ended without one (was it built with -pg?)" : " in time");
	if (rc != 1)
		return -1;
	return session_new(p, m, &o->out.ro, &o->truth, o->call_ps, s, d);
}

int
topview_run(const char *image, const char *base, double wait_secs, int (*more)(void *ctx), void *ctx,
    int *signo, struct diag *d)
{
	const char *gmon[1] = { base };
	struct browser_opts b;
	struct session *s = NULL;
	struct follow *lv;
	struct opts o;
	int rc;

	*signo = 0;
	opts_defaults(&o);
	o.load.image = image;
	o.load.gmon = gmon;
	o.load.ngmon = 1;
	opts_browser_load(&o);
	if (follow_new(base, &o.load, &(struct measure_opts){ opts_debug_dir(), image, o.truth, o.call_ps, NULL },
	    more, ctx, &lv, d) != 0)
		return -1;
	if (isatty(STDERR_FILENO) && getenv("TGPROF_SCRIPT") == NULL)	/* (a line the browser's screen replaces) */
		fprintf(stderr, "tgprof: top: %s: waiting for its first snapshot\r", image);
	rc = first(lv, wait_secs, &o, &s, d);
	if (isatty(STDERR_FILENO) && getenv("TGPROF_SCRIPT") == NULL)
		fputs("\033[K", stderr);
	if (rc == 0) {
		opts_browser(&o, &b);
		b.live = lv;
		b.refresh_ms = TOPVIEW_REFRESH_MS;
		rc = browser_run(s, &b, d);
		*signo = browser_signal();
		session_free(s);
	}
	follow_free(lv);
	return rc;
}
#else
int
topview_wanted(void)
{
	return 0;
}

int
topview_run(const char *image, const char *base, double wait_secs, int (*more)(void *ctx), void *ctx,
    int *signo, struct diag *d)
{
	*signo = 0;
	diag_add(d, DIAG_ERROR, "top: built without ncursesw: --batch only");
	return -1;
}
#endif
