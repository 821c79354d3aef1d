/* names: the symbols' names in strcmp()'s order (name_order, name_rank), by an MSD radix sort. */
#ifndef TGPROF_NAMES_H
#define TGPROF_NAMES_H

struct profile;

/*
 * p->name_order (the symbols by raw name, as a stable strcmp() sort
 * orders them: equal names by id) and p->name_rank (each symbol's place
 * among the distinct names), which the orders' comparisons break ties
 * with.  Reads only the names.  0, or -1 when out of memory.
 */
int names_sort(struct profile *p);

#endif
