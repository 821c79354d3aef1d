/* srcfile: the source files named by the debugging information, in gprof's list order. */
#include "srcfile.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/path.h"

void
srcfiles_init(struct srcfiles *f)
{
	memset(f, 0, sizeof *f);
	u64map_init(&f->byhash);
}

void
srcfiles_release(struct srcfiles *f)
{
	uint32_t i;

	for (i = 0; i < f->n; i++)
		free(f->f[i].name);
	free(f->f);
	u64map_release(&f->byhash);
	srcfiles_init(f);
}

uint32_t
srcfiles_intern(struct srcfiles *f, const char *path)
{
	uint64_t h = u64map_strhash(path);
	uint32_t id = u64map_get(&f->byhash, h), first = id;
	struct srcfile *sf;

	for (; id != U64MAP_NONE; id = f->f[id].collide)
		if (strcmp(f->f[id].name, path) == 0)
			return id;
	if (f->n == U64MAP_NONE - 1 || mem_reserve(&f->f, &f->cap, f->n + 1, sizeof *f->f) != 0)
		return U64MAP_NONE;
	sf = &f->f[f->n];
	sf->name = mem_strndup(path, strlen(path));
	sf->collide = first;
	if (sf->name == NULL || u64map_put(&f->byhash, h, f->n) != 0) {
		free(sf->name);
		return U64MAP_NONE;
	}
	return f->n++;
}

uint32_t
srcfiles_by_basename(const struct srcfiles *f, const char *name)
{
	uint32_t i;

	for (i = f->n; i-- > 0;)
		if (strcmp(path_base(f->f[i].name), name) == 0)
			return i;
	return U64MAP_NONE;
}
