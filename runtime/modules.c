/* modules: the objects loaded in the process, each with its histogram, and the index that finds one by address. */
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "tgmon.h"

/* The modules' first chunk; the others are mapped as modules are added (tgmon_module_room). */
static struct tgmon_hist tgmon_mod0[TGMON_MOD_CHUNK];
struct tgmon_hist *tgmon_mod_chunk[TGMON_MAX_MODULES / TGMON_MOD_CHUNK] = { tgmon_mod0 };
int tgmon_nmod;
/*
 * Module indexes by lowpc, for tgmon_module_at(), which a sample handler
 * may run in any thread at any time: a new index is built in the other
 * of two static buffers (up to TGMON_MOD_CHUNK modules; CAP) and
 * published whole; past that, in one mapped for it, which is never
 * changed or unmapped once published.
 */
struct order {
	int n, cap;
	int *idx;
};
static int order_idx[2][TGMON_MOD_CHUNK];
static struct order orders[2] = { { 0, TGMON_MOD_CHUNK, order_idx[0] }, { 0, TGMON_MOD_CHUNK, order_idx[1] } };
static struct order *by_addr;
/*
 * Every function here is named tgmon_*: they run while the program is
 * sampled (tgmon_module_at in every sample), and tgprof shows tgmon_*
 * functions as the cost of profiling, not the program's.
 */

/*
 * Room for module tgmon_nmod: its chunk, mapped if it is the first of a
 * new one (at start, or by the writer: never in a sample handler), whole
 * before any module in it is published.  0; -1 (said once, naming NAME,
 * the object that gets no profile) if the table is full or no memory.
 */
static int
tgmon_module_room(const char *name)
{
	static int said;
	struct tgmon_hist **c = &tgmon_mod_chunk[tgmon_nmod >> TGMON_MOD_SHIFT];
	void *p = MAP_FAILED;

	if (tgmon_nmod < TGMON_MAX_MODULES && *c != NULL)
		return 0;
	if (tgmon_nmod < TGMON_MAX_MODULES)
		p = mmap(NULL, TGMON_MOD_CHUNK * sizeof **c, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
		    MAP_NORESERVE, -1, 0);
	if (p != MAP_FAILED) {
		__atomic_store_n(c, p, __ATOMIC_RELEASE);
		return 0;
	}
	if (!said++)
		tgmon_say(name != NULL && *name != '\0' ? name : "a shared object", ": no profile: ",
		    tgmon_nmod < TGMON_MAX_MODULES ? "no memory for libtgmon's table of objects" :
		    "more objects loaded than libtgmon's table holds (65536)");
	return -1;
}

/*
 * One loaded object: the span of its executable segments, if it has any,
 * its readable segments and its .eh_frame_hdr (for walk.c); CTX NULL
 * when it is loaded at start (tgmon_hist.fixed).
 */
static int
tgmon_module_add(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct tgmon_hist *h;
	const char *slash;
	int i;

	if (tgmon_module_room(info->dlpi_name) != 0)
		return 1;
	h = tgmon_module(tgmon_nmod);
	memset(h, 0, sizeof *h);
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;

		if (ph->p_type == PT_GNU_EH_FRAME)
			h->eh_hdr = lo;
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_R) && h->nseg < TGMON_MAX_SEGS && hi > lo) {
			h->seg_lo[h->nseg] = lo;
			h->seg_hi[h->nseg++] = hi;
		}
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (h->highpc == 0 || lo < h->lowpc)
			h->lowpc = lo;
		if (hi > h->highpc)
			h->highpc = hi;
	}
	h->base = info->dlpi_addr;
	h->fixed = ctx == NULL;
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

		if (tgmon_module(o->idx[mid])->lowpc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || pc >= tgmon_module(m = o->idx[lo - 1])->highpc)
		return -1;
	return m;
}

/* Module M's bins, bin-aligned; pages are only used where samples land. */
static void
tgmon_bins_make(struct tgmon_hist *h)
{
	void *p;

	h->lowpc &= ~(uint64_t)((1 << TGMON_BIN_SHIFT) - 1);
	h->highpc = (h->highpc + (1 << TGMON_BIN_SHIFT) - 1) & ~(uint64_t)((1 << TGMON_BIN_SHIFT) - 1);
	h->nbin = (h->highpc - h->lowpc) >> TGMON_BIN_SHIFT;
	p = mmap(NULL, h->nbin * sizeof *h->bin, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	h->bin = p != MAP_FAILED ? p : NULL;
}

/*
 * An index buffer for N modules: the static one not published, or a new
 * one mapped for them (NULL if there is no memory: the index stays as it
 * was, and the new modules are not found).
 */
static struct order *
tgmon_order_room(int n)
{
	struct order *o = by_addr == &orders[0] ? &orders[1] : &orders[0];
	size_t bytes = sizeof *o + (size_t)n * sizeof *o->idx;
	void *p;

	if (n <= o->cap)
		return o;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	o = p;
	o->cap = n;
	o->idx = (int *)(o + 1);
	return o;
}

/* Sorts the modules by address into an unused index buffer and publishes it. */
static void
tgmon_order_publish(void)
{
	struct order *o = tgmon_order_room(tgmon_nmod);
	int i, j;

	if (o == NULL)
		return;

	for (i = 0; i < tgmon_nmod; i++) {
		for (j = i; j > 0 && tgmon_module(o->idx[j - 1])->lowpc > tgmon_module(i)->lowpc; j--)
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
		    tgmon_module(i)->base == info->dlpi_addr)
			return 0;
	tgmon_module_add(info, size, &i);	/* not fixed: dlclose() may unmap it */
	if (i < tgmon_nmod)	/* added: its calls are counted, not its time */
		tgmon_module(i)->bin = NULL;
	return 0;
}

void
tgmon_modules_rescan(void)
{
	int n = tgmon_nmod;

	dl_iterate_phdr(tgmon_module_add_late, NULL);
	if (tgmon_nmod != n)
		tgmon_order_publish();
}


int
tgmon_modules_init(void)
{
	int i;

	dl_iterate_phdr(tgmon_module_add, NULL);
	for (i = 0; i < tgmon_nmod; i++)
		tgmon_bins_make(tgmon_module(i));
	if (tgmon_nmod > 0)
		tgmon_order_publish();
	return tgmon_nmod;
}
