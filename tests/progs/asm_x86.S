/* asm_x86.S: x86-64 functions in assembly (line info but no DWARF functions), with a label inside one. */
	.text
	.globl asm_add
	.type asm_add, @function
asm_add:
	lea (%rdi,%rsi), %rax
	ret
	.size asm_add, .-asm_add
	.globl asm_loop
	.type asm_loop, @function
asm_loop:
	xor %eax, %eax
1:	add %rdi, %rax
	dec %rdi
	jnz 1b
inner_label:
	ret
	.size asm_loop, .-asm_loop
	.section .note.GNU-stack,"",@progbits
