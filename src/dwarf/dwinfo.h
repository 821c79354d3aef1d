/* dwinfo: compilation units and their functions from .debug_info, as libbfd 2.40 records them. */
#ifndef TGPROF_DWINFO_H
#define TGPROF_DWINFO_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf.h"
#include "dwline.h"

/*
 * A subprogram, entry point or inlined subroutine (libbfd's funcinfo).
 * Its address ranges are range[range0 .. range0+nrange), in libbfd's list
 * order after its merging of adjacent ranges; the first one's low end is
 * what libbfd compares with a symbol's address.
 */
struct dwfunc {
	const char *name;	/* NULL if it has none; points into the sections */
	int is_linkage;		/* the name is what the symbol table would say */
	uint32_t unit;
	uint32_t range0, nrange;
};

struct dwrange {
	uint64_t lo, hi;
};

/*
 * An address range libbfd files under a unit when it looks up addresses:
 * the unit DIE's ranges as soon as it reads the unit, the others once it
 * has decoded the unit's lines and functions.
 */
enum dwcover_kind { DWC_UNIT, DWC_FUNC, DWC_LINES };

struct dwcover {
	uint64_t lo, hi;
	uint32_t unit;
	enum dwcover_kind kind;
};

struct dwunit {
	struct dwfmt fmt;
	const unsigned char *start, *end;	/* the unit in .debug_info, header included */
	const unsigned char *children;		/* its first child DIE */
	uint32_t abbrev;			/* abbreviation table, while loading */
	int lang;
	const char *comp_dir;
	int has_range;		/* the unit DIE gives addresses */
	int has_lines;		/* a line table libbfd decodes; without, it never answers */
	uint64_t base;
	struct dwline_table lines;
};

struct dwinfo {
	struct dwunit *unit;
	size_t nunit;
	struct dwfunc *func;	/* in DIE order, unit after unit */
	size_t nfunc;
	struct dwrange *range;
	size_t nrange;
	struct dwcover *cover;
	size_t ncover;
};

/*
 * Reads every unit, its line table and its functions.  Returns 0, or -1
 * when memory runs out or the data is anything libbfd would complain
 * about or read in a way tgprof does not emulate; DI is then empty.
 */
int dwinfo_load(struct dwinfo *di, const struct dwarf *dw);
void dwinfo_release(struct dwinfo *di);

#endif
