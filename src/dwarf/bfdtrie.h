/* bfdtrie: the text bytes libbfd 2.40's address trie cannot find, so that it answers nothing there. */
#ifndef TGPROF_BFDTRIE_H
#define TGPROF_BFDTRIE_H

#include <stddef.h>
#include <stdint.h>

#include "dwinfo.h"

/*
 * libbfd 2.40 files every unit's address ranges in a trie keyed on the
 * address, a byte a level; a leaf holds up to 16 ranges and then becomes
 * an interior node.  Its insert_arange_in_trie() clamps a range to the
 * node as an inclusive end but uses it as an exclusive one: in a node
 * of 256 bytes that became interior, its last byte (P + 0xff) is in no
 * child, and libbfd finds no unit there.  gprof -l then gets no answer
 * for that byte (a C++ program's line symbol starts a byte later than
 * the DWARF says: "variant:153 @ 12500", not "@ 124ff").
 *
 * The units' ranges are inserted when libbfd reads a unit (its DIE's
 * ranges: DWC_UNIT), and more when it decodes it (DWC_FUNC, DWC_LINES);
 * a leaf merges a unit's range into one of the same unit it overlaps or
 * touches.  A 256-byte node with more than 16 ranges from the DIEs alone
 * is interior from the first question on; one with 16 or fewer even
 * after every unit is decoded stays a leaf.
 *
 * The holes in [VMA, END): their addresses, ascending, into *OUT (owned
 * by the caller), their number in *N.  0; 1 when a node's fate depends on
 * which units libbfd decodes (then no answer can be trusted); -1 when
 * memory runs out.
 */
int bfdtrie_holes(const struct dwinfo *di, uint64_t vma, uint64_t end, uint64_t **out, size_t *n);

#endif
