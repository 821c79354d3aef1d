/* dwarf: bounded reads of DWARF sections, with attribute values read as libbfd 2.40 reads them. */
#include "dwarf.h"

#include <string.h>

/* Little-endian integers as the host holds them. */
static uint32_t
le32(uint32_t w)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap32(w);
#else
	return w;
#endif
}

static uint64_t
le64(uint64_t w)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap64(w);
#else
	return w;
#endif
}

const char *const dwarf_section_name[DWS_COUNT] = {
	".debug_info", ".debug_abbrev", ".debug_line", ".debug_str", ".debug_line_str",
	".debug_ranges", ".debug_rnglists"
};

uint64_t
dwrd_uint(struct dwrd *r, int n)
{
	uint64_t v = 0;
	uint32_t w;
	int i;

	if (r->bad || r->end - r->p < n) {
		r->bad = 1;
		return 0;
	}
	if (!r->big && (n == 4 || n == 8)) {	/* the common case, without a loop */
		if (n == 4) {
			memcpy(&w, r->p, 4);
			v = le32(w);
		} else {
			memcpy(&v, r->p, 8);
			v = le64(v);
		}
		r->p += n;
		return v;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)r->p[r->big ? n - 1 - i : i] << (8 * i);
	r->p += n;
	return v;
}

/* LEB128 as libbfd's _bfd_safe_read_leb128(): bits past 64 are dropped. */
static uint64_t
leb(struct dwrd *r, int sign)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char b = 0;

	do {
		if (r->bad || r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return v;
}

uint64_t dwrd_uleb(struct dwrd *r) { return leb(r, 0); }
int64_t dwrd_sleb(struct dwrd *r) { return (int64_t)leb(r, 1); }

const char *
dwrd_str(struct dwrd *r)
{
	const unsigned char *s = r->p, *nul;

	if (r->bad || (nul = memchr(s, 0, (size_t)(r->end - s))) == NULL) {
		r->bad = 1;
		return NULL;
	}
	r->p = nul + 1;
	return nul == s ? NULL : (const char *)s;
}

uint64_t
dwrd_length(struct dwrd *r, int *offset_size)
{
	uint64_t len = dwrd_uint(r, 4);

	*offset_size = 4;
	if (len == 0xffffffff) {
		*offset_size = 8;
		len = dwrd_uint(r, 8);
	}
	return len;
}

/*
 * A string at OFF in section S, as libbfd's read_indirect_string().  A
 * string running into the end of the section ends at the NUL libbfd adds
 * there: not emulated.
 */
static int
indirect_str(const struct dwsec *s, uint64_t off, struct dwval *v)
{
	if (s->p == NULL || (off != 0 && off >= s->n))
		return -1;	/* libbfd reports an error and loses the unit */
	v->kind = DWV_STR;
	v->s = NULL;
	if (off >= s->n)
		return 0;	/* offset 0 of an empty section: libbfd's NUL */
	if (memchr(s->p + off, 0, s->n - (size_t)off) == NULL)
		return -1;
	if (s->p[off] != 0)
		v->s = (const char *)s->p + off;
	return 0;
}

/* Skips a block of LEN bytes; libbfd tolerates a short one but the DIE is then lost. */
static int
block(struct dwrd *r, uint64_t len, struct dwval *v)
{
	if (r->bad || len > (uint64_t)(r->end - r->p))
		return -1;
	r->p += len;
	v->kind = DWV_OTHER;
	return 0;
}

static int
fixed(struct dwrd *r, int n, struct dwval *v)
{
	v->kind = DWV_INT;
	v->u = dwrd_uint(r, n);
	return r->bad ? -1 : 0;
}

static int
string_form(struct dwrd *r, unsigned form, const struct dwfmt *f, const struct dwarf *dw,
    struct dwval *v)
{
	uint64_t off;

	if (form == DW_FORM_string) {
		v->kind = DWV_STR;
		v->s = dwrd_str(r);
		return r->bad ? -1 : 0;
	}
	off = dwrd_uint(r, f->offset_size);
	if (r->bad)
		return -1;
	return indirect_str(&dw->sec[form == DW_FORM_strp ? DWS_STR : DWS_LINE_STR], off, v);
}

int
dwval_read(struct dwrd *r, unsigned form, int64_t implicit, const struct dwfmt *f,
    const struct dwarf *dw, struct dwval *v)
{
	memset(v, 0, sizeof *v);
	v->form = form;
	if (r->bad || (r->p >= r->end && form != DW_FORM_flag_present))
		return -1;
	switch (form) {
	case DW_FORM_flag_present: v->kind = DWV_INT; v->u = 1; return 0;
	case DW_FORM_addr: return fixed(r, f->addr_size, v);
	case DW_FORM_ref_addr: return fixed(r, f->version >= 3 ? f->offset_size : f->addr_size, v);
	case DW_FORM_sec_offset: return fixed(r, f->offset_size, v);
	case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_data1: return fixed(r, 1, v);
	case DW_FORM_ref2: case DW_FORM_data2: return fixed(r, 2, v);
	case DW_FORM_ref4: case DW_FORM_data4: return fixed(r, 4, v);
	case DW_FORM_ref8: case DW_FORM_data8: case DW_FORM_ref_sig8: return fixed(r, 8, v);
	case DW_FORM_string: case DW_FORM_strp: case DW_FORM_line_strp:
		return string_form(r, form, f, dw, v);
	case DW_FORM_block1: return block(r, dwrd_uint(r, 1), v);
	case DW_FORM_block2: return block(r, dwrd_uint(r, 2), v);
	case DW_FORM_block4: return block(r, dwrd_uint(r, 4), v);
	case DW_FORM_block: case DW_FORM_exprloc: return block(r, dwrd_uleb(r), v);
	case DW_FORM_data16: return block(r, 16, v);
	case DW_FORM_sdata: v->kind = DWV_INT; v->u = (uint64_t)dwrd_sleb(r); break;
	case DW_FORM_udata: case DW_FORM_ref_udata: v->kind = DWV_INT; v->u = dwrd_uleb(r); break;
	case DW_FORM_rnglistx: case DW_FORM_loclistx: v->kind = DWV_OTHER; dwrd_uleb(r); break;
	case DW_FORM_implicit_const:
		v->form = DW_FORM_sdata;
		v->kind = DWV_INT;
		v->u = (uint64_t)implicit;
		return 0;
	case DW_FORM_indirect:
		form = (unsigned)dwrd_uleb(r);
		if (form == DW_FORM_implicit_const)
			implicit = dwrd_sleb(r);
		if (r->bad || form == DW_FORM_indirect)
			return -1;
		return dwval_read(r, form, implicit, f, dw, v);
	default:
		return -1;	/* strx, addrx, alternate-file and unknown forms */
	}
	return r->bad ? -1 : 0;
}

int
dwform_size(unsigned form, const struct dwfmt *f)
{
	switch (form) {
	case DW_FORM_flag_present: case DW_FORM_implicit_const: return 0;
	case DW_FORM_addr: return f->addr_size;
	case DW_FORM_ref_addr: return f->version >= 3 ? f->offset_size : f->addr_size;
	case DW_FORM_sec_offset: return f->offset_size;
	case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_data1: return 1;
	case DW_FORM_ref2: case DW_FORM_data2: return 2;
	case DW_FORM_ref4: case DW_FORM_data4: return 4;
	case DW_FORM_ref8: case DW_FORM_data8: case DW_FORM_ref_sig8: return 8;
	case DW_FORM_data16: return 16;
	default: return -1;
	}
}

int
dwval_skip(struct dwrd *r, unsigned form, const struct dwfmt *f, const struct dwarf *dw)
{
	int n = dwform_size(form, f);
	const struct dwsec *s;
	uint64_t off;

	if (r->bad || (r->p >= r->end && form != DW_FORM_flag_present))
		return -1;
	if (n >= 0) {
		if (r->end - r->p < n)
			return -1;
		r->p += n;
		return 0;
	}
	switch (form) {
	case DW_FORM_strp: case DW_FORM_line_strp:
		s = &dw->sec[form == DW_FORM_strp ? DWS_STR : DWS_LINE_STR];
		off = dwrd_uint(r, f->offset_size);
		return r->bad || s->p == NULL || (off != 0 && off >= s->n) ? -1 : 0;
	case DW_FORM_string:
		dwrd_str(r);
		break;
	case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_ref_udata:
	case DW_FORM_rnglistx: case DW_FORM_loclistx:
		dwrd_uleb(r);	/* the same bytes either way */
		break;
	default: {
		struct dwval v;

		return dwval_read(r, form, 0, f, dw, &v);	/* blocks, indirect, rejects */
	}
	}
	return r->bad ? -1 : 0;
}
