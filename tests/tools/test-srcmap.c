/* test-srcmap: asks libbfd and a srcmap gprof -l's questions about a program and compares every answer. */
/*
 * Usage: test-srcmap [-n] PROG
 *
 * The questions are gprof's, in its order: the address of each function
 * symbol, then every text byte, twice.  Both sources see them all, so any
 * difference in the answers or in how earlier questions change later
 * answers shows.  Prints one line of counts (and the first differences).
 * Exit status: 0 all answers equal; 1 differences; 2 no srcmap for PROG
 * (with -n, that is expected and exits 0; a srcmap then exits 1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/srcmap.h"
#include "input/bin.h"
#include "util/diag.h"

struct counts {
	unsigned long asked, answered, differ;
};

static void
compare(struct bin *b, struct srcmap *m, uint64_t addr, const char *phase, struct counts *c)
{
	const char *bfile = NULL, *bfunc = NULL, *mfunc = NULL, *mfile;
	int bline = 0, mline = 0, bok, mok;
	uint32_t f = 0;

	bok = bin_src_info(b, addr, &bfile, &bfunc, &bline);
	mok = srcmap_query(m, addr, &f, &mline, &mfunc);
	mfile = mok ? srcmap_file_name(m, f) : NULL;
	c->asked++;
	c->answered += bok != 0;
	if (bok == mok && (!bok || (bline == mline && strcmp(bfile, mfile) == 0 &&
	    strcmp(bfunc, mfunc) == 0)))
		return;
	if (c->differ++ < 10)
		printf("%s %#" PRIx64 ": libbfd %s:%d %s, srcmap %s:%d %s\n", phase, addr,
		    bok ? bfile : "-", bline, bok ? bfunc : "-", mok ? mfile : "-", mline,
		    mok ? mfunc : "-");
}

int
main(int argc, char **argv)
{
	struct bin_symopts so = { 0, 0, 0 };
	struct bin *b, *mb;
	struct srcmap *m;
	struct counts c = { 0, 0, 0 };
	struct diag d;
	struct bin_sym bs;
	uint64_t vma, end, a;
	int none_expected = argc == 3 && strcmp(argv[1], "-n") == 0;
	const char *prog = argv[argc - 1];
	size_t i;

	if (argc != 2 + none_expected) {
		fprintf(stderr, "usage: test-srcmap [-n] PROG\n");
		return 2;
	}
	diag_init(&d);
	if (bin_open(&b, prog, &d) != 0 || bin_open(&mb, prog, &d) != 0) {
		fprintf(stderr, "test-srcmap: %s: cannot open\n", prog);
		return 2;
	}
	m = srcmap_build(mb);
	if (m == NULL || none_expected) {
		printf("%s: %s\n", prog, m == NULL ? "no srcmap" : "a srcmap, none expected");
		srcmap_free(m);
		bin_close(mb);
		bin_close(b);
		diag_release(&d);
		return m == NULL ? (none_expected ? 0 : 2) : 1;
	}
	for (i = 0; i < bin_nsyms(b); i++) {
		bin_sym(b, i, &so, &bs);
		if (bs.cls == 0)
			continue;
		if (!srcmap_can_answer(m, bs.addr)) {
			printf("%s: srcmap cannot answer for %#" PRIx64 "\n", prog, bs.addr);
			return 2;
		}
		compare(b, m, bs.addr, "symbol", &c);
	}
	vma = bin_text_vma(b);
	end = vma + bin_text_size(b);
	for (a = vma; a < end; a++)
		compare(b, m, a, "walk1", &c);
	for (a = vma; a < end; a++)
		compare(b, m, a, "walk2", &c);
	printf("%s: %lu questions, %lu answered, %lu different\n", prog, c.asked, c.answered,
	    c.differ);
	srcmap_free(m);
	bin_close(mb);
	bin_close(b);
	diag_release(&d);
	return c.differ != 0;
}
