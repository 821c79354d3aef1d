/* sandbox: a worker under seccomp (strict, or an allow-list filter) that runs profiled code, then exits. */
/*
 * argv[1] is HOW-WHERE: HOW strict (SECCOMP_MODE_STRICT), filter (an
 * allow-list by prctl), seccomp (the same by the seccomp system call,
 * as libseccomp installs it) or tsync (by seccomp, for every thread);
 * WHERE thread (a thread of the process) or fork (a child process).  The
 * worker spends about 300 ms in profiled functions (new call arcs among
 * them, timed by a count measured before: strict mode forbids even the
 * TSC), writes "worker ok" and leaves by the exit system call.  main
 * calls work() 3000 times, spends 100 ms as the worker does, prints
 * "rounds R cpu C" (the rounds of calls this process made, its CPU
 * time) and "main ok" if the worker did not end the process, then
 * returns 0 (tsync-thread: prints "main ok" and leaves by exit_group,
 * the process being sandboxed).  The filter allows only read, write,
 * exit, exit_group, rt_sigreturn, futex, madvise and munmap (what a
 * thread needs to end), and kills the process on anything else.
 */
#define _GNU_SOURCE
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static const char *how = "";

__attribute__((noinline)) void
work(int i)
{
	sink += (unsigned long)i;
}

/* Arcs made inside the sandbox: leaf_k is first called there. */
#define LEAF(k) __attribute__((noinline)) void leaf##k(int i) { sink ^= (unsigned long)i * (k + 1); }
LEAF(0) LEAF(1) LEAF(2) LEAF(3) LEAF(4) LEAF(5) LEAF(6) LEAF(7)
static void (*const leaves[8])(int) = { leaf0, leaf1, leaf2, leaf3, leaf4, leaf5, leaf6, leaf7 };

/* N rounds of calls in profiled code. */
__attribute__((noinline)) void
spin(long n)
{
	for (long r = 0; r < n; r++)
		for (int i = 0; i < 8; i++)
			leaves[i](i);
}

/* The rounds of spin() in 1 ms, measured before the sandbox (strict mode even forbids reading the TSC). */
static long
rounds_per_ms(void)
{
	struct timespec t0, t;
	long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int r = 0; r < 1000; r++)
			for (int i = 0; i < 8; i++)
				work(i);
		n += 1000;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 20);
	return n / 20;
}

#if defined(__x86_64__)
#define WORKER_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define WORKER_ARCH AUDIT_ARCH_AARCH64
#endif
#define ALLOW(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static int
sandbox(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, WORKER_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		ALLOW(SYS_read), ALLOW(SYS_write), ALLOW(SYS_exit), ALLOW(SYS_exit_group),
		ALLOW(SYS_rt_sigreturn), ALLOW(SYS_futex), ALLOW(SYS_madvise), ALLOW(SYS_munmap),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = { sizeof f / sizeof *f, f };

	if (strncmp(how, "strict", 6) == 0)
		return prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	if (strncmp(how, "filter", 6) == 0)
		return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    strncmp(how, "tsync", 5) == 0 ? SECCOMP_FILTER_FLAG_TSYNC : 0, &prog);
}

static long per_ms;
static int created;	/* main is out of pthread_create(), whose last system calls TSYNC would forbid */

static void *
worker(void *arg)
{
	while (!__atomic_load_n(&created, __ATOMIC_ACQUIRE))
		sched_yield();
	if (sandbox() != 0) {
		perror("sandbox");
		return arg;
	}
	spin(300 * per_ms);
	if (write(1, "worker ok\n", 10) != 10)
		sink++;
	syscall(SYS_exit, 0);	/* strict mode allows exit, not exit_group */
	return arg;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	pid_t pid;
	int st;

	how = argc > 1 ? argv[1] : "strict-thread";
	setvbuf(stdout, NULL, _IONBF, 0);
	for (int i = 0; i < 3000; i++)
		work(i);
	per_ms = rounds_per_ms();
	if (strstr(how, "-fork") != NULL) {
		__atomic_store_n(&created, 1, __ATOMIC_RELEASE);
		if ((pid = fork()) == 0)
			worker(NULL);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			printf("worker ended by signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
			return 1;
		}
	} else {
		pthread_create(&t, NULL, worker, NULL);
		__atomic_store_n(&created, 1, __ATOMIC_RELEASE);
		pthread_join(t, NULL);
	}
	if (strcmp(how, "tsync-thread") != 0) {
		struct timespec cpu;

		spin(100 * per_ms);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
		printf("rounds %ld cpu %.3f\n", (strstr(how, "-fork") != NULL ? 100 : 400) * per_ms,
		    cpu.tv_sec + cpu.tv_nsec / 1e9);
	}
	printf("main ok\n");
	if (strcmp(how, "tsync-thread") == 0)
		syscall(SYS_exit_group, 0);	/* exit() would close files: not allowed */
	return 0;
}
