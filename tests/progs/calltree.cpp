// calltree: templates without the standard library (names that stay the same), a parser's cycle, recursion, a thread.
#include <pthread.h>
#include <cstdio>
#include <cstdlib>

static volatile unsigned long sink;

namespace work {
template <int N> void spin()
{
	for (int i = 0; i < N * 300; i++)
		sink += (unsigned long)i;
}
} // namespace work

namespace algo {
template <typename T> struct Less {
	bool operator()(const T &a, const T &b) const { work::spin<1>(); return a < b; }
};

// Recursion: quicksort calls itself.
template <typename T, typename Cmp> void quicksort(T *v, int lo, int hi, Cmp cmp)
{
	if (lo >= hi)
		return;
	T pivot = v[(lo + hi) / 2];
	int i = lo, j = hi;
	while (i <= j) {
		while (cmp(v[i], pivot))
			i++;
		while (cmp(pivot, v[j]))
			j--;
		if (i <= j) {
			T x = v[i];
			v[i++] = v[j];
			v[j--] = x;
		}
	}
	quicksort(v, lo, j, cmp);
	quicksort(v, i, hi, cmp);
}

template <typename T, int N> struct Matrix {
	T m[N][N];
	Matrix mul(const Matrix &o) const
	{
		Matrix r;
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				r.m[i][j] = T();
				for (int k = 0; k < N; k++)
					r.m[i][j] += m[i][k] * o.m[k][j];
			}
		work::spin<2>();
		return r;
	}
};

// Recursion again, by squaring.
template <typename T, int N> Matrix<T, N> power(const Matrix<T, N> &a, int n)
{
	if (n == 1)
		return a;
	Matrix<T, N> h = power(a, n / 2), r = h.mul(h);
	return n % 2 ? r.mul(a) : r;
}
} // namespace algo

namespace parse {
// A cycle: expr calls term calls factor calls expr.
template <typename Ch> struct Parser {
	const Ch *s;
	long expr()
	{
		long v = term();
		while (*s == '+') {
			s++;
			v += term();
		}
		return v;
	}
	long term()
	{
		long v = factor();
		while (*s == '*') {
			s++;
			v *= factor();
		}
		return v;
	}
	long factor()
	{
		work::spin<1>();
		if (*s == '(') {
			s++;
			long v = expr();
			s++;
			return v;
		}
		return *s++ - '0';
	}
};
} // namespace parse

// A thread's start routine: a root of its own.
static void *
worker(void *arg)
{
	int *v = static_cast<int *>(arg);

	for (int r = 0; r < 20; r++) {
		for (int i = 0; i < 64; i++)
			v[i] = (i * 37 + r) % 64;
		algo::quicksort(v, 0, 63, algo::Less<int>());
	}
	work::spin<3>();
	return nullptr;
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
	static int v[64];
	algo::Matrix<double, 3> a;
	long total = 0;
	pthread_t th;

	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			a.m[i][j] = (i == j) + 0.5 / (1 + i + j);
	for (int r = 0; r < rounds; r++) {
		parse::Parser<char> p = { "(1+2)*(3+(4*5))+6" };
		total += p.expr();
		total += (long)algo::power(a, 13).m[0][0];
	}
	// One thread at a time: glibc's mcount drops calls made while another thread is in it.
	if (pthread_create(&th, nullptr, worker, v) != 0 || pthread_join(th, nullptr) != 0)
		return 1;
	std::printf("%ld %lu\n", total, sink);
	return 0;
}
