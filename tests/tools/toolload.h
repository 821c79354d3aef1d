/* toolload: how the test tools load a profile: one gmon file, options set by the caller, exit 2 on failure. */
#ifndef TGPROF_TOOLLOAD_H
#define TGPROF_TOOLLOAD_H

#include <stdio.h>
#include <stdlib.h>

#include "core/profile.h"

/* Loads PROG and GMON with O (image and gmon filled in here); TOOL names the caller in messages. */
static inline struct profile *
tool_load(const char *tool, const char *prog, const char *gmon, struct pf_opts *o)
{
	static const char *files[1];
	struct profile *p;
	struct diag d;

	files[0] = gmon;
	o->image = prog;
	o->gmon = files;
	o->ngmon = 1;
	diag_init(&d);
	if (profile_load(&p, o, &d) != 0) {
		fprintf(stderr, "%s: %s: %s\n", tool, prog,
		    d.n > 0 ? d.msg[d.n - 1].text : "cannot load");
		exit(2);
	}
	diag_release(&d);
	return p;
}

#endif
