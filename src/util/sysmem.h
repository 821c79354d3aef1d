/* sysmem: how much memory the system will give this process before its out-of-memory killer acts. */
#ifndef TGPROF_SYSMEM_H
#define TGPROF_SYSMEM_H

#include <stddef.h>

/*
 * The kernel's MemAvailable, or less when the process's cgroup (v2, or v1
 * memory controller) has a limit closer to its usage; 0 when unknown.
 */
size_t sysmem_available(void);

/*
 * Parses a size: a number with an optional K, M or G (powers of 1024).
 * Returns 0 and *BYTES, or -1.
 */
int sysmem_parse_size(const char *s, size_t *bytes);

#endif
