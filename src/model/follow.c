/* follow: a running program's snapshots (libtgmon's gmon.out.live) followed, each new one loaded as the whole run's profile or its last interval's. */
#include "follow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/mem.h"

#define FOLLOW_MAX_FILE ((off_t)1 << 30)	/* a snapshot copied at most (a larger one is skipped) */

/*
 * PATH[k] and STACKS[k]: the copies of two snapshots in DIR, SNAP[k]
 * what each was; NEWEST the slot of the last loaded (-1: none), the other
 * the one before it.
 */
struct follow {
	struct pf_opts load;
	struct measure_opts mo;
	char *base, *info, *base_stacks;
	char dir[4096];
	char path[2][4200], stacks[2][4210];
	struct follow_snap snap[2];
	int has_stacks[2];
	int newest;
	/*
	 * The first snapshot loaded to be read again (pf_opts.reusable): each
	 * profile given out is read with its executable (profile_reload()),
	 * and borrows from it until follow_free().
	 */
	struct profile *image;
	int interval;
	int ended;
	int (*more)(void *ctx);
	void *ctx;
};

int
follow_read_info(const char *path, struct follow_snap *s)
{
	char line[256], key[32];
	unsigned long long v;
	FILE *f;
	int got = 0;

	memset(s, 0, sizeof *s);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (got != 31 && fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%31s %llu", key, &v) != 2)
			continue;
		if (strcmp(key, "seq") == 0)
			s->seq = (uint32_t)v, got |= 1;
		else if (strcmp(key, "monotonic_ns") == 0)
			s->mono_ns = v, got |= 2;
		else if (strcmp(key, "cpu_ns") == 0)
			s->cpu_ns = v, got |= 4;
		else if (strcmp(key, "final") == 0)
			s->final = v != 0, got |= 8;
		else if (strcmp(key, "start_monotonic_ns") == 0)
			s->start_ns = v, got |= 16;
	}
	fclose(f);
	return (got & 3) == 3 && s->seq != 0 ? 0 : -1;
}

static char *
joined(const char *a, const char *b)
{
	char *s = malloc(strlen(a) + strlen(b) + 1);

	if (s != NULL)
		sprintf(s, "%s%s", a, b);
	return s;
}

int
follow_new(const char *base, const struct pf_opts *load, const struct measure_opts *mo,
    int (*more)(void *ctx), void *ctx, struct follow **out, struct diag *d)
{
	const char *tmp = getenv("TMPDIR");
	struct follow *lv = mem_calloc(1, sizeof *lv);
	int k;

	*out = NULL;
	if (lv == NULL || (lv->base = strdup(base)) == NULL || (lv->info = joined(base, ".info")) == NULL ||
	    (lv->base_stacks = joined(base, ".stacks")) == NULL) {
		follow_free(lv);
		return diag_oom(d);
	}
	lv->load = *load;
	lv->mo = *mo;
	lv->more = more;
	lv->ctx = ctx;
	lv->newest = -1;
	lv->interval = 1;
	snprintf(lv->dir, sizeof lv->dir, "%s/tgprof-live-XXXXXX", tmp != NULL && *tmp == '/' ? tmp : "/tmp");
	if (mkdtemp(lv->dir) == NULL) {
		diag_add(d, DIAG_ERROR, "%s: cannot make a directory for the snapshots: %s", lv->dir,
		    strerror(errno));
		lv->dir[0] = '\0';
		follow_free(lv);
		return -1;
	}
	for (k = 0; k < 2; k++) {
		snprintf(lv->path[k], sizeof lv->path[k], "%s/%d", lv->dir, k);
		snprintf(lv->stacks[k], sizeof lv->stacks[k], "%s.stacks", lv->path[k]);
	}
	*out = lv;
	return 0;
}

void
follow_free(struct follow *lv)
{
	int k;

	if (lv == NULL)
		return;
	if (lv->dir[0] != '\0') {
		for (k = 0; k < 2; k++) {
			unlink(lv->path[k]);
			unlink(lv->stacks[k]);
		}
		rmdir(lv->dir);
	}
	profile_free(lv->image);	/* (the caller freed what it was given: those borrow from it) */
	free(lv->base);
	free(lv->info);
	free(lv->base_stacks);
	free(lv);
}

/*
 * The regular file FROM (at most FOLLOW_MAX_FILE bytes) copied to TO; when
 * SEQ is not 0, only if its gmon header's sequence number (bytes 16-19,
 * little-endian) is SEQ.  0, or -1 (not there, being replaced, no room).
 * TO is replaced by a rename: a profile still mapping the old file keeps
 * it whole.
 */
static int
copy(const char *from, const char *to, uint32_t seq)
{
	unsigned char buf[65536];
	char tmp[4300];
	struct stat st;
	ssize_t n = 0;
	int in, out, rc = -1;

	snprintf(tmp, sizeof tmp, "%s.new", to);
	if ((in = open(from, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return -1;
	if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > FOLLOW_MAX_FILE ||
	    (seq != 0 && (pread(in, buf, 4, 16) != 4 ||
	    (buf[0] | buf[1] << 8 | buf[2] << 16 | (uint32_t)buf[3] << 24) != seq)) ||
	    (out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	rc = n == 0 && close(out) == 0 ? 0 : -1;
	if (n != 0)
		close(out);
	close(in);
	if (rc == 0 && rename(tmp, to) != 0)
		rc = -1;
	if (rc != 0)
		unlink(tmp);
	return rc;
}

/* Slot K's profile (the interval since the other slot's, if asked and there is one) into *P, *M; 0 or -1. */
static int
load(struct follow *lv, struct profile **p, struct pf_measure **m, struct diag *d)
{
	int k = lv->newest, old = 1 - k, since = lv->interval && lv->snap[old].seq != 0;
	const char *files[1] = { lv->path[k] }, *stacks[1] = { lv->stacks[k] };
	struct pf_opts o = lv->load;
	struct measure_opts mo = lv->mo;
	struct diag quiet;

	*m = NULL;
	o.gmon = files;
	o.ngmon = 1;
	o.since = since ? lv->path[old] : NULL;
	o.reusable = 1;
	if (lv->image == NULL) {
		struct pf_opts first = o;

		first.since = NULL;
		if (profile_load(&lv->image, &first, d) != 0)
			return -1;
	}
	if (profile_reload(lv->image, &o, p, d) != 0)
		return -1;
	if (!lv->has_stacks[k] || (since && !lv->has_stacks[old]))
		return 0;	/* no stacks: gprof's estimates */
	mo.since = since ? lv->stacks[old] : NULL;
	diag_init(&quiet);
	if (measure_load(*p, stacks, 1, &mo, m, &quiet) != 0)
		*m = NULL;	/* (damaged: the estimates are shown) */
	diag_release(&quiet);
	return 0;
}

/* A newer snapshot than the last, copied into the older slot: 1; 0 if there is none (yet). */
static int
take(struct follow *lv)
{
	int k = lv->newest < 0 ? 0 : 1 - lv->newest;
	struct follow_snap s;

	if (follow_read_info(lv->info, &s) != 0 || (lv->newest >= 0 && s.seq == lv->snap[lv->newest].seq))
		return 0;
	if (copy(lv->base, lv->path[k], s.seq) != 0)
		return 0;	/* replaced meanwhile: the next look finds the newer */
	lv->has_stacks[k] = copy(lv->base_stacks, lv->stacks[k], 0) == 0;
	if (!lv->has_stacks[k])
		unlink(lv->stacks[k]);
	lv->snap[k] = s;
	lv->newest = k;
	return 1;
}

static void
nap_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int
follow_poll(struct follow *lv, int wait_ms, struct profile **p, struct pf_measure **m, struct diag *d)
{
	int waited = 0, got;

	*p = NULL;
	*m = NULL;
	for (;;) {
		int running = lv->ended ? 0 : lv->more(lv->ctx);

		if ((got = take(lv)) != 0)
			break;
		if (!running) {
			lv->ended = 1;	/* its last snapshot was taken above, if it wrote one */
			return 0;
		}
		if (waited >= wait_ms)
			return 0;
		nap_ms(20);
		waited += 20;
	}
	return load(lv, p, m, d) == 0 ? 1 : -1;
}

int
follow_wait(struct follow *lv, int ms)
{
	struct follow_snap s;
	int waited = 0;

	for (;;) {
		int running = lv->ended ? 0 : lv->more(lv->ctx);

		if (follow_read_info(lv->info, &s) == 0 && (lv->newest < 0 || s.seq != lv->snap[lv->newest].seq))
			return 1;
		if (!running || waited >= ms)
			return 0;
		nap_ms(20);
		waited += 20;
	}
}

int
follow_interval(struct follow *lv, int on, struct profile **p, struct pf_measure **m, struct diag *d)
{
	*p = NULL;
	*m = NULL;
	lv->interval = on != 0;
	if (lv->newest < 0)
		return 0;
	return load(lv, p, m, d) == 0 ? 1 : -1;
}

void
follow_status(const struct follow *lv, struct follow_status *st)
{
	memset(st, 0, sizeof *st);
	st->interval = lv->interval;
	st->ended = lv->ended;
	if (lv->newest < 0)
		return;
	st->now = lv->snap[lv->newest];
	st->before = lv->snap[1 - lv->newest];
}
