/* fuzz-stacks: libFuzzer harness for libtgmon's stacks files: the reader, the measure, --folded, the stacks' trees and the threads. */
/*
 * Input: a stacks file.  Its run identifier (bytes 16-23) is set to the
 * one of a copy of $FUZZ_GMON made at the first input, so that the
 * measure reads every file the reader accepts.  The executable is
 * $FUZZ_PROG (make fuzz runs fuzz/prog once for fuzz/gmon.out).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzzio.h"
#include "core/measure.h"
#include "input/gmon_out.h"
#include "core/flame.h"
#include "model/calltree.h"
#include "model/treetext.h"
#include "print/folded.h"
#include "print/threadlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RUNID 0x0123456789abcdefULL

static struct profile *prof;
static char gmon_copy[] = "/tmp/fuzz-stacks-gmon.XXXXXX";

/* The profile, read once from a copy of $FUZZ_GMON with RUNID in its header. */
static struct profile *
profile(void)
{
	const char *prog = getenv("FUZZ_PROG") != NULL ? getenv("FUZZ_PROG") : "fuzz/prog";
	const char *gmon = getenv("FUZZ_GMON") != NULL ? getenv("FUZZ_GMON") : "fuzz/gmon.out";
	const char *files[1] = { gmon_copy };
	unsigned char buf[1 << 16];
	struct pf_opts o;
	struct diag d;
	FILE *in = fopen(gmon, "rb"), *out;
	size_t n;
	int fd = mkstemp(gmon_copy), i;

	if (in == NULL || fd < 0 || (out = fdopen(fd, "wb")) == NULL)
		abort();
	for (i = 0; (n = fread(buf, 1, sizeof buf, in)) > 0; i++) {
		if (i == 0 && n >= GMON_RUNID_OFFSET + GMON_RUNID_LEN)
			for (int k = 0; k < GMON_RUNID_LEN; k++)
				buf[GMON_RUNID_OFFSET + k] = (unsigned char)(RUNID >> (8 * k));
		fwrite(buf, 1, n, out);
	}
	fclose(in);
	fclose(out);
	memset(&o, 0, sizeof o);
	o.image = prog;
	o.gmon = files;
	o.ngmon = 1;
	diag_init(&d);
	if (profile_load(&prof, &o, &d) != 0)
		abort();
	diag_release(&d);
	unlink(gmon_copy);
	return prof;
}

/*
 * The stacks' trees as --tree and the browser make them: the whole
 * program and the hottest function, top-down and bottom-up, each way of
 * collapsing recursion; every row open and written as text.
 */
static void
trees(const struct profile *p, const struct pf_measure *m, struct report *r)
{
	uint32_t roots[2] = { PF_NONE, PF_NONE }, id;
	struct calltree *ct = calltree_new(p, m);
	struct sbuf sb;
	size_t i, sel;

	for (id = 0; id < p->nsyms; id++)
		if (m->incl[id] > 0 && (roots[1] == PF_NONE || m->incl[id] > m->incl[roots[1]]))
			roots[1] = id;
	sbuf_init(&sb);
	for (int k = 0; ct != NULL && k < 2 * 2 * 3; k++) {
		int callers = k / 6 % 2, collapse = k % 3;

		sel = 0;
		if (calltree_make(ct, r, roots[k / 3 % 2], callers, collapse) != 0 ||
		    calltree_open_all(ct, &sel) < 0)
			continue;
		treetext_header(&sb, r, roots[k / 3 % 2], callers, 1, collapse);
		for (i = 0; i < calltree_nrows(ct); i++) {
			sbuf_reset(&sb);
			treetext_row(&sb, ct, r, i, k & 1);
		}
		calltree_close_all(ct, &sel);
	}
	sbuf_release(&sb);
	calltree_free(ct);
}

/* M's threads listed, and M narrowed to its first (and every other) thread, folded under thread frames. */
static void
threads(const struct profile *p, const struct pf_measure *m, struct report *r, FILE *null)
{
	unsigned char *chosen = calloc((size_t)m->nthread + 1, 1);
	struct pf_measure *n;
	struct diag d;
	uint32_t t;

	if (chosen == NULL)
		abort();
	diag_init(&d);
	threadlist_write(null, m, &d);
	for (t = 0; t < m->nthread; t += 2)
		chosen[t] = 1;
	if (m->nthread > 0 && measure_threads(m, p, chosen, &n) == 0) {
		folded_write_threads(null, r, n, 1, &d);
		threadlist_write(null, n, &d);
		measure_free(n);
	}
	diag_release(&d);
	free(chosen);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct profile *p = prof != NULL ? prof : profile();
	struct pf_measure *m;
	struct report_opts ro;
	struct report *r;
	struct diag d;
	uint8_t *copy = malloc(size + 1);
	char path[64];
	const char *paths[1] = { path };
	FILE *null = fopen("/dev/null", "w");
	int fd;

	if (copy == NULL || null == NULL)
		abort();
	memcpy(copy, data, size);
	for (int k = 0; size >= 24 && k < 8; k++)
		copy[16 + k] = (uint8_t)(RUNID >> (8 * k));
	if ((fd = fuzzio_file(copy, size, path, sizeof path)) >= 0) {
		diag_init(&d);
		memset(&ro, 0, sizeof ro);
		ro.demangle = 1;
		if (measure_load(p, paths, 1, &(struct measure_opts){ NULL, NULL, { 0, 0 }, -1 }, &m, &d) == 0) {
			if ((r = report_new(p, &ro)) != NULL) {
				folded_write(null, r, m, &d);
				trees(p, m, r);
				threads(p, m, r, null);
			}
			report_free(r);
			measure_free(m);
		}
		diag_release(&d);
		close(fd);
	}
	fclose(null);
	free(copy);
	return 0;
}
