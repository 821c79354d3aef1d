/* fuzzio: what the libFuzzer harnesses share: an input as a file, and a whole batch run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzzio.h"

int
fuzzio_file(const uint8_t *data, size_t size, char *path, size_t pathsize)
{
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return -1;
	if (size > 0 && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, pathsize, "/proc/self/fd/%d", fd);
	return fd;
}

void
fuzzio_analysis(struct pf_opts *o, uint8_t bits, const char *image, const char **files)
{
	memset(o, 0, sizeof *o);
	o->image = image;
	o->gmon = files;
	o->ngmon = 1;
	o->line = bits & 1;
	o->static_calls = (bits >> 1) & 1;
	o->clones = (enum pf_clones)((bits >> 2) % 3);
	o->source_lines = (bits >> 4) & 1;
}

void
fuzzio_report(const struct pf_opts *o, const struct batch_opts *bo)
{
	static FILE *devnull;
	struct profile *p;
	struct diag d;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	diag_init(&d);
	if (profile_load(&p, o, &d) == 0) {
		batch_print(devnull, p, bo, &d);
		profile_free(p);
	}
	diag_release(&d);
}
