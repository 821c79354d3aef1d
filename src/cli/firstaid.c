/* firstaid: the usual first mistakes recognised before anything is read, each refused with what to do. */
#include "firstaid.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
		diag_add(d, DIAG_ERROR, "%s: no profile yet: run %s, built with -pg, to write it; or "
		    "tgprof record -- %s ARGS", gmon, image, image);
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
