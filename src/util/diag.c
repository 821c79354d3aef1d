/* diag: the list of warnings and errors the engine returns to its caller. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mem.h"

void
diag_init(struct diag *d)
{
	d->msg = NULL;
	d->n = d->cap = 0;
	d->lost = 0;
}

void
diag_release(struct diag *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->msg[i].text);
	free(d->msg);
	diag_init(d);
}

void
diag_add(struct diag *d, enum diag_level level, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int len;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 8;
		struct diag_msg *m = realloc(d->msg, cap * sizeof *m);

		if (m == NULL) {
			d->lost++;
			return;
		}
		d->msg = m;
		d->cap = cap;
	}
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	text = len < 0 ? NULL : malloc((size_t)len + 1);
	if (text == NULL) {
		d->lost++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(text, (size_t)len + 1, fmt, ap);
	va_end(ap);
	d->msg[d->n].level = level;
	d->msg[d->n].text = text;
	d->n++;
}

int
diag_oom(struct diag *d)
{
	size_t limit = mem_limit_refused();

	if (limit != 0)
		diag_add(d, DIAG_ERROR, "out of memory (more than the %zu MiB it may use)", limit >> 20);
	else
		diag_add(d, DIAG_ERROR, "out of memory");
	return -1;
}

size_t
diag_errors(const struct diag *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->msg[i].level == DIAG_ERROR;
	return n + (d->lost > 0);
}
