/* mapfile: the -R map of functions to object files (nm --print-file-name output). */
#ifndef TGPROF_MAPFILE_H
#define TGPROF_MAPFILE_H

#include <stddef.h>

#include "util/diag.h"

struct mapfile_ent {
	char *file;		/* object file; owned */
	char *func;		/* function name; owned */
	int is_first;		/* the first function listed for its file */
};

/* Entries sorted by function name (gprof bsearches them), and in file order. */
struct mapfile {
	struct mapfile_ent *ent;	/* by function name (stable) */
	size_t n;
};

/*
 * Reads PATH: lines "file.o:... name" (the name is the last word), or
 * "No symbols in ...".  Returns 0, or -1 with gprof's message in D.
 */
int mapfile_read(struct mapfile *m, const char *path, struct diag *d);
void mapfile_release(struct mapfile *m);

/* The entry gprof's bsearch() finds for NAME, or NULL. */
const struct mapfile_ent *mapfile_find(const struct mapfile *m, const char *name);

#endif
