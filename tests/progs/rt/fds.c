/* fds: what libtgmon's descriptors let a program see: its own numbers, closing them all, taking ours, forking. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define HIGH 900	/* libtgmon's descriptors are at 1000 and up (960 under a limit of 1024) */
#define NTHR 4

static volatile unsigned long sink;
static pthread_barrier_t ready, done;
static int bad_errno;

__attribute__((noinline)) void
work(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i * 7;
}

/* The descriptors open below HIGH (LOW) or at HIGH and up (not LOW), and how many of those are close-on-exec. */
static int
count(int low, int *cloexec)
{
	int fd, n = 0, lim = low ? HIGH : 65536, f;

	*cloexec = 0;
	for (fd = low ? 0 : HIGH; fd < lim; fd++) {
		if ((f = fcntl(fd, F_GETFD)) < 0)
			continue;
		n++;
		*cloexec += (f & FD_CLOEXEC) != 0;
	}
	return n;
}

/* The number open() gives next. */
static int
next_fd(void)
{
	int fd = open("/dev/null", O_RDONLY);

	close(fd);
	return fd;
}

/* A thread: errno set before its first profiled call must survive it; then work until told to end. */
static void *
worker(void *arg)
{
	errno = 4242;
	work(1000);
	if (errno != 4242)
		__atomic_store_n(&bad_errno, 1, __ATOMIC_RELAXED);
	work(20000000);
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&done);
	return arg;
}

static void
start(pthread_t *t, int n)
{
	pthread_barrier_init(&ready, NULL, (unsigned)n + 1);
	pthread_barrier_init(&done, NULL, (unsigned)n + 1);
	for (int k = 0; k < n; k++)
		pthread_create(&t[k], NULL, worker, NULL);
	pthread_barrier_wait(&ready);
}

static void
finish(pthread_t *t, int n)
{
	pthread_barrier_wait(&done);
	for (int k = 0; k < n; k++)
		pthread_join(t[k], NULL);
}

/* "threads": the low numbers and the next one are the same with threads running; ours are close-on-exec. */
static int
threads(void)
{
	pthread_t t[NTHR];
	int c, a = next_fd(), low0 = count(1, &c), high0 = count(0, &c), b, low1, high1, ce, high2;

	start(t, NTHR);
	b = next_fd();
	low1 = count(1, &c);
	high1 = count(0, &ce);
	finish(t, NTHR);
	high2 = count(0, &c);
	printf("next %d %d low %d %d high %d %d %d cloexec %d errno %s\n", a, b, low0, low1, high0, high1,
	    high2, ce, bad_errno ? "changed" : "kept");
	return 0;
}

/* "closeall": every descriptor closed, then work, threads, a child, and a normal exit; the CPU time used. */
static int
closeall(void)
{
	pthread_t t[2];
	struct rusage ru;
	pid_t pid;
	int st;

	work(3000000);
	for (int fd = 3; fd < 65536; fd++)
		close(fd);
	work(1500000000);
	start(t, 2);
	finish(t, 2);
	if ((pid = fork()) == 0) {
		work(10000000);
		exit(0);
	}
	waitpid(pid, &st, 0);
	getrusage(RUSAGE_SELF, &ru);
	printf("closeall child %d cpu %.3f\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
	    ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}

/* "dup2": a thread's descriptor taken over by the program is still the program's after the thread ends. */
static int
take(void)
{
	pthread_t t[1];
	unsigned char before[65536] = { 0 };
	int fd, taken = -1, mine = open("/dev/null", O_RDONLY);

	for (fd = HIGH; fd < 65536; fd++)
		before[fd] = fcntl(fd, F_GETFD) >= 0;
	start(t, 1);
	for (fd = HIGH; fd < 65536 && taken < 0; fd++)
		if (!before[fd] && fcntl(fd, F_GETFD) >= 0)
			taken = fd;
	if (taken >= 0)
		dup2(mine, taken);
	finish(t, 1);
	printf("dup2 %d %s\n", taken, taken < 0 ? "none" : fcntl(taken, F_GETFD) >= 0 ? "kept" : "closed");
	return 0;
}

/* "fork": a child forked while threads run keeps none of their descriptors, and samples by its own. */
static int
forked(void)
{
	pthread_t t[NTHR];
	int c, parent, child = -1, p[2];
	pid_t pid;

	if (pipe(p) != 0)
		return 1;
	start(t, NTHR);
	parent = count(0, &c);
	errno = 77;
	if ((pid = fork()) == 0) {
		int e = errno, n = count(0, &c);

		work(100000000);
		if (write(p[1], &n, sizeof n) < 0 || write(p[1], &e, sizeof e) < 0)
			_exit(2);
		exit(0);
	}
	if (read(p[0], &child, sizeof child) != sizeof child || read(p[0], &c, sizeof c) != sizeof c)
		return 1;
	waitpid(pid, NULL, 0);
	finish(t, NTHR);
	printf("fork %d high %d %d errno %d\n", (int)pid, parent, child, c);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "threads";

	if (strcmp(m, "closeall") == 0)
		return closeall();
	if (strcmp(m, "dup2") == 0)
		return take();
	if (strcmp(m, "fork") == 0)
		return forked();
	return threads();
}
