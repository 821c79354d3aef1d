/* syms: builds the profile's symbols from the executable (functions, -l lines) or an -S table. */
#ifndef TGPROF_SYMS_H
#define TGPROF_SYMS_H

#include <stdint.h>

struct profile;
struct pf_opts;
struct diag;

/*
 * Once the executable is open, before syms_load(): room for as many
 * symbols as its table has, faulted in by a helper thread meanwhile (the
 * symbols' 128 bytes each are the load's first large block: 128 MB at a
 * million functions).  Not for -l or -S, whose symbols are others.
 */
void syms_prepare(struct profile *p, const struct pf_opts *o);

/*
 * The first step of profile_load(): reads -R's map, builds the symbols
 * (p->sym: functions, -l lines, or an -S table), the source files and the
 * symspec tables, indexes the symbols by address and, with
 * PF_CLONES_FOLD, folds clones.  With pf_opts.source_lines it also
 * fills the text's line map.  0, or -1 with the reason in D.
 */
int syms_load(struct profile *p, const struct pf_opts *o, struct diag *d);

/* The last byte of the executable's text, where the last symbol (or symspec range) ends. */
struct pf_private;
uint64_t syms_text_end(const struct pf_private *pv);

#endif
