/* symspec: gprof's symbol specifications (func, file.c, file:line, a/b) turned into address tables. */
#ifndef TGPROF_SYMSPEC_H
#define TGPROF_SYMSPEC_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "srcfile.h"
#include "symtab.h"

/* An arc allowed or refused by an "a/b" spec: the callee's address range. */
struct spec_arc {
	uint64_t child_addr, child_end;
	uint32_t next;		/* next arc of the same caller range, or SYMTAB_NONE */
};

struct symspecs {
	struct symtab table[SPEC_NTABLES];	/* aux = first spec_arc of an entry */
	struct spec_arc *arc;			/* owned */
	size_t narcs, arccap;
};

/*
 * Builds the tables from SPEC[0..NSPEC) (in command-line order; gprof
 * processes them last first; the texts are not kept) against the finalized symbol table SYMS,
 * whose file ids refer to FILES.  Returns 0 or -1 (out of memory).
 */
int symspec_build(struct symspecs *ss, const struct pf_spec *spec, size_t nspec,
    const struct symtab *syms, const struct srcfiles *files, char leading_char,
    uint64_t text_end);

/*
 * The same, with BY_NAME the symbols of SYMS sorted by raw name (strcmp,
 * ties in ascending order: profile.name_order) to find a name in, instead
 * of hashing every name.
 */
int symspec_build_sorted(struct symspecs *ss, const struct pf_spec *spec, size_t nspec,
    const struct symtab *syms, const uint32_t *by_name, const struct srcfiles *files,
    char leading_char, uint64_t text_end);

void symspec_release(struct symspecs *ss);

/* The symbol at ADDR is in table T (gprof: sym_lookup(&syms[T], addr) != NULL). */
int symspec_has(const struct symspecs *ss, enum spec_table t, uint64_t addr);

/* Table T is empty. */
int symspec_empty(const struct symspecs *ss, enum spec_table t);

/*
 * An arc from the symbol at FROM to the symbol [TO, TO_END] is in arc
 * table T (gprof: sym_id_arc_is_present()).
 */
int symspec_arc_present(const struct symspecs *ss, enum spec_table t,
    uint64_t from, uint64_t to, uint64_t to_end);

/*
 * gprof's rule for a pair of tables, INCL (an include table: SPEC_INCL_*)
 * and the exclude table after it in enum spec_table: the symbol at ADDR
 * is chosen when INCL has it, or when INCL is empty and the exclude table
 * does not have it.
 */
int symspec_chosen(const struct symspecs *ss, enum spec_table incl, uint64_t addr);

/* Refused: the exclude table after INCL has it, and INCL does not. */
int symspec_refused(const struct symspecs *ss, enum spec_table incl, uint64_t addr);

/* symspec_chosen() for the arc tables (-k, -q a/b, -Q a/b): the arc of symspec_arc_present(). */
int symspec_arc_chosen(const struct symspecs *ss, enum spec_table incl,
    uint64_t from, uint64_t to, uint64_t to_end);

#endif
