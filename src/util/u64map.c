/* u64map: an open-addressing hash map from 64-bit keys to 32-bit ids. */
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

void
u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof *m);
}

void
u64map_release(struct u64map *m)
{
	free(m->key);
	free(m->val);
	u64map_init(m);
}

uint64_t
u64map_mix(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	key *= 0xc4ceb9fe1a85ec53ULL;
	key ^= key >> 33;
	return key;
}

static size_t
slot_of(uint64_t key, size_t cap)
{
	return (size_t)u64map_mix(key) & (cap - 1);
}

uint32_t
u64map_get(const struct u64map *m, uint64_t key)
{
	size_t i;

	if (m->cap == 0)
		return U64MAP_NONE;
	for (i = slot_of(key, m->cap); m->val[i] != U64MAP_NONE; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key)
			return m->val[i];
	return U64MAP_NONE;
}

static void
insert(uint64_t *keys, uint32_t *vals, size_t cap, uint64_t key, uint32_t val)
{
	size_t i;

	for (i = slot_of(key, cap); vals[i] != U64MAP_NONE; i = (i + 1) & (cap - 1))
		if (keys[i] == key)
			break;
	keys[i] = key;
	vals[i] = val;
}

static int
resize(struct u64map *m, size_t cap)
{
	size_t i;
	uint64_t *keys = mem_array(cap, sizeof *keys);
	uint32_t *vals = mem_array(cap, sizeof *vals);

	if (keys == NULL || vals == NULL || cap < m->cap) {
		free(keys);
		free(vals);
		return -1;
	}
	memset(vals, 0xff, cap * sizeof *vals);
	for (i = 0; i < m->cap; i++)
		if (m->val[i] != U64MAP_NONE)
			insert(keys, vals, cap, m->key[i], m->val[i]);
	free(m->key);
	free(m->val);
	m->key = keys;
	m->val = vals;
	m->cap = cap;
	return 0;
}

static int
grow(struct u64map *m)
{
	return resize(m, m->cap ? 2 * m->cap : 64);
}


int
u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
	if ((m->n + 1) * 4 > m->cap * 3 && grow(m) != 0)
		return -1;
	if (u64map_get(m, key) == U64MAP_NONE)
		m->n++;
	insert(m->key, m->val, m->cap, key, val);
	return 0;
}

int
u64map_reserve(struct u64map *m, size_t n)
{
	size_t cap = 64;

	while ((n + 1) * 4 > cap * 3) {
		if (cap > SIZE_MAX / 4)
			return -1;
		cap *= 2;
	}
	return cap > m->cap ? resize(m, cap) : 0;
}

uint32_t
u64map_intern(struct u64map *m, uint64_t key, uint32_t val)
{
	size_t i;

	if ((m->n + 1) * 4 > m->cap * 3 && grow(m) != 0)
		return U64MAP_NONE;
	for (i = slot_of(key, m->cap); m->val[i] != U64MAP_NONE; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key)
			return m->val[i];
	m->key[i] = key;
	m->val[i] = val;
	m->n++;
	return val;
}

uint64_t
u64map_memhash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (n-- > 0)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

uint64_t
u64map_strhash(const char *s)
{
	return u64map_memhash(s, strlen(s));
}
