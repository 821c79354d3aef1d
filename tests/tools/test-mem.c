/* test-mem: mem_lines() and mem_reserve_lines() give blocks on a cache line, grown with their contents kept. */
/*
 * Usage: test-mem.  Arrays of every size from 1 byte to 64 MiB come from
 * mem_lines() on a 64-byte line; arrays grown by mem_reserve_lines() from
 * empty to 2^22 records of 24 bytes, other blocks allocated between the
 * steps so that realloc() moves them (on the heap, where its blocks start
 * 16 bytes into a line), stay on a line with every record kept; so do
 * blocks grown in place.  Prints the failures; exit 1 if any.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/mem.h"

struct rec {
	uint64_t a, b, c;
};

static int
on_line(const void *p)
{
	return (uintptr_t)p % 64 == 0;
}

static int
arrays(void)
{
	size_t size;
	int bad = 0;

	for (size = 1; size <= ((size_t)64 << 20); size = size * 3 / 2 + 1) {
		char *p = mem_lines(size, 1);

		if (p == NULL || !on_line(p)) {
			printf("mem_lines(%zu, 1): %p\n", size, (void *)p);
			bad = 1;
		}
		if (p != NULL)
			p[size - 1] = 1;
		free(p);
	}
	return bad;
}

/* Grown one record at a time; with SPACERS, a block allocated after each growth (realloc() must move). */
static int
grown(int spacers)
{
	struct rec *v = NULL;
	size_t cap = 0, n, i, moved = 0;
	void *spacer[64] = { NULL };
	int k = 0, bad = 0;

	for (n = 0; n < ((size_t)1 << 22) && !bad; n++) {
		struct rec *was = v;

		if (mem_reserve_lines(&v, &cap, n + 1, sizeof *v) != 0) {
			printf("mem_reserve_lines(%zu): out of memory\n", n + 1);
			return 1;
		}
		if (v != was && was != NULL) {
			moved++;
			for (i = 0; i < n; i++)
				if (v[i].a != i || v[i].b != ~i || v[i].c != i * 7)
					bad = 1;
			if (spacers && k < 64)
				spacer[k++] = malloc(cap * sizeof *v / 4);
		}
		if (!on_line(v)) {
			printf("grown to %zu records (spacers %d): %p\n", cap, spacers, (void *)v);
			bad = 1;
		}
		v[n].a = n;
		v[n].b = ~n;
		v[n].c = n * 7;
	}
	if (bad)
		printf("records lost as the array grew (spacers %d)\n", spacers);
	if (moved == 0) {
		printf("the array never moved (spacers %d): nothing tested\n", spacers);
		bad = 1;
	}
	while (k > 0)
		free(spacer[--k]);
	free(v);
	return bad;
}

int
main(void)
{
	int bad = arrays();

	bad |= grown(0);
	bad |= grown(1);
	return bad;
}
