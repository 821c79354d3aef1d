/* topcmd: tgprof top, a running program run or watched: its call rates and CPU shares, interval by interval, from libtgmon's snapshots, printed or browsed (topview). */
#include "topcmd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/profile.h"
#include "model/follow.h"
#include "record.h"
#include "topview.h"

/* A function's counts in a snapshot. */
struct top_fn {
	uint64_t addr;		/* its entry: the same in every snapshot of one executable */
	uint64_t calls;		/* calls into it, recursive ones too */
	double ticks;		/* its self time, in samples */
	char *name;
};

/* A snapshot read (libtgmon's gmon.out.live and gmon.out.live.info, runtime/live.h). */
struct top_snap {
	uint32_t seq;		/* 0: none (the program's start, all counts zero) */
	uint64_t mono_ns;	/* when it was taken, CLOCK_MONOTONIC */
	int final;		/* the last, at the program's exit */
	long hz;		/* samples a second */
	struct top_fn *fn;	/* by address */
	size_t nfn;
};

/* What top was asked. */
struct top_args {
	double secs;		/* -d: the interval */
	long count;		/* -n: tables to print; 0: until the program ends */
	const char *out;	/* -o: where the program's profile goes (run by top) */
	long pid;		/* -p: the program watched, 0 if top runs it */
	int prog;		/* argv's index of the program run, 0 with -p */
	int batch;
};

int
topcmd_wanted(int argc, char **argv)
{
	int k;

	if (argc < 3 || strcmp(argv[1], "top") != 0)
		return 0;
	for (k = 2; k < argc; k++)
		if (strcmp(argv[k], "--") == 0 || strcmp(argv[k], "-p") == 0)
			return 1;
	return 0;
}

static uint64_t
top_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
top_nap(double secs)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void
top_snap_free(struct top_snap *s)
{
	size_t i;

	for (i = 0; i < s->nfn; i++)
		free(s->fn[i].name);
	free(s->fn);
	memset(s, 0, sizeof *s);
}

/* The info file BASE.info: its sequence number, time and whether it is the last; 0, or -1. */
static int
top_read_info(const char *base, struct top_snap *s)
{
	struct follow_snap f;
	char path[4200];

	snprintf(path, sizeof path, "%s.info", base);
	if (follow_read_info(path, &f) != 0)
		return -1;
	s->seq = f.seq;
	s->mono_ns = f.mono_ns;
	s->final = f.final;
	return 0;
}

/*
 * The functions of profile P into S (by address: the symbols' order),
 * with their calls and self time; 0, or -1 out of memory.
 */
static int
top_take(const struct profile *p, struct top_snap *s)
{
	uint32_t i;

	s->hz = p->hz;
	if ((s->fn = calloc(p->nsyms + 1, sizeof *s->fn)) == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		const struct pf_sym *y = &p->sym[i];

		if (!y->is_func || y->name == NULL)
			continue;
		s->fn[s->nfn].addr = y->addr;
		s->fn[s->nfn].calls = y->ncalls + y->self_calls;
		s->fn[s->nfn].ticks = y->time;
		if ((s->fn[s->nfn++].name = strdup(y->name)) == NULL)
			return -1;
	}
	return 0;
}

/* Where the snapshots are, and the first one read, kept to read the others with its executable. */
struct top_src {
	const char *image;	/* the program */
	const char *base;	/* its snapshot, gmon.out.live */
	struct profile *like;	/* pf_opts.reusable: profile_reload() reads the next ones; or NULL */
};

/* SRC's snapshot in the file FILE, as a profile: the first read whole, the next ones with its executable. */
static int
top_profile(struct top_src *src, const char *file, struct profile **p, struct diag *d)
{
	const char *files[1] = { file };
	struct pf_opts o;

	memset(&o, 0, sizeof o);
	o.image = src->image;
	o.gmon = files;
	o.ngmon = 1;
	o.reusable = 1;
	if (src->like == NULL && profile_load(&src->like, &o, d) != 0)
		return -1;
	return profile_reload(src->like, &o, p, d);
}

/*
 * Snapshot BASE (gmon.out.live) of the program IMAGE into S, whose info
 * file is read: 0; 1 if the snapshot is being replaced (its gmon file is
 * of another sequence number: read it again); -1 with the reason in D.
 */
static int
top_load(struct top_src *src, struct top_snap *s, struct diag *d)
{
	unsigned char seq[4];
	char path[64];
	struct profile *p;
	struct diag quiet;
	int fd, rc = 1;

	if (top_read_info(src->base, s) != 0)
		return 1;
	if ((fd = open(src->base, O_RDONLY | O_CLOEXEC)) < 0)	/* this file, whatever replaces it */
		return 1;
	if (pread(fd, seq, 4, 16) == 4 && (seq[0] | seq[1] << 8 | seq[2] << 16 | (uint32_t)seq[3] << 24) == s->seq) {
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		diag_init(&quiet);
		rc = top_profile(src, path, &p, &quiet) == 0 ? 0 : -1;
		if (rc == 0) {
			rc = top_take(p, s);
			profile_free(p);
		}
		if (rc != 0)
			diag_add(d, DIAG_ERROR, "top: %s: cannot be read as a profile of %s", src->base, src->image);
		diag_release(&quiet);
	}
	close(fd);
	return rc;
}

/* A row of a table: a function's change over the interval. */
struct top_row {
	const char *name;
	uint64_t calls;
	double ticks;
};

static int
top_row_cmp(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * The table of the interval from A to B: the functions called or
 * sampled in it, by CPU share then calls.  A function's counts in A are
 * found by its address (A's functions, like B's, are in address order).
 */
static void
top_print(const struct top_snap *a, const struct top_snap *b)
{
	double secs = (double)(b->mono_ns - a->mono_ns) / 1e9, hz = b->hz > 0 ? (double)b->hz : 1, cpu = 0;
	struct top_row *row = calloc(b->nfn + 1, sizeof *row);
	size_t i, j = 0, n = 0;
	uint64_t calls = 0;

	if (row == NULL)
		return;
	secs = secs > 1e-9 ? secs : 1e-9;
	for (i = 0; i < b->nfn; i++) {
		const struct top_fn *f = &b->fn[i];
		uint64_t c0 = 0;
		double t0 = 0;

		while (j < a->nfn && a->fn[j].addr < f->addr)
			j++;
		if (j < a->nfn && a->fn[j].addr == f->addr)
			c0 = a->fn[j].calls, t0 = a->fn[j].ticks;
		if (f->calls > c0 || f->ticks > t0) {
			row[n].name = f->name;
			row[n].calls = f->calls > c0 ? f->calls - c0 : 0;
			row[n].ticks = f->ticks > t0 ? f->ticks - t0 : 0;
			calls += row[n].calls;
			cpu += row[n++].ticks;
		}
	}
	qsort(row, n, sizeof *row, top_row_cmp);
	printf("snapshot %lu%s: %.3f s, %.1f calls/s, %.1f%% CPU\n", (unsigned long)b->seq,
	    b->final ? " (final)" : "", secs, (double)calls / secs, cpu / hz / secs * 100);
	printf("%14s %14s %7s  %s\n", "calls/s", "calls", "%CPU", "function");
	for (i = 0; i < n; i++)
		printf("%14.1f %14llu %7.1f  %s\n", (double)row[i].calls / secs, (unsigned long long)row[i].calls,
		    row[i].ticks / hz / secs * 100, row[i].name);
	printf("\n");
	fflush(stdout);
	free(row);
}

/*
 * A snapshot newer than PREV's, into CUR, once it is there: 0; 1 if
 * there is none yet; -1 with the reason in D.
 */
static int
top_newer(struct top_src *src, const struct top_snap *prev, struct top_snap *cur, struct diag *d)
{
	struct top_snap peek = { 0 };
	int rc;

	if (top_read_info(src->base, &peek) != 0 || peek.seq == prev->seq)
		return 1;
	if ((rc = top_load(src, cur, d)) != 0)
		top_snap_free(cur);
	return rc;
}

/*
 * Tables from the snapshots of SRC as they come, while MORE(CTX) says
 * the program may write another (then it is asked how long to wait); the
 * last snapshot is read once MORE says no.  PREV is the first snapshot
 * (freed here, as SRC's profile kept).  Stops after A->count tables
 * (then 1); 0 once the program is done; -1 with the reason in D.
 */
static int
top_follow(struct top_src *src, struct top_snap *prev, const struct top_args *a,
    int (*more)(void *ctx, int shown), void *ctx, struct diag *d)
{
	struct top_snap cur;
	long shown = 0;
	int live = 1, rc = 0;

	while (rc >= 0 && (a->count == 0 || shown < a->count)) {
		live = more(ctx, (int)shown);
		memset(&cur, 0, sizeof cur);
		if ((rc = top_newer(src, prev, &cur, d)) == 0) {
			top_print(prev, &cur);
			top_snap_free(prev);
			*prev = cur;
			shown++;
			rc = 0;
			if (prev->final)
				break;
		} else if (rc > 0) {
			if (!live)
				break;
			top_nap(0.02);
		}
	}
	top_snap_free(prev);
	profile_free(src->like);
	src->like = NULL;
	return rc < 0 ? -1 : a->count > 0 && shown >= a->count ? 1 : 0;
}

/* The program top runs: its pid, and its exit status once it ended (-2 while it runs). */
struct top_child {
	pid_t pid;
	int status;
};

static int
top_child_more(void *ctx, int shown)
{
	struct top_child *c = ctx;

	(void)shown;
	if (c->status == -2)
		c->status = record_reap(c->pid, 1);
	return c->status == -2;
}

/* The browser's MORE (topview.h): whether the program top runs still runs. */
static int
top_child_alive(void *ctx)
{
	return top_child_more(ctx, 0);
}

/* The run's snapshot files removed, so that record_collect() finds only what record's runs leave. */
static void
top_unlink_live(const char *dir)
{
	static const char *const tail[] = { "", ".stacks", ".info" };
	char path[4400];
	size_t k;

	for (k = 0; k < sizeof tail / sizeof *tail; k++) {
		snprintf(path, sizeof path, "%s/gmon.out.live%s", dir, tail[k]);
		unlink(path);
	}
}

/*
 * The browser on the program C runs (R its executable, BASE its
 * snapshot): 1 when q quit it while the program runs (it is to be
 * stopped, status 0), 0 when the program is done or a signal ended the
 * browser (passed on: the program's status is the exit's), -1 with the
 * reason in D.
 */
static int
top_browse(const struct recording *r, const char *base, const struct top_args *a, struct top_child *c,
    struct diag *d)
{
	int sig;

	if (c->pid < 0 || topview_run(r->image, base, a->secs + 10, top_child_alive, c, &sig, d) != 0)
		return -1;
	if (sig != 0 && c->status == -2)
		kill(c->pid, sig);	/* (^C reached it from the terminal too: twice is harmless) */
	return c->status == -2 && sig == 0 ? 1 : 0;
}

/* tgprof top -- PROG ARGS: the program run with snapshots every A->secs; its profile to A->out at the end. */
static int
top_run_prog(char **argv, const struct top_args *a, struct diag *d)
{
	struct recording r;
	struct top_snap first = { 0 };
	struct top_child c;
	char lib[4096], dir[4200], base[4300], iv[32], tmp[4096];
	const char *slash = strrchr(a->out, '/');
	int rc;

	memset(&r, 0, sizeof r);
	if (record_prepare(argv[a->prog], "top", &r, lib, sizeof lib, d) != 0)
		return 1;
	snprintf(tmp, sizeof tmp, "%.*s", slash != NULL ? (int)(slash - a->out) : 1, slash != NULL ? a->out : ".");
	snprintf(dir, sizeof dir, "%s/.tgprof-top-XXXXXX", tmp[0] != '\0' ? tmp : "/");
	if (mkdtemp(dir) == NULL) {
		diag_add(d, DIAG_ERROR, "top: %s: %s", dir, strerror(errno));
		return 1;
	}
	snprintf(base, sizeof base, "%s/gmon.out.live", dir);
	snprintf(iv, sizeof iv, "%.3f", a->secs);
	first.mono_ns = top_now();
	c.pid = record_start(argv + a->prog, r.image, dir, lib[0] != '\0' ? lib : NULL, iv);
	c.status = c.pid < 0 ? -1 : -2;
	if (a->batch)
		rc = top_follow(&(struct top_src){ r.image, base, NULL }, &first, a, top_child_more, &c, d);
	else
		rc = top_browse(&r, base, a, &c, d);
	if (c.status == -2 && rc != 0)	/* COUNT tables, the browser quit, or an error: the program is stopped */
		kill(c.pid, SIGTERM);
	if (c.status == -2)
		c.status = record_reap(c.pid, 0);
	top_unlink_live(dir);
	if (!record_collect(dir, a->out, d)) {
		diag_add(d, DIAG_ERROR, "%s: wrote no profile (was it built with -pg?)", r.image);
		return c.status > 0 ? c.status : 1;
	}
	return rc < 0 ? 1 : rc > 0 ? 0 : c.status;
}

/* A program watched with -p, as its presence file (runtime/live.h) names it. */
struct top_peer {
	long pid, tid;		/* the process, and libtgmon's thread that takes requests */
	int signo;		/* the request: this signal, sent to that thread alone */
	unsigned long long start;	/* the process's start time, /proc/PID/stat's field 22 */
	char base[4096];	/* its snapshot, gmon.out.live */
	char image[64];		/* its executable, /proc/PID/exe */
};

/* PID's start time (field 22 of /proc/PID/stat); 0 if it is not running. */
static unsigned long long
top_start_time(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	FILE *f;
	int k;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(buf, sizeof buf, f) != NULL && (p = strrchr(buf, ')')) != NULL) {
		for (k = 2; k < 22 && p != NULL; k++)
			p = strchr(p + 1, ' ');
		if (p != NULL)
			t = strtoull(p + 1, NULL, 10);
	}
	fclose(f);
	return t;
}

/*
 * Whether P is still the program its presence file announced: the same
 * process (its start time), and its thread TID libtgmon's (its name).
 */
static int
top_peer_alive(const struct top_peer *p)
{
	char path[96], comm[32] = "";
	FILE *f;

	if (p->start == 0 || top_start_time(p->pid) != p->start)
		return 0;
	snprintf(path, sizeof path, "/proc/%ld/task/%ld/comm", p->pid, p->tid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(comm, sizeof comm, f) == NULL)
		comm[0] = '\0';
	fclose(f);
	return strcmp(comm, "tgmon-live\n") == 0;
}

/*
 * The presence file of PID read into P: in this user's own directory
 * (closed to others), naming PID, a thread of libtgmon's and a start time
 * that are PID's now.  0, or -1 with the reason in D.
 */
/*
 * PID's presence file under ROOT ("" or /proc/PID/root: the program's
 * own /tmp, private to it under systemd's PrivateTmp or in a container),
 * its path into PATH (SIZE bytes), opened if it is in this user's
 * directory closed to others; else NULL.
 */
static FILE *
top_presence_file(long pid, const char *root, char *path, size_t size)
{
	char dir[96];
	struct stat st;

	snprintf(dir, sizeof dir, "%s/tmp/tgmon-%lu", root, (unsigned long)geteuid());
	snprintf(path, size, "%s/%ld", dir, pid);
	if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 077) == 0 &&
	    lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
		return fopen(path, "re");
	return NULL;
}

static int
top_presence(long pid, struct top_peer *p, struct diag *d)
{
	char root[48], path[160], line[4200], key[32], val[4100];
	FILE *f;

	memset(p, 0, sizeof *p);
	root[0] = '\0';
	if ((f = top_presence_file(pid, root, path, sizeof path)) == NULL) {
		snprintf(root, sizeof root, "/proc/%ld/root", pid);
		f = top_presence_file(pid, root, path, sizeof path);
	}
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%31s %4095[^\n]", key, val) != 2)
			continue;
		if (strcmp(key, "pid") == 0)
			p->pid = strtol(val, NULL, 10) == pid ? pid : -1;
		else if (strcmp(key, "tid") == 0)
			p->tid = strtol(val, NULL, 10);
		else if (strcmp(key, "start") == 0)
			p->start = strtoull(val, NULL, 10);
		else if (strcmp(key, "signal") == 0)
			p->signo = (int)strtol(val, NULL, 10);
		else if (strcmp(key, "snapshot") == 0 && val[0] == '/')	/* in the program's file system */
			snprintf(p->base, sizeof p->base, "%s%.4000s", root, val);
	}
	if (f != NULL)
		fclose(f);
	snprintf(p->image, sizeof p->image, "/proc/%ld/exe", pid);
	if (p->pid == pid && p->tid > 0 && p->signo > 0 && p->base[0] == '/' && top_peer_alive(p))
		return 0;
	if (p->pid == pid && p->start != 0 && top_start_time(pid) != p->start)
		unlink(path);	/* this user's, of a process gone without removing it (killed) */
	diag_add(d, DIAG_ERROR, "top: %ld: not a program running libtgmon with snapshots (TGMON_LIVE=1 or "
	    "TGMON_INTERVAL=SECONDS in its environment at its start), or not this user's", pid);
	return -1;
}

/* A snapshot asked of P (its thread alone is sent the signal, once P is checked again); 0, or -1. */
static int
top_request(const struct top_peer *p)
{
	if (!top_peer_alive(p))
		return -1;
	return syscall(SYS_tgkill, (pid_t)p->pid, (pid_t)p->tid, p->signo) == 0 ? 0 : -1;
}

/* -p: each interval, one snapshot asked for; 0 once the program is gone. */
struct top_watch {
	const struct top_peer *peer;
	const struct top_args *a;
	int asked;		/* tables shown when the last request was sent, or -1 */
};

static int
top_watch_more(void *ctx, int shown)
{
	struct top_watch *w = ctx;

	if (w->asked == shown)
		return top_peer_alive(w->peer);
	top_nap(w->a->secs);
	w->asked = shown;
	return top_request(w->peer) == 0;
}

/* The browser's MORE with -p: a snapshot asked for each interval, never waiting; 0 once the program is gone. */
struct top_asking {
	const struct top_peer *peer;
	double secs;
	uint64_t next;		/* when the next request is due, CLOCK_MONOTONIC ns */
};

static int
top_ask_more(void *ctx)
{
	struct top_asking *k = ctx;

	if (top_now() < k->next)
		return top_peer_alive(k->peer);
	k->next = top_now() + (uint64_t)(k->secs * 1e9);
	return top_request(k->peer) == 0;
}

/* tgprof top -p PID: the first snapshot asked for at once, then one each interval. */
static int
top_watch_pid(const struct top_args *a, struct diag *d)
{
	struct top_peer p;
	struct top_snap first = { 0 }, none = { 0 };
	struct top_watch w = { &p, a, -1 };
	struct top_src src = { p.image, p.base, NULL };
	uint64_t until;
	int rc = 1;

	if (top_presence(a->pid, &p, d) != 0)
		return 1;
	if (!a->batch) {
		struct top_asking k = { &p, a->secs, 0 };

		int sig;

		return topview_run(p.image, p.base, 10, top_ask_more, &k, &sig, d) != 0;
	}
	top_read_info(p.base, &none);	/* the one there now, if any: the first must be newer */
	if (top_request(&p) != 0) {
		diag_add(d, DIAG_ERROR, "top: %ld: %s", a->pid, strerror(errno));
		return 1;
	}
	for (until = top_now() + 10000000000ULL; rc > 0 && top_now() < until; top_nap(0.02))
		rc = top_newer(&src, &none, &first, d);
	if (rc != 0) {
		if (rc > 0)
			diag_add(d, DIAG_ERROR, "top: %ld: no snapshot came in 10 seconds (%s)", a->pid, p.base);
		profile_free(src.like);
		return 1;
	}
	return top_follow(&src, &first, a, top_watch_more, &w, d) < 0;
}

/* A number of an option's argument V: 0, or -1 if V is not one within [MIN, MAX]. */
static int
top_number(const char *v, double min, double max, double *out)
{
	char *end;

	errno = 0;
	*out = v != NULL ? strtod(v, &end) : 0;
	return v != NULL && *v != '\0' && *end == '\0' && errno == 0 && *out >= min && *out <= max ? 0 : -1;
}

/* The options of ARGV (from "top" on) into A; 0, or -1 with the reason in D. */
static int
top_parse(int argc, char **argv, struct top_args *a, struct diag *d)
{
	double v;
	int k;

	memset(a, 0, sizeof *a);
	a->secs = 1;
	a->out = "gmon.out";
	for (k = 2; k < argc && strcmp(argv[k], "--") != 0; k++) {
		const char *o = argv[k], *val = k + 1 < argc ? argv[k + 1] : NULL;

		if (strcmp(o, "--batch") == 0 || strcmp(o, "-b") == 0) {
			a->batch = 1;
			continue;
		}
		if ((strcmp(o, "-d") == 0 && top_number(val, 0.01, 86400, &a->secs) == 0) ||
		    (strcmp(o, "-n") == 0 && top_number(val, 1, 1e9, &v) == 0 && (a->count = (long)v) == v) ||
		    (strcmp(o, "-p") == 0 && top_number(val, 1, 1e9, &v) == 0 && (a->pid = (long)v) == v) ||
		    (strcmp(o, "-o") == 0 && val != NULL && (a->out = val)[0] != '\0')) {
			k++;
			continue;
		}
		diag_add(d, DIAG_ERROR, "top: %s%s%s: not an option of top (tgprof top [--batch [-n COUNT]] [-d SECONDS] "
		    "[-o FILE] -- PROG ARGS, or -p PID)", o, val != NULL && o[0] == '-' ? " " : "",
		    val != NULL && o[0] == '-' ? val : "");
		return -1;
	}
	a->prog = k + 1 < argc ? k + 1 : 0;
	if ((a->pid != 0) == (a->prog != 0)) {
		diag_add(d, DIAG_ERROR, "top: %s", a->pid != 0 ? "-p PID, or -- PROG ARGS, not both" :
		    "no program: -- PROG ARGS, or -p PID");
		return -1;
	}
	a->batch = a->batch || !topview_wanted();
	if (!a->batch && a->count > 0) {
		diag_add(d, DIAG_ERROR, "top: -n COUNT goes with --batch (the browser runs until q)");
		return -1;
	}
	return 0;
}

int
topcmd_run(int argc, char **argv, struct diag *d)
{
	struct top_args a;

	if (top_parse(argc, argv, &a, d) != 0)
		return 1;
	return a.pid != 0 ? top_watch_pid(&a, d) : top_run_prog(argv, &a, d);
}
