/* mcount-x86_64.S: libtgmon's entry stubs (mcount, _mcount, __fentry__): count a call, fast. */
/*
 * The fast path counts a call already in the calling thread's site table
 * (tgmon.h), or in its hash table's first choice of slot, with one
 * increment: no lock, no atomic, no call.  It uses rax, rcx, rdx (saved)
 * and r11 (free at a call); flags are clobbered as by any call.  Anything
 * else goes to tgmon_slow(from, self, frame, link) in C, with every
 * argument register, r10 (the static chain), r11 and xmm0-7 saved and the
 * stack aligned.
 *
 * mcount is called after the prologue: the callee's return address into
 * its caller is at 8(%rbp).  __fentry__ (-mfentry) is called before it:
 * that address is just above __fentry__'s own return address.  Each has
 * its own copy of the counting code (tgmon_count, tgmon_fcount), so that
 * a sample's program counter tells which.
 *
 * The stack walk of a sample taken in here (walk-x86_64.c) must find the
 * return address into the profiled function: STEP records, after every
 * instruction that moves the stack pointer, how many bytes above it that
 * address now is (tgmon_stub_steps: offsets from the stubs' start).
 * While the slow path has realigned the stack, rbx holds the stack
 * pointer of depth 80 (STEP_RBX), and so does 128(%rsp) during the call
 * to tgmon_slow, for a walk that comes up from inside it through the
 * call's return address.  tgmon_stub_span gives the stubs' start and end
 * and those return addresses, and tgmon_mcount's start, relative to
 * itself: labels in the text would be taken for functions by gprof.
 */
#define STEP_FENTRY	0x1000	/* __fentry__'s layout: the caller's return address is above */
#define STEP_RBX	0x800	/* the depth is 80 above rbx, not above rsp */

	.macro STEP depth
.Lstep\@:
	.pushsection .rodata.tgmon_steps, "a"
	.long	.Lstep\@ - .Lstubs_begin
	.long	\depth
	.popsection
	.endm

	.pushsection .rodata.tgmon_steps, "a"
	.p2align 3
	.globl	tgmon_stub_span
	.hidden	tgmon_stub_span
tgmon_stub_span:			/* each relative to its own place */
	.long	.Lstubs_begin - .
	.long	.Lstubs_end - .
	.long	.Ltgmon_count_ret - .
	.long	.Ltgmon_fcount_ret - .
	.long	tgmon_mcount - .
	.globl	tgmon_stub_steps
	.hidden	tgmon_stub_steps
tgmon_stub_steps:
	.popsection

	.text
	.p2align 4
.Lstubs_begin:

	.globl	mcount
	.type	mcount, @function
	.globl	_mcount
	.type	_mcount, @function
/*
 * gprof leaves time in symbols named mcount out of the profile: the work
 * is done under another name, so that the runtime's cost shows.
 */
mcount:
_mcount:
	STEP	0
	jmp	tgmon_mcount
	.size	mcount, .-mcount
	.size	_mcount, .-_mcount

	.type	tgmon_mcount, @function
	.p2align 4
tgmon_mcount:
	.cfi_startproc
	STEP	0
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	STEP	8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	STEP	16
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	STEP	24
	movq	24(%rsp), %rcx		/* self: where mcount returns to */
	movq	8(%rbp), %rdx		/* from: where the callee returns to */
	jmp	tgmon_count
	.cfi_endproc
	.size	tgmon_mcount, .-tgmon_mcount

	.globl	__fentry__
	.type	__fentry__, @function
	.p2align 4
__fentry__:
	.cfi_startproc
	STEP	STEP_FENTRY + 0
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	STEP	STEP_FENTRY + 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	STEP	STEP_FENTRY + 16
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	STEP	STEP_FENTRY + 24
	movq	24(%rsp), %rcx		/* self */
	movq	32(%rsp), %rdx		/* from */
	jmp	tgmon_fcount
	.cfi_endproc
	.size	__fentry__, .-__fentry__

/*
 * The fast path's way out: pops rax, rcx, rdx and returns; the code after
 * it is at depth 24 again.  FENTRY as for COUNT.
 */
	.macro RETURN fentry
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 16
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 0
	ret
	.cfi_adjust_cfa_offset 24
	STEP	\fentry + 24
	.endm

/*
 * NAME: rcx = self, rdx = from, with rax, rcx, rdx pushed; pops them and
 * returns.  FENTRY: 0 after mcount, STEP_FENTRY after __fentry__.  The
 * slow path passes tgmon_slow the callee's frame (where its frame
 * pointer is, or will be once its prologue has run) and the frame
 * pointer saved there (its caller's).
 */
	.macro COUNT name, fentry
	.type	\name, @function
	.p2align 4
\name:
	.cfi_startproc
	.cfi_adjust_cfa_offset 24
	STEP	\fentry + 24
	movq	tgmon_self@GOTTPOFF(%rip), %rax
	movq	%fs:(%rax), %r11	/* this thread's table */
	testq	%r11, %r11
	jz	.Lslow\@
	movq	%rdx, %rax
	subq	(%r11), %rax		/* from - lowpc */
	cmpq	8(%r11), %rax
	jae	.Lhash\@		/* not in the text (or no slots) */
	cmpq	$0, 56(%r11)		/* flat: a small text's slots, all from 64 */
	je	.Lchunk\@
	andq	$-2, %rax		/* the site's slot: 16 bytes a 2 bytes of text */
	cmpq	%rcx, 64(%r11,%rax,8)	/* its first callee's self */
	jne	.Lhash\@
	incq	72(%r11,%rax,8)
	RETURN	\fentry
.Lchunk\@:
	shrq	$12, %rax		/* its 4 KiB of text's chunk (TGMON_CHUNK_SHIFT) */
	movq	64(%r11,%rax,8), %rax
	testq	%rax, %rax
	jz	.Lslow\@		/* none yet */
	movl	%edx, %r11d		/* the site's slot: 16 bytes a 2 bytes of text */
	andl	$0xffe, %r11d		/* (lowpc is on a 4 KiB boundary) */
	cmpq	%rcx, (%rax,%r11,8)	/* its first callee's self */
	jne	.Lother\@
	incq	8(%rax,%r11,8)
	RETURN	\fentry
.Lother\@:				/* the table again */
	movq	tgmon_self@GOTTPOFF(%rip), %rax
	movq	%fs:(%rax), %r11
.Lhash\@:				/* the hash table's slot (tgmon_hash) */
	movq	24(%r11), %r11
	testq	%r11, %r11
	jz	.Lslow\@
	imulq	$-0x61c8864f, %rcx, %rax	/* self * 0x...9e3779b1 */
	xorq	%rdx, %rax
	imulq	$-0x7a143595, %rax, %rax	/* * 0x...85ebca6b */
	shrq	$32, %rax
	andq	(%r11), %rax		/* & mask */
	shlq	$5, %rax		/* 32-byte slots */
	leaq	32(%r11,%rax), %rax
	cmpq	%rdx, (%rax)
	jne	.Lslow\@
	cmpq	%rcx, 8(%rax)
	jne	.Lslow\@
	incq	16(%rax)
	RETURN	\fentry
.Lslow\@:
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	STEP	\fentry + 32
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	STEP	\fentry + 40
	pushq	%r8
	.cfi_adjust_cfa_offset 8
	STEP	\fentry + 48
	pushq	%r9
	.cfi_adjust_cfa_offset 8
	STEP	\fentry + 56
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	STEP	\fentry + 64
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	STEP	\fentry + 72
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	STEP	\fentry + 80
	movq	%rsp, %rbx
	.cfi_def_cfa_register %rbx
	subq	$144, %rsp
	STEP	\fentry + STEP_RBX
	andq	$-16, %rsp
	movq	%rbx, 128(%rsp)
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movdqu	%xmm2, 32(%rsp)
	movdqu	%xmm3, 48(%rsp)
	movdqu	%xmm4, 64(%rsp)
	movdqu	%xmm5, 80(%rsp)
	movdqu	%xmm6, 96(%rsp)
	movdqu	%xmm7, 112(%rsp)
	movq	%rdx, %rdi
	movq	%rcx, %rsi
	.if \fentry
	leaq	80(%rbx), %rdx		/* frame: below the caller's return address */
	movq	%rbp, %rcx		/* link: the caller's frame, not saved yet */
	.else
	movq	%rbp, %rdx		/* frame */
	movq	(%rbp), %rcx		/* link */
	.endif
	call	tgmon_slow
.L\name\()_ret:
	movdqu	0(%rsp), %xmm0
	movdqu	16(%rsp), %xmm1
	movdqu	32(%rsp), %xmm2
	movdqu	48(%rsp), %xmm3
	movdqu	64(%rsp), %xmm4
	movdqu	80(%rsp), %xmm5
	movdqu	96(%rsp), %xmm6
	movdqu	112(%rsp), %xmm7
	movq	%rbx, %rsp
	.cfi_def_cfa_register %rsp
	STEP	\fentry + 80
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 72
	popq	%r11
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 64
	popq	%r10
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 56
	popq	%r9
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 48
	popq	%r8
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 40
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 32
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 24
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 16
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	STEP	\fentry + 0
	ret
	.cfi_endproc
	.size	\name, .-\name
	.endm

	COUNT	tgmon_count, 0
	COUNT	tgmon_fcount, STEP_FENTRY

.Lstubs_end:

	.pushsection .rodata.tgmon_steps, "a"
	.globl	tgmon_stub_steps_end
	.hidden	tgmon_stub_steps_end
tgmon_stub_steps_end:
	.popsection

/*
 * The calibration (tgmon_call_ps, sample.c), outside the stubs' span:
 * tgmon_calib_pg(n) calls n times a function shaped as gcc -pg -O2
 * makes a leaf (push %rbp; mov %rsp,%rbp; call mcount; pop %rbp; ret,
 * the call direct as a static link relaxes it), whose mcount only
 * returns; tgmon_calib_plain(n) as many times one that only returns.
 * Their difference is what -pg adds to a call in the calling function.
 */
	.macro	CALIB_LOOP name, callee
	.globl	\name
	.hidden	\name
	.type	\name, @function
	.p2align 4
\name:
	.cfi_startproc
1:	call	\callee
	decq	%rdi
	jnz	1b
	ret
	.cfi_endproc
	.size	\name, .-\name
	.endm

	CALIB_LOOP tgmon_calib_pg, tgmon_calib_pgfn
	CALIB_LOOP tgmon_calib_plain, tgmon_calib_ret

	.type	tgmon_calib_pgfn, @function
	.p2align 4
tgmon_calib_pgfn:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	movq	%rsp, %rbp
	call	tgmon_calib_ret
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	tgmon_calib_pgfn, .-tgmon_calib_pgfn

	.type	tgmon_calib_ret, @function
	.p2align 4
tgmon_calib_ret:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	tgmon_calib_ret, .-tgmon_calib_ret

/*
 * tgmon_on_stack(fn, arg, top): fn(arg) on another stack, whose end
 * (16-aligned) is top; returns what fn returns, on the caller's stack
 * again.  rbp keeps the caller's frame, so frames above fn still chain
 * to it.  The writer runs on a stack of its own (start.c): it may be
 * called on a small alternate signal stack.
 */
	.globl	tgmon_on_stack
	.hidden	tgmon_on_stack
	.type	tgmon_on_stack, @function
	.p2align 4
tgmon_on_stack:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movq	%rdx, %rsp
	movq	%rdi, %rax
	movq	%rsi, %rdi
	call	*%rax
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	tgmon_on_stack, .-tgmon_on_stack

	.section .note.GNU-stack,"",@progbits
