/* cfi: libtgmon's unwinder: a frame's caller by the call frame information of .eh_frame (x86-64). */
#ifndef TGMON_CFI_H
#define TGMON_CFI_H

#include <stdint.h>
#include <ucontext.h>

#include "tgmon.h"

struct tgmon_walk;

/* DWARF's numbers of the registers the walk follows. */
#define CFI_RBX 3
#define CFI_RBP 6
#define CFI_RSP 7
#define CFI_RA 16		/* the return address's column; here, the program counter */
#define CFI_NREGS 17

/* The registers of a frame being unwound (DWARF's numbers), those in KNOWN (a bit each). */
struct tgmon_cfi_regs {
	uint64_t r[CFI_NREGS];
	uint32_t known;
};

/* The registers of an interrupted context, from its ucontext_t's gregs at G (proven readable). */
TGMON_HIDDEN void tgmon_cfi_context(struct tgmon_cfi_regs *r, const greg_t *g);

/*
 * One frame up from R (its program counter exact if FIRST, else a return
 * address) by its module's CFI, to a return address that follows a call
 * (or the signal trampoline's, tgmon_walk_restorer): R becomes the
 * caller's registers, those the rules give (the callee-saved ones kept
 * or restored, the stack pointer: the CFA).  Where R was interrupted
 * (FIRST), rules that give another return address are mended (a leaf in
 * assembly whose CFI leaves out its pushes).  0 if there are no rules
 * for R, or they cannot be followed: R is left as it was.  The stack's
 * words are read only where tgmon_walk_readable(W) allows.
 */
TGMON_HIDDEN int tgmon_cfi_step(struct tgmon_walk *w, struct tgmon_cfi_regs *r, int first);

/*
 * The caller of the function interrupted at R's program counter (exact),
 * by its CFI: 1, R is the caller's registers (as tgmon_cfi_step makes
 * them, to a return address that follows a call); 0, the function has
 * set up its frame (its CFA is rbp's: the frame pointers' chain goes on
 * from rbp), R unchanged; -1, there are no rules or they cannot be
 * followed (R may have changed).
 */
TGMON_HIDDEN int tgmon_cfi_caller(struct tgmon_walk *w, struct tgmon_cfi_regs *r);

/*
 * The span [*LO, *HI) of the FDE that covers PC (in an object loaded at
 * start: no system call), and whether it is a function's that a call
 * enters: 1, at its first address the CFA is rsp + 8, the return address
 * just pushed; 0, it starts inside a frame already set up (a part split
 * off a function, GCC's foo.cold, which runs in foo's frame and is only
 * jumped to); -1, no CFI covers PC, or it is not understood (*LO and
 * *HI may have been set).  A part split off before the function set up
 * its frame (shrink-wrapped) starts as a function does: 1.
 */
TGMON_HIDDEN int tgmon_cfi_span(uint64_t pc, uint64_t *lo, uint64_t *hi);

#endif
