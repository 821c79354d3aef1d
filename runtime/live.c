/* live: libtgmon's snapshots of a running program, written by a thread of its own every TGMON_INTERVAL seconds and on request. */
#include "live.h"

#include <errno.h>
#include <linux/futex.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tgmon.h"

/*
 * The state of this process's snapshots.  ON is set once, at start, and
 * cleared in a forked child (the thread is not there); DONE once the
 * last snapshot is written at exit.  The thread alone writes SEQ and
 * the presence file, but at exit, when it waits (the writer's lock).
 */
static struct {
	int on;			/* snapshots in this process: the thread runs */
	int done;		/* the last one is written: no more */
	long interval_ms;	/* TGMON_INTERVAL, in milliseconds; 0: on request only */
	int signo;		/* the request's signal, blocked in the thread */
	pid_t pid;		/* the process that started the thread */
	pid_t tid;		/* the thread, once it runs; 0 before */
	int parked;		/* 1: asked to stop (tgmon_live_park), 2: stopped there */
	uint32_t seq;		/* the last snapshot's number (1 the first) */
	uint64_t start_ns;	/* CLOCK_MONOTONIC when the thread was started (the program's start) */
	char presence[64];	/* the presence file's path, "" if none was written */
} live;

/*
 * TGMON_INTERVAL=SECONDS (a decimal number, at least 0.01) in
 * milliseconds, or 0 if it is not set or not a number.
 */
static long
tgmon_live_interval(const char *v)
{
	long ms = 0, scale = 1000;

	if (v == NULL || *v == '\0')
		return 0;
	for (; *v >= '0' && *v <= '9' && ms < 100000000; v++)
		ms = ms * 10 + (*v - '0') * 1000;
	if (*v == '.')
		for (v++; *v >= '0' && *v <= '9'; v++)
			ms += (scale /= 10) * (*v - '0');
	if (*v != '\0' || ms <= 0)
		return 0;
	return ms < 10 ? 10 : ms;
}

/* The process's start time, field 22 of /proc/self/stat (clock ticks since boot); 0 if unknown. */
static unsigned long long
tgmon_live_start_time(void)
{
	char buf[1024], *p;
	unsigned long long t = 0;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), k;
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL)	/* the name, in parentheses, may hold spaces */
		return 0;
	for (k = 2; k < 22 && p != NULL; k++)
		p = strchr(p + 1, ' ');
	if (p != NULL)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

/*
 * The presence file (live.h): written whole under a temporary name, then
 * renamed, in a directory of the user's own (made 0700 if missing, and
 * refused if it is not a directory of this user's, closed to others).
 */
static void
tgmon_live_presence(pid_t tid)
{
	char dir[48], tmp[96], text[PATH_MAX + 256], path[PATH_MAX];
	struct stat st;
	int fd, n;

	snprintf(dir, sizeof dir, TGMON_LIVE_DIR_FMT, (unsigned long)geteuid());
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return;
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077) != 0)
		return;
	if (tgmon_write_path(TGMON_LIVE_SUFFIX, path, sizeof path) != 0)
		return;
	n = snprintf(text, sizeof text, "tgmon-live 1\npid %ld\nstart %llu\ntid %ld\nsignal %d\n"
	    "interval_ms %ld\nsnapshot %s\n", (long)live.pid, tgmon_live_start_time(), (long)tid, live.signo,
	    live.interval_ms, path);
	snprintf(tmp, sizeof tmp, "%s/.%ld.tmp", dir, (long)live.pid);
	snprintf(live.presence, sizeof live.presence, "%s/%ld", dir, (long)live.pid);
	unlink(tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0) {
		live.presence[0] = '\0';
		return;
	}
	if (write(fd, text, (size_t)n) != n || close(fd) != 0 || rename(tmp, live.presence) != 0) {
		unlink(tmp);
		live.presence[0] = '\0';
	}
}

static uint64_t
tgmon_live_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Snapshot number SEQ (FINAL: the last, at exit), with the writer's lock
 * held: the times are taken before the counts are read.
 */
static void
tgmon_live_write(uint32_t seq, int final)
{
	char info[512];
	int n;

	n = snprintf(info, sizeof info, "tgmon-snapshot 1\nseq %lu\npid %ld\nrun %016llx\nrealtime_ns %llu\n"
	    "monotonic_ns %llu\ncpu_ns %llu\ninterval_ms %ld\nfinal %d\nstart_monotonic_ns %llu\n",
	    (unsigned long)seq, (long)live.pid, (unsigned long long)tgmon_run_id,
	    (unsigned long long)tgmon_live_ns(CLOCK_REALTIME), (unsigned long long)tgmon_live_ns(CLOCK_MONOTONIC),
	    (unsigned long long)tgmon_live_ns(CLOCK_PROCESS_CPUTIME_ID), live.interval_ms, final,
	    (unsigned long long)live.start_ns);
	tgmon_write_snapshot(TGMON_LIVE_SUFFIX, seq, info, (size_t)n);
}

/* One snapshot, unless the exit's files are written or being written (then none). */
static void
tgmon_live_once(void)
{
	if (__atomic_load_n(&live.done, __ATOMIC_ACQUIRE) || tgmon_in_jail() || !tgmon_writer_enter())
		return;
	if (!__atomic_load_n(&live.done, __ATOMIC_ACQUIRE)) {
		live.seq++;
		tgmon_live_write(live.seq, 0);
	}
	tgmon_writer_leave();
}

/* How long until DEADLINE (CLOCK_MONOTONIC, ns) into *LEFT; 0 if it has passed. */
static int
tgmon_live_left(uint64_t deadline, struct timespec *left)
{
	uint64_t now = tgmon_live_ns(CLOCK_MONOTONIC);

	if (now >= deadline)
		return 0;
	left->tv_sec = (time_t)((deadline - now) / 1000000000u);
	left->tv_nsec = (long)((deadline - now) % 1000000000u);
	return 1;
}

/* Parked (live.parked 1): says so (2), then waits in the kernel while it is. */
static void
tgmon_live_parked(void)
{
	int v;

	while ((v = __atomic_load_n(&live.parked, __ATOMIC_ACQUIRE)) != 0) {
		if (v == 1)
			__atomic_store_n(&live.parked, v = 2, __ATOMIC_RELEASE);
		tgmon_raw_syscall(SYS_futex, (long)&live.parked, FUTEX_WAIT_PRIVATE, v, 0, 0, 0);
	}
}

/* Whether thread TID of this process sleeps (its state in /proc, 'S'). */
static int
tgmon_live_sleeps(pid_t tid)
{
	char path[64], buf[256], *p;
	int fd, n;

	snprintf(path, sizeof path, "/proc/self/task/%ld/stat", (long)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 1;	/* no /proc: nothing better to go by */
	n = (int)read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return (p = strrchr(buf, ')')) != NULL && p[1] == ' ' && p[2] == 'S';
}

void
tgmon_live_park(int park)
{
	struct timespec us = { 0, 100000 };
	int saved = errno, k, woken = 0;
	pid_t tid;

	if (!__atomic_load_n(&live.on, __ATOMIC_ACQUIRE) || live.pid != getpid())
		return;
	if (!park) {
		__atomic_store_n(&live.parked, 0, __ATOMIC_RELEASE);
		tgmon_raw_syscall(SYS_futex, (long)&live.parked, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
		errno = saved;
		return;
	}
	__atomic_store_n(&live.parked, 1, __ATOMIC_RELEASE);
	/*
	 * Up to 10 s (a snapshot of a large program takes milliseconds; a
	 * thread not yet started parks before its first wait): out of its
	 * wait by its signal, once it has a tid, then asleep in the futex.
	 */
	for (k = 0; k < 100000; k++) {
		tid = __atomic_load_n(&live.tid, __ATOMIC_ACQUIRE);
		if (tid != 0 && !woken)
			woken = tgmon_raw_syscall(SYS_tgkill, live.pid, tid, live.signo, 0, 0, 0) == 0;
		if (__atomic_load_n(&live.parked, __ATOMIC_ACQUIRE) == 2 && tgmon_live_sleeps(tid))
			break;
		nanosleep(&us, NULL);
	}
	errno = saved;
}

/*
 * The thread's descriptors made its own: a private copy of the table
 * (unshare(CLONE_FILES)), emptied, so that the files it opens never take
 * a number the program is about to be given (the lowest free one), and
 * it holds none of the program's files open (a pipe the program closes
 * ends for its reader as without libtgmon).  Its standard error is then
 * closed too: what it would say is not said (the exit's writer says it).
 */
static void
tgmon_live_own_fds(void)
{
	long k;

	if (tgmon_raw_syscall(SYS_unshare, CLONE_FILES, 0, 0, 0, 0, 0) != 0)
		return;
	if (tgmon_raw_syscall(SYS_close_range, 0, ~0U, 0, 0, 0, 0) == 0)
		return;
	for (k = 0; k < 65536; k++)	/* a kernel before 5.9 */
		tgmon_raw_syscall(SYS_close, k, 0, 0, 0, 0, 0);
}

/*
 * The thread: named, every signal blocked (from its creation), it waits
 * for its signal (a request) or the interval's end, then writes.  The
 * deadlines are fixed steps from the start, so the snapshots do not
 * drift; a late one is not made up for.
 */
static void *
tgmon_live_main(void *arg)
{
	uint64_t step = (uint64_t)live.interval_ms * 1000000u, next;
	struct timespec left;
	sigset_t req;
	long r;

	(void)arg;
	tgmon_raw_syscall(SYS_prctl, PR_SET_NAME, (long)TGMON_LIVE_COMM, 0, 0, 0, 0);
	tgmon_live_own_fds();
	__atomic_store_n(&live.tid, (pid_t)tgmon_raw_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0), __ATOMIC_RELEASE);
	tgmon_live_presence(live.tid);
	sigemptyset(&req);
	sigaddset(&req, live.signo);
	next = tgmon_live_ns(CLOCK_MONOTONIC) + step;
	while (!__atomic_load_n(&live.done, __ATOMIC_ACQUIRE)) {
		tgmon_live_parked();
		if (step > 0 && !tgmon_live_left(next, &left))
			r = -EAGAIN;
		else
			r = tgmon_raw_syscall(SYS_rt_sigtimedwait, (long)&req, 0, step > 0 ? (long)&left : 0,
			    _NSIG / 8, 0, 0);
		if (r != live.signo && r != -EAGAIN)
			continue;	/* EINTR (a stop and continue) */
		if (r == -EAGAIN)
			while (next <= tgmon_live_ns(CLOCK_MONOTONIC))
				next += step;
		if (!__atomic_load_n(&live.parked, __ATOMIC_ACQUIRE))
			tgmon_live_once();
	}
	return NULL;
}

/* The request's signal: a real-time one apart from the sampling signal. */
static int
tgmon_live_signal(void)
{
	int s = SIGRTMIN + 8;

	return s == tgmon_cfg.signo ? s + 1 : s;
}

void
tgmon_live_start(void)
{
	static int once;
	pthread_attr_t attr;
	pthread_t th;
	sigset_t all, old;
	const char *v;
	int saved = errno;

	if (__atomic_exchange_n(&once, 1, __ATOMIC_ACQ_REL) || getauxval(AT_SECURE) || tgmon_in_jail())
		return;
	live.interval_ms = tgmon_live_interval(getenv("TGMON_INTERVAL"));
	if (live.interval_ms == 0 && !((v = getenv("TGMON_LIVE")) != NULL && strcmp(v, "1") == 0))
		return;
	live.signo = tgmon_live_signal();
	live.pid = getpid();
	live.start_ns = tgmon_live_ns(CLOCK_MONOTONIC);
	live.on = 1;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);	/* the thread's mask from its first instruction */
	if (pthread_attr_init(&attr) != 0 || pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) != 0 ||
	    pthread_attr_setstacksize(&attr, 256 * 1024) != 0 ||
	    pthread_create(&th, &attr, tgmon_live_main, NULL) != 0) {
		live.on = 0;
		tgmon_say("TGMON_INTERVAL: no thread for the snapshots: ", "none will be written", NULL);
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
}

void
tgmon_live_final(void)
{
	int saved = errno;

	if (!live.on || live.pid != getpid() || __atomic_exchange_n(&live.done, 1, __ATOMIC_ACQ_REL))
		return;
	tgmon_live_write(++live.seq, 1);
	if (live.presence[0] != '\0')
		unlink(live.presence);
	errno = saved;
}

void
tgmon_live_in_child(void)
{
	live.on = 0;
	live.presence[0] = '\0';
}
