/* shown: symbols' names as the reports print them, each made once and shared by the threads printing. */
#ifndef TGPROF_SHOWN_H
#define TGPROF_SHOWN_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "core/profile.h"
#include "util/sbuf.h"

/* The names of profile P as options O show them (demangled, clones', -T's, files). */
struct shown;

struct shown *shown_new(const struct profile *p, const struct report_opts *o);
/*
 * S takes FROM's cache of names, for S's thread and FROM's to print the
 * same symbols at once, each name made once: FROM (same profile and
 * options) is freed after S, which hands it the names it made.
 */
void shown_share(struct shown *s, struct shown *from);
void shown_free(struct shown *s);

/*
 * Symbol ID asked of the cache ahead as a line of the call graph or the
 * index will read it (the first line of its struct pf_sym, and its line
 * name or its cached shown name's slot), or as a row of the flat profile
 * will (both lines of it); only what a line at the other end of a call
 * reads of it (_peer); then, that in, its name as printed (_name).  Hints
 * only: nothing is read or written that a row would not, and the output
 * is the same without them.
 */
void shown_ask(const struct shown *s, uint32_t id);
void shown_ask_flat(const struct shown *s, uint32_t id);
void shown_ask_peer(const struct shown *s, uint32_t id);
void shown_ask_name(const struct shown *s, uint32_t id);

/* gprof's print_name_only() and print_name() (report_name_only(), report_name() call them). */
size_t shown_name_only(struct shown *s, struct sbuf *sb, uint32_t id);
void shown_name(struct shown *s, struct sbuf *sb, uint32_t id);

/*
 * The names of the call graph's lines made ahead, for printing it all:
 * each symbol's shown_name() text (if short, as most are; else where its
 * shown name is) with what a line reads of it besides, in one cache line
 * a symbol (64 bytes), so that a line at the other end of a call reads
 * its arc and that.  S is the one whose names its siblings share
 * (shown_share()): begin on it (0, or -1 if memory ran out: then nothing
 * changes); then make symbols [FROM, TO) on it or on any sibling, each
 * range once, one thread a sibling, before any line is printed; end on
 * it once printing is done.  The output is the same with them or without.
 */
int shown_lines_begin(struct shown *s);
void shown_lines_make(struct shown *s, uint32_t from, uint32_t to);
void shown_lines_end(struct shown *s);

/*
 * What a call-graph line at the other end of a call reads of symbol ID
 * besides its name: its cycle (0 if none) and the calls into it or into
 * its cycle (gprof's "called" total), from the line names if made.
 */
void shown_peer(const struct shown *s, uint32_t id, int *cycle, uint64_t *calls);

#endif
