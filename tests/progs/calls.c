/* calls.c: calls made from known lines a known number of times, for the per-line interface. */
static volatile int sink;

__attribute__((noinline)) void
leaf_a(void)
{
	sink++;
}

__attribute__((noinline)) void
leaf_b(void)
{
	sink += 2;
}

__attribute__((noinline)) void
driver(int n)
{
	for (int i = 0; i < n; i++) {
		leaf_a();	/* line 20: n calls */
		if (i % 4 == 0)
			leaf_b();	/* line 22: n / 4 calls */
	}
	leaf_b();	/* line 24: one call */
	sink += 3;	/* (not a tail call) */
}

int
main(void)
{
	driver(1000);
	driver(200);
	return 0;
}
