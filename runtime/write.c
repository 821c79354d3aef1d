/* write: libtgmon's writer of gmon.out (GNU format) and gmon.out.stacks: atomic, without malloc or stdio. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../src/input/gmon_out.h"
#include "tgmon.h"
#include "threads.h"
#include "waits.h"

_Static_assert(TGMON_MAX_MODULES <= TGSTACKS_MAX_MODULES, "every object loaded fits in the stacks file");

/*
 * The directory PATH (its first LEN bytes, LEN > 0) opened relative to
 * AT (a descriptor, or AT_FDCWD): in pieces of under PATH_MAX bytes cut
 * after a '/', each opened from the one before, so that a path of any
 * length opens (each of its names up to NAME_MAX bytes, as the file
 * system takes them) without allocating.  Callers come one at a time
 * (the start, under its lock; the one writer): the piece is static.  A
 * new descriptor (close-on-exec), or -1 with errno.
 */
static int
tgmon_open_dir(int at, const char *path, size_t len)
{
	static char piece[PATH_MAX];
	int fd = at, next, e;
	size_t k;

	while (len > 0) {
		k = len;
		if (k >= sizeof piece)
			for (k = sizeof piece - 1; k > 0 && path[k - 1] != '/'; k--)
				;
		if (k == 0) {
			errno = ENAMETOOLONG;	/* a name longer than any file system takes */
			next = -1;
		} else {
			memcpy(piece, path, k);
			piece[k] = '\0';
			next = openat(fd, piece, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
		}
		e = errno;
		if (fd != at)
			close(fd);
		errno = e;
		if ((fd = next) < 0)
			return -1;
		path += k;
		len -= k;
	}
	return fd;
}

/*
 * Where the files go: the directory the program started in (or
 * TGMON_DIR, of any length), after a chdir too.  It is kept open, at a
 * number out of the way of the program's (tgmon_fd_floor), and by its
 * path (the starting directory's absolute path, START_CWD, then TGMON_DIR
 * from there unless it is absolute) and identity: a program that closes
 * every descriptor, or reuses the number for a file or another
 * directory, does not send the profile elsewhere; the path finds the
 * directory again.
 */
static int dirfd_start = -1;
static char start_cwd[PATH_MAX];
static int has_path;
static dev_t dir_dev;
static ino_t dir_ino;

int
tgmon_write_init(void)
{
	const char *dir = tgmon_cfg.dir[0] != '\0' ? tgmon_cfg.dir : ".";
	struct stat st;
	int most, floor = tgmon_fd_floor(&most), hi;

	dirfd_start = tgmon_open_dir(AT_FDCWD, dir, strlen(dir));
	if (dirfd_start >= 0 && floor >= 0 && (hi = fcntl(dirfd_start, F_DUPFD_CLOEXEC, floor)) >= 0) {
		close(dirfd_start);
		dirfd_start = hi;
	}
	if (dirfd_start < 0 || fstat(dirfd_start, &st) != 0)
		return -1;
	dir_dev = st.st_dev;
	dir_ino = st.st_ino;
	if (dir[0] != '/' && getcwd(start_cwd, sizeof start_cwd) == NULL)
		start_cwd[0] = '\0';
	has_path = dir[0] == '/' || start_cwd[0] == '/';	/* else only the descriptor finds it */
	return 0;
}

/* FD is the starting directory: open, a directory, the same one. */
static int
is_start_dir(int fd)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_dev == dir_dev &&
	    st.st_ino == dir_ino;
}

/* The starting directory opened again by its path; -1 with errno. */
static int
tgmon_reopen_start(void)
{
	const char *dir = tgmon_cfg.dir[0] != '\0' ? tgmon_cfg.dir : ".";
	int cwd, fd, e;

	if (dir[0] == '/')
		return tgmon_open_dir(AT_FDCWD, dir, strlen(dir));
	if ((cwd = tgmon_open_dir(AT_FDCWD, start_cwd, strlen(start_cwd))) < 0)
		return -1;
	fd = tgmon_open_dir(cwd, dir, strlen(dir));
	e = errno;
	close(cwd);
	errno = e;
	return fd;
}

/*
 * A descriptor of the starting directory for this write: the one kept,
 * if it still is that directory, else the directory opened again by its
 * path (*OPENED: the caller closes it), else the current directory.
 */
static int
start_dir(int *opened)
{
	int fd;

	*opened = -1;
	if (dirfd_start < 0)
		return AT_FDCWD;
	if (is_start_dir(dirfd_start))
		return dirfd_start;
	if (has_path && (fd = tgmon_reopen_start()) >= 0) {
		*opened = fd;
		return fd;
	}
	tgmon_say(tgmon_cfg.dir[0] != '\0' ? tgmon_cfg.dir : start_cwd, ": cannot be opened again: ",
	    "files go to the current directory");
	return AT_FDCWD;
}

/* NAME.tgmon-XXXXXXXX: an unpredictable temporary name (the kernel's randomness, or the clock). */
static void
tgmon_temp_name(char *tmp, size_t size, const char *name)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[8];
	char suffix[9];
	struct timespec ts;
	uint64_t v;
	int i;

	if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		v = ((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30) * 0x9e3779b97f4a7c15ULL ^
		    (uint64_t)getpid();
		for (i = 0; i < 8; i++, v >>= 8)
			r[i] = (unsigned char)v;
	}
	for (i = 0; i < 8; i++)
		suffix[i] = set[r[i] % (sizeof set - 1)];
	suffix[8] = '\0';
	snprintf(tmp, size, "%.*s.tgmon-%s", NAME_MAX - 15, name, suffix);	/* a name the file system takes */
}

/*
 * A new temporary file for NAME in DIR: where the file system can, one
 * without a name (O_TMPFILE), which vanishes if the process is killed
 * while writing it (TMP is then ""); else one created exclusively under
 * an unpredictable name in TMP (a file, link or FIFO planted there is
 * never opened).  The descriptor, or -1 with errno.
 */
static int
open_temp(int dir, const char *name, char *tmp, size_t size)
{
	int fd = openat(dir, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666), tries;

	tmp[0] = '\0';
	if (fd >= 0)
		return fd;
	for (tries = 0; tries < 20 && fd < 0; tries++) {
		tgmon_temp_name(tmp, size, name);
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	return fd;
}

/* Buffered output to a file descriptor; FAILED sticks. */
struct out {
	int fd;
	int failed;		/* the errno of the first failure, or 0 */
	size_t n;
	unsigned char buf[8192];
};

static void
tgmon_flush(struct out *o)
{
	size_t done = 0;

	while (!o->failed && done < o->n) {
		ssize_t w = write(o->fd, o->buf + done, o->n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->failed = w < 0 ? errno : ENOSPC;
		else
			done += (size_t)w;
	}
	o->n = 0;
}

static void
put(struct out *o, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n > 0) {
		size_t k = sizeof o->buf - o->n < n ? sizeof o->buf - o->n : n;

		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		n -= k;
		if (o->n == sizeof o->buf)
			tgmon_flush(o);
	}
}

/* Integers in the machine's byte order, the executable's too. */
static void put32(struct out *o, uint32_t v) { put(o, &v, 4); }
static void put64(struct out *o, uint64_t v) { put(o, &v, 8); }

/* Integers little-endian (the run identifier, the stacks file), into P. */
static void
le(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static void
putle(struct out *o, uint64_t v, int n)
{
	unsigned char b[8];

	le(b, v, n);
	put(o, b, (size_t)n);
}

/*
 * Module H's histogram as records of 16-bit bins over the same range:
 * gprof sums them, so a bin over 65535 is spread over several records,
 * never wrapped.
 */
static void
put_hist(struct out *o, const struct tgmon_hist *h)
{
	uint32_t layer = 0, most = 0;
	char dimen[GMON_DIMEN_LEN] = "seconds";
	size_t i;

	if (h->bin == NULL || tgmon_rate <= 0)
		return;
	for (i = 0; i < h->nbin; i++)
		most = h->bin[i] > most ? h->bin[i] : most;
	do {
		unsigned char tag = GMON_TAG_TIME_HIST;

		put(o, &tag, 1);
		put64(o, h->lowpc - h->base);
		put64(o, h->highpc - h->base);
		put32(o, (uint32_t)h->nbin);
		put32(o, (uint32_t)tgmon_rate);
		put(o, dimen, sizeof dimen);
		put(o, "s", 1);
		for (i = 0; i < h->nbin; i++) {
			uint64_t left = h->bin[i] > (uint64_t)layer * 65535 ?
			    h->bin[i] - (uint64_t)layer * 65535 : 0;
			uint16_t v = (uint16_t)(left > 65535 ? 65535 : left);

			put(o, &v, 2);
		}
	} while (++layer * 65535ULL < most);
}

/*
 * Gives the complete O_TMPFILE file FD a temporary name in DIR (in TMP),
 * for renameat() to put in place; 0, or -1 with errno.  Without
 * CAP_DAC_READ_SEARCH the link goes through /proc/self/fd.
 */
static int
name_temp(int fd, int dir, const char *name, char *tmp, size_t size)
{
	char proc[64];
	int tries, rc = -1;

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	for (tries = 0; tries < 20 && rc != 0; tries++) {
		tgmon_temp_name(tmp, size, name);
		rc = linkat(fd, "", dir, tmp, AT_EMPTY_PATH);
		if (rc != 0 && errno != EEXIST)
			rc = linkat(AT_FDCWD, proc, dir, tmp, AT_SYMLINK_FOLLOW);
		if (rc != 0 && errno != EEXIST)
			break;
	}
	if (rc != 0)
		tmp[0] = '\0';
	return rc;
}

/* The arc walk that writes module M's arcs to O. */
struct arcs_of {
	struct out *o;
	int m;
};

/* One arc into the module, in its addresses; counts over 2^32 - 1 in several records. */
static void
tgmon_put_arc(void *ctx, const struct tgmon_arc *a)
{
	struct arcs_of *w = ctx;
	uint64_t left = a->count, base = tgmon_module(w->m)->base;

	if (tgmon_module_at(a->self) != w->m)
		return;
	while (left > 0) {
		unsigned char tag = GMON_TAG_CG_ARC;
		uint32_t c = left > 0xffffffffu ? 0xffffffffu : (uint32_t)left;

		put(w->o, &tag, 1);
		put64(w->o, a->from - base);
		put64(w->o, a->self - base);
		put32(w->o, c);
		left -= c;
	}
}

/*
 * A file's name: HEAD (GMON_OUT_PREFIX, of any length, or "") then TAIL;
 * a '/' is only ever in HEAD.
 */
struct fname {
	const char *head;
	char tail[NAME_MAX + 64];
};

/*
 * How many libraries loaded before module M (M > 0) have its file name,
 * plus one: a library's second of that name (a plugin of the same name
 * from another directory) is 2.  Modules are only ever added, so this
 * stays the same for the life of the process.
 */
static int
tgmon_name_rank(int m)
{
	int k, n = 1;

	for (k = 1; k < m; k++)
		n += strcmp(tgmon_module(k)->name, tgmon_module(m)->name) == 0;
	return n;
}

/*
 * Module M's file: the executable's is GMON_OUT_PREFIX.PID, gmon.out, or
 * gmon.out.PID in a forked child; a library's is gmon.LIB.out (and
 * likewise PREFIX.LIB.PID, gmon.LIB.out.PID), where LIB is its file's
 * name, followed by ~N for the Nth library of that name (N > 1): each
 * has a file of its own.
 */
static void
tgmon_file_name(struct fname *f, int m, int child)
{
	char lib[NAME_MAX + 32] = "";
	long pid = (long)getpid();
	int rank = m > 0 ? tgmon_name_rank(m) : 1;

	if (m > 0 && rank > 1)
		snprintf(lib, sizeof lib, ".%s~%d", tgmon_module(m)->name, rank);
	else if (m > 0)
		snprintf(lib, sizeof lib, ".%s", tgmon_module(m)->name);
	f->head = tgmon_cfg.prefix;
	if (tgmon_cfg.prefix[0] != '\0')
		snprintf(f->tail, sizeof f->tail, "%s.%ld", lib, pid);
	else if (child)
		snprintf(f->tail, sizeof f->tail, "gmon%s.out.%ld", lib, pid);
	else
		snprintf(f->tail, sizeof f->tail, "gmon%s.out", lib);
}

/*
 * "libtgmon: F: cannot be written: the reason E", in one line; when the
 * directory refuses it (permissions, a read-only file system), which
 * directory, and how to write elsewhere.
 */
static void
tgmon_say_unwritten(const struct fname *f, int e)
{
	const char *dir = tgmon_cfg.dir[0] == '/' ? tgmon_cfg.dir : start_cwd;
	static char b[sizeof f->tail + 32], why[PATH_MAX + 200];	/* static: the writer is one, on a stack it may not own */

	snprintf(b, sizeof b, "%s: cannot be written: ", f->tail);
	if ((e == EACCES || e == EPERM || e == EROFS) && strchr(f->head, '/') == NULL && dir[0] != '\0')
		snprintf(why, sizeof why, "%s (in %s%s%s: TGMON_DIR=DIR writes it elsewhere, as tgprof "
		    "record -o FILE does)", strerror(e), dir, dir == start_cwd && tgmon_cfg.dir[0] != '\0' ?
		    "/" : "", dir == start_cwd ? tgmon_cfg.dir : "");
	else
		snprintf(why, sizeof why, "%s", strerror(e));
	tgmon_say(f->head, b, why);
}

/* A file cut by the file size limit (EFBIG; the kernel sent SIGXFSZ): tgmon_write's result. */
static int cut;

/* Why F was not written (E, its errno): one line; the file size limit says so, and its bytes. */
static void
tgmon_say_failed(const struct fname *f, int e)
{
	struct rlimit rl;
	char why[sizeof f->tail + 120];

	if (e != EFBIG || getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) {
		tgmon_say_unwritten(f, e);
		return;
	}
	cut = 1;
	snprintf(why, sizeof why, "%s: cut at %llu bytes by the file size limit (ulimit -f): ", f->tail,
	    (unsigned long long)rl.rlim_cur);
	tgmon_say(f->head, why, "not written");
}

/*
 * The directory F goes in, relative to the starting directory AT: AT
 * itself, or HEAD up to its last '/' opened (*OPENED: the caller closes
 * it); and F's last name into BASE (NAME_MAX + 1 bytes).  -1 with errno
 * if the directory cannot be opened or the name is too long.
 */
static int
tgmon_file_dir(const struct fname *f, int at, int *opened, char *base)
{
	const char *slash = strrchr(f->head, '/'), *last = slash != NULL ? slash + 1 : f->head;

	*opened = -1;
	if (strlen(last) + strlen(f->tail) > NAME_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(base, last, strlen(last));
	memcpy(base + strlen(last), f->tail, strlen(f->tail) + 1);
	if (slash == NULL)
		return at;
	return *opened = tgmon_open_dir(at, f->head, (size_t)(slash - f->head) + 1);
}

/* Closes the descriptors A and B that this write opened (-1: none). */
static void
tgmon_close_dirs(int a, int b)
{
	if (b >= 0)
		close(b);
	if (a >= 0)
		close(a);
}

/*
 * Writes the file F (FILL(O, CTX) writes its contents) to a temporary
 * file beside it, then renames it: a reader never sees half a file, and
 * a failure leaves any earlier file as it was and says so on standard
 * error, once.  0, or -1 if the file was not written.
 */
static int
tgmon_write_file(const struct fname *f, void (*fill)(struct out *, void *), void *ctx)
{
	static struct out o;
	char name[NAME_MAX + 1], tmp[NAME_MAX + 1];
	int opened, sub, at = start_dir(&opened), dir = tgmon_file_dir(f, at, &sub, name);

	memset(&o, 0, offsetof(struct out, buf));
	o.fd = dir == -1 ? -1 : open_temp(dir, name, tmp, sizeof tmp);
	if (o.fd < 0) {
		tgmon_say_unwritten(f, errno);
		tgmon_close_dirs(opened, sub);
		return -1;
	}
	fill(&o, ctx);
	tgmon_flush(&o);
	if (!o.failed && tmp[0] == '\0' && name_temp(o.fd, dir, name, tmp, sizeof tmp) != 0)
		o.failed = errno;
	if (close(o.fd) != 0 && !o.failed)
		o.failed = errno;
	if (o.failed || renameat(dir, tmp, dir, name) != 0) {
		int e = o.failed ? o.failed : errno;

		if (tmp[0] != '\0')
			unlinkat(dir, tmp, 0);
		tgmon_say_failed(f, e);
		o.failed = o.failed ? o.failed : e;
	}
	tgmon_close_dirs(opened, sub);
	return o.failed ? -1 : 0;
}

/* A gmon file's: its module, and the snapshot's sequence number (live.h; 0 at exit). */
struct gmon_of {
	int m;
	uint32_t seq;
};

/*
 * Module CTX->m's profile: the GNU header with the run identifier in its
 * spare bytes, then the sequence number in the last four, histogram, arcs.
 */
static void
tgmon_fill_gmon(struct out *o, void *ctx)
{
	const struct gmon_of *g = ctx;
	struct arcs_of w = { o, g->m };

	put(o, GMON_MAGIC, GMON_MAGIC_LEN);
	put32(o, GMON_VERSION);
	putle(o, tgmon_run_id, GMON_RUNID_LEN);
	putle(o, g->seq, GMON_HDR_SIZE - GMON_RUNID_OFFSET - GMON_RUNID_LEN);
	put_hist(o, tgmon_module(w.m));
	tgmon_arcs_each(tgmon_put_arc, &w);
}

/* The stacks file as it is written: where, and the sums for its header. */
struct stacks_of {
	struct out *o;
	uint32_t nthreads;
	uint64_t nstacks, samples, root, truncated, wait_ns;
};

/* The thread records (gmon_out.h): as many as N, each finished now. */
static void
tgmon_put_threads(struct out *o, uint32_t n)
{
	struct tgmon_thr r;
	uint32_t i;

	for (i = 0; i < n; i++) {
		tgmon_threads_get(i, &r);
		putle(o, r.tid, 4);
		putle(o, r.flags, 4);
		putle(o, r.cpu_ns, 8);
		putle(o, r.samples, 8);
		putle(o, r.signals, 8);
		putle(o, r.start_ns, 8);
		putle(o, r.end_ns, 8);
		putle(o, strlen(r.name), 4);
		put(o, r.name, strlen(r.name));
	}
}

/* One stack record (gmon_out.h). */
static void
tgmon_put_stack(void *ctx, uint64_t count, uint32_t flags, uint32_t thread, const uint64_t *addr, uint32_t depth)
{
	struct stacks_of *w = ctx;
	uint32_t i;

	putle(w->o, count, 8);
	putle(w->o, depth, 4);
	putle(w->o, flags, 4);
	putle(w->o, thread < w->nthreads ? thread : TGSTACKS_NO_THREAD, 4);
	for (i = 0; i < depth; i++)
		putle(w->o, addr[i], 8);
	w->nstacks++;
	if (flags & TGSTACKS_WAIT) {
		w->wait_ns += count;
		return;
	}
	w->samples += count;
	w->root += flags & TGSTACKS_ROOT ? count : 0;
	w->truncated += flags & TGSTACKS_TRUNCATED ? count : 0;
}

/*
 * The stacks file (gmon_out.h): a header, the modules, the stacks; the
 * header is written last, in its place, with the sums of what was
 * written (threads may still be sampling).
 */
static void
tgmon_fill_stacks(struct out *o, void *ctx)
{
	unsigned char h[TGSTACKS_HDR_SIZE] = { 0 };
	struct stacks_of w = { o, tgmon_threads_count(), 0, 0, 0, 0, 0 };
	uint64_t lost, signals, waits;
	int m;

	put(o, h, sizeof h);
	for (m = 0; m < tgmon_nmod; m++) {
		const char *path = m == 0 ? "" : tgmon_module(m)->path;

		putle(o, tgmon_module(m)->base, 8);
		putle(o, tgmon_module(m)->lowpc & ~(uint64_t)3, 8);
		putle(o, (tgmon_module(m)->highpc + 3) & ~(uint64_t)3, 8);
		putle(o, strlen(path), 4);
		put(o, path, strlen(path));
	}
	tgmon_put_threads(o, w.nthreads);	/* those counted now: a later one's stacks are NO_THREAD */
	tgmon_stacks_counts(&lost, &signals);	/* first: every signal counted is in the counts */
	tgmon_stacks_each(tgmon_put_stack, &w);
	tgmon_waits_each(tgmon_put_stack, &w, &waits);
	tgmon_flush(o);
	memcpy(h + TGSTACKS_HDR_MAGIC, TGSTACKS_MAGIC, TGSTACKS_MAGIC_LEN);
	le(h + TGSTACKS_HDR_VERSION, TGSTACKS_VERSION, 4);
	le(h + TGSTACKS_HDR_FLAGS, tgmon_waits_state(), 4);
	le(h + TGSTACKS_HDR_RUNID, tgmon_run_id, 8);
	le(h + TGSTACKS_HDR_RATE, (uint64_t)tgmon_rate, 4);
	le(h + TGSTACKS_HDR_NMODULES, (uint64_t)tgmon_nmod, 4);
	le(h + TGSTACKS_HDR_MAXDEPTH, TGSTACKS_MAX_DEPTH, 4);
	le(h + TGSTACKS_HDR_NTHREADS, w.nthreads, 4);
	le(h + TGSTACKS_HDR_NSTACKS, w.nstacks, 8);
	le(h + TGSTACKS_HDR_SAMPLES, w.samples, 8);
	le(h + TGSTACKS_HDR_ROOT, w.root, 8);
	le(h + TGSTACKS_HDR_TRUNCATED, w.truncated, 8);
	le(h + TGSTACKS_HDR_LOST, lost, 8);
	le(h + TGSTACKS_HDR_SIGNALS, signals, 8);
	le(h + TGSTACKS_HDR_CALL_PS, tgmon_call_ps(), 4);
	le(h + TGSTACKS_HDR_CLOCK, __atomic_load_n(&tgmon_clocks, __ATOMIC_RELAXED), 4);
	le(h + TGSTACKS_HDR_WAIT_NS, w.wait_ns, 8);
	le(h + TGSTACKS_HDR_WAITS, waits, 8);
	if (!o->failed && pwrite(o->fd, h, sizeof h, 0) != (ssize_t)sizeof h)
		o->failed = errno != 0 ? errno : EIO;
}

/* Marks the module each arc goes into (tgmon_hist.has_arcs). */
static void
tgmon_mark_module(void *ctx, const struct tgmon_arc *a)
{
	int m = tgmon_module_at(a->self);

	if (m >= 0)
		tgmon_module(m)->has_arcs = 1;
}

/*
 * The executable's file, and one for each library with calls counted in
 * it (built with -pg); the process's stacks file, if the executable's
 * was written (it would be of no use alone); then the calls that could
 * not be counted, if any.  1 if a file was cut by the file size limit.
 */
int
tgmon_write(int child)
{
	uint64_t dropped = __atomic_load_n(&tgmon_dropped, __ATOMIC_RELAXED);
	struct fname f;
	char n[32];
	int m, written = -1;

	cut = 0;
	if (tgmon_cfg.nowrite)
		return 0;
	tgmon_modules_rescan();
	for (m = 0; m < tgmon_nmod; m++)
		tgmon_module(m)->has_arcs = 0;
	tgmon_arcs_each(tgmon_mark_module, NULL);
	for (m = 0; m < tgmon_nmod; m++) {
		struct gmon_of g = { m, 0 };

		if (m == 0 || tgmon_module(m)->has_arcs) {
			tgmon_file_name(&f, m, child);
			if (tgmon_write_file(&f, tgmon_fill_gmon, &g) == 0 && m == 0)
				written = 0;
		}
	}
	if (tgmon_cfg.stacks && tgmon_rate > 0 && written == 0) {
		tgmon_file_name(&f, 0, child);
		strcat(f.tail, ".stacks");	/* room: the executable's tail has no library's name */
		tgmon_write_file(&f, tgmon_fill_stacks, NULL);
	}
	if (dropped > 0) {
		snprintf(n, sizeof n, "%llu", (unsigned long long)dropped);
		tgmon_say(n, " calls were not counted ", "(out of memory, or in a signal handler)");
	}
	return cut;
}

/* A text of LEN bytes (the snapshot's info file). */
struct text_of {
	const char *s;
	size_t len;
};

static void
tgmon_fill_text(struct out *o, void *ctx)
{
	const struct text_of *t = ctx;

	put(o, t->s, t->len);
}

/*
 * The snapshot's libraries' files: of each library with calls counted in
 * it (built with -pg), its gmon file as at exit, named with SUFFIX after
 * (gmon.libfoo.so.out.live), its sequence number SEQ.
 */
static void
tgmon_snapshot_libraries(const char *suffix, uint32_t seq)
{
	struct fname f;
	size_t n;
	int m;

	tgmon_modules_rescan();
	for (m = 0; m < tgmon_nmod; m++)
		tgmon_module(m)->has_arcs = 0;
	tgmon_arcs_each(tgmon_mark_module, NULL);
	for (m = 1; m < tgmon_nmod; m++) {
		struct gmon_of g = { m, seq };

		if (!tgmon_module(m)->has_arcs)
			continue;
		tgmon_file_name(&f, m, 0);
		n = strlen(f.tail);
		if (n + strlen(suffix) < sizeof f.tail) {
			strcpy(f.tail + n, suffix);
			tgmon_write_file(&f, tgmon_fill_gmon, &g);
		}
	}
}

/*
 * The snapshot (live.c): the executable's file named with SUFFIX after
 * its name, the libraries' likewise, its stacks file, then the info file
 * INFO (LEN bytes), each written as at exit.  The caller holds the
 * writer's lock.  0, or -1 if the executable's file was not written.
 */
int
tgmon_write_snapshot(const char *suffix, uint32_t seq, const char *info, size_t len)
{
	struct gmon_of g = { 0, seq };
	struct text_of t = { info, len };
	struct fname f;
	size_t n;

	if (tgmon_cfg.nowrite)
		return -1;
	tgmon_file_name(&f, 0, 0);
	n = strlen(f.tail);
	if (n + strlen(suffix) + sizeof ".stacks" > sizeof f.tail)
		return -1;
	strcpy(f.tail + n, suffix);
	if (tgmon_write_file(&f, tgmon_fill_gmon, &g) != 0)
		return -1;
	tgmon_snapshot_libraries(suffix, seq);
	if (tgmon_cfg.stacks && tgmon_rate > 0) {
		strcpy(f.tail + n + strlen(suffix), ".stacks");
		tgmon_write_file(&f, tgmon_fill_stacks, NULL);
	}
	strcpy(f.tail + n + strlen(suffix), ".info");
	return tgmon_write_file(&f, tgmon_fill_text, &t) == 0 ? 0 : -1;
}

/*
 * The absolute path of the executable's file (the exit's, not a forked
 * child's) with SUFFIX after, into BUF; 0, or -1 if the starting
 * directory has no path known or it does not fit.
 */
int
tgmon_write_path(const char *suffix, char *buf, size_t size)
{
	const char *dir = tgmon_cfg.dir;
	struct fname f;
	int n;

	if (!has_path)
		return -1;
	tgmon_file_name(&f, 0, 0);
	if (dir[0] == '/')
		n = snprintf(buf, size, "%s/%s%s%s", dir, f.head, f.tail, suffix);
	else
		n = snprintf(buf, size, "%s%s%s/%s%s%s", start_cwd, dir[0] != '\0' ? "/" : "", dir, f.head,
		    f.tail, suffix);
	return n > 0 && (size_t)n < size ? 0 : -1;
}
