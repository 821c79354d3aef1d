/* start: libtgmon's life cycle: settings, start, the gcrt1 entry points, exit, fork and signals. */
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "live.h"
#include "tgmon.h"
#include "threads.h"
#include "waits.h"

struct tgmon_settings tgmon_cfg;
uint64_t tgmon_run_id;
static int started, writing;
static __thread int writer;	/* this thread is the one writing the file */

/*
 * The signal the samples come with: a real-time one that programs do not
 * use (SIGPROF is theirs: gperftools, vmprof and programs with their own
 * ITIMER_PROF); TGMON_SIGNAL=N picks another, TGMON_SIGNAL=PROF SIGPROF.
 * A value that is not a signal a handler can take is refused, in one
 * line, for the default: SIGKILL, SIGSTOP, and the C library's own
 * (32 and 33 with glibc, below SIGRTMIN), whose handler it would refuse
 * while the clocks sent them all the same, ending the program.
 */
static int
tgmon_sample_signal(const char *v)
{
	char *end;
	long n;

	if (v == NULL || *v == '\0')
		return SIGRTMIN + 7;
	if (strcmp(v, "PROF") == 0 || strcmp(v, "SIGPROF") == 0)
		return SIGPROF;
	n = strtol(v, &end, 10);
	if (*end == '\0' && n >= 1 && n <= SIGRTMAX && n != SIGKILL && n != SIGSTOP &&
	    (n < SIGRTMIN - 2 || n >= SIGRTMIN) && n != 32 && n != 33)
		return (int)n;
	return -1;
}

/*
 * The variable NAME's value, of any length, copied at start into memory
 * of its own (the program may change its environment later, and the
 * writer may run in a signal handler, where nothing may be allocated);
 * "" if it is not set.  If the copy cannot be made, no file is written
 * (tgmon_cfg.nowrite), rather than one elsewhere, and that is said.
 */
static const char *
tgmon_keep(const char *name)
{
	const char *v = getenv(name);
	size_t n = v != NULL ? strlen(v) + 1 : 0;
	void *p;

	if (n <= 1)
		return "";
	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		tgmon_cfg.nowrite = 1;
		tgmon_say(name, ": no memory to keep it: ", "no profile will be written");
		return "";
	}
	memcpy(p, v, n);
	return p;
}

/*
 * TGMON_HZ (samples a second, 0 for none; 1000 by default), TGMON_DIR
 * (the directory for the files instead of the starting one), TGMON_SIGNALS
 * (1: also write the file on SIGTERM, SIGINT, SIGHUP, SIGSEGV, SIGBUS,
 * SIGABRT), TGMON_SIGNAL (the sampling signal), TGMON_STACKS (0: no call
 * stacks), TGMON_CLOCK (timer: sample by timers, not perf events),
 * TGMON_QUIET, GMON_OUT_PREFIX.  A set-user-ID program reads none.
 */
void
tgmon_settings_read(void)
{
	const char *v;

	tgmon_cfg.prefix = tgmon_cfg.dir = "";
	tgmon_cfg.hz = 1000;
	tgmon_cfg.stacks = tgmon_cfg.waits = 1;
	tgmon_cfg.signo = tgmon_sample_signal(NULL);
	if (getauxval(AT_SECURE))
		return;
	if ((tgmon_cfg.signo = tgmon_sample_signal(v = getenv("TGMON_SIGNAL"))) < 0)
		tgmon_cfg.signo = tgmon_sample_signal(NULL);
	if ((v = getenv("TGMON_HZ")) != NULL && *v != '\0') {
		long hz = strtol(v, NULL, 10);

		tgmon_cfg.hz = hz < 0 ? 0 : hz > 100000 ? 100000 : (int)hz;
	}
	tgmon_cfg.signals = (v = getenv("TGMON_SIGNALS")) != NULL && *v == '1';
	tgmon_cfg.stacks = !((v = getenv("TGMON_STACKS")) != NULL && strcmp(v, "0") == 0);
	tgmon_cfg.waits = tgmon_cfg.stacks && !((v = getenv("TGMON_WAITS")) != NULL && strcmp(v, "0") == 0);
	tgmon_cfg.timer_only = (v = getenv("TGMON_CLOCK")) != NULL && strcmp(v, "timer") == 0;
	tgmon_cfg.quiet = (v = getenv("TGMON_QUIET")) != NULL && *v == '1';
	if ((v = getenv("TGMON_SIGNAL")) != NULL && tgmon_sample_signal(v) < 0) {
		char line[200];

		snprintf(line, sizeof line, "TGMON_SIGNAL=%.40s: not a signal to sample with (SIGKILL, SIGSTOP "
		    "and the C library's own, 32 and 33, are not): signal %d instead", v, tgmon_cfg.signo);
		tgmon_say(line, NULL, NULL);
	}
	tgmon_cfg.prefix = tgmon_keep("GMON_OUT_PREFIX");
	tgmon_cfg.dir = tgmon_keep("TGMON_DIR");
}

/* A line said on a standard error past the file size limit (EFBIG: the kernel sent SIGXFSZ). */
static int said_cut;

/*
 * One line on standard error: "libtgmon: A B C" (each part of any
 * length, or NULL).  The file is written at every exit point
 * (_mcleanup, then the destructor), so a message the same as the last
 * one (by a hash of the whole line) is not said again.
 */
static void tgmon_xfsz_drop(const sigset_t *before);

/* The N parts written to standard error: 1 if the file size limit cut them (EFBIG), else 0. */
static int
tgmon_say_parts(const char *const *part, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (part[k] != NULL && write(2, part[k], strlen(part[k])) < 0)
			return errno == EFBIG;
	return 0;
}

void
tgmon_say(const char *a, const char *b, const char *c)
{
	static uint64_t last;
	const char *part[] = { "libtgmon: ", a, b, c, "\n" };
	uint64_t h = 0xcbf29ce484222325ULL;
	sigset_t xfsz, old, pending;
	size_t k;
	const char *s;
	int saved = errno;

	for (k = 1; k < 4; k++)
		for (s = part[k]; s != NULL && *s != '\0'; s++)
			h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	if (tgmon_cfg.quiet || h == last)
		return;
	last = h;
	if (writer || tgmon_in_jail()) {	/* the writer takes its SIGXFSZ back itself */
		said_cut |= tgmon_say_parts(part, sizeof part / sizeof *part);
		return;
	}
	/* A standard error past the file size limit: its SIGXFSZ taken back, as the writer's. */
	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	pthread_sigmask(SIG_BLOCK, &xfsz, &old);
	if (sigpending(&pending) != 0)
		sigfillset(&pending);
	if (tgmon_say_parts(part, sizeof part / sizeof *part))
		tgmon_xfsz_drop(&pending);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
}

/* A new run identifier: 64 bits from the kernel's randomness, or from the clock and the pid. */
static void
tgmon_run_id_new(void)
{
	struct timespec ts;
	uint64_t v;

	if (getrandom(&v, sizeof v, GRND_NONBLOCK) != (ssize_t)sizeof v) {
		clock_gettime(CLOCK_REALTIME, &ts);
		v = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) * 0x9e3779b97f4a7c15ULL ^
		    (uint64_t)getpid() << 40;
	}
	tgmon_run_id = v != 0 ? v : 1;
}

long
tgmon_raw_syscall(long nr, long a, long b, long c, long d, long e, long f)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
	long r;

	__asm__ volatile ("syscall" : "=a" (r) : "0" (nr), "D" (a), "S" (b), "d" (c), "r" (r10), "r" (r8),
	    "r" (r9) : "rcx", "r11", "memory");
	return r;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a, x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c, x3 __asm__("x3") = d, x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;

	__asm__ volatile ("svc 0" : "+r" (x0) : "r" (x8), "r" (x1), "r" (x2), "r" (x3), "r" (x4), "r" (x5) :
	    "memory");
	return x0;
#else
#error "libtgmon: no system calls for this architecture"
#endif
}

static int forked;	/* this process is a child of the one that started */
static int idle;	/* a forked child that has run no profiled code yet: no file */
static pid_t own_pid;	/* this process's; a vfork child (no atfork handler ran) has another */
static int exiting;	/* the file was written on the way out (exit, _exit) */

/*
 * Whether the calling process owns the memory it runs in: 0 in a child
 * that shares it (vfork, clone(CLONE_VM)), which must neither write the
 * file nor set a flag (the parent's).  The pid asked of the kernel
 * itself, not of the C library's wrapper.
 */
static int
tgmon_owns_memory(void)
{
	return tgmon_raw_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0) == (long)own_pid;
}

/*
 * The SIGXFSZ the kernel sent the writing thread (its signals blocked)
 * for a file cut by the file size limit (or a line on a standard error
 * past it), taken back, unless one was
 * pending before (BEFORE): the program sees no signal it did not cause,
 * and is not ended by it.
 */
static void
tgmon_xfsz_drop(const sigset_t *before)
{
	struct timespec zero = { 0, 0 };
	sigset_t xfsz;

	if (sigismember(before, SIGXFSZ) == 1)
		return;
	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	tgmon_raw_syscall(SYS_rt_sigtimedwait, (long)&xfsz, 0, (long)&zero, _NSIG / 8, 0, 0);
}

/*
 * The writer's lock, WRITING: 0 free, 1 the files' writer (at exit, or a
 * fatal signal's), 2 a snapshot's (live.c).  Taken as HOW (1 or 2): 1
 * if taken; 0 if another holds it as 1 (a snapshot never waits, and
 * the files' writer waits for a snapshot to end, then takes it).
 */
static int files_wait;	/* the files' writer waits for a snapshot: no other starts */

static int
tgmon_writer_take(int how)
{
	struct timespec ms = { 0, 1000000 };
	int cur = 0;

	if (how == 2 && __atomic_load_n(&files_wait, __ATOMIC_ACQUIRE))
		return 0;
	while (!__atomic_compare_exchange_n(&writing, &cur, how, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		if (cur == 1 || how == 2 || writer)
			return 0;
		__atomic_store_n(&files_wait, 1, __ATOMIC_RELEASE);
		nanosleep(&ms, NULL);	/* a snapshot's: a few milliseconds */
		cur = 0;
	}
	return 1;
}

/*
 * Writes the file; the threads' timers keep running, so this can be
 * called again later.  Only in a process where profiled code ran
 * (started: __monstartup or a first mcount), never in a vfork child (it
 * shares our memory).  The calling thread takes no asynchronous signal
 * while it writes: one that arrives then (SIGTERM from a supervisor)
 * takes effect once the file is complete; the SIGXFSZ of a file cut by
 * the file size limit (RLIMIT_FSIZE), which would end the program before
 * stdio flushed its output, is taken back (tgmon_xfsz_drop).  If another
 * thread is writing (a fatal signal's handler, TGMON_SIGNALS), this one
 * waits for it: it may be on its way out of the process, which would end
 * the write.
 */
static void
tgmon_dump(int child, int leaving)
{
	struct timespec ms = { 0, 1000000 };
	sigset_t block, old, pending;
	int saved = errno;

	if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE) || !tgmon_owns_memory() ||
	    __atomic_load_n(&idle, __ATOMIC_RELAXED))
		return;
	if (!tgmon_writer_take(1)) {
		while (!writer && __atomic_load_n(&writing, __ATOMIC_ACQUIRE))
			nanosleep(&ms, NULL);
		errno = saved;
		return;
	}
	sigfillset(&block);
	sigdelset(&block, SIGSEGV);
	sigdelset(&block, SIGBUS);
	sigdelset(&block, SIGFPE);
	sigdelset(&block, SIGILL);
	sigdelset(&block, SIGTRAP);
	sigdelset(&block, SIGSYS);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (sigpending(&pending) != 0)
		sigfillset(&pending);	/* then nothing is taken back */
	writer = 1;
	if (!tgmon_sample_handler_ours())
		tgmon_say("the program took libtgmon's sampling signal: ",
		    "the histogram misses what came after", " (TGMON_SIGNAL chooses another)");
	said_cut = 0;
	if (tgmon_write(child) || said_cut)
		tgmon_xfsz_drop(&pending);
	if (!child)
		tgmon_live_final();
	writer = 0;
	__atomic_store_n(&writing, 0, __ATOMIC_RELEASE);
	if (!leaving)	/* at _exit, nothing more: a signal would only run a handler on a small stack */
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
}

/*
 * tgmon_dump() on a stack of its own (tgmon_on_stack): the file may be written
 * from a signal handler on a small alternate stack (a stack overflow's,
 * which calls _exit), too small for the writer.  Below it, a page that
 * is not mapped.
 */
#define WRITER_STACK (256 * 1024)

struct dump_args {
	int child, leaving;
};

static void
tgmon_dump_there(void *p)
{
	const struct dump_args *a = p;

	tgmon_dump(a->child, a->leaving);
}

static void
tgmon_dump_on_own_stack(int child, int leaving)
{
	struct dump_args a = { child, leaving };
	/* system calls made here: a C library function's first call (lazy binding) takes kilobytes */
	long p = tgmon_raw_syscall(SYS_mmap, 0, WRITER_STACK + 4096, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if ((unsigned long)p > -4096UL ||
	    tgmon_raw_syscall(SYS_mprotect, p + 4096, WRITER_STACK, PROT_READ | PROT_WRITE, 0, 0, 0) != 0) {
		if ((unsigned long)p <= -4096UL)
			tgmon_raw_syscall(SYS_munmap, p, WRITER_STACK + 4096, 0, 0, 0, 0);
		tgmon_dump(child, leaving);	/* on the caller's */
		return;
	}
	tgmon_on_stack(tgmon_dump_there, &a, (char *)p + 4096 + WRITER_STACK);
	tgmon_raw_syscall(SYS_munmap, p, WRITER_STACK + 4096, 0, 0, 0, 0);
}

/*
 * The file written at exit, once, whichever of libtgmon's handler and
 * gcrt1.o's _mcleanup() atexit() runs first (a second write would add
 * the first one's own time); a fatal signal after it has nothing to add.
 * A child sharing the memory (a vfork child whose exec failed) leaves
 * it to the parent.
 */
static void
tgmon_dump_at_exit(int leaving)
{
	if (!tgmon_owns_memory())
		return;
	if (__atomic_load_n(&exiting, __ATOMIC_ACQUIRE) || !tgmon_kernel_enter())
		return;	/* in a seccomp sandbox, writing a file may end the process */
	if (__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		tgmon_dump_on_own_stack(forked, leaving);
	tgmon_kernel_leave();
	__atomic_store_n(&exiting, 1, __ATOMIC_RELEASE);
}

/*
 * A forked child starts from zero, and samples nothing until it runs
 * profiled code (tgmon_child_runs): a child that resets every signal to
 * SIG_DFL and execs, as a spawn does, must never take the sampling
 * signal, and one that runs no profiled code writes no file.
 */
static void
tgmon_in_child(void)
{
	int saved = errno;

	forked = 1;
	idle = 1;
	if (!tgmon_jail_all)	/* this thread is the child's only one */
		tgmon_jails = tgmon_jailed;
	own_pid = getpid();
	__atomic_store_n(&writing, 0, __ATOMIC_RELEASE);	/* a writer in the parent is not here */
	__atomic_store_n(&files_wait, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&tgmon_inflight, 0, __ATOMIC_SEQ_CST);	/* nor its other threads' kernel calls */
	tgmon_run_id_new();
	tgmon_arcs_reset();
	tgmon_stacks_reset();
	tgmon_threads_reset();
	tgmon_waits_reset();
	tgmon_sample_reset();
	tgmon_live_in_child();
	errno = saved;
}

/*
 * TGMON_SIGNALS: the file, then the signal's own effect.  If another
 * thread is writing the file (the program is exiting), this one waits
 * for it to finish: the process must not end with half a file.  A crash
 * in the writing thread itself (the only signals it takes then) cannot
 * wait for itself: the process ends at once.
 */
static void
tgmon_on_fatal(int sig)
{
	struct timespec ms = { 0, 1000000 };
	struct sigaction dfl;
	int saved = errno;

	while (tgmon_owns_memory() && !writer && __atomic_load_n(&writing, __ATOMIC_ACQUIRE))
		nanosleep(&ms, NULL);
	if (tgmon_owns_memory() && !writer && !__atomic_load_n(&exiting, __ATOMIC_ACQUIRE))
		tgmon_dump_on_own_stack(forked, 0);
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	__sigaction(sig, &dfl, NULL);
	errno = saved;
	raise(sig);
}

/*
 * The alternate signal stacks fatal signals' handler runs on (it runs
 * after a stack overflow too): libtgmon's own, ALT_STACK bytes above a
 * page that is not mapped (pages come when used; the writer switches to
 * a stack of its own), given to a thread that has none.  ALT_HERE: the
 * calling thread's, while it is installed; the program is told of none
 * (sigaltstack), and its own replaces it.
 */
#define ALT_STACK (256 * 1024)
static __thread void *alt_here;

/* The kernel's sigaltstack(): 0, or -errno (libtgmon's sigaltstack() is the program's). */
static long
tgmon_sigaltstack_raw(const stack_t *ss, stack_t *old)
{
	return tgmon_raw_syscall(SYS_sigaltstack, (long)ss, (long)old, 0, 0, 0, 0);
}

/* ALT_STACK bytes above a guard page, by system calls; NULL if refused. */
static void *
tgmon_altstack_map(void)
{
	long p = tgmon_raw_syscall(SYS_mmap, 0, ALT_STACK + 4096, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if ((unsigned long)p > -4096UL)
		return NULL;
	if (tgmon_raw_syscall(SYS_mprotect, p + 4096, ALT_STACK, PROT_READ | PROT_WRITE, 0, 0, 0) != 0) {
		tgmon_raw_syscall(SYS_munmap, p, ALT_STACK + 4096, 0, 0, 0, 0);
		return NULL;
	}
	return (char *)p + 4096;
}

void
tgmon_altstack_thread(struct tgmon_table *t)
{
	stack_t cur, ss;

	if (!tgmon_cfg.signals || tgmon_sigaltstack_raw(NULL, &cur) != 0 || !(cur.ss_flags & SS_DISABLE))
		return;	/* the program's own stays */
	if (t->alt == NULL && (t->alt = tgmon_altstack_map()) == NULL)
		return;
	memset(&ss, 0, sizeof ss);
	ss.ss_sp = t->alt;
	ss.ss_size = ALT_STACK;
	if (tgmon_sigaltstack_raw(&ss, NULL) == 0)
		alt_here = t->alt;
}

void
tgmon_altstack_ends(struct tgmon_table *t)
{
	stack_t cur, off;

	if (alt_here == NULL)
		return;
	memset(&off, 0, sizeof off);
	off.ss_flags = SS_DISABLE;
	if (tgmon_sigaltstack_raw(NULL, &cur) == 0 && cur.ss_sp == alt_here &&
	    tgmon_sigaltstack_raw(&off, NULL) != 0 && t->alt == alt_here)
		t->alt = NULL;	/* refused (the thread is on it): it stays this thread's */
	alt_here = NULL;
}

/*
 * The program's sigaltstack(): the kernel's, except that libtgmon's
 * stack, while installed, is reported as none (SS_DISABLE); one the
 * program sets (or SS_DISABLE) replaces it.
 */
int
sigaltstack(const stack_t *ss, stack_t *old)
{
	long r = tgmon_sigaltstack_raw(ss, old);	/* the kernel checks OLD: EFAULT, as glibc gives */

	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	if (old != NULL && alt_here != NULL && old->ss_sp == alt_here && !(old->ss_flags & SS_ONSTACK)) {
		memset(old, 0, sizeof *old);
		old->ss_flags = SS_DISABLE;
	}
	if (ss != NULL)
		alt_here = NULL;
	return 0;
}

/*
 * TGMON_SIGNALS: libtgmon's handler for the fatal signals the program
 * leaves at SIG_DFL, on the alternate signal stack (SA_ONSTACK: the
 * program's, or libtgmon's, tgmon_altstack_thread).
 */
static void
tgmon_catch_fatal(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGSEGV, SIGBUS, SIGABRT };
	struct sigaction sa;
	size_t k;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tgmon_on_fatal;
	sa.sa_flags = SA_RESTART | SA_ONSTACK;
	for (k = 0; k < sizeof sigs / sizeof *sigs; k++) {
		struct sigaction old;

		/* Never take a signal the program handles itself. */
		sigemptyset(&sa.sa_mask);
		sigaddset(&sa.sa_mask, sigs[k]);
		if (__sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			__sigaction(sigs[k], &sa, NULL);
	}
}

/*
 * Once: settings, the run identifier, the histogram, the output directory,
 * this thread's stacks, the fork hook, fatal signals, this thread's
 * sampling.  errno is kept.
 */
void
tgmon_start(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	int saved = errno, k;

	if (__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&lock);
	if (!started) {
		tgmon_settings_read();
		own_pid = getpid();
		tgmon_run_id_new();
		if ((k = tgmon_sample_init()) == -1)
			tgmon_say("the program's text is not found: ", "no histogram", NULL);
		else if (k == -2)
			tgmon_say("the sampling signal's handler is refused: ", "no histogram",
			    " (TGMON_SIGNAL chooses another signal)");
		tgmon_stacks_start();
		if (tgmon_write_init() != 0)
			tgmon_say(tgmon_cfg.dir[0] != '\0' ? tgmon_cfg.dir : ".",
			    ": cannot be opened: ", "files go to the directory current at exit");
		pthread_atfork(NULL, NULL, tgmon_in_child);
		if (tgmon_cfg.signals)
			tgmon_catch_fatal();
		__atomic_store_n(&started, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	tgmon_live_start();
	tgmon_sample_thread();
	errno = saved;
}

int
tgmon_writer_enter(void)
{
	if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE) || !tgmon_owns_memory() ||
	    __atomic_load_n(&idle, __ATOMIC_RELAXED) || __atomic_load_n(&exiting, __ATOMIC_ACQUIRE) ||
	    !tgmon_writer_take(2))
		return 0;
	if (__atomic_load_n(&exiting, __ATOMIC_ACQUIRE)) {	/* the exit's write came and went meanwhile */
		__atomic_store_n(&writing, 0, __ATOMIC_RELEASE);
		return 0;
	}
	writer = 1;
	return 1;
}

void
tgmon_writer_leave(void)
{
	writer = 0;
	__atomic_store_n(&writing, 0, __ATOMIC_RELEASE);
}

void
tgmon_child_runs(void)
{
	__atomic_store_n(&idle, 0, __ATOMIC_RELAXED);
	tgmon_sample_thread();
}

/* Whether this code is in the main program (libtgmon.a) rather than in libtgmon.so. */
static int
tgmon_in_program(struct dl_phdr_info *info, size_t size, void *ctx)
{
	uintptr_t self = (uintptr_t)ctx;
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && self >= lo && self - lo < ph->p_memsz)
			return 2;
	}
	return 1;	/* the first object is the program: stop there */
}

/*
 * Linked into a program (libtgmon.a), start before main, whether or not
 * gcrt1.o calls __monstartup.  As libtgmon.so (-ltgmon, LD_PRELOAD) it
 * is loaded into processes that were not built with -pg too (sh, time,
 * a build's tools): there it starts at __monstartup or the first call
 * counted, and a process without profiled code has no timer, no handler
 * and no file.
 */
__attribute__((constructor(101))) static void
tgmon_ctor(void)
{
	if (dl_iterate_phdr(tgmon_in_program, (void *)(uintptr_t)tgmon_ctor) == 2)
		tgmon_start();
}

/*
 * At exit: the destructors run after every atexit() handler, this one last
 * of them (priority 101), so the work of both is counted.
 */
__attribute__((destructor(101))) static void
tgmon_dtor(void)
{
	tgmon_dump_at_exit(0);
}

/* gcrt1.o's entry points, which glibc's runtime would provide. */
void __monstartup(unsigned long lowpc, unsigned long highpc);
void monstartup(unsigned long lowpc, unsigned long highpc);
void _mcleanup(void);
void moncontrol(int mode);

void
__monstartup(unsigned long lowpc, unsigned long highpc)
{
	tgmon_start();	/* the range is found from the program's headers instead */
}

void
monstartup(unsigned long lowpc, unsigned long highpc)
{
	tgmon_start();
}

/* gcrt1.o's atexit() handler, as glibc's: the final write (once, with tgmon_dump_at_exit()). */
void
_mcleanup(void)
{
	tgmon_dump_at_exit(0);
}

void
moncontrol(int mode)
{
	if (mode)
		tgmon_child_runs();
	else
		tgmon_sample_stop();
}

/* _exit() and _Exit() skip atexit: the file is written first. */
void
_exit(int status)
{
	tgmon_dump_at_exit(1);
	for (;;) {	/* as glibc's: exit if exit_group is refused (seccomp's strict mode kills) */
		tgmon_raw_syscall(SYS_exit_group, status, 0, 0, 0, 0, 0);
		tgmon_raw_syscall(SYS_exit, status, 0, 0, 0, 0, 0);
	}
}

void
_Exit(int status)
{
	_exit(status);
}
