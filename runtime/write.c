/* write: libtgmon's gmon.out writer: GNU format, atomic, without malloc or stdio. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../src/input/gmon_out.h"
#include "tgmon.h"

static int dirfd_start = -1;	/* where the program started (or TGMON_DIR), after a chdir too */

int
tgmon_write_init(void)
{
	const char *dir = tgmon_cfg.dir[0] != '\0' ? tgmon_cfg.dir : ".";

	dirfd_start = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return dirfd_start >= 0 ? 0 : -1;
}

/* Buffered output to a file descriptor; FAILED sticks. */
struct out {
	int fd;
	int failed;		/* the errno of the first failure, or 0 */
	size_t n;
	unsigned char buf[8192];
};

static void
flush(struct out *o)
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
			flush(o);
	}
}

/* Integers in the machine's byte order, the executable's too. */
static void put32(struct out *o, uint32_t v) { put(o, &v, 4); }
static void put64(struct out *o, uint64_t v) { put(o, &v, 8); }

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

/* The arc walk that writes module M's arcs to O. */
struct arcs_of {
	struct out *o;
	int m;
};

/* One arc into the module, in its addresses; counts over 2^32 - 1 in several records. */
static void
put_arc(void *ctx, const struct tgmon_arc *a)
{
	struct arcs_of *w = ctx;
	uint64_t left = a->count, base = tgmon_mod[w->m].base;

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
 * Module M's file: the executable's is GMON_OUT_PREFIX.PID, gmon.out, or
 * gmon.out.PID in a forked child; a library's is gmon.LIB.out (and
 * likewise PREFIX.LIB.PID, gmon.LIB.out.PID).
 */
static void
file_name(char *name, size_t size, int m, int child)
{
	char lib[300] = "";
	long pid = (long)getpid();

	if (m > 0)
		snprintf(lib, sizeof lib, ".%s", tgmon_mod[m].name);
	if (tgmon_cfg.prefix[0] != '\0')
		snprintf(name, size, "%s%s.%ld", tgmon_cfg.prefix, lib, pid);
	else if (child)
		snprintf(name, size, "gmon%s.out.%ld", lib, pid);
	else
		snprintf(name, size, "gmon%s.out", lib);
}

/*
 * Writes module M's profile to a temporary file beside the final one,
 * then renames it: a reader never sees half a file, and a failure leaves
 * any earlier file as it was and says so on standard error, once.
 */
static void
write_module(int m, int child)
{
	static struct out o;
	struct arcs_of w = { &o, m };
	char name[512], tmp[600];
	int dir = dirfd_start >= 0 ? dirfd_start : AT_FDCWD;

	file_name(name, sizeof name, m, child);
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", name, (long)getpid());
	memset(&o, 0, offsetof(struct out, buf));
	o.fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (o.fd < 0) {
		tgmon_say(name, ": cannot be written: ", strerror(errno));
		return;
	}
	put(&o, GMON_MAGIC, GMON_MAGIC_LEN);
	put32(&o, GMON_VERSION);
	put(&o, "\0\0\0\0\0\0\0\0\0\0\0\0", 12);
	put_hist(&o, &tgmon_mod[m]);
	tgmon_arcs_each(put_arc, &w);
	flush(&o);
	if (close(o.fd) != 0 && !o.failed)
		o.failed = errno;
	if (o.failed || renameat(dir, tmp, dir, name) != 0) {
		int e = o.failed ? o.failed : errno;

		unlinkat(dir, tmp, 0);
		tgmon_say(name, ": cannot be written: ", strerror(e));
	}
}

/* Marks the module each arc goes into (CTX: a flag per module). */
static void
mark_module(void *ctx, const struct tgmon_arc *a)
{
	int m = tgmon_module_at(a->self);

	if (m >= 0)
		((unsigned char *)ctx)[m] = 1;
}

/*
 * The executable's file, and one for each library with calls counted in
 * it (built with -pg); then the calls that could not be counted, if any.
 */
void
tgmon_write(int child)
{
	unsigned char has_arcs[TGMON_MAX_MODULES] = { 0 };
	uint64_t dropped = __atomic_load_n(&tgmon_dropped, __ATOMIC_RELAXED);
	char n[32];
	int m;

	tgmon_arcs_each(mark_module, has_arcs);
	for (m = 0; m < tgmon_nmod; m++)
		if (m == 0 || has_arcs[m])
			write_module(m, child);
	if (dropped > 0) {
		snprintf(n, sizeof n, "%llu", (unsigned long long)dropped);
		tgmon_say(n, " calls were not counted ", "(out of memory, or in a signal handler)");
	}
}
