/* shorten: C++ names with their template arguments left out ("std::map<…>::find"), as hotspot's "Shorten Templates". */
#include "shorten.h"

#include <stdlib.h>
#include <string.h>

/*
 * At S[I], a '<' or '>' that belongs to an operator's name ("operator<<=",
 * "operator->"): the length of the rest of the operator's symbol from I,
 * else 0.
 */
static size_t
operator_at(const char *s, size_t i)
{
	size_t n = 0;

	if (s[i] == '>' && i >= 9 && s[i - 1] == '-' && strncmp(s + i - 9, "operator", 8) == 0)
		return 1;	/* operator-> */
	if (i < 8 || strncmp(s + i - 8, "operator", 8) != 0)
		return 0;
	while (n < 3 && (s[i + n] == '<' || s[i + n] == '>' || s[i + n] == '='))
		n++;
	return n;
}

/* The index of the '>' that closes the '<' at S[I], or 0 if none does. */
static size_t
closing(const char *s, size_t i)
{
	size_t depth = 0, k;

	for (k = i; s[k] != '\0'; k++) {
		size_t op = operator_at(s, k);

		if (op > 0) {
			k += op - 1;
			continue;
		}
		if (s[k] == '<')
			depth++;
		else if (s[k] == '>' && --depth == 0)
			return k;
	}
	return 0;
}

char *
shorten_templates(const char *name, const char *dots)
{
	size_t len = strlen(name), i, n = 0, op, end;
	char *out;

	if (strchr(name, '<') == NULL || (out = malloc(len + 1)) == NULL)
		return NULL;
	for (i = 0; i < len; i++) {
		if ((op = operator_at(name, i)) > 0) {
			memcpy(out + n, name + i, op);
			n += op;
			i += op - 1;
		} else if (name[i] == '<' && (end = closing(name, i)) > 0 &&
		    end - i - 1 > strlen(dots)) {
			out[n++] = '<';
			memcpy(out + n, dots, strlen(dots));	/* shorter than what it stands for */
			n += strlen(dots);
			out[n++] = '>';
			i = end;
		} else {
			out[n++] = name[i];
		}
	}
	out[n] = '\0';
	return out;
}
