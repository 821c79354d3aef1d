/* u64map: an open-addressing hash map from 64-bit keys to 32-bit ids. */
#ifndef TGPROF_U64MAP_H
#define TGPROF_U64MAP_H

#include <stddef.h>
#include <stdint.h>

#define U64MAP_NONE UINT32_MAX

struct u64map {
	uint64_t *key;		/* owned */
	uint32_t *val;		/* owned; U64MAP_NONE marks an empty slot */
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

void u64map_init(struct u64map *m);
void u64map_release(struct u64map *m);

/* Makes room for N keys at once, so that no rehash follows; 0 or -1. */
int u64map_reserve(struct u64map *m, size_t n);

/* The id stored for KEY, or U64MAP_NONE. */
uint32_t u64map_get(const struct u64map *m, uint64_t key);

/* Stores KEY -> VAL (VAL != U64MAP_NONE), replacing any old value; 0 or -1. */
int u64map_put(struct u64map *m, uint64_t key, uint32_t val);

/*
 * The id stored for KEY; if there is none, stores VAL (!= U64MAP_NONE) and
 * returns it.  U64MAP_NONE when out of memory.  One probe sequence.
 */
uint32_t u64map_intern(struct u64map *m, uint64_t key, uint32_t val);

/* KEY's bits mixed (MurmurHash3's finaliser): its low bits make a good slot. */
uint64_t u64map_mix(uint64_t key);

/* A well-mixed 64-bit hash of the string S, or of its first N bytes. */
uint64_t u64map_strhash(const char *s);
uint64_t u64map_memhash(const char *s, size_t n);

#endif
