/* ctor: a -pg constructor burns CPU before main, so the main thread's first profiled call is not main's. */
#include <cstdio>

static volatile unsigned long sink;

__attribute__((noinline)) void
burn(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i ^ (sink >> 3);
}

struct A {
	A() { burn(3000000); sink++; }
} a_obj;

__attribute__((noinline)) void
work()
{
	for (int i = 0; i < 10; i++)
		burn(5000000);
	sink++;
}

int
main()
{
	work();
	std::printf("%lu\n", sink);
	return 0;
}
