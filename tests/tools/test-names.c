/* test-names: names_sort() against a stable sort by strcmp(), on generated names made to share long prefixes. */
/*
 * Usage: test-names N SEED.  Each round makes N names (from a few
 * stems, so that many share prefixes longer than the radix sort's 8-byte
 * chunks; some equal, some empty, some with bytes above 0x7f, some the
 * prefix of another) and checks name_order and name_rank against a
 * stable merge sort by strcmp(): equal names in id order, equal ranks.
 * Prints the number of differences; exit 1 if any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/names.h"
#include "util/msort.h"
#include "testrand.h"


/* One name into BUF (room 64). */
static void
make_name(char *buf)
{
	static const char *const stem[] = {
		"", "f", "_ZN5boost6detail", "_ZN5boost6detail7variant", "abcdefgh", "abcdefghi",
		"\xc3\xa9t\xc3\xa9", "zzzzzzzzzzzzzzzzzzzzzzzz"
	};
	size_t len = strlen(strcpy(buf, stem[test_rnd(8)]));
	unsigned extra = test_rnd(4) == 0 ? 0 : test_rnd(12), i;

	for (i = 0; i < extra && len < 62; i++)
		buf[len++] = (char)(test_rnd(8) == 0 ? (int)(0x80 + test_rnd(0x7f)) : "ab_7\x7f"[test_rnd(5)]);
	buf[len] = '\0';
}

static const struct pf_sym *ref_syms;

static int
cmp_ref(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(ref_syms[*(const uint32_t *)a].name, ref_syms[*(const uint32_t *)b].name);
}

/* One round of N names; the number of differences. */
static unsigned long
round_of(uint32_t n)
{
	struct profile p;
	char (*names)[64] = malloc((size_t)n * 64 + 1);
	uint32_t *ref = malloc(((size_t)n + 1) * sizeof *ref), i, rank = 0;
	unsigned long bad = 0;

	memset(&p, 0, sizeof p);
	p.nsyms = n;
	p.sym = calloc((size_t)n + 1, sizeof *p.sym);
	if (names == NULL || ref == NULL || p.sym == NULL)
		exit(2);
	for (i = 0; i < n; i++) {
		make_name(names[i]);
		p.sym[i].name = names[i];
		ref[i] = i;
	}
	ref_syms = p.sym;
	if (names_sort(&p) != 0 || msort_ids(ref, n, cmp_ref, NULL) != 0)
		exit(2);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(names[ref[i - 1]], names[ref[i]]) != 0)
			rank++;
		bad += p.name_order[i] != ref[i] || p.name_rank[ref[i]] != rank;
	}
	free(p.name_order);
	free(p.name_rank);
	free(p.sym);
	free(names);
	free(ref);
	return bad;
}

int
main(int argc, char **argv)
{
	static const uint32_t sizes[] = { 0, 1, 2, 15, 16, 17, 40, 1000 };
	unsigned long bad = 0;
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000;
	size_t k;

	test_seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
	for (k = 0; k < sizeof sizes / sizeof *sizes; k++)
		bad += round_of(sizes[k]);
	bad += round_of(n);
	printf("test-names: %lu differences\n", bad);
	return bad != 0;
}
