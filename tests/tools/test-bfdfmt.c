/* test-bfdfmt: bfdfmt() must print what printf prints, and libbfd's %pA and %pB as names, cut to the buffer. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <bfd.h>

#include "input/bfdfmt.h"

static int failures;

/* bfdfmt() of FMT and its arguments into a SIZE-byte buffer against WANT. */
static void
check(const char *want, size_t size, const char *fmt, ...)
{
	char got[512];
	va_list ap;

	va_start(ap, fmt);
	bfdfmt(got, size, fmt, ap);
	va_end(ap);
	if (strcmp(got, want) != 0) {
		printf("%s: got \"%s\", want \"%s\"\n", fmt, got, want);
		failures++;
	}
}

/* What printf makes of FMT and its arguments (for the conversions printf knows). */
static const char *
printf_of(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return buf;
}

int
main(int argc, char **argv)
{
	char w[512];
	bfd *abfd;

	check(printf_of(w, sizeof w, "%d %5u %-4x| %08lx %lld %zu %s %c %.3f %e %%", -7, 3u, 255u,
	    0xabcUL, -1LL, (size_t)42, "str", 'z', 3.14159, 1e-5), sizeof w,
	    "%d %5u %-4x| %08lx %lld %zu %s %c %.3f %e %%", -7, 3u, 255u, 0xabcUL, -1LL, (size_t)42,
	    "str", 'z', 3.14159, 1e-5);
	check(printf_of(w, sizeof w, "[%*d|%.*s|%#o]", 6, 12, 2, "abcdef", 8u), sizeof w,
	    "[%*d|%.*s|%#o]", 6, 12, 2, "abcdef", 8u);
	check(printf_of(w, sizeof w, "%hhu %hd %jd %td %Lg", 300, 70000, (intmax_t)-5,
	    (ptrdiff_t)9, (long double)2.5), sizeof w, "%hhu %hd %jd %td %Lg", 300, 70000,
	    (intmax_t)-5, (ptrdiff_t)9, (long double)2.5);
	check("abcde", 6, "%s%s", "abc", "defgh");	/* cut to the buffer */
	check("100% sure %y", sizeof w, "100%% sure %y", 1);	/* unknown: as it is */
	bfd_init();
	if (argc < 2 || (abfd = bfd_openr(argv[1], NULL)) == NULL || !bfd_check_format(abfd, bfd_object) ||
	    abfd->sections == NULL) {
		printf("cannot open %s with libbfd\n", argc > 1 ? argv[1] : "(nothing)");
		return 1;
	}
	snprintf(w, sizeof w, "%s(%s) is too large (%#lx bytes)", argv[1],
	    bfd_section_name(abfd->sections), 0x7fffffffUL);
	check(w, sizeof w, "%pB(%pA) is too large (%#lx bytes)", abfd, abfd->sections, 0x7fffffffUL);
	check("(null) (null) 5", sizeof w, "%pB %pA %d", (bfd *)NULL, (asection *)NULL, 5);
	bfd_close(abfd);
	printf("test-bfdfmt: %d failures\n", failures);
	return failures != 0;
}
