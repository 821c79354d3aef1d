/* fuzzio: what the libFuzzer harnesses share: an input as a file, and a whole batch run. */
#ifndef TGPROF_FUZZIO_H
#define TGPROF_FUZZIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/profile.h"
#include "print/batch.h"

/*
 * The SIZE bytes at DATA in a memory file; its name for open() goes to
 * PATH (at least 32 bytes).  Returns the descriptor (the caller closes it),
 * or -1.
 */
int fuzzio_file(const uint8_t *data, size_t size, char *path, size_t pathsize);

/*
 * The analysis options from the input's first byte BITS: -l (bit 0), -c
 * (1), the clone mode (2-3), the per-line data (4); IMAGE and the gmon
 * file GMON (*FILES, one) analysed; the rest of *O zeroed.
 */
void fuzzio_analysis(struct pf_opts *o, uint8_t bits, const char *image, const char **files);

/* Loads the profile O names and prints BO's report to /dev/null. */
void fuzzio_report(const struct pf_opts *o, const struct batch_opts *bo);

#endif
