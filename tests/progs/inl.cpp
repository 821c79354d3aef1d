// inl.cpp: C++ with deep inlining, templates, lambdas, extern "C" and the standard library, for source-position tests.
#include <algorithm>
#include <map>
#include <string>
#include <vector>
#include <functional>
#include <cstdio>
#include <cstdlib>

namespace ns {
template <typename T> struct Acc {
	T sum{};
	inline void add(T v) { sum += v * 3 + (v >> 1); }
	T get() const { return sum; }
};
static inline int sq(int x) { return x * x; }
inline int twice(int x) { return sq(x) + sq(x + 1); }
}

extern "C" int c_linkage(int x) { return ns::twice(x) ^ 7; }

struct Base { virtual ~Base() {} virtual long work(int n) = 0; };
struct A : Base { long work(int n) override { long s = 0; for (int i = 0; i < n; i++) s += ns::twice(i); return s; } };
struct B : Base { long work(int n) override { std::vector<int> v(n); for (int i = 0; i < n; i++) v[i] = (i * 7919) % 1000; std::sort(v.begin(), v.end()); return v[n / 2]; } };

static long __attribute__((noinline)) mapwork(int n) {
	std::map<std::string, int> m;
	for (int i = 0; i < n; i++) m[std::to_string(i % 97)] += i;
	long s = 0; for (auto &kv : m) s += kv.second + (long)kv.first.size();
	return s;
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	ns::Acc<long> acc;
	std::vector<Base *> objs{new A, new B, new A};
	std::function<long(int)> f = [&](int k) { long s = 0; for (int i = 0; i < k; i++) s += c_linkage(i); return s; };
	for (int r = 0; r < 20; r++) {
		for (auto *o : objs) acc.add(o->work(n));
		acc.add(mapwork(n));
		acc.add(f(n));
	}
	for (auto *o : objs) delete o;
	printf("%ld\n", acc.get());
	return 0;
}
