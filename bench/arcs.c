/* arcs: writes a GNU gmon.out of call arcs only, between random functions of a program, for scale tests. */
/*
 * usage: nm PROG | arcs RECORDS DISTINCT OUT
 * Record k is arc k mod DISTINCT, a pair of functions (text symbols of
 * nm's output, entered at +4) drawn from k mod DISTINCT alone, with
 * 1 + k mod 7 calls: DISTINCT < RECORDS repeats arcs as merged profiles do.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t
mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9u;
	x = (x ^ x >> 27) * 0x94d049bb133111ebu;
	return x ^ x >> 31;
}

static void
put(unsigned char *p, uint64_t v, int n)
{
	while (n-- > 0)
		*p++ = (unsigned char)v, v >>= 8;
}

int
main(int argc, char **argv)
{
	uint64_t records, distinct, k, *fn = NULL, a;
	size_t n = 0, cap = 0;
	char line[512], type;
	unsigned char rec[21], hdr[20] = "gmon\1";
	FILE *out;

	if (argc != 4 || (records = strtoull(argv[1], NULL, 10)) == 0 ||
	    (distinct = strtoull(argv[2], NULL, 10)) == 0 || (out = fopen(argv[3], "wb")) == NULL) {
		fprintf(stderr, "usage: nm PROG | arcs RECORDS DISTINCT OUT\n");
		return 2;
	}
	while (fgets(line, sizeof line, stdin) != NULL)
		if (sscanf(line, "%lx %c", (unsigned long *)&a, &type) == 2 && (type == 'T' || type == 't')) {
			if (n == cap && (fn = realloc(fn, (cap = 2 * cap + 1024) * sizeof *fn)) == NULL)
				return 1;
			fn[n++] = a + 4;
		}
	if (n == 0)
		return 1;
	memset(hdr + 5, 0, sizeof hdr - 5);
	fwrite(hdr, 1, sizeof hdr, out);
	for (k = 0; k < records; k++) {
		uint64_t r = mix(k % distinct);

		rec[0] = 1;	/* GMON_TAG_CG_ARC */
		put(rec + 1, fn[r % n], 8);
		put(rec + 9, fn[(r >> 32) % n], 8);
		put(rec + 17, 1 + k % 7, 4);
		fwrite(rec, 1, sizeof rec, out);
	}
	return fclose(out) != 0;
}
