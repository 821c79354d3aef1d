/* threads: a record of each sampled thread (its id, name, CPU time and samples), for the stacks file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../src/input/gmon_out.h"
#include "threads.h"

/*
 * The records: TGSTACKS_MAX_THREADS of them mapped at the first thread's
 * start (4 MiB of address space; pages come as they are used), handed
 * out in turn and never reused, so that a stack's thread is one thread.
 * A record is its thread's to write (its sample handler counts in it);
 * the writer reads them meanwhile.
 */
static struct tgmon_thr *thr;
static uint32_t thr_n;			/* handed out; those past the limit have none */
static uint64_t thr_t0;			/* CLOCK_MONOTONIC at the first, in ns */
static __thread uint32_t thr_self	/* the calling thread's record + 1; 0: none */
    __attribute__((tls_model("initial-exec")));

static uint64_t
tgmon_threads_now(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The calling thread's name (PR_GET_NAME, the kernel's own: prctl() is the program's, start.c). */
static void
tgmon_threads_name(char name[16])
{
	char n[17] = { 0 };

	if (tgmon_raw_syscall(SYS_prctl, PR_GET_NAME, (long)n, 0, 0, 0, 0) == 0)
		memcpy(name, n, 16);
	name[15] = '\0';
}

/* The records, mapped once (by whichever thread comes first); 0 if they cannot be. */
static int
tgmon_threads_map(void)
{
	struct tgmon_thr *p, *none = NULL;

	if (__atomic_load_n(&thr, __ATOMIC_ACQUIRE) != NULL)
		return 1;
	p = mmap(NULL, TGSTACKS_MAX_THREADS * sizeof *p, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	if (!__atomic_compare_exchange_n(&thr, &none, p, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		munmap(p, TGSTACKS_MAX_THREADS * sizeof *p);
	return 1;
}

void
tgmon_threads_begin(void)
{
	struct tgmon_thr *r;
	uint64_t none = 0;
	uint32_t i;

	if (thr_self != 0) {	/* it runs profiled code again after its end */
		if (thr_self <= TGSTACKS_MAX_THREADS)
			__atomic_fetch_and(&thr[thr_self - 1].flags, ~TGSTACKS_THREAD_ENDED, __ATOMIC_RELAXED);
		return;
	}
	if (!tgmon_threads_map())
		return;
	__atomic_compare_exchange_n(&thr_t0, &none, tgmon_threads_now(CLOCK_MONOTONIC), 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	i = __atomic_fetch_add(&thr_n, 1, __ATOMIC_RELAXED);
	if (i >= TGSTACKS_MAX_THREADS) {
		thr_self = TGSTACKS_MAX_THREADS + 1;
		return;
	}
	r = &thr[i];
	r->tid = (uint32_t)tgmon_raw_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0);
	r->flags = r->tid == (uint32_t)getpid() ? TGSTACKS_THREAD_MAIN : 0;
	r->start_ns = tgmon_threads_now(CLOCK_MONOTONIC) - __atomic_load_n(&thr_t0, __ATOMIC_RELAXED);
	tgmon_threads_name(r->name);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	thr_self = i + 1;	/* its samples count in it from now on */
}

void
tgmon_threads_end(void)
{
	struct tgmon_thr *r;

	if (thr_self == 0 || thr_self > TGSTACKS_MAX_THREADS)
		return;
	r = &thr[thr_self - 1];
	tgmon_threads_name(r->name);
	r->cpu_ns = tgmon_threads_now(CLOCK_THREAD_CPUTIME_ID);
	r->end_ns = tgmon_threads_now(CLOCK_MONOTONIC) - __atomic_load_n(&thr_t0, __ATOMIC_RELAXED);
	__atomic_fetch_or(&r->flags, TGSTACKS_THREAD_ENDED | (r->cpu_ns != 0 ? TGSTACKS_THREAD_CPU : 0),
	    __ATOMIC_RELEASE);
}

void
tgmon_threads_flag(uint32_t flag)
{
	if (thr_self != 0)
		tgmon_threads_flag_of(thr_self - 1, flag);
}

void
tgmon_threads_flag_of(uint32_t i, uint32_t flag)
{
	if (i < tgmon_threads_count())
		__atomic_fetch_or(&thr[i].flags, flag, __ATOMIC_RELAXED);
}

void
tgmon_threads_sampled(uint32_t weight)
{
	struct tgmon_thr *r;

	if (thr_self == 0 || thr_self > TGSTACKS_MAX_THREADS)
		return;
	r = &thr[thr_self - 1];
	__atomic_store_n(&r->samples, r->samples + weight, __ATOMIC_RELAXED);
	__atomic_store_n(&r->signals, r->signals + 1, __ATOMIC_RELAXED);
}

uint32_t
tgmon_threads_self(void)
{
	return thr_self == 0 || thr_self > TGSTACKS_MAX_THREADS ? TGSTACKS_NO_THREAD : thr_self - 1;
}

void
tgmon_threads_reset(void)
{
	uint32_t n = tgmon_threads_count();

	if (thr != NULL)
		memset(thr, 0, n * sizeof *thr);
	thr_n = 0;
	thr_self = 0;
	thr_t0 = 0;
}

uint32_t
tgmon_threads_count(void)
{
	uint32_t n = __atomic_load_n(&thr_n, __ATOMIC_RELAXED);

	return thr == NULL ? 0 : n < TGSTACKS_MAX_THREADS ? n : TGSTACKS_MAX_THREADS;
}

/* Thread TID's name now, from /proc (a thread may name another); NAME kept if it cannot be read. */
static void
tgmon_threads_comm(uint32_t tid, char name[16])
{
	char path[64], n[17];
	ssize_t k;
	int fd;

	snprintf(path, sizeof path, "/proc/self/task/%u/comm", (unsigned)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0)
		return;
	k = read(fd, n, 16);
	close(fd);
	if (k <= 0)
		return;
	if (n[k - 1] == '\n')
		k--;
	memcpy(name, n, (size_t)k);
	name[k] = '\0';
}

void
tgmon_threads_get(uint32_t i, struct tgmon_thr *r)
{
	int saved = errno;
	clockid_t c;

	*r = thr[i];
	r->flags = __atomic_load_n(&thr[i].flags, __ATOMIC_ACQUIRE);
	r->name[15] = '\0';
	if (r->flags & TGSTACKS_THREAD_ENDED || r->tid == 0) {
		errno = saved;
		return;
	}
	/* A thread's CPU-time clock (the kernel's MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)). */
	c = i + 1 == thr_self ? CLOCK_THREAD_CPUTIME_ID : (clockid_t)((~(uint32_t)r->tid) << 3 | 6);
	r->cpu_ns = tgmon_threads_now(c);
	r->flags = (r->flags & ~TGSTACKS_THREAD_CPU) | (r->cpu_ns != 0 ? TGSTACKS_THREAD_CPU : 0);
	r->end_ns = 0;
	tgmon_threads_comm(r->tid, r->name);
	errno = saved;
}
