/* bin: the profiled executable, read through libbfd (the only module that sees bfd.h). */
#ifndef TGPROF_BIN_H
#define TGPROF_BIN_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/sbuf.h"

struct bin;

/* Architectures for which -c can find calls in machine code. */
enum bin_arch {
	BIN_ARCH_OTHER,
	BIN_ARCH_I386,		/* i386 and x86-64: gprof uses one scanner */
	BIN_ARCH_AARCH64
};

/* How GNU gprof classifies a symbol: 0 (ignored), 'T' (global), 't' (static). */
struct bin_sym {
	const char *name;	/* owned by the bin; valid until bin_close() */
	uint64_t addr;		/* value plus section address */
	int cls;		/* 0, 'T' or 't' */
	int is_func;		/* STT_FUNC (or no function flags in this format) */
};

/* Options that change which symbols gprof accepts. */
struct bin_symopts {
	int no_static;		/* -a: drop local symbols */
	int functions_only;	/* -D: drop static symbols that are not functions */
	int clones;		/* keep the clones (clonename.h) gprof's name filter drops */
};

/*
 * Opens PATH and reads its symbol table.  On failure returns -1 with a
 * message in D ("PATH: not in executable format", ...).
 */
int bin_open(struct bin **out, const char *path, struct diag *d);
void bin_close(struct bin *b);

const char *bin_path(const struct bin *b);
uint64_t bin_text_vma(const struct bin *b);
uint64_t bin_text_size(const struct bin *b);
enum bin_arch bin_arch(const struct bin *b);
const char *bin_arch_name(const struct bin *b);

/* Address size in bytes (4 or 8); 0 with a message in D if unknown. */
int bin_addr_bytes(const struct bin *b, struct diag *d);
int bin_big_endian(const struct bin *b);
int bin_sign_extend(const struct bin *b);	/* 32-bit addresses are signed (MIPS) */
char bin_leading_char(const struct bin *b);

/* Symbols, in libbfd's canonical order followed by synthetic ones. */
size_t bin_nsyms(const struct bin *b);
void bin_sym(const struct bin *b, size_t i, const struct bin_symopts *o, struct bin_sym *out);

/* Whether the file has sections libbfd may take line numbers from. */
int bin_has_lines(const struct bin *b);

/*
 * Source position of ADDR as gprof's get_src_info(): 1 when libbfd gives a
 * file, a function name and a non-zero line.  The strings belong to libbfd
 * and stay valid until bin_close().
 */
int bin_src_info(struct bin *b, uint64_t addr, const char **file,
    const char **func, int *line);

/*
 * The *LEN bytes of section NAME (also found as .zdebug_*) at *VIEW: a
 * view of the file, valid until bin_close(), or for compressed sections a
 * decompressed copy, then also in *OWNED for the caller to free.  0 with
 * *VIEW NULL when there is no such section; -1 when it cannot be read.
 */
int bin_section(struct bin *b, const char *name, const unsigned char **view, size_t *len,
    unsigned char **owned);

/*
 * Whether libbfd would take line numbers from this file's own .debug_info
 * alone, in the way srcmap emulates: an ELF executable or shared object,
 * with a symbol table, no DWARF elsewhere (dwz, linkonce) and no
 * sign-extended addresses.
 */
int bin_dwarf_readable(const struct bin *b);

/* A symbol libbfd's _bfd_elf_find_function() may answer with. */
struct bin_fsym {
	uint64_t off;		/* value, relative to the text section */
	uint64_t size;		/* st_size, or 1 when that is 0 */
	const char *name;	/* owned by the bin */
};

/*
 * The text symbols _bfd_elf_find_function() weighs, in symbol-table order
 * (malloc'd).  -1 when they cannot be known for sure.
 */
int bin_function_syms(struct bin *b, struct bin_fsym **out, size_t *n);

/* The bytes of the text section (for -c), loaded on first use; NULL on failure. */
const unsigned char *bin_text(struct bin *b, struct diag *d);
/* Frees the bytes bin_text() read; a later bin_text() reads them again. */
void bin_text_release(struct bin *b);

/*
 * bfd_demangle(NAME) with gprof's flags (demangle.h: bounded, and in the
 * usual styles without allocating), appended to OUT: 1, or 0 if NAME
 * stays as it is.
 */
int bin_demangle_into(const struct bin *b, const char *name, struct sbuf *out);
/* The same as a malloc'd string, or NULL. */
char *bin_demangle(const struct bin *b, const char *name);

#endif
