/* firstaid: the usual first mistakes recognised before anything is read, each refused with what to do. */
#include "firstaid.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* An executable larger than this is taken as built with -pg (the hint is not worth reading it). */
#define SCAN_MAX ((off_t)1 << 30)

/* Whether PATH is a regular file starting with MAGIC (LEN bytes). */
static int
starts_with(const char *path, const char *magic, size_t len)
{
	char buf[8];
	struct stat st;
	int fd, rc = 0;

	if (len > sizeof buf || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 0;
	rc = read(fd, buf, len) == (ssize_t)len && memcmp(buf, magic, len) == 0;
	close(fd);
	return rc;
}

/*
 * Whether PATH looks like a script or another text file: a regular file
 * starting with "#!", or whose first bytes (up to 256, at least 1) are
 * printable text, tabs and newlines.  A gmon.out starts with its magic
 * or an address, which holds bytes of 0.
 */
static int
is_text(const char *path)
{
	unsigned char buf[256];
	struct stat st;
	ssize_t n, i;
	int fd;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n >= 2 && buf[0] == '#' && buf[1] == '!')
		return 1;
	for (i = 0; i < n; i++)
		if (buf[i] < 0x20 && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r')
			return 0;
	return n > 0;
}

/*
 * Whether the executable at PATH names mcount, _mcount or __fentry__
 * (the call -pg puts in every function): 1, 0 (it does not), or 1 when
 * it cannot be read whole.  Its bytes are searched, not its symbols: a
 * hint for a run that wrote no profile, not a verdict.
 */
static int
calls_mcount(const char *path)
{
	struct stat st;
	void *m;
	int fd, rc;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || st.st_size > SCAN_MAX ||
	    (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		close(fd);
		return 1;
	}
	rc = memmem(m, (size_t)st.st_size, "mcount", 7) != NULL ||
	    memmem(m, (size_t)st.st_size, "__fentry__", 11) != NULL;
	munmap(m, (size_t)st.st_size);
	close(fd);
	return rc;
}

int
firstaid_files(const struct opts *o, struct diag *d)
{
	const char *image = o->load.image, *gmon = o->load.gmon[0];
	struct stat st;

	if (starts_with(image, "gmon", 4) && o->load.ngmon > 0 && starts_with(gmon, "\177ELF", 4)) {
		diag_add(d, DIAG_ERROR, "%s: a profile where the program was expected: tgprof %s %s "
		    "(the program first)", image, gmon, image);
		return -1;
	}
	if (o->files_given == 0 && stat(image, &st) != 0) {
		diag_add(d, DIAG_ERROR, "%s: no such program here: give one, tgprof PROG [gmon.out] "
		    "(tgprof -h says more)", image);
		return -1;
	}
	if (o->files_given <= 1 && strcmp(gmon, "-") != 0 && stat(gmon, &st) != 0 && stat(image, &st) == 0) {
		if (!calls_mcount(image))
			diag_add(d, DIAG_ERROR, "%s: no profile yet, and %s was built without -pg (no call "
			    "to mcount in it): rebuild it with cc -pg, run it, then tgprof %s", gmon, image, image);
		else
			diag_add(d, DIAG_ERROR, "%s: no profile yet: run %s, built with -pg, to write it; or "
			    "tgprof record -- %s ARGS", gmon, image, image);
		return -1;
	}
	for (size_t k = 0; k < o->load.ngmon; k++)
		if (is_text(o->load.gmon[k])) {
			diag_add(d, DIAG_ERROR, "%s: a text file (a script?), not a profile: profile the "
			    "program that runs it, tgprof record -- INTERPRETER %s", o->load.gmon[k],
			    o->load.gmon[k]);
			return -1;
		}
	return 0;
}

int
firstaid_record(int argc, char **argv, struct diag *d)
{
	struct stat st;
	int k;

	if (argc < 2 || strcmp(argv[1], "record") != 0 || stat("record", &st) == 0)
		return 0;
	for (k = 2; k < argc; k++)
		if (strcmp(argv[k], "--") == 0)
			return 0;
	diag_add(d, DIAG_ERROR, "record: the program goes after --: tgprof record [-o FILE] -- PROG ARGS");
	return 1;
}
