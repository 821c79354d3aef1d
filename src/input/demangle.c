/* demangle: symbol names demangled as libbfd's bfd_demangle() does, bounded, into the caller's buffer. */
#include "demangle.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

/* Where the demangler's pieces go (OUT, or nowhere), counted, and where to leave past the bound. */
struct sink {
	struct sbuf *out;
	size_t n;
	jmp_buf too_long;
};

static void
put(const char *s, size_t len, void *opaque)
{
	struct sink *k = opaque;
	char *q;

	if (len == 0)
		return;		/* (the Rust demangler's empty pieces can come as NULL) */
	k->n += len;
	if (k->n > DEMANGLED_MAX)
		longjmp(k->too_long, 1);	/* the callback demanglers allocate nothing: nothing leaks */
	if (k->out != NULL && (q = sbuf_begin(k->out, len)) != NULL) {
		memcpy(q, s, len);
		sbuf_end(k->out, q + len);
	}
}

int
demangle_fits(const char *name)
{
	struct sink k;

	if (strncmp(name, "_Z", 2) != 0)
		return 1;
	k.out = NULL;
	k.n = 0;
	if (setjmp(k.too_long) != 0)
		return 0;
	cplus_demangle_v3_callback(name, DMGL_ANSI | DMGL_PARAMS, put, &k);
	return 1;
}

/*
 * cplus_demangle(NAME, DMGL_ANSI | DMGL_PARAMS) in STYLE (auto, gnu-v3
 * or rust) into K: Rust first (its legacy names are C++ names too), then
 * C++.  A demangler that fails may have written part of its answer.
 */
static int
demangle_core(const char *name, int style, struct sink *k)
{
	int options = DMGL_ANSI | DMGL_PARAMS | style;
	size_t start = k->out->len;

	if (style & (DMGL_RUST | DMGL_AUTO)) {
		if (rust_demangle_callback(name, options, put, k))
			return 1;
		sbuf_cut(k->out, start);
		k->n = 0;
		if (style & DMGL_RUST)
			return 0;
	}
	if (cplus_demangle_v3_callback(name, options, put, k))
		return 1;
	sbuf_cut(k->out, start);
	return 0;
}

/* demangle_core(), stopped past DEMANGLED_MAX bytes (then 0). */
static int
demangle_bounded(const char *name, int style, struct sbuf *out)
{
	struct sink k;

	k.out = out;
	k.n = 0;
	if (setjmp(k.too_long) != 0)
		return 0;
	return demangle_core(name, style, &k);
}

/*
 * bfd_demangle()'s steps: the leading character off, then any dots (and
 * dollars) in front and the version or "@plt" from '@' on kept aside,
 * what is left demangled, and put back between them.  Without a
 * demangling, a name that lost its leading character is answered
 * without it.
 */
int
demangle_into(const char *name, char leading, struct sbuf *out)
{
	int style = (int)current_demangling_style;
	size_t start = out->len, pre_len, i;
	const char *pre, *suf;
	char *core = NULL;
	int skip_lead = leading != '\0' && *name == leading, ok;

	if (current_demangling_style == no_demangling || !(style & (DMGL_AUTO | DMGL_GNU_V3 | DMGL_RUST)))
		return -1;
	pre = name += skip_lead;
	while (*name == '.' || *name == '$')
		name++;
	pre_len = (size_t)(name - pre);
	if ((suf = strchr(name, '@')) != NULL &&
	    (core = strndup(name, (size_t)(suf - name))) == NULL)
		return 0;
	for (i = 0; i < pre_len; i++)
		sbuf_putc(out, pre[i]);
	ok = demangle_bounded(core != NULL ? core : name, style, out);
	free(core);
	if (ok && suf != NULL)
		sbuf_puts(out, suf);
	else if (!ok) {
		sbuf_cut(out, start);
		if (skip_lead)
			sbuf_puts(out, pre);
	}
	return ok || skip_lead;
}

int
demangle_set_style(const char *style)
{
	enum demangling_styles s = cplus_demangle_name_to_style(style);

	if (s == unknown_demangling)
		return -1;
	cplus_demangle_set_style(s);
	return 0;
}
