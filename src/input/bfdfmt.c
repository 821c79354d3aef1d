/* bfdfmt: libbfd's messages formatted as libbfd formats them: its own %pA and %pB, then printf's. */
#include "config.h"
#include "bfdfmt.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <bfd.h>

/* Where the text being made is. */
struct out {
	char *buf;
	size_t size, n;		/* n < size always: room for the NUL */
};

static void
put(struct out *o, const char *s, size_t len)
{
	size_t room = o->size - 1 - o->n;

	if (len > room)
		len = room;
	memcpy(o->buf + o->n, s, len);
	o->n += len;
	o->buf[o->n] = '\0';
}

/* %pA and %pB: the section's or the bfd's name (NULL: "(null)"). */
static void
put_name(struct out *o, char kind, va_list *ap)
{
	const char *s = NULL;

	if (kind == 'A') {
		asection *sec = va_arg(*ap, asection *);

		s = sec != NULL ? bfd_section_name(sec) : NULL;
	} else {
		bfd *abfd = va_arg(*ap, bfd *);

		s = abfd != NULL ? bfd_get_filename(abfd) : NULL;
	}
	put(o, s != NULL ? s : "(null)", strlen(s != NULL ? s : "(null)"));
}

/* One printf conversion SPEC (its length modifier LEN: 'H' hh, 'h', 'l', 'q' ll, 'z', 't', 'j', 'L') of type CONV. */
static void
put_conv(struct out *o, const char *spec, char len, char conv, va_list *ap)
{
	char tmp[512];

	switch (conv) {
	case 'd': case 'i':
		if (len == 'l') snprintf(tmp, sizeof tmp, spec, va_arg(*ap, long));
		else if (len == 'q') snprintf(tmp, sizeof tmp, spec, va_arg(*ap, long long));
		else if (len == 'z' || len == 't') snprintf(tmp, sizeof tmp, spec, va_arg(*ap, ptrdiff_t));
		else if (len == 'j') snprintf(tmp, sizeof tmp, spec, va_arg(*ap, intmax_t));
		else snprintf(tmp, sizeof tmp, spec, va_arg(*ap, int));
		break;
	case 'o': case 'u': case 'x': case 'X':
		if (len == 'l') snprintf(tmp, sizeof tmp, spec, va_arg(*ap, unsigned long));
		else if (len == 'q') snprintf(tmp, sizeof tmp, spec, va_arg(*ap, unsigned long long));
		else if (len == 'z' || len == 't') snprintf(tmp, sizeof tmp, spec, va_arg(*ap, size_t));
		else if (len == 'j') snprintf(tmp, sizeof tmp, spec, va_arg(*ap, uintmax_t));
		else snprintf(tmp, sizeof tmp, spec, va_arg(*ap, unsigned));
		break;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
		if (len == 'L') snprintf(tmp, sizeof tmp, spec, va_arg(*ap, long double));
		else snprintf(tmp, sizeof tmp, spec, va_arg(*ap, double));
		break;
	case 'c': snprintf(tmp, sizeof tmp, spec, va_arg(*ap, int)); break;
	case 's': {
		const char *s = va_arg(*ap, const char *);

		snprintf(tmp, sizeof tmp, spec, s != NULL ? s : "(null)");
		break;
	}
	case 'p': snprintf(tmp, sizeof tmp, spec, va_arg(*ap, void *)); break;
	default: tmp[0] = '\0'; break;
	}
	put(o, tmp, strlen(tmp));
}

/*
 * The conversion at *P (after its '%') into SPEC (SIZE bytes, '*' taken
 * from AP as digits): its length modifier in *LEN, its letter returned
 * (0: not one printf knows, or too long); *P after it.
 */
static char
parse(const char **p, char *spec, size_t size, char *len, va_list *ap)
{
	const char *s = *p;
	size_t n = 0;

	spec[n++] = '%';
	while (*s != '\0' && n + 24 < size) {
		if (*s == '*') {
			n += (size_t)snprintf(spec + n, size - n, "%d", va_arg(*ap, int));
			s++;
		} else if (strchr("-+ #0123456789.", *s) != NULL) {
			spec[n++] = *s++;
		} else {
			break;
		}
	}
	*len = 0;
	if ((s[0] == 'h' && s[1] == 'h') || (s[0] == 'l' && s[1] == 'l'))
		*len = s[0] == 'h' ? 'H' : 'q', spec[n++] = *s++, spec[n++] = *s++;
	else if (*s != '\0' && strchr("hlztjL", *s) != NULL)
		*len = *s, spec[n++] = *s++;
	if (*s == '\0' || strchr("diouxXeEfFgGaAcsp", *s) == NULL || n + 2 >= size)
		return 0;
	spec[n++] = *s;
	spec[n] = '\0';
	*p = s + 1;
	return spec[n - 1];
}

void
bfdfmt(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	const char *p = fmt;
	char spec[64], len, conv;
	va_list args;

	if (size == 0)
		return;
	buf[0] = '\0';
	va_copy(args, ap);
	while (*p != '\0' && o.n + 1 < size) {
		const char *pct = strchr(p, '%');

		if (pct == NULL || pct[1] == '\0') {
			put(&o, p, strlen(p));
			break;
		}
		put(&o, p, (size_t)(pct - p));
		p = pct + 1;
		if (*p == '%') {
			put(&o, "%", 1);
			p++;
		} else if (p[0] == 'p' && (p[1] == 'A' || p[1] == 'B')) {
			put_name(&o, p[1], &args);
			p += 2;
		} else if ((conv = parse(&p, spec, sizeof spec, &len, &args)) != 0) {
			put_conv(&o, spec, len, conv, &args);
		} else {
			put(&o, pct, strlen(pct));	/* not understood: the rest as it is */
			break;
		}
	}
	va_end(args);
}
