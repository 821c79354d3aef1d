/* elfstr: bounded copies of an ELF file's .symtab names and of the symbol fields libbfd hides, and a library's functions. */
#ifndef TGPROF_ELFSTR_H
#define TGPROF_ELFSTR_H

#include <stddef.h>
#include <stdint.h>

/*
 * GNU gprof's filter for static symbol names reads past the end of a name
 * into the next bytes of .strtab (see bin.c).  To reproduce that without
 * reading outside any buffer, tgprof keeps its own copy of .strtab and the
 * st_name offset of every .symtab entry.  Everything is validated against
 * the file size; on any inconsistency the table is simply left empty and
 * names are then filtered without the over-read.
 */
struct elfstr {
	char *strtab;		/* .strtab bytes plus one extra NUL; owned */
	size_t strsz;		/* bytes in .strtab (excluding the extra NUL) */
	uint32_t *st_name;	/* st_name of .symtab entry i; owned */
	size_t nsyms;		/* entries in .symtab, including entry 0 */
};

/* Fills ES from the ELF file at PATH; returns 0, or -1 (ES empty). */
int elfstr_load(struct elfstr *es, const char *path);

void elfstr_release(struct elfstr *es);

/*
 * Offset in es->strtab of the name of .symtab entry I if it equals NAME,
 * else -1 (the caller then treats NAME as a plain string).
 */
long elfstr_offset(const struct elfstr *es, size_t i, const char *name);

/*
 * The st_size, st_info and st_other of every .symtab entry (entry 0
 * included), which libbfd's public interface does not give but its
 * _bfd_elf_find_function() uses.  Read on demand: large programs have
 * many symbols and most runs need none of this.
 */
struct elfstr_extra {
	uint64_t *size;
	unsigned char *info, *other;
	size_t nsyms;
};

/* Fills X from the ELF file at PATH; returns 0, or -1 (X empty). */
int elfstr_extra_load(struct elfstr_extra *x, const char *path);
void elfstr_extra_release(struct elfstr_extra *x);

/* A function of an ELF symbol table: [value, value + size), its name (a copy, owned). */
struct elfstr_fn {
	uint64_t value, size;	/* size 0: unknown */
	unsigned char bind;	/* STB_LOCAL, STB_GLOBAL, STB_WEAK */
	char *name;
};

/*
 * The defined functions (STT_FUNC, STT_GNU_IFUNC) of the ELF file at
 * PATH: of its .symtab, else of its .dynsym (a stripped shared library's
 * exported ones); of aliases, the name perf shows.  *OUT malloc'd,
 * sorted by value; 0, or -1 (none: not
 * ELF, no such table, damaged, out of memory).  Free with
 * elfstr_functions_free().
 */
int elfstr_functions(const char *path, struct elfstr_fn **out, size_t *n);
void elfstr_functions_free(struct elfstr_fn *fn, size_t n);

/*
 * The detached debugging file of the ELF file at PATH, by its GNU build
 * ID, under ROOT (ROOT/.build-id/xx/yyyy.debug, as gdb and perf find
 * it): into BUF (SIZE bytes) and 0 when that is a regular file; -1 when
 * PATH has no build ID or there is no such file.
 */
int elfstr_debug_file(const char *path, const char *root, char *buf, size_t size);

#endif
