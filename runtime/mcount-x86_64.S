/* mcount-x86_64.S: libtgmon's entry stubs (mcount, _mcount, __fentry__): count a call, fast. */
/*
 * The fast path counts a call already in the calling thread's table with
 * one increment: no lock, no atomic, no call.  It uses rax, rcx, rdx (saved)
 * and r11 (free at a call); flags are clobbered as by any call.  Anything
 * else goes to tgmon_slow(from, self) in C, with every argument register,
 * r10 (the static chain), r11 and xmm0-7 saved and the stack aligned.
 *
 * mcount is called after the prologue: the callee's return address into
 * its caller is at 8(%rbp).  __fentry__ (-mfentry) is called before it:
 * that address is just above __fentry__'s own return address.
 */
	.text

	.globl	mcount
	.type	mcount, @function
	.globl	_mcount
	.type	_mcount, @function
	.p2align 4
/*
 * gprof leaves time in symbols named mcount out of the profile: the work
 * is done under another name, so that the runtime's cost shows.
 */
mcount:
_mcount:
	jmp	tgmon_mcount
	.size	mcount, .-mcount
	.size	_mcount, .-_mcount

	.type	tgmon_mcount, @function
	.p2align 4
tgmon_mcount:
	.cfi_startproc
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
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
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	movq	24(%rsp), %rcx		/* self */
	movq	32(%rsp), %rdx		/* from */
	jmp	tgmon_count
	.cfi_endproc
	.size	__fentry__, .-__fentry__

/* rcx = self, rdx = from, with rax, rcx, rdx pushed; pops them and returns. */
	.type	tgmon_count, @function
	.p2align 4
tgmon_count:
	.cfi_startproc
	.cfi_adjust_cfa_offset 24
	movq	tgmon_self@GOTTPOFF(%rip), %rax
	movq	%fs:(%rax), %r11	/* this thread's table */
	testq	%r11, %r11
	jz	.Lslow
	imulq	$-0x61c8864f, %rcx, %rax	/* self * 0x...9e3779b1 (tgmon_hash) */
	xorq	%rdx, %rax
	imulq	$-0x7a143595, %rax, %rax	/* * 0x...85ebca6b */
	shrq	$32, %rax
	andq	(%r11), %rax		/* & mask */
	leaq	(%rax,%rax,2), %rax
	shlq	$3, %rax		/* 24-byte slots */
	addq	8(%r11), %rax
	cmpq	%rdx, (%rax)
	jne	.Lslow
	cmpq	%rcx, 8(%rax)
	jne	.Lslow
	incq	16(%rax)
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_adjust_cfa_offset 24
.Lslow:
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%r8
	.cfi_adjust_cfa_offset 8
	pushq	%r9
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	movq	%rsp, %rbx
	.cfi_def_cfa_register %rbx
	subq	$128, %rsp
	andq	$-16, %rsp
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
	call	tgmon_slow
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
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%r11
	.cfi_adjust_cfa_offset -8
	popq	%r10
	.cfi_adjust_cfa_offset -8
	popq	%r9
	.cfi_adjust_cfa_offset -8
	popq	%r8
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	tgmon_count, .-tgmon_count

	.section .note.GNU-stack,"",@progbits
