// variant.hpp: a std::variant and its visitor, the same in every translation unit that includes it.
#include <string>
#include <variant>

using Value = std::variant<int, long, std::string>;

struct Size {
	int operator()(int x) const { return x; }
	int operator()(long x) const { return (int)x; }
	int operator()(const std::string &s) const { return (int)s.size(); }
};

#define TU_CAT(a, b) a##b
#define TU_NAME(n) TU_CAT(use_, n)
