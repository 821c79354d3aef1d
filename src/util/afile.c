/* afile: files written whole or not at all, with the mode fopen() would give them; devices and pipes written through. */
#include "afile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Six characters of the temporary file's name, from the kernel's randomness (or the clock). */
static void
random_suffix(char *out)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	struct timespec ts;
	uint64_t v;
	int i;

	if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		v = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
		for (i = 0; i < 6; i++, v >>= 8)
			r[i] = (unsigned char)v;
	}
	for (i = 0; i < 6; i++)
		out[i] = set[r[i] % (sizeof set - 1)];
	out[6] = '\0';
}

/* PATH, not a regular file, opened to be written through; 0, or -1 with errno. */
static int
open_direct(struct afile *a, const char *path)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), flags;

	if (fd < 0)
		return -1;	/* a FIFO without a reader: ENXIO, at once */
	if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
	    (a->f = fdopen(fd, "w")) == NULL) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	a->direct = 1;
	return 0;
}

int
afile_open(struct afile *a, const char *path)
{
	size_t n = strlen(path);
	struct stat st;
	int fd = -1, tries;

	a->f = NULL;
	a->direct = 0;
	a->tmp[0] = '\0';
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		return open_direct(a, path);
	}
	if (n + 9 >= sizeof a->tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(a->path, path, n + 1);
	for (tries = 0; tries < 100 && fd < 0; tries++) {
		memcpy(a->tmp, path, n);
		memcpy(a->tmp + n, ".", 1);
		random_suffix(a->tmp + n + 1);
		fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	if (fd < 0)
		return -1;
	if ((a->f = fdopen(fd, "w")) == NULL) {
		int e = errno;

		close(fd);
		unlink(a->tmp);
		errno = e;
		return -1;
	}
	return 0;
}

int
afile_commit(struct afile *a)
{
	int rc = fflush(a->f) != 0 || ferror(a->f) || (!a->direct && fsync(fileno(a->f)) != 0) ? -1 : 0;
	int e = errno;

	if (fclose(a->f) != 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	a->f = NULL;
	if (a->direct) {
		errno = e;
		return rc;
	}
	if (rc == 0 && rename(a->tmp, a->path) != 0) {
		rc = -1;
		e = errno;
	}
	if (rc != 0) {
		unlink(a->tmp);
		errno = e;
	}
	return rc;
}

void
afile_abort(struct afile *a)
{
	int e = errno;

	if (a->f != NULL)
		fclose(a->f);
	a->f = NULL;
	if (!a->direct)
		unlink(a->tmp);
	errno = e;
}
