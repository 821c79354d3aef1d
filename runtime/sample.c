/* sample: libtgmon's sampling of each thread's CPU time (a perf event or a timer) into 32-bit bins. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "../src/input/gmon_out.h"
#include "tgmon.h"
#include "threads.h"
#include "waits.h"


/*
 * Every function here is named tgmon_*, the static ones too: they run
 * while the program is sampled, and tgprof shows tgmon_* functions as the
 * cost of profiling, not the program's.
 */
/* libtgmon's own module when it is a shared object (the executable's, 0, when linked in: -1). */
static int tgmon_own_mod = -1;
uint32_t tgmon_clocks;
int tgmon_rate;

/*
 * How the calling thread is sampled.  By its perf event where the
 * kernel allows: its descriptor EV_FD (-1: none) and its entry EV_SLOT
 * in tgmon_evs; then its timer (HAS_TIMER) is a watchdog, ticking every
 * WATCH_PERIODS sampling periods of its CPU time, which finds the event
 * gone if no sample came since its last tick (the program closed every
 * descriptor, or put a file at its number: the event ends with its last
 * descriptor) and turns itself into the sampling timer.  Else by its
 * timer alone.  PERF_SEEN is the handler's, for the watchdog.
 *
 * An event costs its thread at every switch of context: the kernel
 * stops and restarts the event's timer, whose reprogramming costs 10 us
 * in a virtual machine (two threads passing a byte back and forth ran
 * 5.5 times slower with it); recording its waits (waits.c), 2.5 us.
 * Every WATCH_PERIODS periods of its CPU time sampled (SW_PERIODS so
 * far; the first time, after SW_FIRST: a thread that switches 10^5
 * times a second would pay most of a period for them), the thread's
 * voluntary switches since (from SW_LAST: it waited) are counted: past
 * SWITCHES_MAX a period (10% of its time at that cost), its event is
 * closed and its timer samples it instead; past WAIT_SWITCHES_MAX, its
 * waits are no longer recorded.  Not sooner: a timer is checked at the
 * kernel's tick in the thread's time on CPU, and a thread that wakes on
 * the millisecond for short bursts can miss every tick (rate.c, woken
 * every millisecond for 0.3 ms of work: 27 samples for 0.63 s of CPU
 * time when its timer took over at 3 switches a period).  Never for
 * fewer than SW_MIN times SWITCHES_MAX (WAIT_SWITCHES_MAX for the waits)
 * switches: a thread that computes switches a few times as it starts
 * (a barrier, a lock).  Preemptions are not
 * counted: on a busy machine a thread that computes is preempted every
 * millisecond, and it would lose its event for the machine's load.
 */
#define WATCH_PERIODS 25
#define SWITCHES_MAX 10
#define SW_FIRST 2
#define SW_MIN 25
#define WAIT_SWITCHES_MAX 4
static __thread timer_t thread_timer;
static __thread int has_timer;
static __thread int ev_fd __attribute__((tls_model("initial-exec"))) = -1;
static __thread int ev_slot = -1;
static __thread unsigned perf_seen __attribute__((tls_model("initial-exec")));
static __thread uint64_t perf_cpu __attribute__((tls_model("initial-exec")));	/* at its last */
static __thread uint64_t sw_last;
static __thread uint32_t sw_periods;
static __thread int sw_checked;

/*
 * Threads in a seccomp sandbox (tgmon_sample_jail), where any system
 * call may end the process: their handler takes the program counter
 * alone into the histogram (no stack, no clock read, no refresh).
 */
__thread int tgmon_jailed __attribute__((tls_model("initial-exec")));
int tgmon_jail_all;
int tgmon_jails;
int tgmon_inflight;

/*
 * A thread's perf event: its descriptor (0: a free entry; -1: being
 * taken), the event's identifier and the file's identity, by which a
 * descriptor is known to be still the event (never a file the program
 * put at that number).  Every event open is here, so that a forked
 * child can close its parent's.
 */
#define TGMON_MAX_EVENTS 256
struct tgmon_ev {
	int fd;
	uint64_t id;
	dev_t dev;
	ino_t ino;
};
static struct tgmon_ev tgmon_evs[TGMON_MAX_EVENTS];
static int perf_denied;		/* perf_event_open() is refused (not for want of descriptors) */

#if defined(__x86_64__)
#define TGMON_UC_PC(uc) ((uint64_t)(uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__aarch64__)
#define TGMON_UC_PC(uc) ((uint64_t)(uc)->uc_mcontext.pc)
#else
#error "libtgmon: no sampling for this architecture"
#endif

/*
 * PC, or tgmon_mcount's start if PC is in mcount's own jump to it: gprof
 * leaves samples in a symbol named mcount out of the profile, and the
 * runtime's cost must show (as tgmon_mcount).
 */
static uint64_t
tgmon_stub_charge(uint64_t pc)
{
	uint64_t body = tgmon_stub_at(TGMON_SPAN_MCOUNT);

	return pc >= tgmon_stub_at(TGMON_SPAN_BEGIN) && pc < body ? body : pc;
}

/* The calling thread's CPU time in nanoseconds (0: no clock); a system call, safe in a handler. */
static uint64_t
tgmon_thread_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The periods of CPU time the thread's event sampled once, at least 1:
 * those since its last sample, rounded.  An event misses the periods
 * while its signal waits (the thread blocks it): the late signal counts
 * for them, as a timer's does (its overrun).
 */
static uint32_t
tgmon_perf_weight(void)
{
	uint64_t now = tgmon_thread_ns(), period = 1000000000u / (unsigned)tgmon_cfg.hz, n;

	n = now > perf_cpu && perf_cpu != 0 ? (now - perf_cpu + period / 2) / period : 1;
	perf_cpu = now;
	return n < 1 ? 1 : n > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)n;
}

/*
 * Whether the handler runs on the program's alternate signal stack (the
 * code it interrupted was on it: a handler of the program's) with less
 * than ROOM_MIN bytes left below it: too little for the stack walk,
 * which a small stack (a stack overflow's handler's, 7 KiB) would not
 * survive.  Such a sample has no stack.
 */
#define ROOM_MIN (32 * 1024)
static int
tgmon_cramped(const ucontext_t *uc)
{
	uint64_t sp = (uint64_t)(uintptr_t)__builtin_frame_address(0);
	uint64_t lo = (uint64_t)(uintptr_t)uc->uc_stack.ss_sp;

	return (uc->uc_stack.ss_flags & SS_ONSTACK) && (sp < lo || sp - lo < ROOM_MIN);
}

/* A sample of WEIGHT periods, in the histogram and the stacks. */
static void
tgmon_sample_take(ucontext_t *uc, uint32_t weight)
{
	uint64_t pc = TGMON_UC_PC(uc);
	int m = tgmon_module_at(pc);
	uint64_t caller = tgmon_cfg.stacks && !tgmon_cramped(uc) ?
	    tgmon_stacks_sample(uc, weight, tgmon_own_mod > 0 ? tgmon_own_mod : -1) : 0;

	/* Outside the profiled code: the time of the profiled function that called it. */
	if (!tgmon_is_profiled(m) && caller != 0)
		m = tgmon_module_at(pc = caller);
	tgmon_threads_sampled(weight);
	if (m == tgmon_own_mod)
		pc = tgmon_stub_charge(pc);
	if (m >= 0 && tgmon_module(m)->bin != NULL)	/* elsewhere (the vDSO...): not profiled */
		__atomic_fetch_add(&tgmon_module(m)->bin[(pc - tgmon_module(m)->lowpc) >> TGMON_BIN_SHIFT], weight,
		    __ATOMIC_RELAXED);
}

/* The calling thread's timer, every NS nanoseconds of its CPU time; 0 or -1. */
static int
tgmon_timer_arm(long ns)
{
	struct itimerspec its;

	its.it_interval.tv_sec = its.it_value.tv_sec = ns / 1000000000L;
	its.it_interval.tv_nsec = its.it_value.tv_nsec = ns % 1000000000L;
	return timer_settime(thread_timer, 0, &its, NULL);
}

/* The calling thread's voluntary switches of context (0: unknown); a system call. */
static uint64_t
tgmon_thread_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return 0;
	return (uint64_t)ru.ru_nvcsw;
}

static int tgmon_ev_is(const struct tgmon_ev *e, int fd);

/*
 * The calling thread's event closed (if its descriptor still is the
 * event: never a file the program put at its number) and its entry
 * freed; a late signal of it leaves it alone.  In the handler too.
 */
static void
tgmon_perf_drop(void)
{
	int k = ev_slot, fd;

	__atomic_store_n(&ev_fd, -1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (k < 0)
		return;
	if ((fd = tgmon_evs[k].fd) > 0 && tgmon_ev_is(&tgmon_evs[k], fd))
		close(fd);
	__atomic_store_n(&tgmon_evs[k].fd, 0, __ATOMIC_RELEASE);
	ev_slot = -1;
}

/* The thread's timer, its watchdog until now, samples it at the rate asked (in the handler). */
static void
tgmon_to_timer(void)
{
	__atomic_store_n(&ev_fd, -1, __ATOMIC_RELAXED);
	if (tgmon_timer_arm(1000000000L / tgmon_cfg.hz) == 0) {
		__atomic_fetch_or(&tgmon_clocks, TGSTACKS_CLOCK_TIMER, __ATOMIC_RELAXED);
		tgmon_threads_flag(TGSTACKS_THREAD_TIMER);
	}
}

/*
 * The watchdog's tick (in the handler): if the thread's event has
 * brought no sample in the WATCH_PERIODS periods since the last tick, it
 * is taken for gone, and the timer samples instead.  (A signal blocked
 * meanwhile holds back the tick too, which then comes after the
 * event's.)  The event's entry stays: tgmon_sample_stop() closes its
 * descriptor if it still is the event.
 */
static void
tgmon_watchdog(void)
{
	unsigned seen = perf_seen;

	perf_seen = 0;
	if (seen == 0)
		tgmon_to_timer();
}

/* A sample of WEIGHT periods (in the handler): the thread's switches, every WATCH_PERIODS periods. */
static void
tgmon_switches_check(uint32_t weight)
{
	uint64_t sw, n;

	if ((sw_periods += weight) < (sw_checked ? WATCH_PERIODS : SW_FIRST))
		return;
	sw_checked = 1;
	sw = tgmon_thread_switches();
	n = sw >= sw_last ? sw - sw_last : 0;	/* (a forked child's count starts again) */
	sw_last = sw;
	if (n > (uint64_t)(sw_periods > SW_MIN ? sw_periods : SW_MIN) * WAIT_SWITCHES_MAX)
		tgmon_waits_give_up();
	if (n > (uint64_t)(sw_periods > SW_MIN ? sw_periods : SW_MIN) * SWITCHES_MAX && ev_slot >= 0) {
		tgmon_perf_drop();
		tgmon_to_timer();
	}
	sw_periods = 0;
}

/*
 * The sampling signal as the program sees it (tgmon_sample_sigaction).
 * While libtgmon's handler is the kernel's (SIG_OWN), a program's
 * SIG_DFL or SIG_IGN for that signal (a spawn's reset of every signal
 * before exec, a daemon's at start) is kept in SIG_PROG instead of being
 * installed: the next sample would end the program.  A signal of that
 * number sent by anyone else (kill, sigqueue) then has the effect the
 * program asked for.
 */
static int sig_own;
static struct sigaction sig_prog;

/*
 * A signal of the sampling signal's number that no clock of ours sent:
 * what the program asked for (a handler it had before libtgmon started,
 * preloaded, is called).
 */
static void
tgmon_sample_foreign(int sig, siginfo_t *si, void *uc)
{
	struct sigaction dfl;

	if (sig_prog.sa_flags & SA_SIGINFO) {
		sig_prog.sa_sigaction(sig, si, uc);
		return;
	}
	if (sig_prog.sa_handler != SIG_DFL && sig_prog.sa_handler != SIG_IGN) {
		sig_prog.sa_handler(sig);
		return;
	}
	if (sig_prog.sa_handler != SIG_DFL || sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH ||
	    sig == SIGCONT)
		return;	/* ignored, as the program asked (or by default) */
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	__atomic_store_n(&sig_own, 0, __ATOMIC_RELAXED);
	__sigaction(sig, &dfl, NULL);
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);	/* taken once this handler returns */
}

/*
 * A sample in a sandboxed thread (tgmon_in_jail): no system call, so no
 * stack (the walk may ask the kernel), no clock read and no refresh of
 * an event: its program counter, in the histogram, for the periods its
 * timer counted (an event's sample, one; its watchdog's tick, which is
 * all that samples the thread once the event is spent, WATCH_PERIODS).
 * Time in code that is not profiled (a library) is lost.
 */
static void
tgmon_sample_jailed(siginfo_t *si, ucontext_t *uc, int fd)
{
	uint64_t pc = TGMON_UC_PC(uc);
	uint32_t weight = 1;
	int m = tgmon_module_at(pc);

	if (si->si_code == SI_TIMER) {
		weight += si->si_overrun > 0 ? (uint32_t)si->si_overrun : 0;
		if (fd >= 0)
			weight *= WATCH_PERIODS;
	}
	if (m == tgmon_own_mod)
		pc = tgmon_stub_charge(pc);
	if (tgmon_is_profiled(m) && tgmon_module(m)->bin != NULL)
		__atomic_fetch_add(&tgmon_module(m)->bin[(pc - tgmon_module(m)->lowpc) >> TGMON_BIN_SHIFT], weight,
		    __ATOMIC_RELAXED);
}

/*
 * The sampling signal: a sample, or the watchdog's tick in a thread
 * sampled by its event.  The event, spent (tgmon_perf_open), counts
 * again once the sample is taken: the handler's time is left out.  A
 * signal that none of libtgmon's clocks sent (SI_USER, SI_QUEUE,
 * SI_TKILL: si_code 0 or below) is the program's (tgmon_sample_foreign).
 */
static void
tgmon_on_sample(int sig, siginfo_t *si, void *ucv)
{
	int saved = errno, fd = __atomic_load_n(&ev_fd, __ATOMIC_RELAXED);

	if (si->si_code <= 0 && si->si_code != SI_TIMER) {
		tgmon_sample_foreign(sig, si, ucv);
	} else if (!tgmon_kernel_enter()) {	/* in a sandbox */
		tgmon_sample_jailed(si, ucv, fd);
	} else {
		if (si->si_code == SI_TIMER && fd >= 0) {
			tgmon_watchdog();
		} else if (si->si_code == POLL_HUP && fd >= 0 && si->si_fd == fd) {
			uint32_t w = tgmon_perf_weight();

			perf_seen++;
			tgmon_sample_take(ucv, w);
			ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
			tgmon_switches_check(w);
		} else {	/* a timer's signal counts the periods it missed (its overrun) */
			uint32_t w = 1 + (si->si_code == SI_TIMER && si->si_overrun > 0 ? (uint32_t)si->si_overrun : 0);

			tgmon_sample_take(ucv, w);
			tgmon_switches_check(w);
		}
		tgmon_waits_drain();
		tgmon_kernel_leave();
	}
	errno = saved;
}

/*
 * The modules loaded now, their histograms and the sampling signal's
 * handler; 0, -1 (no text), or -2 (the signal's handler was refused:
 * nothing is sampled).
 */
int
tgmon_sample_init(void)
{
	struct sigaction sa;

	if (tgmon_modules_init() == 0)
		return -1;
	tgmon_own_mod = tgmon_module_at((uint64_t)(uintptr_t)&tgmon_on_sample);
	tgmon_module(0)->profiled = 1;	/* the program; a library once a call into it is counted */
	if (tgmon_module(0)->bin == NULL) {
		tgmon_cfg.hz = 0;	/* no histogram, no handler: no clock */
		return -1;
	}
	if (tgmon_cfg.hz <= 0)
		return 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = tgmon_on_sample;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (__sigaction(tgmon_cfg.signo, &sa, &sig_prog) != 0) {
		tgmon_cfg.hz = 0;	/* no clock may send a signal nobody handles */
		return -2;
	}
	__atomic_store_n(&sig_own, 1, __ATOMIC_RELEASE);
	tgmon_rate = tgmon_cfg.hz;
	if (__sigaction(tgmon_cfg.signo, NULL, &sa) == 0 && sa.sa_restorer != NULL)
		tgmon_stacks_restorer((uint64_t)(uintptr_t)sa.sa_restorer);	/* glibc's trampoline */
	return 0;
}

/*
 * sigaction() of the sampling signal, once libtgmon has installed its
 * handler (start.c's sigaction() and signal()).  While the handler is
 * libtgmon's, the program's SIG_DFL or SIG_IGN is kept (sig_prog), not
 * installed, and the disposition the program is told of is its own;
 * a handler of the program's is installed (the program takes the
 * signal: the samples go to it, as it is told at exit); and a SIG_DFL
 * or SIG_IGN after that puts libtgmon's back.
 */
int
tgmon_sample_sigaction(const struct sigaction *act, struct sigaction *old)
{
	int sig = tgmon_cfg.signo;
	struct sigaction ours, was;

	if (!__atomic_load_n(&sig_own, __ATOMIC_ACQUIRE)) {
		if (act == NULL || (act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN) ||
		    act->sa_flags & SA_SIGINFO)
			return __sigaction(sig, act, old);
		memset(&ours, 0, sizeof ours);
		ours.sa_sigaction = tgmon_on_sample;
		ours.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&ours.sa_mask);
		if (__sigaction(sig, &ours, &was) != 0)
			return -1;
		sig_prog = *act;
		__atomic_store_n(&sig_own, 1, __ATOMIC_RELEASE);
		if (old != NULL)
			*old = was;
		return 0;
	}
	was = sig_prog;
	if (act != NULL && ((act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN) ||
	    act->sa_flags & SA_SIGINFO)) {
		if (__sigaction(sig, act, NULL) != 0)
			return -1;
		__atomic_store_n(&sig_own, 0, __ATOMIC_RELEASE);
	}
	if (act != NULL)
		sig_prog = *act;
	if (old != NULL)
		*old = was;
	return 0;
}

/*
 * A signal of libtgmon's clocks that the program's sigwait() took (a
 * thread that blocks every signal and waits for any): not the program's,
 * and not a sample (its context is gone), but a thread's event, spent,
 * must count again.
 */
void
tgmon_sample_waited(const siginfo_t *si)
{
	int fd = __atomic_load_n(&ev_fd, __ATOMIC_RELAXED);

	if (si->si_code > 0 && fd >= 0 && si->si_fd == fd && tgmon_kernel_enter()) {
		perf_seen++;
		ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
		tgmon_kernel_leave();
	}
}

int
tgmon_sample_signal_kept(void)
{
	return tgmon_rate > 0 && tgmon_cfg.signo > 0;
}

/*
 * A timer on the calling thread's CPU time, every NS nanoseconds of it
 * (tgmon_cfg.hz times a second, or the watchdog's); 0 or -1.
 */
static int
tgmon_timer_start(long ns)
{
	struct sigevent ev;

	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = tgmon_cfg.signo;
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &thread_timer) != 0)
		return -1;
	if (tgmon_timer_arm(ns) != 0) {
		timer_delete(thread_timer);
		return -1;
	}
	has_timer = 1;
	return 0;
}

/*
 * The lowest descriptor libtgmon's own may take, and in *MOST how many
 * perf events may be open at once: out of the way of the numbers open()
 * gives the program (1000 and up), below RLIMIT_NOFILE's soft limit, a
 * sixteenth of it at most (a program near its limit keeps most of it);
 * -1 if the limit is too low to spare any.
 */
int
tgmon_fd_floor(int *most)
{
	struct rlimit rl;
	rlim_t n;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur < 64)
		return -1;
	n = rl.rlim_cur;
	*most = n / 16 < TGMON_MAX_EVENTS ? (int)(n / 16) : TGMON_MAX_EVENTS;
	return n - n / 16 < 1000 ? (int)(n - n / 16) : 1000;
}

/* Whether FD is still the event E was made for: the same file, the same event. */
static int
tgmon_ev_is(const struct tgmon_ev *e, int fd)
{
	struct stat st;
	uint64_t id;

	/* The file first: the event's ioctl is never made on a file of the program's. */
	return fd > 0 && fstat(fd, &st) == 0 && st.st_dev == e->dev && st.st_ino == e->ino &&
	    ioctl(fd, PERF_EVENT_IOC_ID, &id) == 0 && id == e->id;
}

/* A perf_event task clock of the calling thread (its kernel time too if allowed); a descriptor or -1. */
static int
tgmon_perf_event(uint32_t *kind)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 1000000000ULL / (unsigned)tgmon_cfg.hz;
	a.disabled = 1;
	a.exclude_hv = 1;
	*kind = TGSTACKS_CLOCK_PERF;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {	/* kernel.perf_event_paranoid */
		a.exclude_kernel = 1;
		*kind |= TGSTACKS_CLOCK_USER;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0 && errno != EMFILE && errno != ENFILE && errno != ENOMEM)
		__atomic_store_n(&perf_denied, 1, __ATOMIC_RELAXED);
	return fd;
}

/*
 * The calling thread's event in E, its descriptor moved to FLOOR or
 * above, close-on-exec, signalling this thread with tgmon_cfg.signo; the
 * descriptor, or -1.  It is enabled for one sample at a time
 * (PERF_EVENT_IOC_REFRESH, which the handler repeats): a thread that
 * blocks the signal has one pending, as with a timer, never a queue of
 * them (real-time signals would queue up to RLIMIT_SIGPENDING, past
 * which the kernel sends SIGIO, which ends the program).
 */
static int
tgmon_perf_open(struct tgmon_ev *e, int floor, uint32_t *kind)
{
	struct f_owner_ex owner = { F_OWNER_TID, (pid_t)syscall(SYS_gettid) };
	struct stat st;
	int fd = tgmon_perf_event(kind), hi, fl;

	if (fd < 0)
		return -1;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, floor);
	close(fd);
	if (hi < 0)
		return -1;
	if (fcntl(hi, F_SETOWN_EX, &owner) != 0 || fcntl(hi, F_SETSIG, tgmon_cfg.signo) != 0 ||
	    (fl = fcntl(hi, F_GETFL)) < 0 || fcntl(hi, F_SETFL, fl | O_ASYNC) != 0 ||
	    fstat(hi, &st) != 0 || ioctl(hi, PERF_EVENT_IOC_ID, &e->id) != 0) {
		close(hi);
		return -1;
	}
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	return hi;
}

/*
 * The calling thread's perf event, started (tgmon_perf_open), with its
 * watchdog (if a timer can be had); 0, or -1 with nothing left open.
 */
static int
tgmon_perf_start(void)
{
	int most = 0, floor = tgmon_fd_floor(&most), k, fd, unused;
	long ns = 1000000000L / tgmon_cfg.hz;
	uint32_t kind = 0;

	if (floor < 0 || __atomic_load_n(&perf_denied, __ATOMIC_RELAXED))
		return -1;
	for (k = 0; k < most; k++) {	/* a free entry, taken (-1) */
		unused = 0;
		if (__atomic_compare_exchange_n(&tgmon_evs[k].fd, &unused, -1, 0, __ATOMIC_ACQUIRE,
		    __ATOMIC_RELAXED))
			break;
	}
	if (k == most)
		return -1;
	if ((fd = tgmon_perf_open(&tgmon_evs[k], floor, &kind)) < 0) {
		__atomic_store_n(&tgmon_evs[k].fd, 0, __ATOMIC_RELEASE);
		return -1;
	}
	__atomic_store_n(&tgmon_evs[k].fd, fd, __ATOMIC_RELEASE);
	ev_slot = k;
	perf_seen = 0;
	perf_cpu = tgmon_thread_ns();
	__atomic_store_n(&ev_fd, fd, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* the handler knows it before a signal */
	if (ioctl(fd, PERF_EVENT_IOC_REFRESH, 1) != 0) {
		tgmon_sample_stop();
		return -1;
	}
	__atomic_fetch_or(&tgmon_clocks, kind, __ATOMIC_RELAXED);
	tgmon_timer_start(ns <= LONG_MAX / WATCH_PERIODS ? ns * WATCH_PERIODS : LONG_MAX);
	return 0;
}

/*
 * The calling thread sampled tgmon_cfg.hz times a second of its CPU
 * time: by a perf_event task clock, one sample a signal, where the
 * kernel allows it and at PERF_MAX_HZ at most (TGMON_CLOCK=timer:
 * never), else by a timer, which signals at the kernel's tick at most
 * and counts the periods it missed.  Each signal costs the thread a
 * few microseconds (30 in a virtual machine): at 10 kHz the program
 * runs 50% longer; at 100 kHz the periods the event misses while its
 * signal is handled would be most of them.  errno is kept.
 */
#define PERF_MAX_HZ 10000
void
tgmon_sample_thread(void)
{
	int saved = errno;

	if (!tgmon_kernel_enter())
		return;	/* timer_create(), perf_event_open() may end the process */
	tgmon_threads_begin();
	tgmon_waits_begin();
	if (sw_last == 0)
		sw_last = tgmon_thread_switches();
	if (tgmon_cfg.hz > 0 && tgmon_nmod > 0 && !has_timer && ev_slot < 0 &&
	    (tgmon_cfg.timer_only || tgmon_cfg.hz > PERF_MAX_HZ || tgmon_perf_start() != 0) &&
	    tgmon_timer_start(1000000000L / tgmon_cfg.hz) == 0) {
		__atomic_fetch_or(&tgmon_clocks, TGSTACKS_CLOCK_TIMER, __ATOMIC_RELAXED);
		tgmon_threads_flag(TGSTACKS_THREAD_TIMER);
	}
	tgmon_kernel_leave();
	errno = saved;
}

/*
 * The calling thread's sampling stops (at its end, or moncontrol(0)):
 * its timer is deleted, and its event's descriptor closed if it still
 * is the event (never a file the program put at its number).  errno is
 * kept.
 */
void
tgmon_sample_stop(void)
{
	int saved = errno;

	if (!tgmon_kernel_enter())
		return;	/* nothing the kernel is asked: the timer ends with the thread */
	tgmon_perf_drop();
	if (has_timer)
		timer_delete(thread_timer);
	has_timer = 0;
	tgmon_kernel_leave();
	errno = saved;
}

/*
 * In a forked child: no samples of the parent's; timers are not
 * inherited, and the parent's events' descriptors, which are, are
 * closed (those still the events).  The child samples by its own once
 * it runs profiled code (tgmon_child_runs): one that resets every
 * signal and execs, as a spawn does, never takes the sampling signal.
 */
void
tgmon_sample_reset(void)
{
	int saved = errno, i;

	for (i = 0; i < tgmon_nmod; i++)
		if (tgmon_module(i)->bin != NULL)
			memset(tgmon_module(i)->bin, 0, tgmon_module(i)->nbin * sizeof *tgmon_module(i)->bin);
	has_timer = 0;
	ev_fd = ev_slot = -1;
	tgmon_clocks = 0;
	sw_last = sw_periods = 0;	/* the forking thread's switches were the parent's */
	sw_checked = 0;
	for (i = 0; i < TGMON_MAX_EVENTS; i++) {
		if (tgmon_evs[i].fd > 0 && tgmon_ev_is(&tgmon_evs[i], tgmon_evs[i].fd))
			close(tgmon_evs[i].fd);
		tgmon_evs[i].fd = 0;
	}
	errno = saved;
}

/*
 * The calling thread is about to enter a seccomp sandbox (ALL: every
 * thread of the process, SECCOMP_FILTER_FLAG_TSYNC): from now on its
 * handler makes no system call (tgmon_sample_jailed).  A thread sampled
 * by its perf event, whose every sample needs a refresh, is sampled by
 * its timer instead, at the same rate, set up while it still can be.
 */
void
tgmon_sample_jail(int all)
{
	int saved = errno;

	if (!tgmon_in_jail() && ev_slot >= 0) {
		tgmon_sample_stop();
		if (tgmon_timer_start(1000000000L / tgmon_cfg.hz) == 0)
			__atomic_fetch_or(&tgmon_clocks, TGSTACKS_CLOCK_TIMER, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&tgmon_jailed, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&tgmon_jails, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (all) {	/* the other threads out of what asks the kernel (100 ms at most) */
		struct timespec wait = { 0, 100000 };
		int k;

		__atomic_store_n(&tgmon_jail_all, 1, __ATOMIC_SEQ_CST);
		for (k = 0; k < 1000 && __atomic_load_n(&tgmon_inflight, __ATOMIC_SEQ_CST) > 0; k++)
			nanosleep(&wait, NULL);
	}
	errno = saved;
}

/* The sandbox was refused: the thread is as it was (sampled by its timer). */
void
tgmon_sample_unjail(int all)
{
	__atomic_store_n(&tgmon_jailed, 0, __ATOMIC_RELAXED);
	if (all)
		__atomic_store_n(&tgmon_jail_all, 0, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&tgmon_jails, 1, __ATOMIC_RELAXED);
}

int
tgmon_sample_handler_ours(void)
{
	struct sigaction sa;

	return tgmon_rate <= 0 || (__sigaction(tgmon_cfg.signo, NULL, &sa) == 0 &&
	    (sa.sa_flags & SA_SIGINFO) && sa.sa_sigaction == tgmon_on_sample);
}
