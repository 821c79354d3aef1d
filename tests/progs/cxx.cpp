// cxx: templates, namespaces, overloads, classes and virtual calls for demangling and ordering.
#include <cstdio>
#include <stdexcept>
#include <cstdlib>
#include <vector>

static volatile unsigned long sink;

namespace geom {
struct Shape {
	virtual ~Shape() {}
	virtual double area(int k) const = 0;
};
struct Square : Shape {
	double s;
	explicit Square(double v) : s(v) {}
	double area(int k) const override
	{
		for (int i = 0; i < k * 5000; i++)
			sink += i;
		return s * s;
	}
};
struct Circle : Shape {
	double r;
	explicit Circle(double v) : r(v) {}
	double area(int k) const override
	{
		for (int i = 0; i < k * 9000; i++)
			sink += i;
		return 3.14159 * r * r;
	}
};
} // namespace geom

namespace util {
template <typename T> T accumulate(const std::vector<T> &v, int k)
{
	T t = T();
	for (int j = 0; j < k; j++)
		for (const T &x : v)
			t += x;
	return t;
}
int scale(int x) { for (int i = 0; i < 2000; i++) sink += i; return x * 2; }
double scale(double x) { for (int i = 0; i < 3000; i++) sink += i; return x * 2.5; }
long scale(long x, int times) { long r = x; for (int i = 0; i < times; i++) r = scale((int)r); return r; }
namespace detail {
template <int N> struct Unroll {
	static unsigned long run(unsigned long x) { sink += x; return Unroll<N - 1>::run(x * 3 + 1); }
};
template <> struct Unroll<0> {
	static unsigned long run(unsigned long x) { return x; }
};
} // namespace detail
} // namespace util

// The throw goes to a .cold clone at -O2.
__attribute__((noinline)) unsigned long
checked_sum(int n)
{
	unsigned long s = 0;
	for (int i = 0; i < n * 700; i++) {
		s += (unsigned long)i;
		if (__builtin_expect(s == 77, 0))
			throw std::runtime_error("unlucky sum");
	}
	return s;
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 800;
	std::vector<geom::Shape *> shapes;
	std::vector<int> vi(2000, 3);
	std::vector<double> vd(2000, 1.5);
	double total = 0;

	for (int i = 0; i < 8; i++)
		shapes.push_back(i % 3 ? (geom::Shape *)new geom::Square(i) : new geom::Circle(i));
	for (int r = 0; r < rounds; r++) {
		for (geom::Shape *s : shapes)
			total += s->area(3);
		total += util::accumulate(vi, 3) + util::accumulate(vd, 2);
		total += util::scale(r) + util::scale(0.5 * r) + util::scale((long)r, 3);
		total += (double)util::detail::Unroll<6>::run(r);
		total += (double)checked_sum(r % 40);
	}
	for (geom::Shape *s : shapes)
		delete s;
	std::printf("%f %lu\n", total, sink);
	return 0;
}
