/* dwabbrev: .debug_abbrev tables, read as libbfd 2.40 reads them, with plans for skipping values fast. */
#ifndef TGPROF_DWABBREV_H
#define TGPROF_DWABBREV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dwarf.h"
#include "util/u64map.h"

/* How a DIE scan steps over a value it does not look at (see dwabbrev_plan()). */
enum dwskip { DWSKIP_FIXED, DWSKIP_LEB, DWSKIP_STRING, DWSKIP_STRP, DWSKIP_OTHER };

struct dwattr {
	uint32_t name, form;
	int64_t implicit;
	uint8_t want;		/* the reader looks at it (the WANTED callback said so) */
	uint8_t skip;		/* enum dwskip, for the encoding the table was planned for */
	uint8_t size;		/* DWSKIP_FIXED: bytes; DWSKIP_STRP: the offset's */
	uint8_t sec;		/* DWSKIP_STRP: enum dwsec_id */
};

struct dwabbrev_ent {
	uint32_t tag;
	int children;
	uint32_t attr0, nattr;	/* its attributes: attr[attr0 .. attr0+nattr) */
};

/* One abbreviation table (libbfd's read_abbrevs()). */
struct dwabbrev {
	struct dwabbrev_ent *ent;
	size_t nent, entcap;
	uint32_t *bycode;	/* code -> entry index + 1, or 0 */
	uint32_t ncode;
	struct dwattr *attr;
	size_t nattr, attrcap;
	struct dwfmt planned;	/* the encoding the skips are planned for; version 0: none */
};

/* Which attributes of a DIE with tag TAG a reader looks at. */
typedef int (*dwabbrev_wanted)(uint32_t tag, uint32_t name);

/* The tables of a .debug_abbrev section, each read once. */
struct dwabbrevs {
	struct dwabbrev *t;	/* owned */
	size_t n, cap;
	struct u64map byoff;	/* section offset -> index in t */
	dwabbrev_wanted wanted;
};

void dwabbrevs_init(struct dwabbrevs *s, dwabbrev_wanted wanted);
void dwabbrevs_release(struct dwabbrevs *s);

/*
 * The index of the table at offset OFF of DW's .debug_abbrev, read on
 * first use; U64MAP_NONE if it is out of the section, malformed (codes of
 * 65536 and more included), or memory runs out.  Indexes stay valid; the
 * table pointers do not while tables are added.
 */
uint32_t dwabbrevs_get(struct dwabbrevs *s, const struct dwarf *dw, uint64_t off);

/* Plans how to step over each attribute of table T in a unit encoded as F. */
void dwabbrev_plan(struct dwabbrev *t, const struct dwfmt *f);

/* The abbreviation of the DIE at R: *OUT NULL for a null entry; -1 if unknown. */
int dwabbrev_die(const struct dwabbrev *t, struct dwrd *r, const struct dwabbrev_ent **out);

/* dwval_skip() for the common forms, inline: a planned table's value at R. */
static inline int
dwabbrev_skip(struct dwrd *r, const struct dwattr *a, const struct dwfmt *f,
    const struct dwarf *dw)
{
	const unsigned char *p = r->p;
	uint64_t off;

	if (p >= r->end && a->form != DW_FORM_flag_present)
		return -1;	/* libbfd: even a value of no bytes */
	switch (a->skip) {
	case DWSKIP_FIXED:
		if ((size_t)(r->end - p) < a->size)
			return -1;
		r->p = p + a->size;
		return 0;
	case DWSKIP_LEB:
		while (p < r->end && (*p & 0x80))
			p++;
		if (p >= r->end)
			return -1;
		r->p = p + 1;
		return 0;
	case DWSKIP_STRING:
		if ((p = memchr(p, 0, (size_t)(r->end - p))) == NULL)
			return -1;
		r->p = p + 1;
		return 0;
	case DWSKIP_STRP:
		off = dwrd_uint(r, a->size);
		return r->bad || dw->sec[a->sec].p == NULL ||
		    (off != 0 && off >= dw->sec[a->sec].n) ? -1 : 0;
	default:
		return dwval_skip(r, a->form, f, dw);
	}
}

#endif
