/* shared.h: an inline function that ends up in several files' line tables. */
static inline unsigned long
mix(unsigned long a, unsigned long b)
{
	return (a * 31u) ^ (b + 7u);
}

unsigned long lib_work(int n);
unsigned long deep_work(int n);
