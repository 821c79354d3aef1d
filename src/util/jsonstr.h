/* jsonstr: strings written as JSON string literals, whatever bytes they hold. */
#ifndef TGPROF_JSONSTR_H
#define TGPROF_JSONSTR_H

#include <stdio.h>

/*
 * S to F as a JSON string, quotes included: '"' and '\' escaped, control
 * characters as \u00XX, bytes that are not UTF-8 as \ufffd (a name from a
 * file may hold anything); NULL as null.
 */
void jsonstr_put(FILE *f, const char *s);

/* X as a JSON number: NaN and infinities (which JSON lacks) as null. */
void jsonstr_num(FILE *f, double x);

#endif
