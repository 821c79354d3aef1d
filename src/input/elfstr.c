/* elfstr: bounded copies of an ELF file's .symtab names and of the symbol fields libbfd hides. */
#include "elfstr.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/mem.h"

#define SHT_SYMTAB_ 2

struct elf_file {
	int fd;
	uint64_t size;		/* file size */
	int is64, big;		/* ELF class and byte order */
};

static uint64_t
get_uint(const struct elf_file *f, const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[f->big ? n - 1 - i : i] << (8 * i);
	return v;
}

/* Reads N bytes at OFF, refusing anything beyond the end of the file. */
static int
read_at(const struct elf_file *f, uint64_t off, void *buf, uint64_t n)
{
	if (off > f->size || n > f->size - off)
		return -1;
	return pread(f->fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

struct shdr {
	uint32_t type, link;
	uint64_t offset, size, entsize;
};

static int
read_shdr(const struct elf_file *f, uint64_t shoff, uint32_t shentsize,
    uint32_t idx, struct shdr *sh)
{
	unsigned char b[64];

	if (shentsize < (f->is64 ? 64u : 40u) || shentsize > sizeof b)
		return -1;
	if (read_at(f, shoff + (uint64_t)idx * shentsize, b, shentsize) != 0)
		return -1;
	sh->type = (uint32_t)get_uint(f, b + 4, 4);
	if (f->is64) {
		sh->offset = get_uint(f, b + 24, 8);
		sh->size = get_uint(f, b + 32, 8);
		sh->link = (uint32_t)get_uint(f, b + 40, 4);
		sh->entsize = get_uint(f, b + 56, 8);
	} else {
		sh->offset = get_uint(f, b + 16, 4);
		sh->size = get_uint(f, b + 20, 4);
		sh->link = (uint32_t)get_uint(f, b + 24, 4);
		sh->entsize = get_uint(f, b + 36, 4);
	}
	return 0;
}

/* Finds .symtab and its string table; returns 0 with both headers filled. */
static int
find_symtab(const struct elf_file *f, struct shdr *sym, struct shdr *str)
{
	unsigned char h[64];
	uint64_t shoff;
	uint32_t shentsize, shnum, i;

	if (read_at(f, 0, h, f->is64 ? 64 : 52) != 0)
		return -1;
	shoff = get_uint(f, h + (f->is64 ? 40 : 32), f->is64 ? 8 : 4);
	shentsize = (uint32_t)get_uint(f, h + (f->is64 ? 58 : 46), 2);
	shnum = (uint32_t)get_uint(f, h + (f->is64 ? 60 : 48), 2);
	if (shoff == 0)
		return -1;
	if (shnum == 0) {	/* extended numbering: count in section 0 */
		struct shdr s0;
		if (read_shdr(f, shoff, shentsize, 0, &s0) != 0 || s0.size > 1u << 24)
			return -1;
		shnum = (uint32_t)s0.size;
	}
	for (i = 0; i < shnum; i++) {
		if (read_shdr(f, shoff, shentsize, i, sym) != 0)
			return -1;
		if (sym->type == SHT_SYMTAB_)
			return sym->link < shnum ?
			    read_shdr(f, shoff, shentsize, sym->link, str) : -1;
	}
	return -1;
}

static int
load_names(struct elfstr *es, const struct elf_file *f,
    const struct shdr *sym, const struct shdr *str)
{
	uint64_t ent = f->is64 ? 24 : 16, i;
	unsigned char *raw;

	if (sym->entsize != ent || sym->size % ent != 0 || str->size > f->size)
		return -1;
	es->nsyms = sym->size / ent;
	es->strsz = str->size;
	es->strtab = mem_array(str->size + 1, 1);
	es->st_name = mem_array(es->nsyms, sizeof *es->st_name);
	raw = mem_array(sym->size, 1);
	if (es->strtab == NULL || es->st_name == NULL || raw == NULL ||
	    read_at(f, str->offset, es->strtab, str->size) != 0 ||
	    read_at(f, sym->offset, raw, sym->size) != 0) {
		free(raw);
		return -1;
	}
	es->strtab[str->size] = '\0';
	for (i = 0; i < es->nsyms; i++)
		es->st_name[i] = (uint32_t)get_uint(f, raw + i * ent, 4);
	free(raw);
	return 0;
}

/* Opens PATH and finds its .symtab; F->fd is open (or -1) on return. */
static int
open_symtab(struct elf_file *f, const char *path, struct shdr *sym, struct shdr *str)
{
	unsigned char id[16];
	struct stat st;

	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 || fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	f->size = (uint64_t)st.st_size;
	if (read_at(f, 0, id, sizeof id) != 0 || memcmp(id, "\177ELF", 4) != 0 ||
	    (id[4] != 1 && id[4] != 2) || (id[5] != 1 && id[5] != 2))
		return -1;
	f->is64 = id[4] == 2;
	f->big = id[5] == 2;
	return find_symtab(f, sym, str);
}

int
elfstr_load(struct elfstr *es, const char *path)
{
	struct elf_file f;
	struct shdr sym, str;
	int rc;

	memset(es, 0, sizeof *es);
	rc = open_symtab(&f, path, &sym, &str);
	if (rc == 0)
		rc = load_names(es, &f, &sym, &str);
	if (f.fd >= 0)
		close(f.fd);
	if (rc != 0)
		elfstr_release(es);
	return rc;
}

static int
load_extra(struct elfstr_extra *x, const struct elf_file *f, const struct shdr *sym)
{
	uint64_t ent = f->is64 ? 24 : 16, i;
	unsigned char *raw, *e;

	if (sym->entsize != ent || sym->size % ent != 0)
		return -1;
	x->nsyms = sym->size / ent;
	x->size = mem_array(x->nsyms, sizeof *x->size);
	x->info = mem_array(x->nsyms, 1);
	x->other = mem_array(x->nsyms, 1);
	raw = mem_array(sym->size, 1);
	if (x->size == NULL || x->info == NULL || x->other == NULL || raw == NULL ||
	    read_at(f, sym->offset, raw, sym->size) != 0) {
		free(raw);
		return -1;
	}
	for (i = 0, e = raw; i < x->nsyms; i++, e += ent) {
		x->size[i] = f->is64 ? get_uint(f, e + 16, 8) : get_uint(f, e + 8, 4);
		x->info[i] = e[f->is64 ? 4 : 12];
		x->other[i] = e[f->is64 ? 5 : 13];
	}
	free(raw);
	return 0;
}

int
elfstr_extra_load(struct elfstr_extra *x, const char *path)
{
	struct elf_file f;
	struct shdr sym, str;
	int rc;

	memset(x, 0, sizeof *x);
	rc = open_symtab(&f, path, &sym, &str);
	if (rc == 0)
		rc = load_extra(x, &f, &sym);
	if (f.fd >= 0)
		close(f.fd);
	if (rc != 0)
		elfstr_extra_release(x);
	return rc;
}

void
elfstr_extra_release(struct elfstr_extra *x)
{
	free(x->size);
	free(x->info);
	free(x->other);
	memset(x, 0, sizeof *x);
}

void
elfstr_release(struct elfstr *es)
{
	free(es->strtab);
	free(es->st_name);
	memset(es, 0, sizeof *es);
}

long
elfstr_offset(const struct elfstr *es, size_t i, const char *name)
{
	uint32_t off;

	if (i >= es->nsyms)
		return -1;
	off = es->st_name[i];
	if (off >= es->strsz || strcmp(es->strtab + off, name) != 0)
		return -1;
	return (long)off;
}
