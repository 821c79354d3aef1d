/* clones: GCC's function clones (foo.isra.0, foo.cold, ...): their names, and folding them into their parents. */
#include "clones.h"

#include <stdlib.h>
#include <string.h>

#include "pfpriv.h"

static const char *const clone_words[] = {
	"isra", "part", "cold", "constprop", "lto_priv", "clone", "localalias", "specialized",
	"llvm",
};

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The length of the suffix component (".word" then any ".N") at S, or 0. */
static size_t
component(const char *s)
{
	size_t k, n = 0;

	if (s[0] != '.')
		return 0;
	for (k = 0; k < sizeof clone_words / sizeof *clone_words; k++) {
		n = strlen(clone_words[k]);
		if (strncmp(s + 1, clone_words[k], n) == 0 && (s[1 + n] == '.' || s[1 + n] == '\0'))
			break;
	}
	if (k == sizeof clone_words / sizeof *clone_words)
		return 0;
	for (n++; s[n] == '.' && is_digit(s[n + 1]); )
		for (n++; is_digit(s[n]); n++)
			;
	return n;
}

/*
 * Components are tried from the first dot after the first character; where
 * a run of them stops short of the end, no start inside the run can do
 * better, so the search goes on after it: linear in the name's length.
 */
size_t
clone_suffix(const char *name)
{
	const char *dot = name[0] != '\0' ? strchr(name + 1, '.') : NULL;

	while (dot != NULL) {
		const char *s = dot;
		size_t n;

		while ((n = component(s)) > 0)
			s += n;
		if (*s == '\0' && s != dot)
			return (size_t)(dot - name);
		dot = strchr(s + 1, '.');
	}
	return 0;
}

char *
clone_name(const char *name, size_t at)
{
	size_t len = strlen(name), n = 0, k;
	char *out;

	/* Each component gains " [clone " and "]": at most len / 2 of them. */
	if ((out = mem_array(len + (len / 2 + 1) * 9 + 1, 1)) == NULL)
		return NULL;
	memcpy(out, name, at);
	n = at;
	while ((k = component(name + at)) > 0) {
		memcpy(out + n, " [clone ", 8);
		memcpy(out + n + 8, name + at, k);
		out[n + 8 + k] = ']';
		n += k + 9;
		at += k;
	}
	out[n] = '\0';
	return out;
}

/* The key of a name (its first N bytes) in source file FILE; FILE PF_NONE for any file. */
static uint64_t
name_key(const char *name, size_t n, uint32_t file)
{
	uint64_t h = u64map_memhash(name, n);

	return file == PF_NONE ? h : h ^ (((uint64_t)file + 1) * 0x9e3779b97f4a7c15ULL);
}

/* Functions that are not clones, by name and by name in their file; globals first. */
static int
index_originals(const struct profile *p, struct u64map *any, struct u64map *infile)
{
	uint32_t i, old;

	if (u64map_reserve(any, p->nsyms) != 0 || u64map_reserve(infile, p->nsyms) != 0)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		const struct pf_sym *s = &p->sym[i];
		uint64_t k;

		if (!s->is_func || s->clone != 0 || s->name == NULL)
			continue;
		k = name_key(s->name, strlen(s->name), PF_NONE);
		if ((old = u64map_intern(any, k, i)) == U64MAP_NONE)
			return -1;
		if (old != i && p->sym[old].is_static && !s->is_static && u64map_put(any, k, i) != 0)
			return -1;
		if (s->file != PF_NONE &&
		    u64map_intern(infile, name_key(s->name, strlen(s->name), s->file), i) == U64MAP_NONE)
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
	struct u64map any, infile;
	uint32_t i, o;
	int rc;

	u64map_init(&any);
	u64map_init(&infile);
	free(pv->clone_link);
	rc = (pv->clone_link = mem_array(p->nsyms + 1, sizeof *pv->clone_link)) != NULL ?
	    index_originals(p, &any, &infile) : -1;
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
