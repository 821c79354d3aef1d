/* callscan: -c, call arcs found by scanning machine code, as gprof's i386 and aarch64 scanners do. */
#ifndef TGPROF_CALLSCAN_H
#define TGPROF_CALLSCAN_H

#include <stdint.h>

struct profile;
struct diag;

/*
 * -c: adds the arcs that symbol ID's machine code (in TEXT, the
 * executable's .text) shows to other symbols, with count 0.  0, or -1
 * with the reason in D.
 */
int callscan_symbol(struct profile *p, uint32_t id, const unsigned char *text, struct diag *d);

#endif
