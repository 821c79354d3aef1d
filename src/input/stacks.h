/* stacks: reads libtgmon's stacks file (gmon_out.h): the call stack of every sample, checked whole. */
#ifndef TGPROF_STACKS_H
#define TGPROF_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "gmon.h"
#include "util/diag.h"

/* A loaded object of the profiled process: where its text was. */
struct stacks_module {
	uint64_t base, lowpc, highpc;
	char *name;		/* owned; "" for the executable (module 0) */
};

/* A stack record: COUNT samples with DEPTH addresses, innermost first (stacks_addr()). */
struct stacks_rec {
	uint64_t count;
	uint32_t depth, flags;		/* TGSTACKS_ROOT, TGSTACKS_TRUNCATED */
	const unsigned char *addr;	/* in the loaded file */
};

/* A stacks file, every size checked against the file.  Owns what it points to. */
struct stacks_file {
	uint64_t runid;
	uint32_t rate, max_depth;
	uint64_t samples, root, truncated, lost;	/* the header's, equal to the records' sums */
	uint64_t signals;	/* the signals that brought the samples (a late one brings several) */
	uint32_t call_ps;	/* what -pg adds to a call, in ps (0: not measured): a claim */
	uint32_t clock;		/* how the samples were taken: TGSTACKS_CLOCK_* bits (0: unknown) */
	struct stacks_module *mod;
	uint32_t nmod;
	struct stacks_rec *rec;
	size_t nrec;
	struct gmon_file file;
};

/*
 * Reads PATH (a regular file or a FIFO, as gmon_load() reads them), of
 * version 1 or 2 (gmon_out.h), into *SF.  Returns 0, or -1 with one
 * message in D ("PATH: what is wrong"); *SF is then empty.  Release it
 * with stacks_free().
 */
int stacks_read(const char *path, struct stacks_file *sf, struct diag *d);
void stacks_free(struct stacks_file *sf);

/* Address K (< depth) of R. */
uint64_t stacks_addr(const struct stacks_rec *r, uint32_t k);

#endif
