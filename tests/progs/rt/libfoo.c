/* libfoo: a shared library built with -pg; foo_loop() calls foo_leaf() N times. */
static volatile unsigned long sink;

__attribute__((noinline)) void
foo_leaf(int i)
{
	for (int k = 0; k < 60; k++)
		sink += (unsigned long)(i ^ k);
}

__attribute__((noinline)) unsigned long
foo_loop(int n)
{
	for (int i = 0; i < n; i++)
		foo_leaf(i);
	return sink;
}
