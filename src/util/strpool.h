/* strpool: strings allocated in large chunks and freed all at once. */
#ifndef TGPROF_STRPOOL_H
#define TGPROF_STRPOOL_H

#include <stddef.h>

/* A pool of strings freed all at once; its chunks are owned by it. */
struct strpool {
	char *cur;		/* free space in the newest chunk */
	size_t left;		/* bytes free at cur */
	void *chunks;		/* chain of chunks, newest first */
};

void strpool_init(struct strpool *sp);
void strpool_release(struct strpool *sp);

/* Copy of S owned by the pool; NULL on failure. */
char *strpool_dup(struct strpool *sp, const char *s);

/* DST takes SRC's strings (SRC is left empty). */
void strpool_take(struct strpool *dst, struct strpool *src);

#endif
