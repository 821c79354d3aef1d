/* shown: symbols' names as the reports print them, each made once and shared by the threads printing. */
#include "shown.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "shorten.h"
#include "input/clonename.h"
#include "util/fmt.h"
#include "util/mem.h"
#include "util/path.h"
#include "util/strpool.h"

static char not_mangled[1];	/* cache marker: the name is shown as it is */

/*
 * The shown names are made once per symbol, when first printed, into the
 * pool of the shown names (the thread's) that made them, and published
 * in DEM for its siblings (shown_share()) too: whichever thread comes
 * first demangles a name, the other reads it.
 */
struct shown {
	const struct profile *p;
	struct report_opts o;
	_Atomic(const char *) *dem;	/* per symbol: shown name, &not_mangled, or NULL (not yet made) */
	struct shown *owner;	/* whose DEM this is (shown_share()), or NULL: its own */
	struct strpool pool;	/* the names this one made */
	struct sbuf scratch;	/* where a name is demangled */
	struct sbuf text;	/* where a line's name is made (shown_lines_make()) */
	struct line_name *line;	/* per symbol, between shown_lines_begin() and _end(); or NULL */
};

/*
 * A symbol as a line of the call graph names it (shown_name()'s text),
 * with what the line reads of it besides: one cache line a symbol, so
 * that a line at either end of a call reads its arc and this, instead of
 * the symbol, its demangled name's slot and the name, each all over
 * memory (at a million functions, a third of the call graph's time).
 */
#define LINE_TEXT 48
#define LINE_FAR (UINT8_MAX - 1)	/* the text longer: its shown name where it is, and the suffix */
#define LINE_LONG UINT8_MAX	/* made each time, as without the table (-l's and --inline-file-names' names) */
struct line_name {
	uint64_t head_calls;	/* calls into it, or into its cycle (gprof's "called" total) */
	int cycle;		/* its cycle, 0 if none */
	uint8_t len;		/* of TEXT, or LINE_FAR or LINE_LONG */
	uint8_t print_flag;
	union {
		char text[LINE_TEXT];
		struct {
			const char *shown;	/* made_name()'s */
			int index;
		} far;
	} u;
};
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct line_name) == 64, "struct line_name: one cache line");
#endif

struct shown *
shown_new(const struct profile *p, const struct report_opts *o)
{
	struct shown *sh = mem_calloc(1, sizeof *sh);

	if (sh == NULL)
		return NULL;
	sh->p = p;
	sh->o = *o;
	sh->dem = mem_calloc(p->nsyms + p->ncycles, sizeof *sh->dem);	/* (all bits 0: NULL pointers) */
	if (sh->dem == NULL) {
		free(sh);
		return NULL;
	}
	strpool_init(&sh->pool);
	sbuf_init(&sh->scratch);
	sbuf_init(&sh->text);
	return sh;
}

void
shown_share(struct shown *sh, struct shown *from)
{
	if (sh->owner == NULL)
		free((void *)sh->dem);
	sh->dem = from->dem;
	sh->owner = from;
}

void
shown_free(struct shown *sh)
{
	if (sh == NULL)
		return;
	if (sh->owner != NULL)
		strpool_take(&sh->owner->pool, &sh->pool);	/* (published in the owner's DEM) */
	else
		free((void *)sh->dem);
	strpool_release(&sh->pool);
	sbuf_release(&sh->scratch);
	sbuf_release(&sh->text);
	free(sh->line);
	free(sh);
}

/* Whether names are shown demangled (from the DEM cache). */
static int
demangles(const struct shown *sh)
{
	return !sh->o.bsd && sh->o.demangle;
}

/*
 * S's shown name made in SH's pool: demangled, or a clone (PF_CLONES_SHOW
 * or FOLD) spelled as a C++ clone, with -T's template dots; not_mangled
 * if it is shown as it is, NULL if memory ran out.
 */
static const char *
make_shown(struct shown *sh, const struct pf_sym *s)
{
	char *clone = NULL, *shorter = NULL;
	const char *base, *made;

	sbuf_reset(&sh->scratch);
	if (profile_demangle_into(sh->p, s->name, &sh->scratch) == 1)
		base = sh->scratch.failed ? NULL : sbuf_str(&sh->scratch);
	else if (s->clone != 0)
		base = clone = clone_name(s->name, s->clone);
	else
		return not_mangled;
	if (base != NULL && sh->o.template_dots != NULL &&
	    (shorter = shorten_templates(base, sh->o.template_dots)) != NULL)
		base = shorter;
	made = base != NULL ? strpool_dup(&sh->pool, base) : NULL;
	free(clone);
	free(shorter);
	return made;
}

/* The name as printed; made (and published) when SH and its siblings have not yet. */
static const char *
made_name(struct shown *sh, uint32_t id)
{
	const struct pf_sym *s = &sh->p->sym[id];
	const char *d, *first = NULL;

	if (!demangles(sh))
		return s->name;
	if ((d = atomic_load_explicit(&sh->dem[id], memory_order_acquire)) == NULL) {
		if ((d = make_shown(sh, s)) == NULL)
			return s->name;		/* (out of memory: asked again next time) */
		if (!atomic_compare_exchange_strong_explicit(&sh->dem[id], &first, d,
		    memory_order_acq_rel, memory_order_acquire))
			d = first;	/* a sibling's, made meanwhile (ours stays unused in the pool) */
	}
	return d != not_mangled ? d : s->name;
}

/* Symbol ID's line name, or NULL where there is no table. */
static const struct line_name *
line_of(const struct shown *sh, uint32_t id)
{
	const struct line_name *t = sh->owner != NULL ? sh->owner->line : sh->line;

	return t != NULL ? &t[id] : NULL;
}

void
shown_ask(const struct shown *sh, uint32_t id)
{
	const struct line_name *ln = line_of(sh, id);

	mem_ask(&sh->p->sym[id]);	/* (the first line: all the call graph reads) */
	if (ln != NULL)
		mem_ask(ln);
	else if (demangles(sh))
		mem_ask((const void *)&sh->dem[id]);
}

void
shown_ask_flat(const struct shown *sh, uint32_t id)
{
	shown_ask(sh, id);
	mem_ask(&sh->p->sym[id].time);
}

void
shown_ask_peer(const struct shown *sh, uint32_t id)
{
	const struct line_name *ln = line_of(sh, id);

	if (ln != NULL)
		mem_ask(ln);
	else
		shown_ask(sh, id);
}

/* A shown name asked for: demangled C++ names run to lines more. */
static void
ask_text(const char *name)
{
	mem_ask(name);
	mem_ask(name + 64);
	mem_ask(name + 128);
}

/* The shown name of ID asked for, its symbol and slot in (whatever the line names). */
static void
ask_shown(const struct shown *sh, uint32_t id)
{
	const char *name = sh->p->sym[id].name, *d;

	if (demangles(sh) && (d = atomic_load_explicit(&sh->dem[id], memory_order_relaxed)) != NULL &&
	    d != not_mangled)
		ask_text(d);
	else if (name != NULL)
		mem_ask(name);
}

void
shown_ask_name(const struct shown *sh, uint32_t id)
{
	const struct line_name *ln = line_of(sh, id);

	if (ln == NULL || ln->len == LINE_LONG)
		ask_shown(sh, id);
	else if (ln->len == LINE_FAR)
		ask_text(ln->u.far.shown);
}

size_t
shown_name_only(struct shown *sh, struct sbuf *sb, uint32_t id)
{
	const struct pf_sym *s = &sh->p->sym[id];
	const char *name, *file;
	size_t start = sb->len;

	if (s->name == NULL)
		return 0;
	name = made_name(sh, id);
	sbuf_puts(sb, name);
	if ((sh->o.line || sh->o.inline_files) && s->file != PF_NONE) {
		file = profile_file_name(sh->p, s->file);
		if (!sh->o.full_path)
			file = path_base(file);
		if (sh->o.line)
			sbuf_printf(sb, " (%s:%d @ %lx)", file, s->line, (unsigned long)s->addr);
		else
			sbuf_printf(sb, " (%s:%d)", file, s->line);
	}
	return sb->len - start;
}

/* gprof's print_name()'s " <cycle N>" and " [index]" or " (index)". */
static void
name_suffix(struct sbuf *sb, int cycle, int index, int print_flag)
{
	char *q = sbuf_begin(sb, 64);

	if (q == NULL)
		return;
	if (cycle != 0) {
		q = fmt_str(q, " <cycle ", 8);	/* " <cycle %d>" */
		q = fmt_uint(q, (unsigned long)cycle, 0, 0);
		*q++ = '>';
	}
	if (index != 0) {
		q = fmt_str(q, print_flag ? " [" : " (", 2);	/* " [%d]" or " (%d)" */
		q = fmt_uint(q, (unsigned long)index, 0, 0);
		*q++ = print_flag ? ']' : ')';
	}
	sbuf_end(sb, q);
}

/* The length of name_suffix()'s text. */
static size_t
suffix_len(int cycle, int index)
{
	char buf[16];

	return (cycle != 0 ? 9 + (size_t)(fmt_uint(buf, (unsigned long)cycle, 0, 0) - buf) : 0) +
	    (index != 0 ? 3 + (size_t)(fmt_uint(buf, (unsigned long)index, 0, 0) - buf) : 0);
}

/* gprof's print_name() made afresh. */
static void
name_text(struct shown *sh, struct sbuf *sb, uint32_t id)
{
	const struct pf_sym *s = &sh->p->sym[id];

	shown_name_only(sh, sb, id);
	name_suffix(sb, s->cycle, s->index, s->print_flag);
}

void
shown_name(struct shown *sh, struct sbuf *sb, uint32_t id)
{
	const struct line_name *ln = line_of(sh, id);
	char *q;

	if (ln == NULL || ln->len == LINE_LONG) {
		name_text(sh, sb, id);
	} else if (ln->len == LINE_FAR) {
		sbuf_puts(sb, ln->u.far.shown);
		name_suffix(sb, ln->cycle, ln->u.far.index, ln->print_flag);
	} else if ((q = sbuf_begin(sb, LINE_TEXT)) != NULL) {
		sbuf_end(sb, fmt_str(q, ln->u.text, ln->len));
	}
}

int
shown_lines_begin(struct shown *sh)
{
	sh->line = mem_lines((size_t)sh->p->nsyms + sh->p->ncycles + 1, sizeof *sh->line);
	return sh->line != NULL ? 0 : -1;
}

/* How many symbols ahead shown_lines_make() asks for a name (its symbol is read in order). */
#define LINE_AHEAD 8

/*
 * LN made for symbol ID: its text where it fits, else (its name shown as
 * it is, with no file) where its shown name is.
 */
static void
make_line(struct shown *sh, uint32_t id, struct line_name *ln)
{
	const struct pf_sym *s = &sh->p->sym[id];
	const char *shown = s->name != NULL ? made_name(sh, id) : NULL;

	ln->head_calls = sh->p->sym[s->cyc_head].ncalls;
	ln->cycle = s->cycle;
	ln->print_flag = s->print_flag;
	ln->len = LINE_LONG;
	if (shown != NULL && !sh->o.line && !sh->o.inline_files &&
	    strlen(shown) + suffix_len(s->cycle, s->index) > LINE_TEXT) {
		ln->len = LINE_FAR;
		ln->u.far.shown = shown;
		ln->u.far.index = s->index;
		return;
	}
	sbuf_reset(&sh->text);
	name_text(sh, &sh->text, id);
	if (!sh->text.failed && sh->text.len <= LINE_TEXT) {
		memcpy(ln->u.text, sh->text.s, sh->text.len);
		ln->len = (uint8_t)sh->text.len;
	}
}

void
shown_lines_make(struct shown *sh, uint32_t from, uint32_t to)
{
	struct line_name *t = sh->owner != NULL ? sh->owner->line : sh->line;
	uint32_t id;

	for (id = from; id < to; id++) {
		if (id + LINE_AHEAD < to)
			ask_shown(sh, id + LINE_AHEAD);
		make_line(sh, id, &t[id]);
	}
}

void
shown_lines_end(struct shown *sh)
{
	free(sh->line);
	sh->line = NULL;
}

void
shown_peer(const struct shown *sh, uint32_t id, int *cycle, uint64_t *calls)
{
	const struct line_name *ln = line_of(sh, id);
	const struct pf_sym *s;

	if (ln != NULL) {
		*cycle = ln->cycle;
		*calls = ln->head_calls;
		return;
	}
	s = &sh->p->sym[id];
	*cycle = s->cycle;
	*calls = sh->p->sym[s->cyc_head].ncalls;
}
