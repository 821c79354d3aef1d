/* bigtext: 48 MiB of code never run, so that libtgmon's histogram (and its write at exit) is large. */
__attribute__((noinline)) void
big(void)
{
	__asm__ volatile("jmp 1f\n\t.skip 50331648, 0x90\n1:");
}
