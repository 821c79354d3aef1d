/* save: W, the profile shown (narrowings and all) exported to a file in a format of print/export.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "print/export.h"
#include "util/afile.h"
#include "ui.h"

#define SAVE_DEFAULT "callgrind callgrind.out.tgprof"

/* LINE's format and file ("FORMAT FILE"), the file in *PATH; NULL with a message if there is none. */
static const struct export_format *
parse(struct tui *t, const char *line, const char **path)
{
	char name[32];
	size_t n = strcspn(line, " ");
	const struct export_format *ef;

	*path = line + n + strspn(line + n, " ");
	snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), line);
	if ((ef = export_find(name)) == NULL || **path == '\0') {
		struct sbuf sb;

		sbuf_init(&sb);
		export_names(&sb);
		snprintf(t->message, sizeof t->message, "%s: give a format (%s) and a file",
		    ef == NULL ? "no such format" : "no file", sb.s != NULL ? sb.s : "");
		sbuf_release(&sb);
		return NULL;
	}
	return ef;
}

/*
 * The profile as shown, with its narrowings, to the file LINE names, in
 * its format ("" for SAVE_DEFAULT); names demangled as shown, templates
 * in full.  The stacks go with it only when it is not narrowed (they know
 * nothing of x and f).
 */
void
save_line(struct tui *t, const char *line)
{
	struct export_opts eo = { t->o->image, t->o->gmon, t->o->ngmon,
	    t->owned == NULL ? t->o->measure : NULL, 0, 0.5, 0.1 };
	struct report_opts ro = t->ro;
	const struct export_format *ef;
	const char *path;
	struct report *r;
	struct afile af;
	struct diag d;
	int rc;

	if ((ef = parse(t, line[0] != '\0' ? line : SAVE_DEFAULT, &path)) == NULL)
		return;
	ro.template_dots = NULL;
	if ((r = report_new(t->p, &ro)) == NULL) {
		snprintf(t->message, sizeof t->message, "out of memory");
		return;
	}
	diag_init(&d);
	if ((rc = afile_open(&af, path)) != 0) {
		snprintf(t->message, sizeof t->message, "%.200s: %s", path, strerror(errno));
	} else if ((rc = ef->write(af.f, r, &eo, &d)) != 0) {
		afile_abort(&af);
		snprintf(t->message, sizeof t->message, "%.200s: %s", path,
		    d.n > 0 ? d.msg[d.n - 1].text : "cannot write");
	} else if ((rc = afile_commit(&af)) != 0) {
		snprintf(t->message, sizeof t->message, "%.200s: %s", path, strerror(errno));
	}
	if (rc == 0)
		snprintf(t->message, sizeof t->message, "exported as %s to %.200s%s", ef->name, path,
		    t->owned != NULL ? " (narrowed)" : "");
	diag_release(&d);
	report_free(r);
}
