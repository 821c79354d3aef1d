// stl: the standard library at work (std::regex, maps, variant, std::function, lambdas): long real C++ names to demangle.
#include <regex>
#include <map>
#include <unordered_map>
#include <vector>
#include <string>
#include <functional>
#include <algorithm>
#include <sstream>
#include <iostream>
#include <memory>
#include <variant>
#include <optional>
#include <cstdlib>

namespace app {
template <typename T> struct Stats { std::vector<T> v; T sum() const { T s{}; for (auto &x : v) s += x; return s; } };
struct Node { std::string name; std::vector<std::unique_ptr<Node>> kids; int depth() const { int d = 0; for (auto &k : kids) d = std::max(d, k->depth()); return d + 1; } };
using Val = std::variant<int, double, std::string>;
static std::string show(const Val &v) { return std::visit([](auto &&x) { std::ostringstream o; o << x; return o.str(); }, v); }
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 3000;
	std::regex re(R"((\w+)@(\w+)\.com)");
	std::map<std::string, int> counts;
	std::unordered_map<int, std::string> names;
	app::Stats<double> st;
	std::vector<app::Val> vals;
	for (int i = 0; i < n; i++) {
		std::string s = "user" + std::to_string(i) + "@host" + std::to_string(i % 7) + ".com";
		std::smatch m;
		if (std::regex_match(s, m, re)) counts[m[2].str()]++;
		names[i] = s;
		st.v.push_back(i * 0.5);
		vals.emplace_back(i % 3 == 0 ? app::Val(i) : i % 3 == 1 ? app::Val(i * 1.5) : app::Val(std::to_string(i)));
	}
	std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
	std::sort(sorted.begin(), sorted.end(), [](auto &a, auto &b) { return a.second > b.second || (a.second == b.second && a.first < b.first); });
	std::function<int(int)> fib = [&](int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); };
	app::Node root{"root", {}};
	for (int i = 0; i < 50; i++) { auto c = std::make_unique<app::Node>(); c->name = "c" + std::to_string(i); for (int j = 0; j < i % 5; j++) c->kids.push_back(std::make_unique<app::Node>()); root.kids.push_back(std::move(c)); }
	size_t total = 0;
	for (auto &v : vals) total += app::show(v).size();
	std::cout << sorted.size() << " " << st.sum() << " " << fib(24) << " " << root.depth() << " " << total << "\n";
	return 0;
}
