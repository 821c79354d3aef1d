/* tgmon: libtgmon's internal interfaces: per-thread arc tables, sampling, the writer, the settings. */
#ifndef TGMON_H
#define TGMON_H

/*
 * libtgmon is the mcount runtime for programs built with -pg.  The stubs
 * (mcount-x86_64.S, mcount-aarch64.S) count a call in the calling
 * thread's tables without a lock; anything else (a new arc, a thread's
 * first call) goes to tgmon_slow().  Samples of each thread's CPU time land in
 * 32-bit bins, and the call stack of each sample in a per-thread trie.
 * At exit the tables are merged and gmon.out (and gmon.out.stacks) are
 * written atomically.  Nothing here may be built with -pg.
 */

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define TGMON_HIDDEN __attribute__((visibility("hidden")))

/* One arc: calls from FROM (a return address in the caller) to SELF (one in the callee). */
struct tgmon_arc {
	uint64_t from;		/* 0: an empty slot; written last when a slot is taken */
	uint64_t self;
	uint64_t count;
	uint64_t pad;		/* 32 bytes: the stubs index by shifting */
};

/*
 * An open-addressing table of arcs, a thread's for the calls its site
 * table does not take.  The stubs read MASK and ARC (offsets 0 and 32).
 */
struct tgmon_hash {
	uint64_t mask;			/* slots - 1 (a power of two minus one) */
	uint64_t used;
	struct tgmon_hash *next;	/* every one ever made, for the writer */
	uint64_t pad;
	struct tgmon_arc arc[];
};

/* The hash of (FROM, SELF); the slot is this & mask.  The stubs compute it too. */
static inline uint64_t
tgmon_hash(uint64_t from, uint64_t self)
{
	return (((self * 0xffffffff9e3779b1ULL) ^ from) * 0xffffffff85ebca6bULL) >> 32;
}

/* A call site's first callee and its calls (SELF 0: none yet). */
struct tgmon_slot {
	uint64_t self;
	uint64_t count;
};

/*
 * A thread's arcs, BSD's way: a call site in the executable's text, whose
 * return address FROM is at least 2 bytes from any other's (a call
 * instruction takes 2 or more), has its own slot for its first callee:
 * slot ((FROM - LOWPC) & 4095) / 2 of chunk CHUNK[(FROM - LOWPC) >> 12],
 * the chunk of its 4 KiB of text; the stubs count a call there with a
 * subtraction, a comparison, two loads and an increment.  A chunk (32 KiB)
 * is made at the first call from its text (NULL until then): a thread's
 * table takes address space in proportion to the text it calls from
 * (the chunks' directory: 8 bytes a 4 KiB of text), not 10 bytes a byte
 * of text.  Call sites outside the text (shared libraries) and a site's
 * second callee and on (calls through pointers) go to OTHER, whose first
 * choice of slot the stubs probe.  A text of 1 MiB or less (TGMON_FLAT_MAX)
 * has its slots laid out FLAT instead, all of them from offset 64, slot
 * (FROM - LOWPC) / 2: 8 bytes of address space a byte of text, as a thread
 * stack takes, and one load less a call.  The stubs read LOWPC, SPAN,
 * OTHER, FLAT and CHUNK: offsets 0, 8, 24, 56 and 64 are part of their
 * contract (mcount-x86_64.S, mcount-aarch64.S).
 */
#define TGMON_FLAT_MAX ((uint64_t)1 << 20)
#define TGMON_CHUNK_SHIFT 12				/* 4 KiB of text a chunk */
#define TGMON_CHUNK_SLOTS ((1u << TGMON_CHUNK_SHIFT) / 2)	/* its slots: 2048, 32 KiB */
struct tgmon_table {
	uint64_t lowpc;			/* the executable's text, from a 4 KiB boundary */
	uint64_t span;			/* its bytes (a multiple of 4 KiB); 0: no slots */
	void *alt;			/* libtgmon's alternate signal stack for it, or NULL */
	struct tgmon_hash *other;	/* the rest, or NULL */
	struct tgmon_table *next;	/* every table ever made, for the writer */
	struct tgmon_table *spare_next;	/* while it waits for a new thread */
	/*
	 * In the slow path: where its mark is (tables.c: tgmon_slow), 0
	 * if not.  A signal handler's call meanwhile is dropped; a slow
	 * path left for good (a siglongjmp out of a handler) is seen.
	 */
	uint64_t busy;
	uint64_t flat;			/* 1: a small text's slots, all of them, from 64 */
	struct tgmon_slot *chunk[];	/* span >> TGMON_CHUNK_SHIFT, or FLAT's slots */
};

/* The calling thread's table; NULL until its first call. */
extern __thread struct tgmon_table *tgmon_self __attribute__((tls_model("initial-exec")));

/* start.c: the settings, read from the environment once at start. */
struct tgmon_settings {
	int hz;			/* samples a second of each thread's CPU time; 0: none */
	int signals;		/* dump on fatal signals too */
	int quiet;
	int signo;		/* the sampling signal (TGMON_SIGNAL; a real-time one by default) */
	int stacks;		/* record each sample's call stack (TGMON_STACKS; 1 by default) */
	int waits;		/* record where threads wait (TGMON_WAITS; with stacks, by default) */
	int timer_only;		/* TGMON_CLOCK=timer: sample by timers, never by perf events */
	int nowrite;		/* a setting could not be kept: no file is written (said at start) */
	const char *prefix;	/* GMON_OUT_PREFIX (of any length, kept at start), or "" */
	const char *dir;	/* TGMON_DIR (likewise): where files go, or "" for the starting directory */
};
TGMON_HIDDEN extern struct tgmon_settings tgmon_cfg;
TGMON_HIDDEN void tgmon_settings_read(void);

/*
 * tables.c.  tgmon_slow: FRAME is the callee's frame (where its frame
 * pointer is, or will be once its prologue has run: mcount is called
 * after it, __fentry__ before), LINK the frame pointer saved there.
 */
TGMON_HIDDEN void tgmon_slow(uint64_t from, uint64_t self, uint64_t frame, uint64_t link);
/*
 * The callee (its self address, where its call to mcount returns) that
 * the calling thread's slot for the call site returning to FROM, in the
 * executable, counted first; 0 if none (never called from there, or only
 * in the hash table).  A signal handler may ask: it reads what is
 * published (the chunk, then the slot's callee).
 */
TGMON_HIDDEN uint64_t tgmon_site_first(uint64_t from);
/* Calls F for every arc of every table (counts may repeat: gprof sums them). */
TGMON_HIDDEN void tgmon_arcs_each(void (*f)(void *, const struct tgmon_arc *), void *ctx);
TGMON_HIDDEN void tgmon_arcs_reset(void);	/* a forked child starts from zero */
TGMON_HIDDEN extern uint64_t tgmon_dropped;

/*
 * sample.c: a histogram over the text of each object loaded at start: the
 * executable first, then its shared libraries (each gets its own file),
 * filled by each thread's samples of its CPU time.
 */
#define TGMON_MAX_SEGS 6
struct tgmon_hist {
	uint64_t lowpc, highpc;		/* run-time addresses, bin-aligned */
	uint64_t base;			/* its load address: files hold addresses less it */
	uint32_t *bin;			/* 4 bytes of text each */
	size_t nbin;
	/*
	 * An object loaded at start (FIXED) stays mapped as the dynamic
	 * linker mapped it until the process ends (no dlclose() unmaps it):
	 * its readable PT_LOAD segments, [seg_lo, seg_hi), can be read
	 * without asking the kernel first (walk.c).  EH_HDR: its
	 * PT_GNU_EH_FRAME (.eh_frame_hdr), 0 if none.
	 */
	uint64_t seg_lo[TGMON_MAX_SEGS], seg_hi[TGMON_MAX_SEGS];
	uint64_t eh_hdr;
	int nseg;
	int fixed;
	/*
	 * Whether its code is profiled: the executable, and a library with
	 * calls counted into it (built with -pg).  Time sampled elsewhere
	 * (the C library, the kernel's system calls, libtgmon as a shared
	 * object) is the time of the innermost profiled function on the
	 * sample's stack.
	 */
	unsigned char profiled;
	unsigned char has_arcs;		/* the writer's: calls into it were counted */
	char name[256];			/* the file's last component; "" for the executable */
	char path[PATH_MAX];		/* as the dynamic linker gives it; "" for the executable */
};
/*
 * Module M is tgmon_module(M), 0 <= M < tgmon_nmod.  The table grows
 * without moving, in chunks of TGMON_MOD_CHUNK modules: the first
 * static, each other one mapped when its first module is added (at
 * start, or by the writer: never in a sample handler), whole before any
 * module in it is published (tgmon_module_at's index, with release), and
 * never unmapped: a handler may read any module it finds.  Up to
 * TGMON_MAX_MODULES objects (more than the kernel's default limit of
 * mappings lets a process load); one beyond gets no file, said once.
 */
#define TGMON_MOD_SHIFT 6
#define TGMON_MOD_CHUNK (1 << TGMON_MOD_SHIFT)
#define TGMON_MAX_MODULES 65536
TGMON_HIDDEN extern struct tgmon_hist *tgmon_mod_chunk[TGMON_MAX_MODULES / TGMON_MOD_CHUNK];
TGMON_HIDDEN extern int tgmon_nmod;

static inline struct tgmon_hist *
tgmon_module(int m)
{
	return &__atomic_load_n(&tgmon_mod_chunk[m >> TGMON_MOD_SHIFT], __ATOMIC_RELAXED)[m & (TGMON_MOD_CHUNK - 1)];
}

TGMON_HIDDEN extern int tgmon_rate;	/* samples a second, 0 without a histogram */
/*
 * modules.c: the objects loaded at start, each with its histogram's bins
 * (a 32-bit count for every 1 << TGMON_BIN_SHIFT bytes of its text), and
 * the index of them by address; how many (0: not even the program).
 */
#define TGMON_BIN_SHIFT 2
TGMON_HIDDEN int tgmon_modules_init(void);
/* Adds the objects loaded since start (dlopen()): their calls get files, without histograms. */
TGMON_HIDDEN void tgmon_modules_rescan(void);
/* The module whose text holds PC, or -1. */
TGMON_HIDDEN int tgmon_module_at(uint64_t pc);
/* Whether module M (tgmon_module_at(), -1 for none) is profiled code (tgmon_hist.profiled). */
static inline int
tgmon_is_profiled(int m)
{
	return m >= 0 && __atomic_load_n(&tgmon_module(m)->profiled, __ATOMIC_RELAXED);
}
TGMON_HIDDEN int tgmon_sample_init(void);	/* 0; -1: no text; -2: no handler (no sampling) */
/*
 * This thread's sampling (its perf event, or its timer), started, and
 * stopped.  A perf event's descriptor is the thread's: close-on-exec, at
 * tgmon_fd_floor() or above, closed at the thread's end only if it still
 * is the event; if the program closes it, the thread's timer samples.
 */
TGMON_HIDDEN void tgmon_sample_thread(void);
TGMON_HIDDEN void tgmon_sample_stop(void);
TGMON_HIDDEN void tgmon_sample_reset(void);
/* 1 if the sampling signal's handler is still libtgmon's (0: the program took it). */
TGMON_HIDDEN int tgmon_sample_handler_ours(void);
/*
 * Whether libtgmon installed a handler for the sampling signal, and
 * then sigaction() of that signal for the program (sample.c): its
 * SIG_DFL or SIG_IGN is kept, not installed, while the handler is ours.
 */
TGMON_HIDDEN int tgmon_sample_signal_kept(void);
TGMON_HIDDEN int tgmon_sample_sigaction(const struct sigaction *act, struct sigaction *old);
/* A signal of libtgmon's clocks taken by the program's sigwait() (start.c): not a sample. */
TGMON_HIDDEN void tgmon_sample_waited(const siginfo_t *si);
/* The C library's own sigaction() (libtgmon's, start.c, is the program's). */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);
/*
 * The lowest descriptor libtgmon's own may take (1000, or less below a
 * low RLIMIT_NOFILE), and in *MOST how many perf events may be open; -1:
 * none may be moved up.
 */
TGMON_HIDDEN int tgmon_fd_floor(int *most);
/*
 * seccomp sandboxes (start.c sees them entered, through prctl() and
 * syscall()).  A sandboxed thread (tgmon_jailed; every thread once one
 * was entered with SECCOMP_FILTER_FLAG_TSYNC, tgmon_jail_all) may be
 * ended by any system call: its sample handler makes none (the program
 * counter alone, into the histogram), its sampling is neither started
 * nor stopped, its calls are counted without asking for memory, and it
 * writes no file.  A thread that starts once any thread has entered a
 * sandbox (tgmon_jails) may have inherited it, and is taken to be in it.
 * tgmon_sample_jail(), before the sandbox: the thread sampled by its
 * timer; tgmon_sample_unjail(), if it was refused.
 */
TGMON_HIDDEN extern __thread int tgmon_jailed __attribute__((tls_model("initial-exec")));
TGMON_HIDDEN extern int tgmon_jail_all, tgmon_jails;
TGMON_HIDDEN void tgmon_sample_jail(int all);
TGMON_HIDDEN void tgmon_sample_unjail(int all);

static inline int
tgmon_in_jail(void)
{
	return __atomic_load_n(&tgmon_jailed, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&tgmon_jail_all, __ATOMIC_SEQ_CST);
}

/*
 * Around what asks the kernel (a sample's walk, a chunk's memory, a
 * clock started): 1 if the calling thread may (then tgmon_kernel_leave()
 * after), 0 in a sandbox.  A sandbox for every thread is entered once
 * the other threads are out of these (tgmon_sample_jail): one that had
 * looked before it was announced would be ended halfway.
 */
TGMON_HIDDEN extern int tgmon_inflight;

static inline int
tgmon_kernel_enter(void)
{
	if (__atomic_load_n(&tgmon_jailed, __ATOMIC_RELAXED))
		return 0;
	__atomic_fetch_add(&tgmon_inflight, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&tgmon_jail_all, __ATOMIC_SEQ_CST)) {
		__atomic_fetch_sub(&tgmon_inflight, 1, __ATOMIC_RELEASE);
		return 0;
	}
	return 1;
}

static inline void
tgmon_kernel_leave(void)
{
	__atomic_fetch_sub(&tgmon_inflight, 1, __ATOMIC_RELEASE);
}
/* How the threads have been sampled: TGSTACKS_CLOCK_* bits (gmon_out.h). */
TGMON_HIDDEN extern uint32_t tgmon_clocks;
/* What -pg adds to a call, in picoseconds, measured here at the first call (0: not measured). */
TGMON_HIDDEN uint32_t tgmon_call_ps(void);
/*
 * mcount-ARCH.S: N (> 0) calls of a function shaped as -pg makes them
 * (a frame, a call to a function that returns, the frame undone), or of
 * a function that only returns, for tgmon_call_ps().
 */
TGMON_HIDDEN void tgmon_calib_pg(uint64_t n);
TGMON_HIDDEN void tgmon_calib_plain(uint64_t n);
/* mcount-ARCH.S: FN(ARG) on the stack that ends at TOP (16-aligned). */
TGMON_HIDDEN void tgmon_on_stack(void (*fn)(void *), void *arg, void *top);

/*
 * walk.c: each sample's call stack, by its frame pointers (walked by
 * walk-x86_64.c or walk-aarch64.c), counted per thread.
 * tgmon_stacks_sample runs in the sample handler (UC: its ucontext_t);
 * the others in normal context.
 */
TGMON_HIDDEN void tgmon_stacks_start(void);	/* the starting thread's table; main() */
TGMON_HIDDEN void tgmon_stacks_thread(uint64_t frame, uint64_t link);	/* its first call */
TGMON_HIDDEN void tgmon_stacks_arc(uint64_t self, uint64_t frame, uint64_t link);	/* a new arc */
TGMON_HIDDEN void tgmon_stacks_thread_ends(void);
/*
 * Counts the sample's stack; returns where its time belongs when it is
 * not in profiled code (tgmon_profiled): in the function of a profiled
 * module other than SELF (libtgmon's own) that made the innermost call
 * out of it, at that call (its return address less 4: walk-ARCH.c's
 * tgmon_stk_charge) or, on x86-64, where the call is in a part split
 * off the function (foo.cold), at the function's start; or 0.
 */
TGMON_HIDDEN uint64_t tgmon_stacks_sample(const void *uc, uint32_t weight, int self);
TGMON_HIDDEN void tgmon_stacks_reset(void);	/* a forked child starts from zero */
/* The signal trampoline handlers return to (sigaction()'s sa_restorer), checked (x86-64); normal context. */
TGMON_HIDDEN void tgmon_stacks_restorer(uint64_t addr);
/* The samples not recorded, and the signals that brought those recorded. */
TGMON_HIDDEN void tgmon_stacks_counts(uint64_t *lost, uint64_t *signals);
/* A stack recorded: its count, flags, thread (its record, threads.h), addresses innermost first, depth. */
typedef void tgmon_stack_fn(void *ctx, uint64_t count, uint32_t flags, uint32_t thread, const uint64_t *addr,
    uint32_t depth);
/* Calls F for each stack recorded. */
TGMON_HIDDEN void tgmon_stacks_each(tgmon_stack_fn *f, void *ctx);

/* write.c */
TGMON_HIDDEN int tgmon_write_init(void);	/* the directory the program started in */
/*
 * The files, written by a thread that blocks SIGXFSZ; 1 if one was cut
 * by the file size limit (the kernel then sent that thread SIGXFSZ).
 */
TGMON_HIDDEN int tgmon_write(int child);
/* live.c's snapshot files, and where they are (write.c says how). */
TGMON_HIDDEN int tgmon_write_snapshot(const char *suffix, uint32_t seq, const char *info, size_t len);
TGMON_HIDDEN int tgmon_write_path(const char *suffix, char *buf, size_t size);

/*
 * mcount-ARCH.S: the stubs' span, five offsets each relative to its own
 * place: their start (mcount), their end, the slow path's return sites
 * after mcount and after __fentry__ (x86-64; 0 elsewhere), and
 * tgmon_mcount's start.
 */
enum { TGMON_SPAN_BEGIN, TGMON_SPAN_END, TGMON_SPAN_RET, TGMON_SPAN_FRET, TGMON_SPAN_MCOUNT };
TGMON_HIDDEN extern const int32_t tgmon_stub_span[5];

static inline uint64_t
tgmon_stub_at(int k)
{
	return (uint64_t)(uintptr_t)&tgmon_stub_span[k] + (uint64_t)(int64_t)tgmon_stub_span[k];
}

/* start.c */
TGMON_HIDDEN extern uint64_t tgmon_run_id;	/* this process's run (gmon_out.h), never 0 */
/*
 * The writer's lock, for a snapshot (live.c): 1 if taken by the calling
 * thread (profiled code ran in this process, its own memory, and the
 * exit files are not written yet), then tgmon_writer_leave(); 0 if not
 * now.  The caller blocks every signal.
 */
TGMON_HIDDEN int tgmon_writer_enter(void);
TGMON_HIDDEN void tgmon_writer_leave(void);
TGMON_HIDDEN void tgmon_start(void);
/*
 * A thread's first profiled call, or a forked child's: the thread is
 * sampled from now on, and a child will write its file.
 */
TGMON_HIDDEN void tgmon_child_runs(void);
/*
 * TGMON_SIGNALS: the calling thread's alternate signal stack, libtgmon's
 * own (kept in its table T, for the threads that take the table after
 * it), if it has none; and at the thread's end, taken away if still
 * there.  Normal context.
 */
TGMON_HIDDEN void tgmon_altstack_thread(struct tgmon_table *t);
TGMON_HIDDEN void tgmon_altstack_ends(struct tgmon_table *t);
TGMON_HIDDEN void tgmon_say(const char *a, const char *b, const char *c);
/* System call NR, made here (not by the C library, nor through errno): the result, or -errno. */
TGMON_HIDDEN long tgmon_raw_syscall(long nr, long a, long b, long c, long d, long e, long f);

#endif
