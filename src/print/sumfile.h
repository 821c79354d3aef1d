/* sumfile: writes gmon.sum (-s), the sum of the profiles, byte for byte as GNU gprof does. */
#ifndef TGPROF_SUMFILE_H
#define TGPROF_SUMFILE_H

#include "core/profile.h"
#include "input/gmon.h"
#include "util/diag.h"

/*
 * Writes P's histograms, arcs and basic blocks to PATH in FORMAT (gprof's
 * -O decides the output format too), through a temporary file renamed
 * into place, so PATH is either the old file or the complete new one.
 * Like gprof: bins are truncated to 16 bits, magic-format arc counts to 32
 * bits, and arcs go from the caller symbol's start (a line with -l).
 * Returns 0, or -1 with a message in D.
 */
int sumfile_write(const struct profile *p, const char *path, enum gmon_format format,
    struct diag *d);

#endif
