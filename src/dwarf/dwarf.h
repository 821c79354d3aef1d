/* dwarf: bounded reads of DWARF sections, with attribute values read as libbfd 2.40 reads them. */
#ifndef TGPROF_DWARF_H
#define TGPROF_DWARF_H

#include <stddef.h>
#include <stdint.h>

/* The debugging sections tgprof reads itself. */
enum dwsec_id {
	DWS_INFO, DWS_ABBREV, DWS_LINE, DWS_STR, DWS_LINE_STR, DWS_RANGES, DWS_RNGLISTS,
	DWS_COUNT
};

/* A section's N bytes at P (NULL if absent).  Unlike libbfd, no NUL follows them. */
struct dwsec {
	const unsigned char *p;
	size_t n;
};

struct dwarf {
	struct dwsec sec[DWS_COUNT];
	int big;		/* integers are big-endian */
};

/* Section names, indexed by enum dwsec_id. */
extern const char *const dwarf_section_name[DWS_COUNT];

/*
 * A reader over [P, END).  Any read past END sets BAD and returns 0; the
 * callers treat BAD as "data tgprof does not emulate" and give up.
 */
struct dwrd {
	const unsigned char *p, *end;
	int big;
	int bad;
};

uint64_t dwrd_uint(struct dwrd *r, int n);
uint64_t dwrd_uleb(struct dwrd *r);
int64_t dwrd_sleb(struct dwrd *r);
/* libbfd's read_string(): the string at P, or NULL when it is empty. */
const char *dwrd_str(struct dwrd *r);
/* An initial length field: the length, and *OFFSET_SIZE 4 or 8. */
uint64_t dwrd_length(struct dwrd *r, int *offset_size);

/* How a unit encodes addresses and offsets. */
struct dwfmt {
	int version;
	int addr_size;
	int offset_size;
};

/* What libbfd's is_int_form() and is_str_form() say of a value. */
enum dwval_kind { DWV_OTHER, DWV_INT, DWV_STR };

struct dwval {
	unsigned form;		/* DW_FORM_implicit_const reads as DW_FORM_sdata */
	enum dwval_kind kind;
	uint64_t u;		/* DWV_INT */
	const char *s;		/* DWV_STR; NULL for an empty string, as libbfd */
};

/*
 * Reads one value of FORM (IMPLICIT for DW_FORM_implicit_const).  Returns
 * 0, or -1 for data that runs out, forms libbfd rejects, and forms whose
 * libbfd reading depends on state tgprof does not keep (strx, addrx and
 * the dwz alternate-file forms).
 */
int dwval_read(struct dwrd *r, unsigned form, int64_t implicit, const struct dwfmt *f,
    const struct dwarf *dw, struct dwval *v);

/*
 * Steps over one value of FORM as dwval_read() would read it, with the
 * same checks libbfd complains about (a string offset outside its
 * section), faster: for the many attributes whose values do not matter.
 */
int dwval_skip(struct dwrd *r, unsigned form, const struct dwfmt *f, const struct dwarf *dw);

/* Bytes of a value of FORM when all have the same size (0 for none), else -1. */
int dwform_size(unsigned form, const struct dwfmt *f);

/* The DWARF constants tgprof uses. */
enum {
	DW_TAG_entry_point = 0x03, DW_TAG_member = 0x0d, DW_TAG_compile_unit = 0x11,
	DW_TAG_variable = 0x34,
	DW_TAG_inlined_subroutine = 0x1d, DW_TAG_subprogram = 0x2e,

	DW_AT_name = 0x03, DW_AT_stmt_list = 0x10, DW_AT_low_pc = 0x11,
	DW_AT_high_pc = 0x12, DW_AT_language = 0x13, DW_AT_comp_dir = 0x1b,
	DW_AT_abstract_origin = 0x31, DW_AT_decl_file = 0x3a, DW_AT_specification = 0x47,
	DW_AT_ranges = 0x55, DW_AT_call_file = 0x58,
	DW_AT_linkage_name = 0x6e, DW_AT_MIPS_linkage_name = 0x2007,
	DW_AT_str_offsets_base = 0x72, DW_AT_addr_base = 0x73,

	DW_FORM_addr = 0x01, DW_FORM_block2 = 0x03, DW_FORM_block4 = 0x04,
	DW_FORM_data2 = 0x05, DW_FORM_data4 = 0x06, DW_FORM_data8 = 0x07,
	DW_FORM_string = 0x08, DW_FORM_block = 0x09, DW_FORM_block1 = 0x0a,
	DW_FORM_data1 = 0x0b, DW_FORM_flag = 0x0c, DW_FORM_sdata = 0x0d,
	DW_FORM_strp = 0x0e, DW_FORM_udata = 0x0f, DW_FORM_ref_addr = 0x10,
	DW_FORM_ref1 = 0x11, DW_FORM_ref2 = 0x12, DW_FORM_ref4 = 0x13,
	DW_FORM_ref8 = 0x14, DW_FORM_ref_udata = 0x15, DW_FORM_indirect = 0x16,
	DW_FORM_sec_offset = 0x17, DW_FORM_exprloc = 0x18, DW_FORM_flag_present = 0x19,
	DW_FORM_strx = 0x1a, DW_FORM_addrx = 0x1b, DW_FORM_ref_sup4 = 0x1c,
	DW_FORM_strp_sup = 0x1d, DW_FORM_data16 = 0x1e, DW_FORM_line_strp = 0x1f,
	DW_FORM_ref_sig8 = 0x20, DW_FORM_implicit_const = 0x21, DW_FORM_loclistx = 0x22,
	DW_FORM_rnglistx = 0x23, DW_FORM_ref_sup8 = 0x24, DW_FORM_strx1 = 0x25,
	DW_FORM_strx4 = 0x28, DW_FORM_addrx1 = 0x29, DW_FORM_addrx4 = 0x2c,
	DW_FORM_GNU_addr_index = 0x1f01, DW_FORM_GNU_ref_alt = 0x1f20,
	DW_FORM_GNU_strp_alt = 0x1f21
};

#endif
