/* start: libtgmon's life cycle: settings, start, the gcrt1 entry points, exit, fork and signals. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tgmon.h"

struct tgmon_settings tgmon_cfg;
static int started, writing;

/*
 * TGMON_HZ (samples a second, 0 for none; 1000 by default), TGMON_DIR
 * (the directory for the files instead of the starting one), TGMON_SIGNALS
 * (1: also write the file on SIGTERM, SIGINT, SIGHUP, SIGSEGV, SIGBUS,
 * SIGABRT), TGMON_QUIET, GMON_OUT_PREFIX.  A set-user-ID program reads none.
 */
void
tgmon_settings_read(void)
{
	const char *v;

	tgmon_cfg.hz = 1000;
	if (getauxval(AT_SECURE))
		return;
	if ((v = getenv("TGMON_HZ")) != NULL && *v != '\0') {
		long hz = strtol(v, NULL, 10);

		tgmon_cfg.hz = hz < 0 ? 0 : hz > 100000 ? 100000 : (int)hz;
	}
	tgmon_cfg.signals = (v = getenv("TGMON_SIGNALS")) != NULL && *v == '1';
	tgmon_cfg.quiet = (v = getenv("TGMON_QUIET")) != NULL && *v == '1';
	if ((v = getenv("GMON_OUT_PREFIX")) != NULL && strlen(v) < sizeof tgmon_cfg.prefix)
		memcpy(tgmon_cfg.prefix, v, strlen(v) + 1);
	if ((v = getenv("TGMON_DIR")) != NULL && strlen(v) < sizeof tgmon_cfg.dir)
		memcpy(tgmon_cfg.dir, v, strlen(v) + 1);
}

/*
 * One line on standard error: "libtgmon: A B C".  The file is written
 * at every exit point (_mcleanup, then the destructor), so a message the
 * same as the last one is not said again.
 */
void
tgmon_say(const char *a, const char *b, const char *c)
{
	static char last[600];
	char line[600];
	const char *part[] = { "libtgmon: ", a, b, c, "\n" };
	size_t k;

	snprintf(line, sizeof line, "%s%s%s", a != NULL ? a : "", b != NULL ? b : "",
	    c != NULL ? c : "");
	if (tgmon_cfg.quiet || strcmp(line, last) == 0)
		return;
	memcpy(last, line, sizeof last);
	for (k = 0; k < sizeof part / sizeof *part; k++)
		if (part[k] != NULL && write(2, part[k], strlen(part[k])) < 0)
			return;
}

static pid_t own_pid;	/* this process's; a vfork child (no atfork handler ran) has another */

/* Writes the file; the threads' timers keep running, so this can be called again later. */
static void
dump(int child)
{
	if (!started || getpid() != own_pid)	/* not in a vfork child: it shares our memory */
		return;
	if (__atomic_exchange_n(&writing, 1, __ATOMIC_ACQUIRE))
		return;
	tgmon_write(child);
	__atomic_store_n(&writing, 0, __ATOMIC_RELEASE);
}

static int forked;	/* this process is a child of the one that started */

static void
in_child(void)
{
	forked = 1;
	own_pid = getpid();
	tgmon_arcs_reset();
	tgmon_sample_reset();
}

static void
on_fatal(int sig)
{
	int saved = errno;

	dump(forked);
	signal(sig, SIG_DFL);
	errno = saved;
	raise(sig);
}

static void
catch_fatal(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGSEGV, SIGBUS, SIGABRT };
	size_t k;

	for (k = 0; k < sizeof sigs / sizeof *sigs; k++) {
		struct sigaction old;

		/* Never take a signal the program handles itself. */
		if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			signal(sigs[k], on_fatal);
	}
}

/* Once: settings, the histogram, the output directory, the fork hook, fatal signals, this thread's timer. */
void
tgmon_start(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	if (__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&lock);
	if (!started) {
		tgmon_settings_read();
		own_pid = getpid();
		if (tgmon_sample_init() != 0)
			tgmon_say("the program's text is not found: ", "no histogram", NULL);
		if (tgmon_write_init() != 0)
			tgmon_say(tgmon_cfg.dir[0] != '\0' ? tgmon_cfg.dir : ".",
			    ": cannot be opened: ", "files go to the directory current at exit");
		pthread_atfork(NULL, NULL, in_child);
		if (tgmon_cfg.signals)
			catch_fatal();
		__atomic_store_n(&started, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	tgmon_sample_thread();
}

/* Self-starting: before main, whether or not gcrt1.o calls __monstartup. */
__attribute__((constructor(101))) static void
tgmon_ctor(void)
{
	tgmon_start();
}

/*
 * At exit: the destructors run after every atexit() handler, this one last
 * of them (priority 101), so the work of both is counted.
 */
__attribute__((destructor(101))) static void
tgmon_dtor(void)
{
	dump(forked);
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

void
_mcleanup(void)
{
	dump(forked);
}

void
moncontrol(int mode)
{
	if (mode)
		tgmon_sample_thread();
	else
		tgmon_sample_stop();
}

/* _exit() and _Exit() skip atexit: the file is written first. */
void
_exit(int status)
{
	dump(forked);
	syscall(SYS_exit_group, status);
	for (;;)
		;
}

void
_Exit(int status)
{
	_exit(status);
}
