/* bin: the profiled executable, read through libbfd (the only module that sees bfd.h). */
#include "config.h"
#include "bin.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bfd.h>
#include <libiberty/demangle.h>

#include "bfdfmt.h"
#include "clonename.h"
#include "debuglink.h"
#include "demangle.h"
#include "elfstr.h"
#include "util/mem.h"

struct bin {
	char *path;
	bfd *abfd;
	asection *text;
	uint64_t text_size;	/* .text's size as far as the file holds it (text_extent()) */
	asymbol **syms;		/* canonical symbols, then synthetic ones */
	long nsyms;
	long ncanon;		/* canonical (.symtab) symbols among them */
	asymbol *synth;		/* storage of the synthetic symbols */
	int has_func_syms;	/* the format marks functions (ELF, COFF, ...) */
	int has_lines;		/* debugging sections that can give line numbers */
	unsigned char *text_bytes;	/* a view of MAP, or owned (TEXT_OWNED) */
	int text_owned;
	unsigned char *map;	/* the file, for section views (bin_section()) */
	size_t maplen;
	struct elfstr es;	/* raw .strtab, for gprof's name filter */
	struct diag *msgs;	/* where libbfd's own warnings go */
};

/* libbfd's handler has no context pointer: the bin whose messages it takes. */
static struct diag *bfd_msgs;
static const char *bfd_msgs_path;

static void
bfd_message(const char *fmt, va_list ap)
{
	char buf[512];

	if (bfd_msgs == NULL)
		return;
	bfdfmt(buf, sizeof buf, fmt, ap);	/* libbfd's %pA and %pB: not printf's */
	diag_add(bfd_msgs, DIAG_WARN, "%s: %s", bfd_msgs_path, buf);
}

/* Each line of TEXT, libbfd's "BFD: " taken off, as a warning about the file. */
static void
add_lines(const struct bin *b, char *text, struct diag *d)
{
	char *line, *next;

	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strncmp(line, "BFD: ", 5) == 0)
			line += 5;
		if (*line != '\0')
			diag_add(d, DIAG_WARN, "%s: %s", b->path, line);
	}
}

/*
 * bfd_check_format(), whose warnings libbfd 2.40 prints straight to
 * stderr, past its error handler (format.c, print_warnmsg()).  For this
 * call only, stderr is a memory stream and what it catches becomes
 * warnings in D.  No other thread runs while a profile starts to load,
 * and no descriptor changes.
 */
static int
check_format(struct bin *b, struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len), *saved = stderr;	/* layering: allowed, caught */
	int ok;

	if (mem != NULL)
		stderr = mem;		/* layering: allowed, caught */
	ok = bfd_check_format(b->abfd, bfd_object);
	if (mem != NULL) {
		stderr = saved;		/* layering: allowed, given back */
		if (fclose(mem) == 0)
			add_lines(b, text, d);
		free(text);
	}
	return ok;
}

static int
fail_bfd(struct bin *b, struct diag *d)
{
	diag_add(d, DIAG_ERROR, "%s: %s", b->path, bfd_errmsg(bfd_get_error()));
	return -1;
}

/* Sections from which libbfd can take line numbers, here or in a debug file. */
static int
has_line_info(bfd *abfd)
{
	static const char *const prefix[] = {
		".debug", ".zdebug", ".stab", ".gnu_debuglink", ".gnu_debugaltlink", NULL
	};
	asection *s;
	int i;

	for (s = abfd->sections; s != NULL; s = s->next)
		for (i = 0; prefix[i] != NULL; i++)
			if (strncmp(s->name, prefix[i], strlen(prefix[i])) == 0)
				return 1;
	return 0;
}

/*
 * Lets libbfd follow the link in section NAME only where debuglink.h finds
 * nothing but regular files: otherwise the section is hidden from it (as
 * if empty) and a warning says why.
 */
static void
check_link(struct bin *b, const char *name, struct diag *d)
{
	asection *s = bfd_get_section_by_name(b->abfd, name);
	char buf[PATH_MAX + 64], bad[PATH_MAX + 64];
	bfd_size_type size;

	if (s == NULL || (s->flags & SEC_HAS_CONTENTS) == 0)
		return;
	size = bfd_section_size(s);
	if (size > sizeof buf)
		snprintf(bad, sizeof bad, "its %s section has %llu bytes", name,
		    (unsigned long long)size);
	else if (!bfd_get_section_contents(b->abfd, s, buf, 0, size))
		snprintf(bad, sizeof bad, "%s: %s", name, bfd_errmsg(bfd_get_error()));
	else if (debuglink_check(b->path, buf, (size_t)size, bad, sizeof bad) == 0)
		return;
	s->flags &= ~(flagword)SEC_HAS_CONTENTS;
	diag_add(d, DIAG_WARN, "%s: warning: not following its debug link: %s", b->path, bad);
}

/* The end of the last .text symbol (start plus ELF size), at most SIZE, as an offset in .text. */
static uint64_t
symbols_end(const struct bin *b, uint64_t size)
{
	struct elfstr_extra x;
	uint64_t end = 0;
	long i;
	int sized = elfstr_extra_load(&x, b->path) == 0 && x.nsyms == (size_t)b->ncanon + 1;

	for (i = 0; i < b->ncanon; i++) {
		const asymbol *s = b->syms[i];
		uint64_t n = sized && x.size[i + 1] > 0 ? x.size[i + 1] : 1;

		if (s->section == b->text && s->value < size && s->value + n > end)
			end = s->value + n < size ? s->value + n : size;
	}
	elfstr_extra_release(&x);
	return end;
}

/*
 * The size of .text that tgprof believes: its header's, unless the file
 * does not hold that much (a damaged or hostile header can claim 1 TiB in
 * a 28 KB file), then what the file holds after the section's start.
 * Without contents in the file (a debug file's NOBITS .text), the extent
 * of the symbols in it.  Every walk over the text is bounded by this.
 */
static void
text_extent(struct bin *b)
{
	uint64_t size = bfd_section_size(b->text), fsize = bfd_get_file_size(b->abfd);
	uint64_t pos = b->text->filepos >= 0 ? (uint64_t)b->text->filepos : UINT64_MAX;

	if (b->text->flags & SEC_HAS_CONTENTS) {
		if (fsize > 0 && (pos > fsize || size > fsize - pos))
			size = pos > fsize ? 0 : fsize - pos;
	} else {
		size = symbols_end(b, size);
	}
	b->text_size = size;
}

static int
read_symbols(struct bin *b, struct diag *d)
{
	long bytes = bfd_get_symtab_upper_bound(b->abfd), nsynth;
	asymbol **all;

	if (bytes < 0)
		return fail_bfd(b, d);
	b->syms = mem_array((size_t)bytes + sizeof(asymbol *), 1);
	if (b->syms == NULL)
		return diag_oom(d);
	b->nsyms = b->ncanon = bfd_canonicalize_symtab(b->abfd, b->syms);
	if (b->nsyms < 0)
		return fail_bfd(b, d);
	nsynth = bfd_get_synthetic_symtab(b->abfd, b->nsyms, b->syms, 0, NULL, &b->synth);
	if (nsynth > 0) {
		all = mem_array((size_t)(b->nsyms + nsynth + 1), sizeof *all);
		if (all == NULL)
			return diag_oom(d);
		memcpy(all, b->syms, (size_t)b->nsyms * sizeof *all);
		for (long i = 0; i < nsynth; i++)
			all[b->nsyms + i] = b->synth + i;
		free(b->syms);
		b->syms = all;
		b->nsyms += nsynth;
	}
	return 0;
}

static int
open_bfd(struct bin *b, struct diag *d)
{
	b->abfd = bfd_openr(b->path, NULL);
	if (b->abfd == NULL) {
		diag_add(d, DIAG_ERROR, "%s: %s", b->path,
		    errno ? strerror(errno) : bfd_errmsg(bfd_get_error()));
		return -1;
	}
	b->abfd->flags |= BFD_DECOMPRESS;
	if (!check_format(b, d)) {
		diag_add(d, DIAG_ERROR, "%s: not in executable format", b->path);
		return -1;
	}
	b->text = bfd_get_section_by_name(b->abfd, ".text");
	if (b->text == NULL)
		b->text = bfd_get_section_by_name(b->abfd, "$CODE$");
	if (b->text == NULL) {
		diag_add(d, DIAG_ERROR, "%s: can't find .text section", b->path);
		return -1;
	}
	switch (bfd_get_flavour(b->abfd)) {
	case bfd_target_coff_flavour:
	case bfd_target_ecoff_flavour:
	case bfd_target_xcoff_flavour:
	case bfd_target_elf_flavour:
	case bfd_target_som_flavour:
		b->has_func_syms = 1;
		break;
	default:
		break;
	}
	b->has_lines = has_line_info(b->abfd);
	check_link(b, ".gnu_debuglink", d);
	check_link(b, ".gnu_debugaltlink", d);
	return 0;
}

int
bin_open(struct bin **out, const char *path, struct diag *d)
{
	struct bin *b = mem_calloc(1, sizeof *b);

	*out = NULL;
	if (b == NULL || (b->path = mem_strndup(path, strlen(path))) == NULL) {
		free(b);
		return diag_oom(d);
	}
	bfd_init();
	bfd_set_error_handler(bfd_message);
	bfd_msgs = b->msgs = d;
	bfd_msgs_path = b->path;
	errno = 0;
	if (open_bfd(b, d) != 0 || read_symbols(b, d) != 0) {
		bin_close(b);
		return -1;
	}
	text_extent(b);
	if (bfd_get_flavour(b->abfd) == bfd_target_elf_flavour)
		elfstr_load(&b->es, path);
	*out = b;
	return 0;
}

void
bin_close(struct bin *b)
{
	if (b == NULL)
		return;
	if (bfd_msgs == b->msgs)
		bfd_msgs = NULL;
	if (b->abfd != NULL)
		bfd_close(b->abfd);
	free(b->syms);
	free(b->synth);
	bin_text_release(b);
	if (b->map != NULL)
		munmap(b->map, b->maplen);
	elfstr_release(&b->es);
	free(b->path);
	free(b);
}

const char *bin_path(const struct bin *b) { return b->path; }
uint64_t bin_text_vma(const struct bin *b) { return bfd_section_vma(b->text); }
uint64_t bin_text_size(const struct bin *b) { return b->text_size; }
int bin_big_endian(const struct bin *b) { return bfd_big_endian(b->abfd); }
int bin_sign_extend(const struct bin *b) { return bfd_get_sign_extend_vma(b->abfd) > 0; }
char bin_leading_char(const struct bin *b) { return bfd_get_symbol_leading_char(b->abfd); }
size_t bin_nsyms(const struct bin *b) { return (size_t)b->nsyms; }
int bin_has_lines(const struct bin *b) { return b->has_lines; }
const char *bin_arch_name(const struct bin *b) { return bfd_printable_name(b->abfd); }

enum bin_arch
bin_arch(const struct bin *b)
{
	switch (bfd_get_arch(b->abfd)) {
	case bfd_arch_i386:
		return BIN_ARCH_I386;
	case bfd_arch_aarch64:
		return BIN_ARCH_AARCH64;
	default:
		return BIN_ARCH_OTHER;
	}
}

int
bin_addr_bytes(const struct bin *b, struct diag *d)
{
	int size = bfd_get_arch_size(b->abfd);

	if (size == -1)
		size = (int)bfd_arch_bits_per_address(b->abfd);
	if (size == 32 || size == 64)
		return size / 8;
	diag_add(d, DIAG_ERROR, "%s: address size has unexpected value of %u",
	    b->path, (unsigned)size);
	return 0;
}

/*
 * gprof accepts a static name only if every '.' is followed by digits
 * (after skipping ".clone." and ".constprop.").  Its loop steps over the
 * NUL that ends a name like "f.constprop.0" and goes on into the next
 * strings of .strtab until it meets a NUL at the top level; the verdict
 * depends on those bytes, so scan them too.  BUF[LEN] is a NUL that
 * bounds the scan.
 */
static int
static_name_ok(const char *buf, size_t len, size_t i)
{
	for (; i < len && buf[i] != '\0'; i++) {
		if (buf[i] == '$')
			return 0;
		while (buf[i] == '.') {
			size_t rest = strnlen(buf + i, len - i);
			int digit_seen = 0;

			if (rest > 7 && strncmp(buf + i, ".clone.", 7) == 0)
				i += 6;
			else if (rest > 11 && strncmp(buf + i, ".constprop.", 11) == 0)
				i += 10;
			for (i++; i < len && buf[i] != '\0'; i++) {
				if (digit_seen && buf[i] == '.')
					break;
				if (buf[i] >= '0' && buf[i] <= '9')
					digit_seen = 1;
				else
					return 0;
			}
		}
	}
	return 1;
}

static int
name_filter_ok(const struct bin *b, size_t i, const char *name)
{
	long off = i < (size_t)b->ncanon ? elfstr_offset(&b->es, i + 1, name) : -1;

	if (off >= 0)
		return static_name_ok(b->es.strtab, b->es.strsz, (size_t)off);
	return static_name_ok(name, strlen(name), 0);
}

/* gprof's core_sym_class(). */
static int
classify(const struct bin *b, size_t i, const asymbol *sym, const struct bin_symopts *o)
{
	symbol_info info;
	char lead;

	if (sym->section == NULL || (sym->flags & BSF_DEBUGGING) != 0)
		return 0;
	if (o->no_static && (sym->flags & BSF_LOCAL) != 0)
		return 0;
	bfd_get_symbol_info(b->abfd, (asymbol *)sym, &info);
	if (info.type == 'T' || info.type == 'W')
		return 'T';
	if (info.type != 't' || o->no_static || sym->name == NULL || sym->name[0] == '\0')
		return 0;
	if (!name_filter_ok(b, i, sym->name) &&
	    !(o->clones && clone_suffix(sym->name) > 0 && strchr(sym->name, '$') == NULL))
		return 0;
	lead = bfd_get_symbol_leading_char(b->abfd);
	if ((lead != 0 && lead != sym->name[0]) ||
	    strncmp(sym->name, "__gnu_compiled", 14) == 0 ||
	    strncmp(sym->name, "___gnu_compiled", 15) == 0)
		return 0;
	if (o->functions_only && (sym->flags & BSF_FUNCTION) == 0)
		return 0;
	return 't';
}

void
bin_sym(const struct bin *b, size_t i, const struct bin_symopts *o, struct bin_sym *out)
{
	const asymbol *sym = b->syms[i];

	out->name = sym->name;
	out->addr = sym->value + (sym->section ? bfd_section_vma(sym->section) : 0);
	out->cls = classify(b, i, sym, o);
	out->is_func = !b->has_func_syms || (sym->flags & BSF_FUNCTION) != 0;
}

int
bin_src_info(struct bin *b, uint64_t addr, const char **file, const char **func, int *line)
{
	const char *f = NULL, *fn = NULL;
	unsigned int l = 0;

	if (!b->has_lines)
		return 0;
	if (bfd_find_nearest_line(b->abfd, b->text, b->syms, addr - bfd_section_vma(b->text),
	    &f, &fn, &l) && f != NULL && fn != NULL && l != 0) {
		*file = f;
		*func = fn;
		*line = (int)l;
		return 1;
	}
	return 0;
}

/* The whole file, mapped once on demand for section views; 0 or -1. */
static int
map_file(struct bin *b)
{
	struct stat st;
	int fd;

	if (b->map != NULL)
		return 0;
	if ((fd = open(b->path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p != MAP_FAILED) {
			b->map = p;
			b->maplen = (size_t)st.st_size;
		}
	}
	close(fd);
	return b->map != NULL ? 0 : -1;
}

int
bin_section(struct bin *b, const char *name, const unsigned char **view, size_t *len,
    unsigned char **owned)
{
	asection *s = bfd_get_section_by_name(b->abfd, name);
	bfd_byte *data = NULL;
	char zname[64];

	*view = *owned = NULL;
	*len = 0;
	if (s == NULL && strncmp(name, ".debug_", 7) == 0 && strlen(name) < sizeof zname - 1) {
		snprintf(zname, sizeof zname, ".zdebug_%s", name + 7);
		s = bfd_get_section_by_name(b->abfd, zname);
	}
	if (s == NULL)
		return 0;
	*len = (size_t)bfd_get_section_limit_octets(b->abfd, s);
	if (s->compress_status == COMPRESS_SECTION_NONE && strncmp(s->name, ".zdebug", 7) != 0 &&
	    (s->flags & SEC_HAS_CONTENTS) && s->filepos >= 0 && map_file(b) == 0 &&
	    (uint64_t)s->filepos <= b->maplen && *len <= b->maplen - (size_t)s->filepos) {
		*view = b->map + s->filepos;
		return 0;
	}
	if (!bfd_get_full_section_contents(b->abfd, s, &data))
		return -1;
	*view = *owned = data;
	return 0;
}

/* Sections libbfd would read DWARF from besides the executable's own .debug_info. */
static int
dwarf_elsewhere(bfd *abfd)
{
	int info = 0;
	asection *s;

	for (s = abfd->sections; s != NULL; s = s->next) {
		if (strcmp(s->name, ".gnu_debugaltlink") == 0 ||
		    strncmp(s->name, ".gnu.linkonce.wi.", 17) == 0)
			return 1;
		if (strncmp(s->name, ".debug_info", 11) == 0 || strncmp(s->name, ".zdebug_info", 12) == 0)
			info++;
	}
	return info != 1;
}

int
bin_dwarf_readable(const struct bin *b)
{
	bfd *abfd = b->abfd;

	return bfd_get_flavour(abfd) == bfd_target_elf_flavour &&
	    (abfd->flags & (EXEC_P | DYNAMIC)) != 0 && bfd_get_sign_extend_vma(abfd) <= 0 &&
	    bfd_get_arch(abfd) != bfd_arch_alpha && b->ncanon > 0 && b->es.nsyms > 0 &&
	    strcmp(b->text->name, ".text") == 0 && !dwarf_elsewhere(abfd);
}

/* libbfd's _bfd_elf_maybe_function_sym(): the size it gives symbol I, 0 to skip it. */
static uint64_t
function_size(const struct bin *b, const struct elfstr_extra *x, size_t i, const asymbol *sym)
{
	uint64_t size;

	if ((sym->flags & (BSF_SECTION_SYM | BSF_FILE | BSF_OBJECT | BSF_THREAD_LOCAL |
	    BSF_RELC | BSF_SRELC)) != 0 || sym->section != b->text)
		return 0;
	if (i >= (size_t)b->ncanon || (sym->flags & BSF_SYNTHETIC))
		return 1;
	size = x->size[i + 1];
	/* annobin's hidden local NOTYPE markers are no functions */
	if (size == 0 && (sym->flags & BSF_LOCAL) && (x->info[i + 1] & 0xf) == 0 &&
	    (x->other[i + 1] & 3) == 2)
		return 0;
	return size != 0 ? size : 1;
}

int
bin_function_syms(struct bin *b, struct bin_fsym **out, size_t *n)
{
	struct elfstr_extra x;
	size_t i, k = 0;

	*out = NULL;
	*n = 0;
	if (elfstr_extra_load(&x, b->path) != 0)
		return -1;
	if (x.nsyms != b->es.nsyms || (size_t)b->ncanon + 1 != x.nsyms ||
	    (*out = mem_array((size_t)b->nsyms + 1, sizeof **out)) == NULL) {
		elfstr_extra_release(&x);
		return -1;
	}
	for (i = 0; i < (size_t)b->nsyms; i++) {
		const asymbol *sym = b->syms[i];
		uint64_t size;

		/* entry I+1 of .symtab is canonical symbol I: check it is */
		if (i < (size_t)b->ncanon && elfstr_offset(&b->es, i + 1, sym->name) < 0) {
			free(*out);
			*out = NULL;
			elfstr_extra_release(&x);
			return -1;
		}
		if ((size = function_size(b, &x, i, sym)) == 0)
			continue;
		(*out)[k].off = sym->value;
		(*out)[k].size = size;
		(*out)[k++].name = sym->name;
	}
	elfstr_extra_release(&x);
	*n = k;
	return 0;
}

/*
 * .text as the file holds it, a view of the mapped file where it can be
 * (no copy, and no fresh memory to fault in: 130 MB at a million
 * functions); 1, or 0 where it must be read (compressed, not in the file).
 */
static int
text_view(struct bin *b)
{
	asection *s = b->text;

	if (s->compress_status != COMPRESS_SECTION_NONE || (s->flags & SEC_HAS_CONTENTS) == 0 ||
	    s->filepos < 0 || map_file(b) != 0 || (uint64_t)s->filepos > b->maplen ||
	    b->text_size > b->maplen - (uint64_t)s->filepos)
		return 0;
	b->text_bytes = b->map + s->filepos;
	b->text_owned = 0;
	return 1;
}

const unsigned char *
bin_text(struct bin *b, struct diag *d)
{
	bfd_size_type size = b->text_size;

	if (b->text_bytes != NULL || text_view(b))
		return b->text_bytes;
	b->text_bytes = mem_array(size ? size : 1, 1);
	if (b->text_bytes == NULL) {
		diag_add(d, DIAG_ERROR, "%s: ran out room for %lu bytes of text space",
		    b->path, (unsigned long)size);
		return NULL;
	}
	b->text_owned = 1;
	if (!bfd_get_section_contents(b->abfd, b->text, b->text_bytes, 0, size)) {
		diag_add(d, DIAG_WARN, "%s: can't do -c: %s", b->path,
		    bfd_errmsg(bfd_get_error()));
		free(b->text_bytes);
		b->text_bytes = NULL;
	}
	return b->text_bytes;
}

/*
 * A view's pages are given back too (the mapping stays; read again, they
 * come back from the file): they would count in the memory the browser
 * holds while it works on other tables.
 */
void
bin_text_release(struct bin *b)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start, end;

	if (b->text_owned)
		free(b->text_bytes);
	else if (b->text_bytes != NULL) {
		start = (uintptr_t)b->text_bytes & ~(page - 1);
		end = (uintptr_t)b->text_bytes + b->text_size;
		if (end > start)
			madvise((void *)start, end - start, MADV_DONTNEED);
	}
	b->text_bytes = NULL;
}

int
bin_demangle_into(const struct bin *b, const char *name, struct sbuf *out)
{
	int rc = demangle_into(name, bfd_get_symbol_leading_char(b->abfd), out);
	char *d;

	if (rc >= 0)
		return rc;
	if (!demangle_fits(name) || (d = bfd_demangle(b->abfd, name, DMGL_ANSI | DMGL_PARAMS)) == NULL)
		return 0;
	sbuf_puts(out, d);
	free(d);
	return 1;
}

char *
bin_demangle(const struct bin *b, const char *name)
{
	struct sbuf sb;

	sbuf_init(&sb);
	if (bin_demangle_into(b, name, &sb) != 1 || sb.failed || sb.s == NULL) {
		sbuf_release(&sb);
		return NULL;
	}
	return sb.s;	/* (malloc'd, as its buffer grew) */
}
