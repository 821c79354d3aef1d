/* sigs: a program's own use of signals, around libtgmon's: waiting for them, handlers and their stacks. */
/*
 * Calls work() 3000 times, then does as argv[1] says:
 *   sigwait, sigwaitinfo, sigtimedwait, signalfd
 *             blocks every signal, spends 200 ms of CPU time in profiled
 *             code (libtgmon's signal is then pending), sends itself
 *             SIGUSR1, and waits for any signal that way: prints "got N"
 *   sigwait-sent
 *             the same, but what it sends itself is SIGRTMIN+7: prints
 *             "got N" (the signal a program sent is its own to wait for)
 *   overflow [N]
 *             recurses until its stack overflows; its SIGSEGV handler, on
 *             an alternate stack of N bytes (7168), calls _exit(3)
 *   overflow-dfl
 *             no SIGSEGV handler, no alternate stack of its own: prints
 *             "alt none" if sigaltstack() says it has none, then
 *             recurses until its stack overflows (SIGSEGV ends it)
 *   overflow-own
 *             the same with an alternate stack of its own (16 KiB), set
 *             before: prints "alt own" if sigaltstack() still says so
 *   overflow-thread
 *             overflow-dfl in a thread (on a stack of 256 KiB), started
 *             after libtgmon and after the main thread's first calls
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
work(int i)
{
	sink += (unsigned long)i;
}

/* MS ms of this thread's CPU time in profiled code. */
__attribute__((noinline)) void
burn(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			work(i);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* Every signal blocked, 200 ms of work, SIG sent to itself, then any signal waited for as HOW says. */
static int
wait_for(const char *how, int sig)
{
	struct timespec ten = { 10, 0 };
	struct signalfd_siginfo fi;
	siginfo_t si;
	sigset_t all;
	int got = -1, fd;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	burn(200);
	kill(getpid(), sig);
	if (strcmp(how, "sigwaitinfo") == 0)
		got = sigwaitinfo(&all, &si);
	else if (strcmp(how, "sigtimedwait") == 0)
		got = sigtimedwait(&all, &si, &ten);
	else if (strcmp(how, "signalfd") == 0)
		got = (fd = signalfd(-1, &all, 0)) >= 0 && read(fd, &fi, sizeof fi) == sizeof fi ?
		    (int)fi.ssi_signo : -1;
	else if (sigwait(&all, &got) != 0)
		got = -1;
	return got;
}

static void
on_overflow(int sig)
{
	_exit(3);
}

/* Deeper and deeper, with a frame of its own, until the stack runs out. */
__attribute__((noinline)) unsigned long
recurse(unsigned long n)
{
	volatile char pad[256];

	pad[n % sizeof pad] = (char)n;
	return recurse(n + 1) + pad[(n + 1) % sizeof pad];
}

/* The stack overflows; SIGSEGV's handler runs on an alternate stack of SIZE bytes. */
static void
overflow(size_t size)
{
	stack_t ss = { .ss_sp = malloc(size), .ss_size = size };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_overflow;
	sa.sa_flags = SA_ONSTACK;
	if (ss.ss_sp == NULL || sigaltstack(&ss, NULL) != 0 || sigaction(SIGSEGV, &sa, NULL) != 0)
		exit(1);
	sink = recurse(0);
}

/* "alt none" or "alt own" (OWN: the stack set) as sigaltstack() tells, then the stack overflows. */
static void *
overflow_dfl(void *own)
{
	stack_t cur;

	if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE) && own == NULL)
		(void)!write(1, "alt none\n", 9);
	else if (own != NULL && cur.ss_sp == own && !(cur.ss_flags & SS_DISABLE))
		(void)!write(1, "alt own\n", 8);
	sink = recurse(0);
	return NULL;
}

/* HOW: overflow-dfl, overflow-own or overflow-thread (above). */
static void
overflow_as(const char *how)
{
	stack_t ss = { .ss_sp = malloc(16384), .ss_size = 16384 };
	pthread_attr_t a;
	pthread_t t;

	if (strcmp(how, "overflow-own") == 0) {
		if (ss.ss_sp == NULL || sigaltstack(&ss, NULL) != 0)
			exit(1);
		overflow_dfl(ss.ss_sp);
	} else if (strcmp(how, "overflow-thread") == 0) {
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 256 * 1024);
		if (pthread_create(&t, &a, overflow_dfl, NULL) != 0)
			exit(1);
		pthread_join(t, NULL);
	} else {
		overflow_dfl(NULL);
	}
}

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";

	for (int i = 0; i < 3000; i++)
		work(i);
	if (strcmp(how, "sigwait-sent") == 0)
		printf("got %d\n", wait_for("sigwait", SIGRTMIN + 7));
	else if (strncmp(how, "overflow-", 9) == 0)
		overflow_as(how);
	else if (strcmp(how, "overflow") == 0)
		overflow(argc > 2 ? (size_t)atol(argv[2]) : 7168);
	else if (strncmp(how, "sig", 3) == 0)
		printf("got %d\n", wait_for(how, SIGUSR1));
	return 0;
}
