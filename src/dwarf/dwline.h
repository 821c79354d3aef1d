/* dwline: one unit's DWARF line table, decoded and looked up as libbfd 2.40 does. */
#ifndef TGPROF_DWLINE_H
#define TGPROF_DWLINE_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf.h"

#define DWLINE_NOFILE UINT32_MAX

/*
 * Where libbfd's lookup_address_in_line_info_table() answers: every
 * address in [LO, HI) gets file name FILE (an index into the table's
 * names, or DWLINE_NOFILE when libbfd gives none) and line LINE.
 */
struct dwline_span {
	uint64_t lo, hi;
	uint32_t file;
	uint32_t line;
};

struct dwline_range {
	uint64_t lo, hi;
};

struct dwline_table {
	struct dwline_span *span;	/* by address, disjoint */
	size_t nspan;
	struct dwline_range *seq;	/* each sequence's [lowest, highest) row address */
	size_t nseq;
	char **name;			/* file names as libbfd's concat_filename() makes them */
	size_t nname;
	size_t nfile;			/* entries in the program's file table */
	int version;			/* of the program: it decides how files are numbered */
};

/*
 * Working memory dwline_decode() keeps from one call to the next: zero it
 * before the first, release it after the last.
 */
struct dwline_scratch {
	const char **dir;
	void *file, *row, *seq;
	uint32_t *memo;
	size_t dircap, filecap, rowcap, seqcap, memocap;
};

void dwline_scratch_release(struct dwline_scratch *sc);

/*
 * Decodes the line program at offset OFF of .debug_line for a unit with
 * encoding UNIT and compilation directory COMP_DIR (may be NULL).  Returns
 * 0, or -1 when memory runs out or the program holds anything libbfd would
 * complain about or read differently (tgprof then asks libbfd instead).
 */
int dwline_decode(struct dwline_table *t, const struct dwarf *dw, uint64_t off,
    const struct dwfmt *unit, const char *comp_dir, struct dwline_scratch *sc);
void dwline_release(struct dwline_table *t);

/* Whether libbfd names file number F of T without complaining (a DIE's decl_file). */
int dwline_file_ok(const struct dwline_table *t, unsigned f);

#endif
