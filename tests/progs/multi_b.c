/* multi_b: the other static helper, and functions called from multi_a.c. */
static volatile double acc_b;

static void
helper(int n)
{
	for (int i = 0; i < n * 4000; i++)
		acc_b += i * 0.25;
}

void a_work(int n);

void
b_work(int n)
{
	helper(n);
}

void
b_entry(int n)
{
	helper(1);
	if (n > 0)
		a_work(n);
}
