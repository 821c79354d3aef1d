/* srcspan: splits the text into spans over which libbfd's source answers cannot change. */
#ifndef TGPROF_SRCSPAN_H
#define TGPROF_SRCSPAN_H

#include <stddef.h>
#include <stdint.h>

#include "dwinfo.h"
#include "input/bin.h"

#define SRCSPAN_NOFUNC UINT32_MAX

/*
 * From LO to the next span's LO (the last: to the end of the text) libbfd
 * answers from the same unit with the same DWARF function FUNC (or
 * SRCSPAN_NOFUNC) and line (FILE is DWLINE_NOFILE when it finds none),
 * and its symbol search finds the same symbol.
 */
struct srcspan {
	uint64_t lo;
	uint32_t func;		/* index in dwinfo's functions */
	uint32_t file;		/* FILE0[unit] + the unit's file name index */
	uint32_t line;
};

struct srcspans {
	struct srcspan *span;
	size_t nspan;
	struct dwrange *unsure;	/* sorted: a lone question here may not get libbfd's answer */
	size_t nunsure;
};

/* The text and what is known about it. */
struct srcspan_in {
	const struct dwinfo *di;
	const uint32_t *file0;		/* per unit, the id of its first file name */
	uint64_t vma, end;		/* the text */
	const struct bin_fsym *sym;	/* the symbols libbfd's search can find, by address */
	size_t nsym;
};

/*
 * Builds the spans of IN's text.  Returns 0, or -1 when memory runs out or
 * the units are laid out so that libbfd's answers depend on the order in
 * which it reads them (*OUT is then empty).
 */
int srcspan_build(struct srcspans *out, const struct srcspan_in *in);
void srcspan_release(struct srcspans *s);

#endif
