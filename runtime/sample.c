/* sample: libtgmon's histograms: each thread's CPU time sampled by its own timer into 32-bit bins. */
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "tgmon.h"

#define BIN_SHIFT 2		/* 4 bytes of text a bin */

struct tgmon_hist tgmon_mod[TGMON_MAX_MODULES];
int tgmon_nmod;
int tgmon_rate;
/*
 * Module indexes by lowpc, for tgmon_module_at(), which a sample handler
 * may run in any thread at any time: a new index is built in the other
 * buffer and published whole.
 */
struct order {
	int n;
	int idx[TGMON_MAX_MODULES];
};
/*
 * Every function here is named tgmon_*, the static ones too: they run
 * while the program is sampled, and tgprof shows tgmon_* functions as the
 * cost of profiling, not the program's.
 */
static struct order orders[2];
static struct order *by_addr;
/* libtgmon's own module when it is a shared object (the executable's, 0, when linked in: -1). */
static int tgmon_own_mod = -1;
unsigned char tgmon_profiled[TGMON_MAX_MODULES];
static __thread timer_t thread_timer;
static __thread int has_timer;

/* One loaded object: the span of its executable segments, if it has any. */
static int
tgmon_module_add(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct tgmon_hist *h = &tgmon_mod[tgmon_nmod];
	const char *slash;
	int i;

	if (tgmon_nmod == TGMON_MAX_MODULES)
		return 1;
	memset(h, 0, sizeof *h);
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
	/* The executable comes first (glibc names it ""); others by their file's name. */
	if (tgmon_nmod > 0 && info->dlpi_name != NULL) {
		slash = strrchr(info->dlpi_name, '/');
		snprintf(h->name, sizeof h->name, "%s", slash != NULL ? slash + 1 : info->dlpi_name);
		snprintf(h->path, sizeof h->path, "%s", info->dlpi_name);
	}
	if (h->highpc > h->lowpc && (tgmon_nmod == 0 || h->name[0] != '\0'))
		tgmon_nmod++;
	return 0;
}

int
tgmon_module_at(uint64_t pc)
{
	const struct order *o = __atomic_load_n(&by_addr, __ATOMIC_ACQUIRE);
	int lo = 0, hi = o != NULL ? o->n : 0, m;

	while (lo < hi) {	/* the last module starting at or before PC */
		int mid = (lo + hi) / 2;

		if (tgmon_mod[o->idx[mid]].lowpc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || pc >= tgmon_mod[m = o->idx[lo - 1]].highpc)
		return -1;
	return m;
}

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

static void
tgmon_on_sample(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uint64_t pc = TGMON_UC_PC(uc);
	uint32_t weight = 1 + (si->si_code == SI_TIMER && si->si_overrun > 0 ?
	    (uint32_t)si->si_overrun : 0);
	int saved = errno, m = tgmon_module_at(pc);
	uint64_t caller = tgmon_cfg.stacks ?
	    tgmon_stacks_sample(uc, weight, tgmon_own_mod > 0 ? tgmon_own_mod : -1) : 0;

	/* Outside the profiled code: the time of the profiled function that called it. */
	if (!tgmon_is_profiled(m) && caller != 0)
		m = tgmon_module_at(pc = caller);
	if (m == tgmon_own_mod)
		pc = tgmon_stub_charge(pc);
	if (m >= 0 && tgmon_mod[m].bin != NULL)	/* elsewhere (the vDSO...): not profiled */
		__atomic_fetch_add(&tgmon_mod[m].bin[(pc - tgmon_mod[m].lowpc) >> BIN_SHIFT], weight,
		    __ATOMIC_RELAXED);
	errno = saved;
}

/* Module M's bins, bin-aligned; pages are only used where samples land. */
static void
tgmon_bins_make(struct tgmon_hist *h)
{
	void *p;

	h->lowpc &= ~(uint64_t)((1 << BIN_SHIFT) - 1);
	h->highpc = (h->highpc + (1 << BIN_SHIFT) - 1) & ~(uint64_t)((1 << BIN_SHIFT) - 1);
	h->nbin = (h->highpc - h->lowpc) >> BIN_SHIFT;
	p = mmap(NULL, h->nbin * sizeof *h->bin, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	h->bin = p != MAP_FAILED ? p : NULL;
}

/* Sorts the modules by address into the unused index buffer and publishes it. */
static void
tgmon_order_publish(void)
{
	struct order *o = by_addr == &orders[0] ? &orders[1] : &orders[0];
	int i, j;

	for (i = 0; i < tgmon_nmod; i++) {
		for (j = i; j > 0 && tgmon_mod[o->idx[j - 1]].lowpc > tgmon_mod[i].lowpc; j--)
			o->idx[j] = o->idx[j - 1];
		o->idx[j] = i;
	}
	o->n = tgmon_nmod;
	__atomic_store_n(&by_addr, o, __ATOMIC_RELEASE);
}

/* A module loaded after start (dlopen()) that is not known yet: added, without a histogram. */
static int
tgmon_module_add_late(struct dl_phdr_info *info, size_t size, void *ctx)
{
	int i;

	for (i = 0; i < tgmon_nmod; i++)	/* the program (i = 0) is always known */
		if (i == 0 ? info->dlpi_name == NULL || info->dlpi_name[0] == '\0' :
		    tgmon_mod[i].base == info->dlpi_addr)
			return 0;
	tgmon_module_add(info, size, ctx);
	if (i < tgmon_nmod)	/* added: its calls are counted, not its time */
		tgmon_mod[i].bin = NULL;
	return 0;
}

void
tgmon_sample_rescan(void)
{
	int n = tgmon_nmod;

	dl_iterate_phdr(tgmon_module_add_late, NULL);
	if (tgmon_nmod != n)
		tgmon_order_publish();
}

/* The modules loaded now, their histograms and the sampling signal's handler; 0 or -1. */
int
tgmon_sample_init(void)
{
	struct sigaction sa;
	int i;

	dl_iterate_phdr(tgmon_module_add, NULL);
	if (tgmon_nmod == 0)
		return -1;
	for (i = 0; i < tgmon_nmod; i++)
		tgmon_bins_make(&tgmon_mod[i]);
	tgmon_order_publish();
	tgmon_own_mod = tgmon_module_at((uint64_t)(uintptr_t)&tgmon_on_sample);
	tgmon_profiled[0] = 1;	/* the program; a library once a call into it is counted */
	if (tgmon_mod[0].bin == NULL)
		return -1;
	tgmon_rate = tgmon_cfg.hz;
	if (tgmon_cfg.hz <= 0)
		return 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = tgmon_on_sample;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(tgmon_cfg.signo, &sa, NULL) != 0)
		return -1;
	if (sigaction(tgmon_cfg.signo, NULL, &sa) == 0 && sa.sa_restorer != NULL)
		tgmon_stacks_restorer((uint64_t)(uintptr_t)sa.sa_restorer);	/* glibc's trampoline */
	return 0;
}

/* A timer on the calling thread's CPU time, tgmon_cfg.hz times a second of it. */
void
tgmon_sample_thread(void)
{
	struct sigevent ev;
	struct itimerspec its;
	long ns;

	if (tgmon_cfg.hz <= 0 || tgmon_nmod == 0 || has_timer)
		return;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = tgmon_cfg.signo;
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
	int i;

	for (i = 0; i < tgmon_nmod; i++)
		if (tgmon_mod[i].bin != NULL)
			memset(tgmon_mod[i].bin, 0, tgmon_mod[i].nbin * sizeof *tgmon_mod[i].bin);
	has_timer = 0;
	tgmon_sample_thread();
}

int
tgmon_sample_handler_ours(void)
{
	struct sigaction sa;

	return tgmon_rate <= 0 || (sigaction(tgmon_cfg.signo, NULL, &sa) == 0 &&
	    (sa.sa_flags & SA_SIGINFO) && sa.sa_sigaction == tgmon_on_sample);
}
