/* scan: libtgmon's search of the stack's words for return addresses, each checked by the call before it (x86-64). */
#include <stdint.h>
#include <string.h>

#include "scan.h"
#include "tgmon.h"
#include "walk.h"

/*
 * Where neither frame pointers nor call frame information lead (a
 * library's frames without .eh_frame, or TGMON_UNWIND=fp; a function's
 * first instructions), the walk looks among the stack's words for a
 * return address, and believes one only if the instruction before it is
 * a call, to the function the walk came from where that can be known.  A
 * stale return address (left below the live frames by an earlier call)
 * can still mislead it: the checks make that rare, not impossible.
 *
 * Every function here is named tgmon_*, as in walk.c: they run while the
 * program is sampled, and tgprof shows them as the cost of profiling.
 */
#define SCAN_BYTES 8192			/* a library's frames searched for its caller (snprintf's: 3 KiB) */
#define SCAN_NEAR 512			/* its caller's return address believed without its frame */
#define CALLER_FRAME 65536		/* that caller's frame is at most this far above its call */
#define CALLER_TRIES 4			/* return addresses tried as the caller's, at most */
#define PG_PROLOGUE 64			/* -pg's call to the stubs is among a function's first bytes */
#define JUMP_SCAN 16384			/* a function's bytes searched for a jump into a part of it */

uint64_t
tgmon_scan_callee(uint64_t r)
{
	const unsigned char *c = (const unsigned char *)r;
	uint64_t t = 0, slot;
	int32_t d;
	int m = tgmon_module_at(r), k;

	if (!tgmon_walk_mapped(m, r - 6, 6))
		return 0;
	memcpy(&d, c - 4, sizeof d);
	if (c[-5] == 0xe8)
		t = r + (uint64_t)(int64_t)d;
	else if (c[-6] == 0xff && c[-5] == 0x15 && tgmon_walk_mapped(m, slot = r + (uint64_t)(int64_t)d, 8))
		t = *(const uint64_t *)slot;
	if ((m = tgmon_module_at(t)) < 0 || !tgmon_walk_mapped(m, t, 11))
		return t;
	c = (const unsigned char *)t;
	k = c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa ? 4 : 0;	/* endbr64 */
	k += c[k] == 0xf2;								/* bnd */
	if (c[k] == 0xff && c[k + 1] == 0x25) {
		memcpy(&d, c + k + 2, sizeof d);
		slot = t + (uint64_t)k + 6 + (uint64_t)(int64_t)d;
		t = tgmon_walk_mapped(m, slot, 8) ? *(const uint64_t *)slot : 0;
	}
	return t;
}

int
tgmon_scan_call_kind(uint64_t ra, uint64_t in)
{
	const unsigned char *c = (const unsigned char *)ra;
	uint64_t t;

	if ((t = tgmon_scan_callee(ra)) != 0)
		return t <= in && in - t < 65536 ? 2 : 1;
	if (!tgmon_walk_mapped(-1, ra - 7, 7))
		return 0;
	return (c[-2] == 0xff && ((c[-1] & 0xf8) == 0xd0 ||
	    ((c[-1] & 0xf8) == 0x10 && c[-1] != 0x14 && c[-1] != 0x15))) ||
	    (c[-3] == 0xff && (c[-2] == 0x14 || ((c[-2] & 0xf8) == 0x50 && c[-2] != 0x54))) ||
	    (c[-4] == 0xff && c[-3] == 0x54) ||
	    (c[-6] == 0xff && (c[-5] & 0xf8) == 0x90 && c[-5] != 0x94) ||
	    (c[-7] == 0xff && (c[-6] == 0x94 || c[-6] == 0x14));
}

uint64_t
tgmon_scan_entry(struct tgmon_walk *w, uint64_t pc, uint64_t sp, uint64_t fp, uint64_t *at)
{
	uint64_t a, r, t;

	for (a = sp; a < sp + 64 && a + 8 <= fp && tgmon_walk_readable(w, a); a += 8) {
		r = *(const uint64_t *)a;
		if (tgmon_module_at(r) < 0 || (t = tgmon_scan_callee(r)) == 0 || t > pc || pc - t >= 65536)
			continue;
		*at = a;
		return r;
	}
	return 0;
}

/*
 * The lowest 8-aligned value from FLOOR to AT + CALLER_FRAME among BP and
 * the words in [SP, AT) (which the scan proved readable); ~0 if none.
 */
static uint64_t
tgmon_scan_lowest(uint64_t sp, uint64_t bp, uint64_t at, uint64_t floor)
{
	uint64_t f = ~(uint64_t)0, a, v;

	if (bp >= floor && bp - at <= CALLER_FRAME && !(bp & 7))
		f = bp;
	for (a = sp; a < at; a += 8)
		if ((v = *(const uint64_t *)a) >= floor && v < f && v - at <= CALLER_FRAME && !(v & 7))
			f = v;
	return f;
}

/*
 * The frame of the program's function that made the call into a library
 * returning to R at AT: its frame pointer then, which the library either
 * left in rbp (BP) or saved among the words from SP up to AT.  Of the
 * candidates above AT, within CALLER_FRAME, lowest first (4 * CALLER_TRIES
 * at most), that are frames (their return address in loaded code): one
 * whose return address follows a call to R's function, or the first if
 * its return address follows a call in the program (not SELF: R's
 * function may have been called by a tail call) or if it is the thread's
 * root frame (main's, called from the C library); 0 if none.  Not a
 * signal handler's frame (the trampoline follows no call): below the
 * stack pointer, the sample handler's earlier runs leave their frames,
 * with their calls to the C library.
 */
static uint64_t
tgmon_scan_caller_frame(struct tgmon_walk *w, uint64_t sp, uint64_t bp, uint64_t at, uint64_t r, int self)
{
	uint64_t floor = at + 8, f, ra;
	int k, first = 1, kind;

	for (k = 0; k < 4 * CALLER_TRIES && (f = tgmon_scan_lowest(sp, bp, at, floor)) != ~(uint64_t)0; k++) {
		floor = f + 8;
		if (!tgmon_walk_readable(w, f) || tgmon_module_at(ra = ((const uint64_t *)f)[1]) < 0)
			continue;	/* not a frame */
		kind = tgmon_scan_call_kind(ra, r - 1);
		if (kind == 2 || (first && ((kind == 1 && tgmon_walk_program(tgmon_module_at(ra), self)) ||
		    (w->s->top != 0 ? f >= w->s->top : ((const uint64_t *)f)[0] == 0))))
			return f;
		first = 0;
	}
	return 0;
}

/*
 * The call into the library below BP, if BP is a frame of the program's
 * within SCAN_BYTES above SP (see tgmon_scan_find): 1, it is in *C.
 */
static int
tgmon_scan_below(struct tgmon_walk *w, uint64_t sp, uint64_t bp, int self, struct tgmon_scan_call *c)
{
	uint64_t at, r, t, f;
	int mt;

	if (!(bp > sp && bp - sp < SCAN_BYTES && tgmon_walk_readable(w, bp) &&
	    tgmon_walk_program(tgmon_module_at(f = ((const uint64_t *)bp)[1]), self)))
		return 0;
	for (at = bp - 8; at >= sp && at < bp && tgmon_walk_readable(w, at); at -= 8) {
		r = *(const uint64_t *)at;
		if (tgmon_walk_program(tgmon_module_at(r), self) && (t = tgmon_scan_callee(r)) != 0 &&
		    (mt = tgmon_module_at(t)) >= 0 && !tgmon_is_profiled(mt) &&
		    tgmon_scan_call_kind(f, r - 1) != 0) {
			*c = (struct tgmon_scan_call){ r, at, bp };
			return 1;
		}
	}
	return 0;
}

void
tgmon_scan_find(struct tgmon_walk *w, uint64_t bp, int self, uint64_t keep, struct tgmon_scan_call *c)
{
	uint64_t sp = w->lo, at, r, t, f;
	int mt, tries = 0;

	c->r = c->at = c->f = 0;
	/* rbp first: where the library left it alone, it is the calling function's frame */
	if (tgmon_scan_below(w, sp, bp, self, c))
		return;
	for (at = sp; at < sp + SCAN_BYTES && tries < CALLER_TRIES && tgmon_walk_readable(w, at); at += 8) {
		r = *(const uint64_t *)at;
		if (!tgmon_walk_program(tgmon_module_at(r), self))
			continue;
		if (r == keep && at - sp < 64)
			return;
		keep = 0;
		if ((t = tgmon_scan_callee(r)) == 0 || (mt = tgmon_module_at(t)) < 0 || tgmon_is_profiled(mt))
			continue;
		tries++;
		if ((f = tgmon_scan_caller_frame(w, sp, bp, at, r, self)) != 0 || at - sp < SCAN_NEAR) {
			*c = (struct tgmon_scan_call){ r, at, f };
			return;
		}
	}
}

int
tgmon_scan_pg_entry(uint64_t s, uint64_t n)
{
	const unsigned char *c = (const unsigned char *)s;
	uint64_t lo = tgmon_stub_at(TGMON_SPAN_BEGIN), hi = tgmon_stub_at(TGMON_SPAN_END), j;

	n = n < PG_PROLOGUE ? n : PG_PROLOGUE;
	if (n < 5 || !tgmon_walk_mapped(tgmon_module_at(s), s, n))
		return 0;
	for (j = 5; j <= n; j++)	/* s + j, the end of a call: e8 rel32, or ff 15 rel32 */
		if ((c[j - 5] == 0xe8 || (j >= 6 && c[j - 6] == 0xff && c[j - 5] == 0x15)) &&
		    tgmon_scan_callee(s + j) - lo < hi - lo)
			return 1;
	return 0;
}

int
tgmon_scan_jumps_into(uint64_t s, uint64_t n, uint64_t lo, uint64_t hi)
{
	const unsigned char *c = (const unsigned char *)s;
	uint64_t j, k;
	int32_t d;

	n = n < JUMP_SCAN ? n : JUMP_SCAN;
	if (n < 5 || !tgmon_walk_mapped(tgmon_module_at(s), s, n))
		return 0;
	for (j = 0; j + 5 <= n; j++) {
		if (c[j] == 0xe9)
			k = j + 1;	/* jmp rel32 */
		else if (j + 6 <= n && c[j] == 0x0f && (c[j + 1] & 0xf0) == 0x80)
			k = j + 2;	/* jcc rel32 */
		else
			continue;
		memcpy(&d, c + k, sizeof d);
		if (s + k + 4 + (uint64_t)(int64_t)d - lo < hi - lo)
			return 1;
	}
	return 0;
}
