/* spawn: children as real programs make them: spawned (signals reset, exec), vfork, clone(CLONE_VM), idle. */
/*
 * Calls work() 3000 times, then does as argv[1] says:
 *   spawn N    N times: fork; in the child every signal reset to SIG_DFL,
 *              the descriptors above 2 closed, 30 ms of CPU time spent
 *              (no call into profiled code), exec /bin/true; prints
 *              "spawned N killed K" (K: children a signal ended)
 *   helper N   the same, the reset made by a profiled function
 *              (child_setup) and the time spent in one (child_burn)
 *   execself N the same as helper, but what the child execs is this
 *              program again (argv[0] idle 0): a program that unblocks
 *              signals first thing
 *   vfork      vfork, exec of a file that does not exist, _exit(127)
 *   clone      clone(CLONE_VM) of a function that calls _exit(5)
 *   idle N     N children that call no profiled function: each _exit(0)s,
 *              or exit(0)s if N is negative
 *   own        what SIGRTMIN+7 (libtgmon's signal) does as the program
 *              sets it: prints its disposition at start ("start dfl"),
 *              raises it while ignored ("ignored"), sets SIG_DFL
 *              ("was ign"), spends 50 ms of CPU time, then raises it
 *              (which ends the program)
 * Each prints the children's statuses the way the shell would.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
work(int i)
{
	sink += (unsigned long)i;
}

/* Every signal to SIG_DFL, and descriptors above 2 closed: what a spawn does before exec. */
__attribute__((noinline)) void
child_setup(void)
{
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	closefrom(3);
}

/* MS ms of this thread's CPU time, calling nothing profiled. */
static inline __attribute__((always_inline)) void
burn_inline(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 20000; i++)
			sink += (unsigned long)i * 7;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

__attribute__((noinline)) void
child_burn(long ms)
{
	burn_inline(ms);
}

/* "exit N" or "signal N" for each of the N children, and how many a signal ended. */
static int
reap(pid_t pid, int *killed)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (WIFSIGNALED(st)) {
		++*killed;
		printf("signal %d\n", WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	return WEXITSTATUS(st);
}

static char clone_stack[65536] __attribute__((aligned(16)));

static int
clone_child(void *arg)
{
	_exit(5);
}

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	int n = argc > 2 ? atoi(argv[2]) : 1, killed = 0, st, k;
	pid_t pid;

	if (strcmp(how, "idle") == 0 && argc > 2 && strcmp(argv[2], "0") == 0) {
		sigset_t none;

		sigemptyset(&none);	/* the exec'd program unblocks every signal */
		sigprocmask(SIG_SETMASK, &none, NULL);
		burn_inline(5);
		return 0;
	}
	for (int i = 0; i < 3000; i++)
		work(i);
	if (strcmp(how, "spawn") == 0 || strcmp(how, "helper") == 0 || strcmp(how, "execself") == 0) {
		for (k = 0; k < n; k++) {
			if ((pid = fork()) == 0) {
				if (strcmp(how, "spawn") == 0) {
					for (int s = 1; s < NSIG; s++)
						signal(s, SIG_DFL);
					closefrom(3);
					burn_inline(30);
					execl("/bin/true", "true", (char *)NULL);
				} else {
					child_setup();
					child_burn(30);
					if (strcmp(how, "execself") == 0)
						execl("/proc/self/exe", argv[0], "idle", "0", (char *)NULL);
					else
						execl("/bin/true", "true", (char *)NULL);
				}
				_exit(127);
			}
			reap(pid, &killed);
		}
		printf("spawned %d killed %d\n", n, killed);
	} else if (strcmp(how, "vfork") == 0) {
		if ((pid = vfork()) == 0) {
			execl("/nonexistent/program", "program", (char *)NULL);
			_exit(127);
		}
		printf("vfork %d\n", reap(pid, &killed));
	} else if (strcmp(how, "clone") == 0) {
		pid = clone(clone_child, clone_stack + sizeof clone_stack, CLONE_VM | SIGCHLD, NULL);
		printf("clone %d\n", pid > 0 ? reap(pid, &killed) : -1);
	} else if (strcmp(how, "own") == 0) {
		struct sigaction sa;

		setvbuf(stdout, NULL, _IONBF, 0);
		if (sigaction(SIGRTMIN + 7, NULL, &sa) == 0)
			printf("start %s\n", sa.sa_handler == SIG_DFL && !(sa.sa_flags & SA_SIGINFO) ? "dfl" : "other");
		signal(SIGRTMIN + 7, SIG_IGN);
		raise(SIGRTMIN + 7);
		printf("ignored\n");
		printf("was %s\n", signal(SIGRTMIN + 7, SIG_DFL) == SIG_IGN ? "ign" : "other");
		child_burn(50);
		raise(SIGRTMIN + 7);
		printf("survived\n");
	} else if (strcmp(how, "idle") == 0) {
		for (k = 0; k < abs(n); k++) {
			if ((pid = fork()) == 0) {
				if (n < 0)
					exit(0);
				_exit(0);
			}
			if ((st = reap(pid, &killed)) != 0)
				printf("idle child %d\n", st);
		}
		printf("idle %d killed %d\n", abs(n), killed);
	}
	return 0;
}
