/* waits: threads that wait known lengths in known places, for libtgmon's waits (tests/runtime.sh). */
/*
 * "sleeper" sleeps 1.0 s in nanosleep (sleep_one); "locker" blocks on a
 * mutex that main holds for 0.5 s (lock_wait); "reader" reads a pipe
 * that main writes 0.3 s after the start (pipe_wait); "worker" computes
 * (compute).  Each sets errno to 777 before its wait and checks that the
 * call did not fail (no EINTR) and left errno alone; it prints "ok NAME"
 * or "bad NAME WHAT", and the program exits 1 if any was bad.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t go;
static int p[2];
static int bad;
static volatile unsigned long sink;

static void
say(const char *name, int ok, const char *what)
{
	if (ok) {
		printf("ok %s\n", name);
	} else {
		printf("bad %s %s\n", name, what);
		bad = 1;
	}
}

static void
nap(long ms)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&t, &t) != 0)
		;
}

__attribute__((noinline)) void
sleep_one(void)
{
	struct timespec t = { 1, 0 };
	int r;

	errno = 777;
	r = nanosleep(&t, NULL);
	say("sleeper", r == 0 && errno == 777, r != 0 ? "nanosleep failed (EINTR?)" : "errno changed");
}

__attribute__((noinline)) void
lock_wait(void)
{
	int r;

	errno = 777;
	r = pthread_mutex_lock(&mu);
	say("locker", r == 0 && errno == 777, r != 0 ? "pthread_mutex_lock failed" : "errno changed");
	pthread_mutex_unlock(&mu);
}

__attribute__((noinline)) void
pipe_wait(void)
{
	char c;
	ssize_t r;

	errno = 777;
	r = read(p[0], &c, 1);
	say("reader", r == 1 && errno == 777, r != 1 ? "read failed (EINTR?)" : "errno changed");
}

__attribute__((noinline)) void
compute(void)
{
	volatile unsigned long own = 0;

	for (long i = 0; i < 300000000; i++)
		own += (unsigned long)i ^ (own >> 5);
	sink += own;
}

#define THREAD(fn, name) \
	static void *fn##_thread(void *arg) { pthread_setname_np(pthread_self(), name); \
	    pthread_barrier_wait(&go); fn(); return arg; }
THREAD(sleep_one, "sleeper")
THREAD(lock_wait, "locker")
THREAD(pipe_wait, "reader")
THREAD(compute, "worker")

int
main(void)
{
	void *(*f[4])(void *) = { sleep_one_thread, lock_wait_thread, pipe_wait_thread, compute_thread };
	pthread_t t[4];

	if (pipe(p) != 0)
		return 2;
	pthread_mutex_lock(&mu);
	pthread_barrier_init(&go, NULL, 5);
	for (int k = 0; k < 4; k++)
		pthread_create(&t[k], NULL, f[k], NULL);
	pthread_barrier_wait(&go);
	nap(300);
	if (write(p[1], "x", 1) != 1)
		return 2;
	nap(200);
	pthread_mutex_unlock(&mu);
	for (int k = 0; k < 4; k++)
		pthread_join(t[k], NULL);
	return bad;
}
