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
	uint32_t thread;		/* its thread record (< nthread), or TGSTACKS_NO_THREAD (always before version 3) */
	const unsigned char *addr;	/* in the loaded file */
};

#define STACKS_THREAD_NAME 64	/* TGSTACKS_MAX_THREAD_NAME */

/* A thread record (version 3): what libtgmon knew of one thread. */
struct stacks_thread {
	uint32_t tid;			/* the kernel's thread id */
	uint32_t flags;			/* TGSTACKS_THREAD_* */
	uint64_t cpu_ns;		/* its CPU time (0 unless TGSTACKS_THREAD_CPU) */
	uint64_t samples;		/* taken in it: its records' counts and those lost */
	uint64_t signals;		/* the signals that brought them */
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC from the runtime's start; end 0: running */
	uint32_t namelen;		/* at most STACKS_THREAD_NAME */
	unsigned char name[STACKS_THREAD_NAME + 1];	/* untrusted bytes (NUL included), NUL-terminated after namelen */
};

/* A stacks file, every size checked against the file.  Owns what it points to. */
struct stacks_file {
	uint64_t runid;
	uint32_t rate, max_depth;
	uint64_t samples, root, truncated, lost;	/* the header's, equal to the records' sums */
	uint64_t signals;	/* the signals that brought the samples (a late one brings several) */
	uint32_t call_ps;	/* what -pg adds to a call, in ps (0: not measured): a claim */
	uint32_t clock;		/* how the samples were taken: TGSTACKS_CLOCK_* bits (0: unknown) */
	uint32_t version;	/* 1, 2 or 3 */
	uint32_t flags;		/* TGSTACKS_FLAG_* (version 3): whether waits were recorded, or why not */
	uint64_t wait_ns, waits;	/* the header's (version 3): the wait records' sum, and the waits they are */
	struct stacks_module *mod;
	uint32_t nmod;
	struct stacks_thread *thread;	/* version 3's thread records, in the file's order; else none */
	uint32_t nthread;
	struct stacks_rec *rec;		/* the samples' stacks (flags without TGSTACKS_WAIT) */
	size_t nrec;
	struct stacks_rec *wait;	/* the waits' (TGSTACKS_WAIT: count in nanoseconds off CPU) */
	size_t nwait;
	struct gmon_file file;
};

/*
 * Reads PATH (a regular file or a FIFO, as gmon_load() reads them), of
 * version 1, 2 or 3 (gmon_out.h), into *SF.  Version 3's thread records
 * are checked whole: their number and names within the limits, their
 * flags known, each stack's thread one of them (or TGSTACKS_NO_THREAD),
 * no thread that had ended with fewer samples than its stacks count.
 * Wait records (TGSTACKS_WAIT) go to SF->wait, apart from the samples'
 * stacks, their sum the header's wait_ns.  Returns 0, or -1 with one
 * message in D ("PATH: what is wrong"); *SF is then empty.  Release it
 * with stacks_free().
 */
int stacks_read(const char *path, struct stacks_file *sf, struct diag *d);
void stacks_free(struct stacks_file *sf);

/* Address K (< depth) of R. */
uint64_t stacks_addr(const struct stacks_rec *r, uint32_t k);

#endif
