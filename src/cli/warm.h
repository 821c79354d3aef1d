/* warm: memory the browser's first narrowing will take, faulted in by a background thread. */
#ifndef TGPROF_WARM_H
#define TGPROF_WARM_H

#include <stddef.h>

/*
 * warm_start() takes BYTES of the heap and faults them in on a background
 * thread; warm_release() gives them back to the heap (main keeps freed
 * memory: mallopt), at once if they are ready, else when they are.  Called
 * as the analysis of a large profile starts (pf_opts.sized) and released
 * once it is done, the memory is not used by the analysis but is there,
 * present, for the browser's first x or f: on virtual machines a fresh
 * page can cost microseconds, and a narrowing of a million functions
 * takes some 400 MB.  Below WARM_MIN bytes, over the memory limit or a
 * quarter of the memory available (sysmem_available()), or if no thread
 * can start, warm_start() returns NULL and does nothing.
 */
#define WARM_MIN ((size_t)64 << 20)
struct warm;
struct warm *warm_start(size_t bytes);
void warm_release(struct warm *w);	/* W may be NULL; it is gone after */

#endif
