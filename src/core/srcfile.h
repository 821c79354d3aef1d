/* srcfile: the source files named by the debugging information, in gprof's list order. */
#ifndef TGPROF_SRCFILE_H
#define TGPROF_SRCFILE_H

#include <stdint.h>

#include "util/u64map.h"

/*
 * gprof keeps source files in a list with the newest first; symspecs match
 * a basename against that list and -A prints files in that order.  Here
 * ids are creation order, so "newest first" means descending ids.
 */
struct srcfile {
	char *name;		/* owned path, as libbfd reported it */
	uint32_t collide;	/* next id with the same hash, or U64MAP_NONE */
};

struct srcfiles {
	struct srcfile *f;	/* owned, indexed by id */
	uint32_t n;
	size_t cap;
	struct u64map byhash;	/* hash of path -> newest id with that hash */
};

void srcfiles_init(struct srcfiles *f);
void srcfiles_release(struct srcfiles *f);

/* Id of PATH, created if new; U64MAP_NONE when out of memory. */
uint32_t srcfiles_intern(struct srcfiles *f, const char *path);

/*
 * Id of the newest file whose basename is NAME (gprof's
 * source_file_lookup_name()), or U64MAP_NONE.
 */
uint32_t srcfiles_by_basename(const struct srcfiles *f, const char *name);

#endif
