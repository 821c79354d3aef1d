/* warm: memory the browser's first narrowing will take, faulted in by a background thread. */
#ifndef TGPROF_WARM_H
#define TGPROF_WARM_H

#include <stddef.h>

/*
 * Faults in BYTES of the heap in a background thread, then frees them
 * (main keeps freed memory: mallopt), so that the browser's first x or f
 * finds its tables' pages present instead of waiting for the kernel to
 * provide fresh ones: on virtual machines a fresh page can cost
 * microseconds, and a narrowing of a million functions takes some 400 MB.
 * Nothing is done below WARM_MIN bytes, over the memory limit, or if the
 * thread cannot start.  The thread is detached; it allocates nothing.
 */
#define WARM_MIN ((size_t)64 << 20)
void warm_start(size_t bytes);

#endif
