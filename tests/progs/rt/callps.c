/* callps: prints libtgmon's measure of what -pg adds to a call, in picoseconds (linked with libtgmon.a). */
#include <stdint.h>
#include <stdio.h>

uint32_t tgmon_call_ps(void);	/* libtgmon's, hidden: reachable from a program it is linked into */

int
main(void)
{
	printf("%u\n", tgmon_call_ps());
	return 0;
}
