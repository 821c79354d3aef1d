/* mcount-aarch64.S: libtgmon's entry stub on aarch64 (_mcount): count a call, fast. */
/*
 * GCC's -pg calls _mcount after the prologue as an ordinary function
 * ("mov x0, x30; bl _mcount"): x0 is the callee's return address into
 * its caller (from), x30 the return address into the callee (self), and
 * the caller-saved registers are the stub's.  The fast path counts a
 * call already in the calling thread's site table (tgmon.h), or in its
 * hash table's first choice of slot, with one increment: no lock, no
 * atomic, no call.  Anything else goes to tgmon_slow(from, self, frame,
 * link) in C, with the callee's frame record (x29) and the frame pointer
 * saved there.
 *
 * _mcount only branches to tgmon_mcount: gprof leaves samples in a
 * symbol named _mcount out of the profile, and sample.c charges the ones
 * in that branch to tgmon_mcount (tgmon_stub_span, as on x86-64: the
 * stubs' start, their end, two unused, tgmon_mcount's start).
 */
	.pushsection .rodata.tgmon_steps, "a"
	.p2align 3
	.globl	tgmon_stub_span
	.hidden	tgmon_stub_span
tgmon_stub_span:			/* each relative to its own place */
	.word	.Lstubs_begin - .
	.word	.Lstubs_end - .
	.word	0
	.word	0
	.word	tgmon_mcount - .
	.popsection

	.text
	.p2align 4
.Lstubs_begin:
	.globl	_mcount
	.type	_mcount, %function
_mcount:
	b	tgmon_mcount
	.size	_mcount, .-_mcount

	.type	tgmon_mcount, %function
	.p2align 4
tgmon_mcount:
	.cfi_startproc
	adrp	x9, :gottprel:tgmon_self
	ldr	x9, [x9, #:gottprel_lo12:tgmon_self]
	mrs	x10, tpidr_el0
	ldr	x11, [x10, x9]			/* this thread's table */
	cbz	x11, .Lslow
	ldp	x12, x13, [x11]			/* lowpc, span */
	sub	x12, x0, x12			/* from - lowpc */
	cmp	x12, x13
	b.hs	.Lhash				/* not in the text (or no slots) */
	ldr	x14, [x11, #56]			/* flat: a small text's slots, all from 64 */
	cbz	x14, .Lchunk
	and	x12, x12, #~1			/* the site's slot: 16 bytes a 2 bytes of text */
	add	x12, x11, x12, lsl #3
	ldp	x13, x14, [x12, #64]		/* its first callee's self, and calls */
	cmp	x13, x30
	b.ne	.Lhash
	add	x14, x14, #1
	str	x14, [x12, #72]
	ret
.Lchunk:
	lsr	x12, x12, #12			/* its 4 KiB of text's chunk (TGMON_CHUNK_SHIFT) */
	add	x12, x11, x12, lsl #3
	ldr	x12, [x12, #64]
	cbz	x12, .Lslow			/* none yet */
	and	x13, x0, #0xffe			/* the site's slot: 16 bytes a 2 bytes of text */
	add	x12, x12, x13, lsl #3		/* (lowpc is on a 4 KiB boundary) */
	ldp	x13, x14, [x12]			/* its first callee's self, and calls */
	cmp	x13, x30
	b.ne	.Lhash
	add	x14, x14, #1
	str	x14, [x12, #8]
	ret
.Lhash:						/* the hash table's slot (tgmon_hash) */
	ldr	x11, [x11, #24]
	cbz	x11, .Lslow
	movz	x12, #0x79b1			/* self * 0xffffffff9e3779b1 */
	movk	x12, #0x9e37, lsl #16
	movk	x12, #0xffff, lsl #32
	movk	x12, #0xffff, lsl #48
	mul	x12, x30, x12
	eor	x12, x12, x0
	movz	x13, #0xca6b			/* * 0xffffffff85ebca6b */
	movk	x13, #0x85eb, lsl #16
	movk	x13, #0xffff, lsl #32
	movk	x13, #0xffff, lsl #48
	mul	x12, x12, x13
	lsr	x12, x12, #32
	ldr	x13, [x11]			/* mask */
	and	x12, x12, x13
	add	x12, x11, x12, lsl #5		/* 32-byte slots, from offset 32 */
	ldp	x13, x14, [x12, #32]		/* from, self */
	cmp	x13, x0
	b.ne	.Lslow
	cmp	x14, x30
	b.ne	.Lslow
	ldr	x13, [x12, #48]
	add	x13, x13, #1
	str	x13, [x12, #48]
	ret
.Lslow:
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov	x2, x29				/* frame: the callee's frame record */
	ldr	x3, [x29]			/* link: its caller's frame */
	mov	x1, x30				/* self (x0: from) */
	mov	x29, sp
	bl	tgmon_slow
	ldp	x29, x30, [sp], #16
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	tgmon_mcount, .-tgmon_mcount
.Lstubs_end:

/*
 * The calibration (tgmon_call_ps, sample.c), outside the stubs' span:
 * tgmon_calib_pg(n) calls n times a function shaped as gcc -pg -O2
 * makes a leaf (stp x29, x30; mov x29, sp; mov x0, x30; bl _mcount;
 * ldp x29, x30; ret), whose _mcount only returns; tgmon_calib_plain(n)
 * as many times one that only returns.  Their difference is what -pg
 * adds to a call in the calling function.  The count is kept in x9,
 * which neither callee touches.
 */
	.macro	CALIB_LOOP name, callee
	.globl	\name
	.hidden	\name
	.type	\name, %function
	.p2align 4
\name:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov	x29, sp
	mov	x9, x0
1:	bl	\callee
	subs	x9, x9, #1
	b.ne	1b
	ldp	x29, x30, [sp], #16
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	\name, .-\name
	.endm

	CALIB_LOOP tgmon_calib_pg, tgmon_calib_pgfn
	CALIB_LOOP tgmon_calib_plain, tgmon_calib_ret

	.type	tgmon_calib_pgfn, %function
	.p2align 4
tgmon_calib_pgfn:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov	x29, sp
	mov	x0, x30
	bl	tgmon_calib_ret
	ldp	x29, x30, [sp], #16
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	tgmon_calib_pgfn, .-tgmon_calib_pgfn

	.type	tgmon_calib_ret, %function
	.p2align 4
tgmon_calib_ret:
	ret
	.size	tgmon_calib_ret, .-tgmon_calib_ret

/*
 * tgmon_on_stack(fn, arg, top): fn(arg) on another stack, whose end
 * (16-aligned) is top; returns what fn returns, on the caller's stack
 * again.  x29 keeps the caller's frame record, so frames above fn still
 * chain to it.  The writer runs on a stack of its own (start.c): it may
 * be called on a small alternate signal stack.
 */
	.globl	tgmon_on_stack
	.hidden	tgmon_on_stack
	.type	tgmon_on_stack, %function
	.p2align 4
tgmon_on_stack:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov	x29, sp
	.cfi_def_cfa_register 29
	mov	sp, x2
	mov	x9, x0
	mov	x0, x1
	blr	x9
	mov	sp, x29
	.cfi_def_cfa_register 31
	ldp	x29, x30, [sp], #16
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	tgmon_on_stack, .-tgmon_on_stack

	.section .note.GNU-stack,"",%progbits
