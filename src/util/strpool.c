/* strpool: strings allocated in large chunks and freed all at once. */
#include "strpool.h"

#include <stdlib.h>
#include <string.h>

#define STRPOOL_CHUNK 65536

void
strpool_init(struct strpool *sp)
{
	sp->cur = NULL;
	sp->left = 0;
	sp->chunks = NULL;
}

void
strpool_release(struct strpool *sp)
{
	void *c = sp->chunks;

	while (c != NULL) {
		void *next = *(void **)c;
		free(c);
		c = next;
	}
	strpool_init(sp);
}

char *
strpool_dup(struct strpool *sp, const char *s)
{
	size_t n = strlen(s) + 1, size;
	char *chunk, *d;

	if (n > sp->left) {
		size = n > STRPOOL_CHUNK / 4 ? n + sizeof(void *) : STRPOOL_CHUNK;
		chunk = malloc(size);
		if (chunk == NULL)
			return NULL;
		*(void **)chunk = sp->chunks;
		sp->chunks = chunk;
		sp->cur = chunk + sizeof(void *);
		sp->left = size - sizeof(void *);
	}
	d = sp->cur;
	memcpy(d, s, n);
	sp->cur += n;
	sp->left -= n;
	return d;
}

void
strpool_take(struct strpool *dst, struct strpool *src)
{
	void **last;

	if (src->chunks == NULL)
		return;
	for (last = src->chunks; *last != NULL; last = *last)
		;
	*last = dst->chunks;	/* SRC's chain, then DST's (DST's newest chunk stays where it fills) */
	dst->chunks = src->chunks;
	strpool_init(src);
}
