/* export: the analysed profile in the formats other tools read (tgprof --export=FORMAT). */
#include "export.h"

#include <string.h>

#include "callgrind.h"
#include "dot.h"
#include "estfold.h"
#include "jsonexp.h"
#include "pprof.h"

/* The formats, in the order the help lists them. */
static const struct export_format formats[] = {
	{ "callgrind", 0, 1, callgrind_write },
	{ "dot", 0, 0, dot_write },
	{ "json", 0, 1, jsonexp_write },
	{ "folded", 0, 0, estfold_write },
	{ "pprof", 1, 0, pprof_write },
};

int
export_shown(struct report *r, uint32_t id)
{
	const struct profile *p = report_profile(r);

	return report_flat_listed(r, id) || (p->caller_start != NULL &&
	    (p->callee_start[id + 1] > p->callee_start[id] || p->caller_start[id + 1] > p->caller_start[id]));
}

const struct export_format *
export_find(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof formats / sizeof *formats; k++)
		if (strcmp(formats[k].name, name) == 0)
			return &formats[k];
	return NULL;
}

void
export_names(struct sbuf *sb)
{
	size_t k;

	for (k = 0; k < sizeof formats / sizeof *formats; k++)
		sbuf_printf(sb, "%s%s", k > 0 ? ", " : "", formats[k].name);
}
