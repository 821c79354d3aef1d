/* callsite: where a call was made, from the return address a gmon arc records and the machine code. */
#ifndef TGPROF_CALLSITE_H
#define TGPROF_CALLSITE_H

#include <stddef.h>
#include <stdint.h>

#include "input/bin.h"

/*
 * The text an arc's call site is looked for in: SIZE bytes at TEXT,
 * loaded at VMA, of architecture ARCH.
 */
struct callsite_text {
	enum bin_arch arch;
	const unsigned char *text;
	uint64_t vma, size;
	int big_endian;
};

/*
 * glibc's mcount keeps arcs in a table indexed by the return address
 * divided by 16 (HASHFRACTION times its 8-byte index on 64-bit hosts), so
 * gmon.out holds that address rounded down: FROM may be up to 15 bytes
 * before the real one.  Returns the address of the call instruction's
 * last byte: the call to TARGET (a direct call with that destination, or
 * failing that the only indirect call) whose return address is in [FROM,
 * FROM + 16); FROM - 1 when there is none or several, as for exact
 * return addresses.
 */
uint64_t callsite_resolve(const struct callsite_text *t, uint64_t from, uint64_t target);

#endif
