/* clobber: spin_rbp(), built -O2 -fomit-frame-pointer without -pg: a hot loop with junk in rbp (stackab.c). */

/* N rounds with rbp = JUNK, then JUNK ^ 16, and so on (both 8-aligned if JUNK is). */
unsigned long
spin_rbp(unsigned long n, unsigned long junk)
{
	unsigned long acc = 0;

	__asm__ volatile("mov %[j], %%rbp\n"
	    "1:\n\t"
	    "add %%rbp, %[acc]\n\t"
	    "xor $16, %%rbp\n\t"
	    "dec %[n]\n\t"
	    "jnz 1b"
	    : [acc] "+r"(acc), [n] "+r"(n)
	    : [j] "r"(junk)
	    : "rbp", "cc");
	return acc;
}
