// main.cpp: calls each translation unit's use_N() (tu.cpp) 1,000 times.
#include "variant.hpp"

#define TUS X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) \
	X(15) X(16) X(17) X(18) X(19)
#define X(n) int TU_NAME(n)(int);
TUS
#undef X

int
main()
{
	long s = 0;

	for (int i = 0; i < 1000; i++) {
#define X(n) s += TU_NAME(n)(i);
		TUS
#undef X
	}
	return (int)(s & 1);
}
