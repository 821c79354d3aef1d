/* treetext: the call tree's rows as text, for the browser's tree pane and for text drivers alike. */
#ifndef TGPROF_TREETEXT_H
#define TGPROF_TREETEXT_H

#include <stddef.h>
#include <stdint.h>

#include "calltree.h"
#include "print/report.h"
#include "util/sbuf.h"

/*
 * The title of the call tree of ROOT (PF_NONE: the whole program) and
 * what it calls, or (INVERTED) its callers, its times MEASURED from call
 * stacks (recursion as COLLAPSE, FLAME_RECURSION_*, says) or gprof's;
 * then the column headings.  Two lines, the second without a newline.  R
 * names the functions.
 */
void treetext_header(struct sbuf *sb, struct report *r, uint32_t root, int inverted, int measured,
    int collapse);

/* The name of recursion mode COLLAPSE (FLAME_RECURSION_*), as titles and the top line say it. */
const char *treetext_recursion(int collapse);

/*
 * Row I of CT as text: its share of the time, its inclusive seconds
 * (each "~" before it when estimated, blank when recursive), the calls,
 * then its name under a mark (open, closed, recursive; triangles if
 * UTF8), indented two columns a level up to 16 levels, deeper the depth
 * in their place.  R names the functions (CT's profile's); a stack
 * tree's frames that are none are named as the flame graph names them,
 * its self rows "[self]".
 */
void treetext_row(struct sbuf *sb, const struct calltree *ct, struct report *r, size_t i, int utf8);

#endif
