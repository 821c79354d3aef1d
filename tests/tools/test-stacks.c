/* test-stacks: reads and checks a libtgmon stacks file (input/gmon_out.h) and prints its stacks by name. */
/*
 * Usage: test-stacks [-n NM] [-g GMON] [-T] STACKS
 *
 * Checks everything the format promises (sizes, bounds, the header's sums
 * against the records) and exits 1 with one line on standard error at the
 * first thing wrong.  Prints:
 *
 *   runid HEX
 *   rate R modules M maxdepth D
 *   samples S root R truncated T lost L stacks N signals G
 *   module I BASE LOWPC HIGHPC NAME          (NAME "-" for the executable)
 *   thread I TID FLAGS CPU_NS SAMPLES SIGNALS START_NS END_NS NAME
 *                                            (NAME "-" if empty)
 *   gmon runid HEX hist H                    (-g: GMON's identifier and histogram samples)
 *   COUNT KIND OUTER;...;INNER               (a stack: KIND root, trunc or broken; -T: its
 *                                             thread first, "tI" or "t-" for none; a wait's
 *                                             KIND wroot, wtrunc or wbroken, COUNT in ns)
 *   flags F waits W wait_ns N               (the header's)
 *   stacks-of I N                            (thread I's stack records' samples; I "none" for
 *                                             TGSTACKS_NO_THREAD)
 *   in-program P outside O                   (samples libtgmon charges to the executable: their
 *                                             counter is in it, or else their innermost frame;
 *                                             and those with no frame in it, which it charges
 *                                             there only if its scan of the stack finds one)
 *
 * Frames of the executable are named by NM (nm's output for it: a frame
 * is the function with the greatest address at or below it, less 1 for
 * a return address), others "[LIB]" (the module's file name), or "?".
 * Built by tests/runtime.sh with only src/input/gmon_out.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/gmon_out.h"

struct sym {
	uint64_t addr;
	char name[128];
};

struct mod {
	uint64_t base, lo, hi;
	char name[TGSTACKS_MAX_NAME];
};

static struct sym *syms;
static size_t nsyms;
static struct mod *mods;	/* nmods of them */
static uint32_t nmods;
static uint32_t nthreads;
static int show_thread;		/* -T */
static uint64_t *thread_samples;	/* each ended thread's record's, then what its stacks count (nthreads + 1) */

static void
die(const char *what)
{
	fprintf(stderr, "test-stacks: %s\n", what);
	exit(1);
}

static uint64_t
rd(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

/* The whole of PATH; *LEN its size. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;
	size_t cap = 0, n = 0, k;

	if (f == NULL)
		die("cannot open a file");
	do {
		if (n == cap && (b = realloc(b, cap = cap * 2 + 65536)) == NULL)
			die("out of memory");
		k = fread(b + n, 1, cap - n, f);
		n += k;
	} while (k > 0);
	fclose(f);
	*len = n;
	return b;
}

static int
by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* nm's text symbols ("ADDR T NAME"). */
static void
read_nm(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], type, name[128];
	unsigned long long a;
	size_t cap = 0;

	if (f == NULL)
		die("cannot open the nm file");
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%llx %c %127s", &a, &type, name) != 3 || strchr("tTwW", type) == NULL)
			continue;
		if (nsyms == cap && (syms = realloc(syms, (cap = cap * 2 + 256) * sizeof *syms)) == NULL)
			die("out of memory");
		syms[nsyms].addr = a;
		snprintf(syms[nsyms++].name, sizeof syms->name, "%s", name);
	}
	fclose(f);
	qsort(syms, nsyms, sizeof *syms, by_addr);
}

/* A frame's name: A is the program counter (K = 0) or a return address. */
static const char *
frame_name(uint64_t a, int k)
{
	static char buf[300];
	const char *slash;
	size_t lo = 0, hi = nsyms;
	uint32_t m;

	for (m = 0; m < nmods && !(a >= mods[m].lo && a < mods[m].hi); m++)
		;
	if (m == nmods)
		return "?";
	if (m > 0) {
		slash = strrchr(mods[m].name, '/');
		snprintf(buf, sizeof buf, "[%.290s]", slash != NULL ? slash + 1 : mods[m].name);
		return buf;
	}
	a -= mods[0].base + (k > 0);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? syms[lo - 1].name : "?";
}

/* -g: the gmon file's run identifier and its histogram's samples. */
static void
read_gmon(const char *path)
{
	size_t len, off = GMON_HDR_SIZE;
	unsigned char *b = slurp(path, &len);
	uint64_t hist = 0, i, n;

	if (len < GMON_HDR_SIZE || memcmp(b, GMON_MAGIC, GMON_MAGIC_LEN) != 0)
		die("the gmon file is not in the GNU format");
	if (rd(b + GMON_RUNID_OFFSET + GMON_RUNID_LEN, GMON_HDR_SIZE - GMON_RUNID_OFFSET - GMON_RUNID_LEN))
		die("the gmon file's spare bytes after the run identifier are not zero");
	while (off < len) {
		switch (b[off]) {
		case GMON_TAG_TIME_HIST:
			if (len - off < 41)
				die("gmon: a short histogram record");
			n = rd(b + off + 17, 4);
			if ((len - off - 41) / 2 < n)
				die("gmon: a short histogram");
			for (i = 0; i < n; i++)
				hist += rd(b + off + 41 + 2 * i, 2);
			off += 41 + 2 * n;
			break;
		case GMON_TAG_CG_ARC:
			off += 21;
			break;
		default:
			die("gmon: an unexpected record");
		}
	}
	if (off != len)
		die("gmon: a short record");
	printf("gmon runid %016llx hist %llu\n", (unsigned long long)rd(b + GMON_RUNID_OFFSET, 8),
	    (unsigned long long)hist);
	free(b);
}

/* The thread records, printed; the offset of the first stack. */
static size_t
read_threads(const unsigned char *b, size_t len, size_t off)
{
	uint32_t i;

	nthreads = (uint32_t)rd(b + TGSTACKS_HDR_NTHREADS, 4);
	if ((thread_samples = calloc(2 * ((size_t)nthreads + 1), sizeof *thread_samples)) == NULL)
		die("out of memory");
	for (i = 0; i < nthreads; i++) {
		uint64_t n;

		if (len - off < TGSTACKS_THREAD_FIXED)
			die("a short thread record");
		n = rd(b + off + 48, 4);
		if (n > TGSTACKS_MAX_THREAD_NAME || len - off - TGSTACKS_THREAD_FIXED < n ||
		    (rd(b + off + 4, 4) & ~(uint64_t)(TGSTACKS_THREAD_ENDED | TGSTACKS_THREAD_MAIN |
		    TGSTACKS_THREAD_CPU | TGSTACKS_THREAD_TIMER | TGSTACKS_THREAD_WAITS | TGSTACKS_THREAD_WAITS_LOST)) ||
		    rd(b + off, 4) == 0)
			die("a bad thread record");
		/* A thread still running when the file was written may have sampled in between. */
		thread_samples[i] = rd(b + off + 4, 4) & TGSTACKS_THREAD_ENDED ? rd(b + off + 16, 8) : UINT64_MAX;
		printf("thread %u %llu %llu %llu %llu %llu %llu %llu %.*s\n", i, (unsigned long long)rd(b + off, 4),
		    (unsigned long long)rd(b + off + 4, 4), (unsigned long long)rd(b + off + 8, 8),
		    (unsigned long long)rd(b + off + 16, 8), (unsigned long long)rd(b + off + 24, 8),
		    (unsigned long long)rd(b + off + 32, 8), (unsigned long long)rd(b + off + 40, 8),
		    n > 0 ? (int)n : 1, n > 0 ? (const char *)b + off + TGSTACKS_THREAD_FIXED : "-");
		off += TGSTACKS_THREAD_FIXED + n;
	}
	return off;
}

/* The header and the modules; the offset of the first stack. */
static size_t
read_head(const unsigned char *b, size_t len)
{
	size_t off = TGSTACKS_HDR_SIZE;
	uint32_t m;

	if (len < TGSTACKS_HDR_SIZE || memcmp(b + TGSTACKS_HDR_MAGIC, TGSTACKS_MAGIC, TGSTACKS_MAGIC_LEN))
		die("not a stacks file");
	if (rd(b + TGSTACKS_HDR_VERSION, 4) != TGSTACKS_VERSION || (rd(b + TGSTACKS_HDR_FLAGS, 4) &
	    ~(uint64_t)(TGSTACKS_FLAG_WAITS | TGSTACKS_FLAG_WAITS_DENIED | TGSTACKS_FLAG_WAITS_OFF)) ||
	    rd(b + TGSTACKS_HDR_NTHREADS, 4) > TGSTACKS_MAX_THREADS)
		die("an unknown version or flags, or too many threads");
	if (rd(b + TGSTACKS_HDR_MAXDEPTH, 4) != TGSTACKS_MAX_DEPTH || rd(b + TGSTACKS_HDR_RUNID, 8) == 0)
		die("a bad depth limit or run identifier");
	if (rd(b + TGSTACKS_HDR_SIGNALS, 8) > rd(b + TGSTACKS_HDR_SAMPLES, 8) ||
	    (rd(b + TGSTACKS_HDR_SIGNALS, 8) == 0) != (rd(b + TGSTACKS_HDR_SAMPLES, 8) == 0))
		die("more signals than samples, or signals without samples");
	if ((nmods = (uint32_t)rd(b + TGSTACKS_HDR_NMODULES, 4)) == 0 || nmods > TGSTACKS_MAX_MODULES)
		die("a bad number of modules");
	if ((mods = calloc(nmods, sizeof *mods)) == NULL)
		die("out of memory");
	for (m = 0; m < nmods; m++) {
		uint64_t n;

		if (len - off < TGSTACKS_MOD_FIXED)
			die("a short module record");
		mods[m].base = rd(b + off, 8);
		mods[m].lo = rd(b + off + 8, 8);
		mods[m].hi = rd(b + off + 16, 8);
		n = rd(b + off + 24, 4);
		off += TGSTACKS_MOD_FIXED;
		if (n >= TGSTACKS_MAX_NAME || len - off < n || (m == 0) != (n == 0) || mods[m].lo >= mods[m].hi)
			die("a bad module record");
		memcpy(mods[m].name, b + off, n);
		mods[m].name[n] = '\0';
		off += n;
	}
	return read_threads(b, len, off);
}

/* The stacks: checked, summed against the header, printed by name. */
static void
read_stacks(const unsigned char *b, size_t len, size_t off)
{
	uint64_t sum[4] = { 0, 0, 0, 0 }, nstacks = 0, inprog = 0, outside = 0, pc;
	int k;
	static char line[TGSTACKS_MAX_DEPTH * 140];

	while (off < len) {
		uint64_t count, depth, flags, thread;
		size_t n = 0;

		if (len - off < TGSTACKS_STACK_FIXED_V3)
			die("a short stack record");
		count = rd(b + off, 8);
		depth = rd(b + off + 8, 4);
		flags = rd(b + off + 12, 4);
		thread = rd(b + off + 16, 4);
		off += TGSTACKS_STACK_FIXED_V3;
		if (thread >= nthreads && thread != TGSTACKS_NO_THREAD)
			die("a stack of no thread");
		if (!(flags & TGSTACKS_WAIT))
			thread_samples[nthreads + 1 + (thread < nthreads ? thread : nthreads)] += count;
		if (count == 0 || depth == 0 || depth > TGSTACKS_MAX_DEPTH || (len - off) / 8 < depth ||
		    (flags & ~(uint64_t)(TGSTACKS_ROOT | TGSTACKS_TRUNCATED | TGSTACKS_WAIT)) ||
		    (flags & (TGSTACKS_ROOT | TGSTACKS_TRUNCATED)) == (TGSTACKS_ROOT | TGSTACKS_TRUNCATED))
			die("a bad stack record");
		if (show_thread)
			n += (size_t)snprintf(line, sizeof line, thread < nthreads ? "t%llu;" : "t-;",
			    (unsigned long long)thread);
		for (k = (int)depth - 1; k >= 0; k--)
			n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", k + 1 < (int)depth ? ";" : "",
			    frame_name(rd(b + off + 8 * (size_t)k, 8), k));
		printf("%llu %s%s %s\n", (unsigned long long)count, flags & TGSTACKS_WAIT ? "w" : "",
		    flags & TGSTACKS_ROOT ? "root" : flags & TGSTACKS_TRUNCATED ? "trunc" : "broken", line);
		if (flags & TGSTACKS_WAIT) {
			off += 8 * depth;
			nstacks++;
			sum[3] += count;
			continue;
		}
		/* Charged to the program: its PC there, or else its innermost frame there. */
		for (k = 0; k < (int)depth; k++) {
			pc = rd(b + off + 8 * (size_t)k, 8);
			if (pc >= mods[0].lo && pc < mods[0].hi) {
				inprog += count;
				break;
			}
		}
		outside += k == (int)depth ? count : 0;
		off += 8 * depth;
		nstacks++;
		sum[0] += count;
		sum[1] += flags & TGSTACKS_ROOT ? count : 0;
		sum[2] += flags & TGSTACKS_TRUNCATED ? count : 0;
	}
	if (nstacks != rd(b + TGSTACKS_HDR_NSTACKS, 8) || sum[0] != rd(b + TGSTACKS_HDR_SAMPLES, 8) ||
	    sum[1] != rd(b + TGSTACKS_HDR_ROOT, 8) || sum[2] != rd(b + TGSTACKS_HDR_TRUNCATED, 8) ||
	    sum[3] != rd(b + TGSTACKS_HDR_WAIT_NS, 8))
		die("the header's sums are not the records'");
	for (k = 0; k <= (int)nthreads; k++) {
		if (k < (int)nthreads && thread_samples[nthreads + 1 + k] > thread_samples[k])
			die("a thread's stacks count more samples than it took");
		if (k < (int)nthreads || thread_samples[nthreads + 1 + k] > 0)
			printf(k < (int)nthreads ? "stacks-of %d %llu\n" : "stacks-of none%.0d %llu\n", k,
			    (unsigned long long)thread_samples[nthreads + 1 + k]);
	}
	printf("in-program %llu outside %llu\n", (unsigned long long)inprog, (unsigned long long)outside);
}

int
main(int argc, char **argv)
{
	const char *gmon = NULL;
	unsigned char *b;
	size_t len, off;
	uint32_t m;
	int i;

	for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-T") == 0) {
			show_thread = 1;
			i--;
		} else if (strcmp(argv[i], "-n") == 0)
			read_nm(argv[i + 1]);
		else if (strcmp(argv[i], "-g") == 0)
			gmon = argv[i + 1];
		else
			break;
	}
	if (i + 1 != argc)
		die("usage: test-stacks [-n NM] [-g GMON] [-T] STACKS");
	b = slurp(argv[i], &len);
	off = read_head(b, len);
	printf("runid %016llx\n", (unsigned long long)rd(b + TGSTACKS_HDR_RUNID, 8));
	printf("rate %llu modules %u maxdepth %llu\n", (unsigned long long)rd(b + TGSTACKS_HDR_RATE, 4),
	    nmods, (unsigned long long)rd(b + TGSTACKS_HDR_MAXDEPTH, 4));
	printf("samples %llu root %llu truncated %llu lost %llu stacks %llu signals %llu\n",
	    (unsigned long long)rd(b + TGSTACKS_HDR_SAMPLES, 8), (unsigned long long)rd(b + TGSTACKS_HDR_ROOT, 8),
	    (unsigned long long)rd(b + TGSTACKS_HDR_TRUNCATED, 8), (unsigned long long)rd(b + TGSTACKS_HDR_LOST, 8),
	    (unsigned long long)rd(b + TGSTACKS_HDR_NSTACKS, 8), (unsigned long long)rd(b + TGSTACKS_HDR_SIGNALS, 8));
	printf("flags %llu waits %llu wait_ns %llu\n", (unsigned long long)rd(b + TGSTACKS_HDR_FLAGS, 4),
	    (unsigned long long)rd(b + TGSTACKS_HDR_WAITS, 8), (unsigned long long)rd(b + TGSTACKS_HDR_WAIT_NS, 8));
	for (m = 0; m < nmods; m++)
		printf("module %u %llx %llx %llx %s\n", m, (unsigned long long)mods[m].base,
		    (unsigned long long)mods[m].lo, (unsigned long long)mods[m].hi, m == 0 ? "-" : mods[m].name);
	if (gmon != NULL)
		read_gmon(gmon);
	read_stacks(b, len, off);
	free(b);
	return 0;
}
