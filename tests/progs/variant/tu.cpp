// tu.cpp: one of 20 translation units (-DTU=0..19) that instantiate the same std::variant code,
// which the linker keeps once while every unit's debugging information describes it.
#include "variant.hpp"

int
TU_NAME(TU)(int n)
{
	Value v = n;

	if (n % 3 == 0)
		v = std::string("three");
	else if (n % 3 == 1)
		v = (long)n * 2;
	return std::visit(Size{}, v);
}
