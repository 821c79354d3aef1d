/* dwabbrev: .debug_abbrev tables, read as libbfd 2.40 reads them, with plans for skipping values fast. */
#include "dwabbrev.h"

#include <stdlib.h>

#include "util/mem.h"

#define MAX_CODE 65536		/* abbreviation codes indexed directly */

static int
add_entry(struct dwabbrev *t, struct dwrd *r, uint64_t code, dwabbrev_wanted wanted)
{
	struct dwabbrev_ent *e;

	if (code >= MAX_CODE || mem_reserve(&t->ent, &t->entcap, t->nent + 1, sizeof *t->ent))
		return -1;
	e = &t->ent[t->nent];
	e->tag = (uint32_t)dwrd_uleb(r);
	e->children = dwrd_uint(r, 1) != 0;
	e->attr0 = (uint32_t)t->nattr;
	for (;;) {
		uint32_t name = (uint32_t)dwrd_uleb(r), form = (uint32_t)dwrd_uleb(r);
		int64_t implicit = form == DW_FORM_implicit_const ? dwrd_sleb(r) : -1;

		if (r->bad)
			return -1;
		if (name == 0)
			break;
		if (mem_reserve(&t->attr, &t->attrcap, t->nattr + 1, sizeof *t->attr))
			return -1;
		memset(&t->attr[t->nattr], 0, sizeof *t->attr);
		t->attr[t->nattr].name = name;
		t->attr[t->nattr].form = form;
		t->attr[t->nattr].want = (uint8_t)wanted(e->tag, name);
		t->attr[t->nattr++].implicit = implicit;
	}
	e->nattr = (uint32_t)(t->nattr - e->attr0);
	if (code >= t->ncode) {
		uint32_t n = code + 1 > 2u * t->ncode ? (uint32_t)code + 1 : 2u * t->ncode, *b;

		if ((b = realloc(t->bycode, n * sizeof *b)) == NULL)
			return -1;
		memset(b + t->ncode, 0, (n - t->ncode) * sizeof *b);
		t->bycode = b;
		t->ncode = n;
	}
	t->bycode[code] = (uint32_t)++t->nent;
	return 0;
}

/*
 * The table at OFF: entries until a null code, the end of the section or
 * a code already read (libbfd's guard against unterminated tables).
 */
static int
read_table(struct dwabbrev *t, const struct dwarf *dw, uint64_t off, dwabbrev_wanted wanted)
{
	const struct dwsec *s = &dw->sec[DWS_ABBREV];
	struct dwrd r = { s->p + off, s->p + s->n, dw->big, 0 };
	uint64_t code = dwrd_uleb(&r);

	while (code != 0) {
		if (add_entry(t, &r, code, wanted) != 0)
			return -1;
		if ((size_t)(r.p - s->p) >= s->n)
			break;
		code = dwrd_uleb(&r);
		if (code < t->ncode && t->bycode[code] != 0)
			break;
	}
	return r.bad ? -1 : 0;
}

void
dwabbrevs_init(struct dwabbrevs *s, dwabbrev_wanted wanted)
{
	memset(s, 0, sizeof *s);
	u64map_init(&s->byoff);
	s->wanted = wanted;
}

void
dwabbrevs_release(struct dwabbrevs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->t[i].ent);
		free(s->t[i].bycode);
		free(s->t[i].attr);
	}
	free(s->t);
	u64map_release(&s->byoff);
	memset(s, 0, sizeof *s);
}

uint32_t
dwabbrevs_get(struct dwabbrevs *s, const struct dwarf *dw, uint64_t off)
{
	uint32_t id = u64map_get(&s->byoff, off);

	if (id != U64MAP_NONE)
		return id;
	if (dw->sec[DWS_ABBREV].p == NULL || (off != 0 && off >= dw->sec[DWS_ABBREV].n) ||
	    mem_reserve(&s->t, &s->cap, s->n + 1, sizeof *s->t))
		return U64MAP_NONE;
	id = (uint32_t)s->n++;
	memset(&s->t[id], 0, sizeof s->t[id]);
	if (read_table(&s->t[id], dw, off, s->wanted) != 0 || u64map_put(&s->byoff, off, id) != 0)
		return U64MAP_NONE;
	return id;
}

void
dwabbrev_plan(struct dwabbrev *t, const struct dwfmt *f)
{
	size_t i;

	if (t->planned.version == f->version && t->planned.addr_size == f->addr_size &&
	    t->planned.offset_size == f->offset_size)
		return;
	t->planned = *f;
	for (i = 0; i < t->nattr; i++) {
		struct dwattr *a = &t->attr[i];
		int n = dwform_size(a->form, f);

		a->skip = n >= 0 ? DWSKIP_FIXED : DWSKIP_OTHER;
		a->size = n >= 0 ? (uint8_t)n : 0;
		switch (a->form) {
		case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_ref_udata:
			a->skip = DWSKIP_LEB;
			break;
		case DW_FORM_string:
			a->skip = DWSKIP_STRING;
			break;
		case DW_FORM_strp: case DW_FORM_line_strp:
			a->skip = DWSKIP_STRP;
			a->size = (uint8_t)f->offset_size;
			a->sec = a->form == DW_FORM_strp ? DWS_STR : DWS_LINE_STR;
			break;
		default:
			break;
		}
	}
}

int
dwabbrev_die(const struct dwabbrev *t, struct dwrd *r, const struct dwabbrev_ent **out)
{
	uint64_t code = dwrd_uleb(r);

	*out = NULL;
	if (r->bad)
		return -1;
	if (code == 0)
		return 0;
	if (code >= t->ncode || t->bycode[code] == 0)
		return -1;	/* libbfd: "could not find abbrev number" */
	*out = &t->ent[t->bycode[code] - 1];
	return 0;
}
