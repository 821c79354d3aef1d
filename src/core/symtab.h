/* symtab: address-sorted symbol tables with GNU gprof's de-duplication and lookup rules. */
#ifndef TGPROF_SYMTAB_H
#define TGPROF_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#define SYMTAB_NONE UINT32_MAX

/*
 * One table entry: a symbol of the executable (or, with -l, a source line)
 * before it becomes a profile symbol, or a range of symbols selected by a
 * symspec.
 */
struct symtab_ent {
	uint64_t addr;		/* first address */
	uint64_t end_addr;	/* last address; 0 = not yet known */
	const char *name;	/* raw (mangled) name; not owned */
	uint32_t file;		/* source file id or SYMTAB_NONE */
	int line;		/* source line or 0 */
	uint8_t is_func;	/* a function entry (STT_FUNC) */
	uint8_t is_static;	/* a local symbol */
	uint8_t mapped;		/* renamed to its object file by -R */
	uint32_t aux;		/* owner's data, copied along with the entry */
};

/* A finalized table. */
struct symtab {
	struct symtab_ent *ent;	/* owned */
	uint32_t len;
	/*
	 * gprof reads the element just past the last one (base[len]): the
	 * entry that sorted into that slot before duplicates were removed,
	 * or memory past the array.  AFTER_ADDR is that entry's address
	 * when it exists (HAS_AFTER).
	 */
	int has_after;
	uint64_t after_addr;
};

/*
 * gprof's symtab_finalize(): sorts ENT[0..N) by address (functions, then
 * globals first on ties; otherwise input order), keeps one entry per
 * address by gprof's preference rules, sets each missing end address to
 * the next entry's address minus one and the last one's to TEXT_END
 * (the last text byte), and drops entries whose end precedes their start.
 * Takes ownership of ENT.  Returns 0 or -1 (out of memory).
 */
int symtab_finalize(struct symtab *tab, struct symtab_ent *ent, uint32_t n, uint64_t text_end);

void symtab_release(struct symtab *tab);

/*
 * gprof's sym_lookup() on the LEN entries at ENT: the index of the entry
 * covering ADDR, or -1.  Written as gprof's loop, so that on overlapping
 * ranges (symspec tables) the answer is gprof's.
 */
long symtab_lookup(const struct symtab_ent *ent, uint32_t len, uint64_t addr);

#endif
