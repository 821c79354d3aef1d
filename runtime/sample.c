/* sample: libtgmon's histogram: each thread's CPU time sampled by its own timer into 32-bit bins. */
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "tgmon.h"

#define BIN_SHIFT 2		/* 4 bytes of text a bin */

struct tgmon_hist tgmon_hist;
static uint64_t outside;		/* samples outside the executable's text */
static __thread timer_t thread_timer;
static __thread int has_timer;

/* The executable's text: the first object dl_iterate_phdr() reports, its executable segments. */
static int
main_text(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct tgmon_hist *h = ctx;
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (h->highpc == 0 || lo < h->lowpc)
			h->lowpc = lo;
		if (hi > h->highpc)
			h->highpc = hi;
	}
	h->base = info->dlpi_addr;
	return 1;	/* the first one only */
}

static void
on_sample(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uint64_t pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	uint32_t weight = 1 + (si->si_code == SI_TIMER && si->si_overrun > 0 ?
	    (uint32_t)si->si_overrun : 0);
	int saved = errno;

	if (pc >= tgmon_hist.lowpc && pc < tgmon_hist.highpc)
		__atomic_fetch_add(&tgmon_hist.bin[(pc - tgmon_hist.lowpc) >> BIN_SHIFT], weight,
		    __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(&outside, weight, __ATOMIC_RELAXED);
	errno = saved;
}

/* The histogram over the executable's text and the SIGPROF handler; 0 or -1. */
int
tgmon_sample_init(void)
{
	struct sigaction sa;
	size_t size;

	dl_iterate_phdr(main_text, &tgmon_hist);
	if (tgmon_hist.highpc <= tgmon_hist.lowpc)
		return -1;
	tgmon_hist.lowpc &= ~(uint64_t)((1 << BIN_SHIFT) - 1);
	tgmon_hist.highpc = (tgmon_hist.highpc + (1 << BIN_SHIFT) - 1) &
	    ~(uint64_t)((1 << BIN_SHIFT) - 1);
	tgmon_hist.nbin = (tgmon_hist.highpc - tgmon_hist.lowpc) >> BIN_SHIFT;
	size = tgmon_hist.nbin * sizeof *tgmon_hist.bin;
	tgmon_hist.bin = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (tgmon_hist.bin == MAP_FAILED) {
		tgmon_hist.bin = NULL;
		return -1;
	}
	tgmon_hist.rate = tgmon_cfg.hz;
	if (tgmon_cfg.hz <= 0)
		return 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sample;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGPROF, &sa, NULL);
}

/* A timer on the calling thread's CPU time, tgmon_cfg.hz times a second of it. */
void
tgmon_sample_thread(void)
{
	struct sigevent ev;
	struct itimerspec its;
	long ns;

	if (tgmon_cfg.hz <= 0 || tgmon_hist.bin == NULL || has_timer)
		return;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGPROF;
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &thread_timer) != 0)
		return;
	ns = 1000000000L / tgmon_cfg.hz;
	its.it_interval.tv_sec = its.it_value.tv_sec = ns / 1000000000L;
	its.it_interval.tv_nsec = its.it_value.tv_nsec = ns % 1000000000L;
	if (timer_settime(thread_timer, 0, &its, NULL) != 0) {
		timer_delete(thread_timer);
		return;
	}
	has_timer = 1;
}

/* The calling thread's timer stops (before the file is written, so that the counts hold still). */
void
tgmon_sample_stop(void)
{
	if (has_timer)
		timer_delete(thread_timer);
	has_timer = 0;
}

/* In a forked child: no samples of the parent's, and timers are not inherited. */
void
tgmon_sample_reset(void)
{
	if (tgmon_hist.bin != NULL)
		memset(tgmon_hist.bin, 0, tgmon_hist.nbin * sizeof *tgmon_hist.bin);
	outside = 0;
	has_timer = 0;
	tgmon_sample_thread();
}
