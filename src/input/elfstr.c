/* elfstr: bounded copies of an ELF file's .symtab names and of the symbol fields libbfd hides, and a library's functions. */
#include "elfstr.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/mem.h"

#define SHT_SYMTAB_ 2
#define SHT_DYNSYM_ 11
#define STT_FUNC_ 2
#define STT_GNU_IFUNC_ 10
#define STB_GLOBAL_ 1
#define STB_WEAK_ 2
#define SHT_NOTE_ 7
#define NT_GNU_BUILD_ID_ 3
#define MAX_FUNCTIONS (1u << 24)	/* symbols of one table at most */
#define MAX_NOTES (64u << 10)		/* bytes of one note section read at most */
#define MAX_BUILD_ID 64

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

/* The section header table's place: its offset, entry size and count; 0, or -1 (none). */
static int
section_table(const struct elf_file *f, uint64_t *shoff, uint32_t *shentsize, uint32_t *shnum)
{
	unsigned char h[64];

	if (read_at(f, 0, h, f->is64 ? 64 : 52) != 0)
		return -1;
	*shoff = get_uint(f, h + (f->is64 ? 40 : 32), f->is64 ? 8 : 4);
	*shentsize = (uint32_t)get_uint(f, h + (f->is64 ? 58 : 46), 2);
	*shnum = (uint32_t)get_uint(f, h + (f->is64 ? 60 : 48), 2);
	if (*shoff == 0)
		return -1;
	if (*shnum == 0) {	/* extended numbering: count in section 0 */
		struct shdr s0;
		if (read_shdr(f, *shoff, *shentsize, 0, &s0) != 0 || s0.size > 1u << 24)
			return -1;
		*shnum = (uint32_t)s0.size;
	}
	return 0;
}

/* Finds the first table of TYPE (SHT_SYMTAB_ or SHT_DYNSYM_) and its string table; 0 with both filled. */
static int
find_table(const struct elf_file *f, uint32_t type, struct shdr *sym, struct shdr *str)
{
	uint64_t shoff;
	uint32_t shentsize, shnum, i;

	if (section_table(f, &shoff, &shentsize, &shnum) != 0)
		return -1;
	for (i = 0; i < shnum; i++) {
		if (read_shdr(f, shoff, shentsize, i, sym) != 0)
			return -1;
		if (sym->type == type)
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

/* Opens PATH, a regular ELF file: its class and byte order into F; F->fd is open (or -1) on return. */
static int
open_elf(struct elf_file *f, const char *path)
{
	unsigned char id[16];
	struct stat st;

	f->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);	/* a FIFO must not block: fstat refuses it */
	if (f->fd < 0 || fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	f->size = (uint64_t)st.st_size;
	if (read_at(f, 0, id, sizeof id) != 0 || memcmp(id, "\177ELF", 4) != 0 ||
	    (id[4] != 1 && id[4] != 2) || (id[5] != 1 && id[5] != 2))
		return -1;
	f->is64 = id[4] == 2;
	f->big = id[5] == 2;
	return 0;
}

/* Opens PATH and finds its .symtab; F->fd is open (or -1) on return. */
static int
open_symtab(struct elf_file *f, const char *path, struct shdr *sym, struct shdr *str)
{
	return open_elf(f, path) == 0 ? find_table(f, SHT_SYMTAB_, sym, str) : -1;
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

void
elfstr_functions_free(struct elfstr_fn *fn, size_t n)
{
	size_t i;

	for (i = 0; fn != NULL && i < n; i++)
		free(fn[i].name);
	free(fn);
}

/* Leading underscores of NAME. */
static size_t
underscores(const char *name)
{
	return strspn(name, "_");
}

/*
 * By address, and of aliases (one address, several names) the one perf
 * shows first: with a size, not weak, global, with fewer leading
 * underscores (memcpy, not __GI_memcpy), with the longer name.
 */
static int
cmp_fn(const void *a, const void *b)
{
	const struct elfstr_fn *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if ((x->size == 0) != (y->size == 0))
		return x->size == 0 ? 1 : -1;
	if ((x->bind == STB_WEAK_) != (y->bind == STB_WEAK_))
		return x->bind == STB_WEAK_ ? 1 : -1;
	if ((x->bind == STB_GLOBAL_) != (y->bind == STB_GLOBAL_))
		return x->bind == STB_GLOBAL_ ? -1 : 1;
	if (underscores(x->name) != underscores(y->name))
		return underscores(x->name) < underscores(y->name) ? -1 : 1;
	if (strlen(x->name) != strlen(y->name))
		return strlen(x->name) > strlen(y->name) ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sorts FN by address and keeps one name of each address (cmp_fn's first); the count left. */
static size_t
one_per_address(struct elfstr_fn *fn, size_t n)
{
	size_t i, kept = 0;

	qsort(fn, n, sizeof *fn, cmp_fn);
	for (i = 0; i < n; i++) {
		if (kept > 0 && fn[kept - 1].value == fn[i].value)
			free(fn[i].name);
		else
			fn[kept++] = fn[i];
	}
	return kept;
}

/* Entry E of a symbol table as a function into FN, if it is a defined one; 1 if so, 0 if not, -1 (memory). */
static int
function_at(const struct elf_file *f, const unsigned char *e, const char *strtab, uint64_t strsz,
    struct elfstr_fn *fn)
{
	uint64_t name = get_uint(f, e, 4);
	unsigned info = e[f->is64 ? 4 : 12], type = info & 0xf;
	uint64_t shndx = get_uint(f, e + (f->is64 ? 6 : 14), 2);

	if ((type != STT_FUNC_ && type != STT_GNU_IFUNC_) || shndx == 0 || name >= strsz ||
	    strtab[name] == '\0')
		return 0;
	fn->value = f->is64 ? get_uint(f, e + 8, 8) : get_uint(f, e + 4, 4);
	fn->size = f->is64 ? get_uint(f, e + 16, 8) : get_uint(f, e + 8, 4);
	fn->bind = (unsigned char)(info >> 4);
	return (fn->name = mem_strndup(strtab + name, strlen(strtab + name))) != NULL ? 1 : -1;
}

/* The functions of table SYM (names in STR) into *OUT; 0 or -1. */
static int
read_functions(const struct elf_file *f, const struct shdr *sym, const struct shdr *str,
    struct elfstr_fn **out, size_t *n)
{
	uint64_t ent = f->is64 ? 24 : 16, i, count;
	unsigned char *raw = NULL;
	char *strtab = NULL;
	int rc = -1, k;

	if (sym->entsize != ent || sym->size % ent != 0 || (count = sym->size / ent) > MAX_FUNCTIONS ||
	    str->size > f->size)
		return -1;
	raw = mem_array(sym->size + 1, 1);
	strtab = mem_array(str->size + 1, 1);
	*out = mem_calloc(count + 1, sizeof **out);
	if (raw != NULL && strtab != NULL && *out != NULL && read_at(f, sym->offset, raw, sym->size) == 0 &&
	    read_at(f, str->offset, strtab, str->size) == 0) {
		strtab[str->size] = '\0';
		for (rc = 0, i = 0; i < count && rc == 0; i++)
			if ((k = function_at(f, raw + i * ent, strtab, str->size, &(*out)[*n])) != 0)
				rc = k < 0 ? -1 : (++*n, 0);
	}
	free(raw);
	free(strtab);
	return rc;
}

int
elfstr_functions(const char *path, struct elfstr_fn **out, size_t *n)
{
	struct elf_file f;
	struct shdr sym, str;
	int elf, rc = -1;

	*out = NULL;
	*n = 0;
	elf = open_elf(&f, path) == 0;
	if (elf && find_table(&f, SHT_SYMTAB_, &sym, &str) == 0)
		rc = read_functions(&f, &sym, &str, out, n);
	if (elf && (rc != 0 || *n == 0)) {	/* stripped: the exported ones */
		elfstr_functions_free(*out, *n);
		*out = NULL;
		*n = 0;
		rc = find_table(&f, SHT_DYNSYM_, &sym, &str) == 0 ? read_functions(&f, &sym, &str, out, n) : -1;
	}
	if (f.fd >= 0)
		close(f.fd);
	if (rc != 0 || *n == 0) {
		elfstr_functions_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	*n = one_per_address(*out, *n);
	return 0;
}

/* The GNU build ID in note section SH into ID (MAX_BUILD_ID bytes); its length, or 0. */
static size_t
note_build_id(const struct elf_file *f, const struct shdr *sh, unsigned char *id)
{
	uint64_t off = 0, namesz, descsz, desc;
	unsigned char *b;
	size_t len = 0;

	if (sh->size > MAX_NOTES || (b = mem_array(sh->size + 1, 1)) == NULL)
		return 0;
	if (read_at(f, sh->offset, b, sh->size) != 0)
		sh = NULL;
	while (sh != NULL && len == 0 && sh->size - off >= 12) {	/* namesz, descsz, type, name, desc */
		namesz = get_uint(f, b + off, 4);
		descsz = get_uint(f, b + off + 4, 4);
		desc = off + 12 + ((namesz + 3) & ~(uint64_t)3);
		if (namesz > sh->size || descsz > sh->size || desc > sh->size || descsz > sh->size - desc)
			break;
		if (get_uint(f, b + off + 8, 4) == NT_GNU_BUILD_ID_ && namesz == 4 &&
		    memcmp(b + off + 12, "GNU", 4) == 0 && descsz > 0 && descsz <= MAX_BUILD_ID) {
			memcpy(id, b + desc, descsz);
			len = descsz;
		}
		off = desc + ((descsz + 3) & ~(uint64_t)3);
	}
	free(b);
	return len;
}

/* The build ID of the ELF file F into ID; its length, or 0 (none). */
static size_t
build_id(const struct elf_file *f, unsigned char *id)
{
	uint64_t shoff;
	uint32_t shentsize, shnum, i;
	struct shdr sh;
	size_t len = 0;

	if (section_table(f, &shoff, &shentsize, &shnum) != 0)
		return 0;
	for (i = 0; i < shnum && len == 0; i++) {
		if (read_shdr(f, shoff, shentsize, i, &sh) != 0)
			return 0;
		if (sh.type == SHT_NOTE_)
			len = note_build_id(f, &sh, id);
	}
	return len;
}

int
elfstr_debug_file(const char *path, const char *root, char *buf, size_t size)
{
	unsigned char id[MAX_BUILD_ID];
	struct elf_file f;
	struct stat st;
	size_t len = 0, i, at;
	int n;

	if (open_elf(&f, path) == 0)
		len = build_id(&f, id);
	if (f.fd >= 0)
		close(f.fd);
	if (len < 2)
		return -1;
	n = snprintf(buf, size, "%s/.build-id/%02x/", root, id[0]);
	if (n < 0 || (size_t)n >= size || size - (size_t)n < 2 * (len - 1) + sizeof ".debug")
		return -1;
	for (at = (size_t)n, i = 1; i < len; i++, at += 2)
		snprintf(buf + at, 3, "%02x", id[i]);
	memcpy(buf + at, ".debug", sizeof ".debug");
	return stat(buf, &st) == 0 && S_ISREG(st.st_mode) ? 0 : -1;
}
