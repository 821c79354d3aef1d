/* clonename: GCC's clone suffixes in symbol names (foo.isra.0, foo.cold), found and spelled as the demangler does. */
#include "clonename.h"

#include <string.h>

#include "util/mem.h"

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
