/* libc: the C library's functions libtgmon stands in for, to keep its sampling signal and see a sandbox entered. */
/*
 * The archive's other members call syscall(), defined here, so a program
 * linked with libtgmon.a gets these whether it calls them or not.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <time.h>

#include "live.h"
#include "tgmon.h"

/*
 * The program's sigaction() and signal(): for the sampling signal, while
 * libtgmon's handler is installed, the program's SIG_DFL or SIG_IGN is
 * kept and reported, not installed (tgmon_sample_sigaction): a spawn
 * that resets every signal before exec, or a daemon at start, would be
 * ended by the next sample.  Any other signal is the C library's.
 */
int
sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (sig == tgmon_cfg.signo && tgmon_sample_signal_kept())
		return tgmon_sample_sigaction(act, old);
	return __sigaction(sig, act, old);
}

/* glibc's signal() under its other name (the same function), for the signals that are not ours. */
extern sighandler_t bsd_signal(int sig, sighandler_t handler);

sighandler_t
signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;

	if (sig != tgmon_cfg.signo || !tgmon_sample_signal_kept())
		return bsd_signal(sig, handler);
	memset(&act, 0, sizeof act);
	act.sa_handler = handler;	/* as glibc's signal(): restarted, the signal blocked meanwhile */
	act.sa_flags = SA_RESTART;
	sigemptyset(&act.sa_mask);
	sigaddset(&act.sa_mask, sig);
	return tgmon_sample_sigaction(&act, &old) == 0 ? old.sa_handler : SIG_ERR;
}

/*
 * A seccomp sandbox entered by the calling thread (prctl(PR_SET_SECCOMP),
 * or the seccomp system call as libseccomp makes it): libtgmon's sample
 * handler must make no system call there, nor its writer
 * (tgmon_sample_jail).  ALL: every thread's (SECCOMP_FILTER_FLAG_TSYNC).
 * The result of the call NR with A, as syscall() returns it.
 */
static long
tgmon_sandbox(long nr, const long *a, int all)
{
	long r;

	if (all)
		tgmon_live_park(1);
	tgmon_sample_jail(all);
	if ((r = tgmon_raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5])) < 0 && r > -4096) {
		tgmon_sample_unjail(all);
		if (all)
			tgmon_live_park(0);
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* The C library's syscall(), made here to see a sandbox entered. */
long
syscall(long nr, ...)
{
	va_list ap;
	long a[6], r;
	int k;

	va_start(ap, nr);
	for (k = 0; k < 6; k++)
		a[k] = va_arg(ap, long);
	va_end(ap);
	if ((nr == SYS_seccomp && (a[0] == SECCOMP_SET_MODE_STRICT || a[0] == SECCOMP_SET_MODE_FILTER)) ||
	    (nr == SYS_prctl && a[0] == PR_SET_SECCOMP))
		return tgmon_sandbox(nr, a, nr == SYS_seccomp && a[0] == SECCOMP_SET_MODE_FILTER &&
		    (a[1] & SECCOMP_FILTER_FLAG_TSYNC));
	if ((r = tgmon_raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5])) < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* The C library's prctl(), likewise. */
int
prctl(int option, ...)
{
	va_list ap;
	long a[6] = { option };
	int k;

	va_start(ap, option);
	for (k = 1; k < 5; k++)
		a[k] = (long)va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_SECCOMP)
		return (int)tgmon_sandbox(SYS_prctl, a, 0);
	return (int)syscall(SYS_prctl, a[0], a[1], a[2], a[3], a[4]);
}

/*
 * The program's waits for signals (sigwait(), sigwaitinfo(),
 * sigtimedwait()): a thread that blocks every signal and waits for any
 * would take libtgmon's, pending since its clock last ran out; such a
 * signal is let go (tgmon_sample_waited) and the wait goes on.  The same
 * signal sent by the program, or anyone (kill, sigqueue), is its own.
 * The C library's sigtimedwait() does the waiting (a cancellation point);
 * in a program linked statically, the system call.
 */
typedef int (*timedwait_fn)(const sigset_t *, siginfo_t *, const struct timespec *);
static timedwait_fn real_timedwait;

static int
tgmon_raw_timedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	long r = tgmon_raw_syscall(SYS_rt_sigtimedwait, (long)set, (long)info, (long)timeout, _NSIG / 8, 0, 0);

	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	if (info != NULL && info->si_code == SI_TKILL)
		info->si_code = SI_USER;	/* as glibc's */
	return (int)r;
}

static int
tgmon_wait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	timedwait_fn f = __atomic_load_n(&real_timedwait, __ATOMIC_ACQUIRE);
	struct timespec end, now, left;
	siginfo_t si;
	int sig = tgmon_cfg.signo, r;

	if (f == NULL) {
		if ((f = (timedwait_fn)dlsym(RTLD_NEXT, "sigtimedwait")) == NULL || f == sigtimedwait)
			f = tgmon_raw_timedwait;
		__atomic_store_n(&real_timedwait, f, __ATOMIC_RELEASE);
	}
	if (!tgmon_sample_signal_kept() || set == NULL || sigismember(set, sig) != 1)
		return f(set, info, timeout);
	if (timeout != NULL) {
		clock_gettime(CLOCK_MONOTONIC, &end);
		end.tv_sec += timeout->tv_sec + (end.tv_nsec + timeout->tv_nsec) / 1000000000;
		end.tv_nsec = (end.tv_nsec + timeout->tv_nsec) % 1000000000;
		left = *timeout;
	}
	for (;;) {
		if ((r = f(set, &si, timeout != NULL ? &left : NULL)) != sig ||
		    (si.si_code <= 0 && si.si_code != SI_TIMER)) {
			if (r > 0 && info != NULL)
				*info = si;
			return r;
		}
		tgmon_sample_waited(&si);
		if (timeout != NULL) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			left.tv_sec = end.tv_sec - now.tv_sec;
			left.tv_nsec = end.tv_nsec - now.tv_nsec;
			if (left.tv_nsec < 0) {
				left.tv_nsec += 1000000000;
				left.tv_sec--;
			}
			if (left.tv_sec < 0)
				left.tv_sec = left.tv_nsec = 0;	/* one last look */
		}
	}
}

int
sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	return tgmon_wait(set, info, timeout);
}

int
sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	return tgmon_wait(set, info, NULL);
}

int
sigwait(const sigset_t *set, int *sig)
{
	siginfo_t si;
	int r;

	do
		r = tgmon_wait(set, &si, NULL);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return errno;
	*sig = r;
	return 0;
}

/* A signalfd() for every signal reads no signal of libtgmon's: its mask leaves the sampling signal out. */
int
signalfd(int fd, const sigset_t *mask, int flags)
{
	sigset_t m;
	long r;

	if (tgmon_sample_signal_kept() && sigismember(mask, tgmon_cfg.signo) == 1) {
		m = *mask;
		sigdelset(&m, tgmon_cfg.signo);
		mask = &m;
	}
	if ((r = tgmon_raw_syscall(SYS_signalfd4, fd, (long)mask, _NSIG / 8, flags, 0, 0)) < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return (int)r;
}
