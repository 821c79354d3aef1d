/* scan: libtgmon's search of the stack's words for return addresses, each checked by the call before it (x86-64). */
#ifndef TGMON_SCAN_H
#define TGMON_SCAN_H

#include <stdint.h>

#include "tgmon.h"

struct tgmon_walk;

/*
 * The function that the call instruction ending at R (a return address in
 * loaded code) calls: direct (e8), through a GOT slot (ff 15), or through
 * a PLT entry (ff 25, after endbr64 and bnd if IBT made them) to what its
 * GOT slot holds; 0 if it is not such a call or cannot be read.  The
 * bytes are read where tgmon_walk_mapped() says they can be: in objects
 * loaded at start, without a system call.
 */
TGMON_HIDDEN uint64_t tgmon_scan_callee(uint64_t r);

/*
 * The instruction before RA (a return address in loaded code): 2, a
 * direct call to at most 64 KiB before IN, the function that holds it
 * (tgmon_scan_callee); 1, another call (direct, or ff /2 through a
 * register or memory, whose target is not known: *%reg, *(%reg), *(sib),
 * *d8(%reg), *d8(sib), *d32(%reg), *d32(sib)); 0, no call.
 */
TGMON_HIDDEN int tgmon_scan_call_kind(uint64_t ra, uint64_t in);

/*
 * Where the interrupted function has not set up its frame, or has taken
 * it down (its first and last instructions, a function without a frame
 * pointer that uses none, a PLT entry), rbp (FP) is its caller's: the
 * return address into the caller is among the few words above the stack
 * pointer SP, below that frame.  It is the one whose call instruction
 * calls the function the program counter PC is in (at most 64 KiB into
 * it): returns it, and its place in *AT; 0 if none is found.
 */
TGMON_HIDDEN uint64_t tgmon_scan_entry(struct tgmon_walk *w, uint64_t pc, uint64_t sp, uint64_t fp, uint64_t *at);

/*
 * Whether the N bytes at S, a function's (in an object loaded at start),
 * begin as -pg makes a function begin: a call to libtgmon's stubs
 * (mcount, __fentry__: direct, through the PLT or the GOT) among their
 * first PG_PROLOGUE, after the prologue that sets up the frame.  The
 * bytes are not decoded: a call is any e8 or ff 15 that calls the stubs.
 */
TGMON_HIDDEN int tgmon_scan_pg_entry(uint64_t s, uint64_t n);

/*
 * Whether the N bytes at S (in an object loaded at start; the first
 * JUMP_SCAN of them) hold a jump, jmp or jcc with a 32-bit displacement,
 * into [LO, HI): the way a function goes to a part of it in another
 * section (foo.cold), whose distance the assembler cannot know.  The
 * bytes are not decoded: a jump is any e9 or 0f 8x whose displacement
 * leads there.
 */
TGMON_HIDDEN int tgmon_scan_jumps_into(uint64_t s, uint64_t n, uint64_t lo, uint64_t hi);

/* A call into a library found on the stack: it returns to R, at AT, in the function whose frame is F. */
struct tgmon_scan_call {
	uint64_t r, at, f;	/* R 0: none found; F 0: not found */
};

/*
 * The call into the library a sample is in (W's lo at its SP).  If BP,
 * its rbp, is a frame of the program's within SCAN_BYTES (the library
 * left it alone: it is the calling function's), the call is the return
 * address below it, the closest, that calls out of the profiled code,
 * from a function that its caller's call may have reached (stale return
 * addresses lie further down, in the library's frames).  Else, among the
 * SCAN_BYTES above SP, the return addresses into the program (not SELF,
 * libtgmon's module: tgmon_walk_program) whose call instruction calls out
 * of the profiled code (tgmon_scan_callee: a stale pointer that happens
 * to follow such bytes rarely calls a library), lowest first,
 * CALLER_TRIES at most: the first whose caller's frame is found or that
 * lies among the SCAN_NEAR above SP (further up, in a library's frames,
 * lie stale ones, left by earlier calls, and those of a callback the
 * library called).  None when the first return address into the program
 * is KEEP (the walk's own innermost one, as tgmon_scan_entry finds it:
 * among the 8 words above SP).
 */
TGMON_HIDDEN void tgmon_scan_find(struct tgmon_walk *w, uint64_t bp, int self, uint64_t keep,
    struct tgmon_scan_call *c);

#endif
