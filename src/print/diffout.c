/* diffout: a comparison of two profiles (core/diff.h) as a table, as JSON, and checked against CI's rules. */
#include "diffout.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "input/clonename.h"
#include "util/jsonstr.h"

/* All calls into a side's function, from others and from itself. */
static unsigned long long
calls(const struct pf_diff_side *s)
{
	return (unsigned long long)s->calls + s->self_calls;
}

/* Row R's function named as its side's flat profile names it (the old side's if both have it). */
static const char *
name(struct report *const r[2], const struct pf_diff_row *row, struct sbuf *sb)
{
	int s = row->side[DIFF_OLD].id != PF_NONE ? DIFF_OLD : DIFF_NEW;

	sbuf_reset(sb);
	report_name_only(r[s], sb, row->side[s].id);
	return sb->failed ? row->name : sbuf_str(sb);
}

/*
 * Whether the function a rule names, WANT, is RAW (a raw name) or
 * SHOWN (as the flat profile shows it), or RAW is a GCC clone of WANT
 * (make_orders.constprop.0 for make_orders).
 */
static int
is_named(const char *want, const char *raw, const char *shown)
{
	size_t at = raw != NULL ? clone_suffix(raw) : 0;

	return (shown != NULL && strcmp(want, shown) == 0) || (raw != NULL && strcmp(want, raw) == 0) ||
	    (at > 0 && strlen(want) == at && strncmp(want, raw, at) == 0);
}

int
diffout_check(struct report *const r[2], const struct diffout_opts *o, struct diag *d)
{
	struct sbuf sb;
	uint32_t id;
	int k, found = 0;

	if (!o->fail_calls || o->fail_calls_name == NULL)
		return 0;
	sbuf_init(&sb);
	for (k = 0; k < 2 && !found; k++) {
		const struct profile *p = report_profile(r[k]);

		for (id = 0; id < p->nsyms && !found; id++) {
			sbuf_reset(&sb);
			report_name_only(r[k], &sb, id);
			found = is_named(o->fail_calls_name, p->sym[id].name, sb.failed ? NULL : sbuf_str(&sb));
		}
	}
	sbuf_release(&sb);
	if (!found)
		diag_add(d, DIAG_ERROR, "--fail-if-calls-changed=%s: no function of that name in either profile",
		    o->fail_calls_name);
	return found ? 0 : -1;
}

/* NEW against OLD in percent into BUF: "+12.5%", "new" (from nothing), or "" (nothing either side). */
static const char *
percent(char buf[32], double old, double new)
{
	if (old > 0)
		snprintf(buf, 32, "%+.1f%%", 100 * (new - old) / old);
	else
		snprintf(buf, 32, "%s", new > 0 ? "new" : "");
	return buf;
}

int
diffout_gate(FILE *f, struct report *const r[2], const struct pf_diff *df,
    const struct diffout_opts *o)
{
	struct sbuf sb;
	char pct[32];
	size_t i;
	int broken = 0;

	sbuf_init(&sb);
	if (o->fail_total_slower >= 0 && df->total_gate &&
	    df->total[1] > df->total[0] * (1 + o->fail_total_slower / 100)) {
		fprintf(f, "tgprof: gate: total time %s (%.2f s -> %.2f s), beyond 3 deviations\n",
		    percent(pct, df->total[0], df->total[1]), df->total[0], df->total[1]);
		broken++;
	}
	for (i = 0; i < df->n; i++) {
		const struct pf_diff_row *w = &df->row[i];
		const struct pf_diff_side *a = &w->side[DIFF_OLD], *b = &w->side[DIFF_NEW];
		const char *n = name(r, w, &sb);

		if (o->fail_calls && calls(a) != calls(b) &&
		    (o->fail_calls_name == NULL || is_named(o->fail_calls_name, w->name, n))) {
			fprintf(f, "tgprof: gate: %s: calls %llu -> %llu\n", n, calls(a), calls(b));
			broken++;
		}
		if (o->fail_slower >= 0 && w->self_gate &&
		    b->self > a->self * (1 + o->fail_slower / 100)) {
			fprintf(f, "tgprof: gate: %s: self time %s (%.2f s -> %.2f s), beyond 3 deviations\n", n,
			    percent(pct, a->self, b->self), a->self, b->self);
			broken++;
		}
		if (o->fail_slower >= 0 && w->incl_gate &&
		    b->incl > a->incl * (1 + o->fail_slower / 100)) {
			fprintf(f, "tgprof: gate: %s: inclusive time %s (%.2f s -> %.2f s), beyond 3 deviations\n", n,
			    percent(pct, a->incl, b->incl), a->incl, b->incl);
			broken++;
		}
	}
	sbuf_release(&sb);
	return broken;
}

static void
text_header(FILE *f, const struct pf_diff *df, const struct diffout_opts *o)
{
	char pct[32];

	fprintf(f, "Compared: old %s %s: %.2f s\n", o->image[0], o->gmon[0], df->total[0]);
	fprintf(f, "     and: new %s %s: %.2f s\n", o->image[1], o->gmon[1], df->total[1]);
	fprintf(f, "Total time: %+.2f s (%s), %s", df->total[1] - df->total[0],
	    percent(pct, df->total[0], df->total[1]),
	    df->total_significant ? "significant" : "within sampling error");
	if (df->opts.per_signal[0] > 1.05 || df->opts.per_signal[1] > 1.05)
		fprintf(f, " (samples a signal: %.1f, %.1f)", df->opts.per_signal[0], df->opts.per_signal[1]);
	fputs("\n\n * a change of more than twice its standard deviation, sqrt(n1 + n2) signals:\n"
	    "   not sampling noise (never the profiler's).  Calls (from others and recursive)\n"
	    "   are exact: any change is real.  + only in the new profile, - only in the old.\n\n", f);
}

/* Whether what went to F (standard output) is all written: flushed, no error; 0, or -1 with D. */
static int
written(FILE *f, struct diag *d)
{
	if (fflush(f) != 0 || ferror(f)) {
		diag_add(d, DIAG_ERROR, "standard output: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void
diffout_columns(struct sbuf *sb)
{
	sbuf_puts(sb, "          self seconds                     inclusive seconds               calls\n"
	    "     old      new   change       %      old      new   change         old         new"
	    "  name\n");
}

void
diffout_row(struct sbuf *sb, const struct pf_diff_row *w, const char *name)
{
	const struct pf_diff_side *a = &w->side[DIFF_OLD], *b = &w->side[DIFF_NEW];
	char pct[32];

	sbuf_printf(sb, "%8.2f %8.2f %+8.2f %7s%c %8.2f %8.2f %+8.2f%c %11llu %11llu  %s%s",
	    a->self, b->self, b->self - a->self, percent(pct, a->self, b->self),
	    w->self_significant ? '*' : ' ', a->incl, b->incl, b->incl - a->incl,
	    w->incl_significant ? '*' : ' ', calls(a), calls(b),
	    a->id == PF_NONE ? "+ " : b->id == PF_NONE ? "- " : "", name);
}

int
diffout_text(FILE *f, struct report *const r[2], const struct pf_diff *df,
    const struct diffout_opts *o, struct diag *d)
{
	struct sbuf sb, row;
	size_t i;

	sbuf_init(&sb);
	sbuf_init(&row);
	text_header(f, df, o);
	diffout_columns(&row);
	fputs(sbuf_str(&row), f);
	for (i = 0; i < df->n; i++) {
		sbuf_reset(&row);
		diffout_row(&row, &df->row[i], name(r, &df->row[i], &sb));
		fprintf(f, "%s\n", sbuf_str(&row));
	}
	sbuf_release(&sb);
	sbuf_release(&row);
	return written(f, d);
}

/* One side of the comparison: where it came from and its total. */
static void
json_side(FILE *f, const char *key, const char *image, const char *gmon, double seconds)
{
	fprintf(f, "  \"%s\": {\"executable\": ", key);
	jsonstr_put(f, image);
	fputs(", \"gmon\": ", f);
	jsonstr_put(f, gmon);
	fputs(", \"seconds\": ", f);
	jsonstr_num(f, seconds);
	fputs("},\n", f);
}

/* A function's numbers on one side, or null where it is not. */
static void
json_numbers(FILE *f, const struct pf_diff_side *s)
{
	if (s->id == PF_NONE) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"calls\": %llu, \"self_calls\": %llu, \"self\": ", (unsigned long long)s->calls,
	    (unsigned long long)s->self_calls);
	jsonstr_num(f, s->self);
	fputs(", \"inclusive\": ", f);
	jsonstr_num(f, s->incl);
	fputs("}", f);
}

static void
json_row(FILE *f, struct report *const r[2], const struct pf_diff_row *w, struct sbuf *sb)
{
	const struct pf_diff_side *a = &w->side[DIFF_OLD], *b = &w->side[DIFF_NEW];

	fputs("    {\"name\": ", f);
	jsonstr_put(f, name(r, w, sb));
	fputs(", \"raw_name\": ", f);
	jsonstr_put(f, w->name);
	fputs(", \"file\": ", f);
	jsonstr_put(f, w->file);
	fprintf(f, ", \"only_in\": %s,\n     \"old\": ",
	    a->id == PF_NONE ? "\"new\"" : b->id == PF_NONE ? "\"old\"" : "null");
	json_numbers(f, a);
	fputs(", \"new\": ", f);
	json_numbers(f, b);
	fprintf(f, ",\n     \"change\": {\"calls\": %lld, \"self\": ",
	    (long long)(calls(b) - calls(a)));
	jsonstr_num(f, b->self - a->self);
	fputs(", \"self_percent\": ", f);
	jsonstr_num(f, a->self > 0 ? 100 * (b->self - a->self) / a->self : NAN);
	fputs(", \"inclusive\": ", f);
	jsonstr_num(f, b->incl - a->incl);
	fprintf(f, "}, \"significant\": {\"self\": %s, \"inclusive\": %s}}",
	    w->self_significant ? "true" : "false", w->incl_significant ? "true" : "false");
}

int
diffout_json(FILE *f, struct report *const r[2], const struct pf_diff *df,
    const struct diffout_opts *o, struct diag *d)
{
	struct sbuf sb;
	size_t i;

	sbuf_init(&sb);
	fputs("{\n  \"tgprof_diff\": 1,\n", f);
	json_side(f, "old", o->image[0], o->gmon[0], df->total[0]);
	json_side(f, "new", o->image[1], o->gmon[1], df->total[1]);
	fputs("  \"total\": {\"change\": ", f);
	jsonstr_num(f, df->total[1] - df->total[0]);
	fputs(", \"percent\": ", f);
	jsonstr_num(f, df->total[0] > 0 ? 100 * (df->total[1] - df->total[0]) / df->total[0] : NAN);
	fprintf(f, ", \"significant\": %s},\n  \"sigmas\": %g,\n  \"functions\": [\n",
	    df->total_significant ? "true" : "false", DIFF_SIGMAS);
	for (i = 0; i < df->n; i++) {
		json_row(f, r, &df->row[i], &sb);
		fputs(i + 1 < df->n ? ",\n" : "\n", f);
	}
	fputs("  ]\n}\n", f);
	sbuf_release(&sb);
	return written(f, d);
}
