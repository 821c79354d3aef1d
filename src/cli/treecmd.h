/* treecmd: tgprof --tree, the call tree printed as text: measured from the call stacks where there are some. */
#ifndef TGPROF_TREECMD_H
#define TGPROF_TREECMD_H

#include "opts.h"
#include "core/measure.h"
#include "core/profile.h"
#include "util/diag.h"

/*
 * The tree O asks for (--tree[=FUNC], --callers, --collapse) of P,
 * every node open, to standard output as the browser's P writes the
 * tree pane (ASCII marks): made of M's stacks unless M is NULL or
 * --estimated, else of gprof's arcs.  0, or -1 with the reason in D (no
 * such function, a bottom-up tree of the whole program without stacks,
 * out of memory, a write error).
 */
int treecmd_run(const struct opts *o, const struct profile *p, const struct pf_measure *m,
    struct diag *d);

#endif
