/* calltree: the call tree's rows, nodes made from the profile's arcs as they are opened. */
#ifndef TGPROF_CALLTREE_H
#define TGPROF_CALLTREE_H

#include <stddef.h>
#include <stdint.h>

#include "core/flame.h"
#include "core/measure.h"
#include "core/profile.h"
#include "print/report.h"

/*
 * A call tree shows the whole program from its roots, or one function
 * and what it calls, or one and its callers up to the roots (bottom-up).
 * Its rows are its nodes shown, in preorder, a node's open subtree after
 * it, one level deeper; opening a node inserts its children, closing it
 * drops its subtree.
 *
 * With call stacks (a pf_measure) the tree is the stacks' (core/flame.h's
 * views): real paths, cycles not collapsed, recursion collapsed as asked,
 * every time measured; a node's children are what it called on those
 * paths (bottom-up: its callers), and top-down a "self" row
 * (CALLTREE_SELF) beside them holds its own samples, so that they add up.
 * Its frames may be a library's (PF_FRAME_OTHER + k) or markers
 * (FLAME_INCOMPLETE, FLAME_TRUNCATED).
 *
 * Without, it is made from gprof's arcs as they are opened: the roots are
 * the functions no other function calls and the cycles nothing outside
 * calls, most time first; a cycle called from outside is one node whose
 * children are its members; calls between members are not shown again; a
 * function already on a node's path is a leaf (CALLTREE_RECURSIVE); every
 * time that gprof or the tree shared among callers by calls is marked
 * estimated.  calltree.c says how the times are made.
 *
 * The profile and the measure outlive the tree; no report is kept.
 */

#define CALLTREE_MAX 100000	/* rows at most: opening stops short of more */
#define CALLTREE_SELF 0xfffffff2u	/* a stack tree's row of its parent's own samples */

enum {
	CALLTREE_OPEN = 1,		/* its children follow it */
	CALLTREE_KIDS = 2,		/* it has children to show */
	CALLTREE_RECURSIVE = 4,		/* already on its path: a leaf, never opened, no time */
	CALLTREE_ESTIMATED = 8,		/* its time is an estimate: gprof's, or a share split by calls */
	CALLTREE_SHARED = 16		/* top-down: its time is a share of its function's, split by
					 * calls on its path (its children's are too) */
};

struct calltree_node {
	uint32_t id;		/* a function, or a cycle as a whole; in a stack tree, its frame */
	uint32_t arc;		/* the (first) arc it was met along; PF_NONE: a root, a cycle's
				 * member or a member's cycle, a frame no arc leads to */
	uint32_t ref;		/* in a stack tree, its node (core/flame.h); else PF_NONE */
	uint32_t depth;		/* 0 for a root */
	uint32_t flags;		/* CALLTREE_* */
	uint64_t calls;		/* the arcs' counts; a root's or member's calls from others */
	double time;		/* inclusive time along its path: ticks, or the measure's samples */
};

struct calltree;

/*
 * What profile P gives every tree (once: its arcs, cycles sorted), no
 * rows; NULL: out of memory.  With M (made for P; it outlives the tree)
 * the trees are the call stacks'.
 */
struct calltree *calltree_new(const struct profile *p, const struct pf_measure *m);
void calltree_free(struct calltree *ct);

/*
 * The rows anew: the roots of the whole program (ROOT PF_NONE, or not a
 * function or cycle), else ROOT and what it calls or (INVERTED) its
 * callers; the first root open.  COLLAPSE (FLAME_RECURSION_*): recursion
 * in a stack tree.  0, or -1 when out of memory (no rows).
 */
int calltree_make(struct calltree *ct, struct report *r, uint32_t root, int inverted, int collapse);
size_t calltree_nrows(const struct calltree *ct);
/* The measure the times are of (calltree_new()'s M), or NULL: gprof's. */
const struct pf_measure *calltree_measure(const struct calltree *ct);
/* Row I < calltree_nrows(); valid until the rows change. */
const struct calltree_node *calltree_row(const struct calltree *ct, size_t i);

/*
 * Opens row I LEVELS deep (1: its children; SIZE_MAX: all below it)
 * within CALLTREE_MAX rows: 0; 1 if it stopped short of that; -1 when
 * out of memory (the rows as they were).
 */
int calltree_open(struct calltree *ct, size_t i, size_t levels);
/* Closes row I: its subtree goes. */
void calltree_close(struct calltree *ct, size_t i);
/* The row of row I's parent, I itself for a root. */
size_t calltree_parent(const struct calltree *ct, size_t i);
/*
 * Every node open (as calltree_open()), *SEL the same node's row again,
 * or the nearest; nothing when *SEL is no row (a tree without rows).
 */
int calltree_open_all(struct calltree *ct, size_t *sel);
/* Only the roots, closed; *SEL the root of the row it was. */
void calltree_close_all(struct calltree *ct, size_t *sel);

#endif
