/* helper: what a helper thread (work beside the one the user waits on) does first. */
#include "helper.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HELPER_NICE 10

void
helper_lower_priority(void)
{
#ifdef SYS_gettid
	/* On Linux a thread's nice value is its own (POSIX would have it the process's). */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), HELPER_NICE);
#endif
}
