/* clones: folding GCC's function clones (foo.isra.0, foo.cold, ...) into the functions they were made from. */
#include "clones.h"

#include <stdlib.h>
#include <string.h>

#include "core.h"

/* The key of a name (its first N bytes) in source file FILE; FILE PF_NONE for any file. */
static uint64_t
name_key(const char *name, size_t n, uint32_t file)
{
	uint64_t h = u64map_memhash(name, n);

	return file == PF_NONE ? h : h ^ (((uint64_t)file + 1) * 0x9e3779b97f4a7c15ULL);
}

/* The keys original_of() will look up, into WANT: how many clones there are, or -1. */
static long
wanted_keys(const struct profile *p, struct u64map *want)
{
	long n = 0;
	uint32_t i;

	for (i = 0; i < p->nsyms; i++) {
		const struct pf_sym *s = &p->sym[i];

		if (s->clone == 0)
			continue;
		n++;
		if (u64map_put(want, name_key(s->name, s->clone, PF_NONE), 0) != 0 ||
		    (s->file != PF_NONE && u64map_put(want, name_key(s->name, s->clone, s->file), 0) != 0))
			return -1;
	}
	return n;
}

/*
 * Functions that are not clones, by name and by name in their file;
 * globals first.  Only under keys in WANT: no other is looked up.
 */
static int
index_originals(const struct profile *p, const struct u64map *want, struct u64map *any,
    struct u64map *infile)
{
	uint32_t i, old;

	for (i = 0; i < p->nsyms; i++) {
		const struct pf_sym *s = &p->sym[i];
		uint64_t k;
		size_t len;

		if (!s->is_func || s->clone != 0 || s->name == NULL)
			continue;
		k = name_key(s->name, len = strlen(s->name), PF_NONE);
		if (u64map_get(want, k) != U64MAP_NONE) {
			if ((old = u64map_intern(any, k, i)) == U64MAP_NONE)
				return -1;
			if (old != i && p->sym[old].is_static && !s->is_static && u64map_put(any, k, i) != 0)
				return -1;
		}
		if (s->file == PF_NONE)
			continue;
		k = name_key(s->name, len, s->file);
		if (u64map_get(want, k) != U64MAP_NONE && u64map_intern(infile, k, i) == U64MAP_NONE)
			return -1;
	}
	return 0;
}

/* The function clone C was made from, or PF_NONE. */
static uint32_t
original_of(const struct profile *p, uint32_t c, const struct u64map *any,
    const struct u64map *infile)
{
	const struct pf_sym *s = &p->sym[c];
	uint32_t o = PF_NONE;

	if (s->file != PF_NONE)
		o = u64map_get(infile, name_key(s->name, s->clone, s->file));
	if (o == PF_NONE)	/* U64MAP_NONE too */
		o = u64map_get(any, name_key(s->name, s->clone, PF_NONE));
	/* The hash is not the name: check it. */
	if (o == PF_NONE || strncmp(p->sym[o].name, s->name, s->clone) != 0 ||
	    p->sym[o].name[s->clone] != '\0')
		return PF_NONE;
	return o;
}

int
clones_fold(struct profile *p)
{
	struct pf_private *pv = p->priv;
	struct u64map any, infile, want;
	uint32_t i, o;
	long nclones;
	int rc;

	u64map_init(&any);
	u64map_init(&infile);
	u64map_init(&want);
	free(pv->clone_link);
	pv->clone_link = NULL;
	nclones = wanted_keys(p, &want);
	rc = nclones >= 0 &&
	    (pv->clone_link = mem_array(p->nsyms + 1, sizeof *pv->clone_link)) != NULL ? 0 : -1;
	if (rc == 0 && nclones > 0)
		rc = index_originals(p, &want, &any, &infile);
	u64map_release(&want);
	for (i = 0; rc == 0 && i < p->nsyms; i++)
		pv->clone_link[i] = PF_NONE;
	for (i = 0; rc == 0 && i < p->nsyms; i++) {
		if (p->sym[i].clone == 0 || (o = original_of(p, i, &any, &infile)) == PF_NONE)
			continue;
		p->sym[i].fold = o;
		pv->clone_link[i] = pv->clone_link[o];
		pv->clone_link[o] = i;
	}
	u64map_release(&any);
	u64map_release(&infile);
	return rc;
}
