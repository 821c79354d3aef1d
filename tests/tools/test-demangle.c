/* test-demangle: demangle_into() against libbfd's bfd_demangle() on made names and random changes of them. */
/*
 * Usage: test-demangle N SEED.  In each of the styles demangle_into()
 * answers itself (auto, gnu-v3, rust), every name below and N random
 * changes of them (cut, a byte changed, dots in front, "@..." behind,
 * pieces of two names joined) demangled by demangle_into() and by
 * bfd_demangle(NULL, name, DMGL_ANSI | DMGL_PARAMS): the same text, or
 * both nothing.  Then what libbfd cannot be asked here (no bfd with a
 * leading character, the bound), against known answers.  Prints the
 * number of differences; exit 1 if any.
 */
#include <bfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "input/demangle.h"
#include "testrand.h"

static const char *const names[] = {
	"main", "f_123", "_start", "_init", ".text", "__libc_csu_init", "_", "_Z", "_ZN", "",
	"_Z3fooi", "_Z3barv", "_ZN3ns17Widget37method3ERKd", "_ZNK3ns14Box1IdiE7method1Ei",
	"_ZN4ns105Box10ISt6vectorIiSaIiEEE8method10ERKd",
	"_ZN3ns44Box4INSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEE7method4Eij",
	"_ZNSt6vectorIiSaIiEE9push_backERKi", "_ZNSt8ios_base4InitC1Ev", "_ZN1AD2Ev",
	"_ZZ4mainENKUlvE_clEv", "_ZplRK1AS1_", "_ZN9__gnu_cxx13new_allocatorIcE8allocateEmPKv",
	"_ZThn8_N1B1fEv", "_ZTV1A", "_ZTI1A", "_ZGVZ4mainE1x", "_Z1fIiEvT_", "_Z3fooi.constprop.0",
	"_Z3fooi.isra.0.cold", "_GLOBAL__sub_I_main", "_GLOBAL__sub_I__Z3fooi",
	"_ZN4core3fmt5write17h0123456789abcdefE", "_ZN3std2rt10lang_start17hc0ffee0123456789E",
	"_RNvCs15kBYyAo9fc_7mycrate7example", "_RNvNtCs1234_7mycrate3foo3bar",
	"_RINvCs1234_5crate4funcINtNtCs5678_5alloc3vec3VecmEEB2_",
	"_D3foo3barFZv", "_ZN5Outer5InnerIiE3getEv@plt", "memcpy@GLIBC_2.14",
	"_Z3fooi@@GLIBCXX_3.4", ".._Z3bazv", "$_Z3quxv", ".$._ZN1A1fEv@x",
};

/* The changes made of names: a cut, a byte changed, dots or "@" added, or two names' pieces. */
static void
change(char *out, size_t size)
{
	const char *a = names[test_rnd(sizeof names / sizeof *names)];
	const char *b = names[test_rnd(sizeof names / sizeof *names)];
	size_t la = strlen(a), cut = la ? test_rnd((unsigned)la + 1) : 0;
	static const char bytes[] = "_ZNSERKIiv0123456789.@$abcxyz";

	switch (test_rnd(5)) {
	case 0:
		snprintf(out, size, "%.*s", (int)cut, a);
		break;
	case 1:
		snprintf(out, size, "%s", a);
		if (la > 0)
			out[test_rnd((unsigned)la)] = bytes[test_rnd(sizeof bytes - 1)];
		break;
	case 2:
		snprintf(out, size, "%.*s%s", (int)test_rnd(3), "..$", a);
		break;
	case 3:
		snprintf(out, size, "%s@%s", a, test_rnd(2) ? "plt" : "GLIBC_2.2.5");
		break;
	default:
		snprintf(out, size, "%.*s%s", (int)cut, a, b + (strlen(b) ? test_rnd((unsigned)strlen(b)) : 0));
	}
}

/* 1 if demangle_into() and libbfd differ on NAME (printed, the first few). */
static int
differs(const char *name, const char *style, unsigned long *shown)
{
	struct sbuf sb;
	char *want = bfd_demangle(NULL, name, DMGL_ANSI | DMGL_PARAMS);
	int got, bad;

	sbuf_init(&sb);
	got = demangle_into(name, '\0', &sb);
	bad = got != (want != NULL) || (want != NULL && strcmp(want, sbuf_str(&sb)) != 0);
	if (bad && (*shown)++ < 10)
		printf("%s: \"%s\": \"%s\" (%d), libbfd \"%s\"\n", style, name, sbuf_str(&sb), got,
		    want != NULL ? want : "(nothing)");
	free(want);
	sbuf_release(&sb);
	return bad;
}

/* NAME with leading character LEAD: ANSWER, or nothing (NULL). */
static int
known(const char *name, char lead, const char *answer)
{
	struct sbuf sb;
	int got, bad;

	sbuf_init(&sb);
	got = demangle_into(name, lead, &sb);
	bad = got != (answer != NULL) || (answer != NULL && strcmp(answer, sbuf_str(&sb)) != 0);
	if (bad)
		printf("\"%s\" (leading '%c'): \"%s\" (%d), expected \"%s\"\n", name, lead ? lead : ' ',
		    sbuf_str(&sb), got, answer != NULL ? answer : "(nothing)");
	sbuf_release(&sb);
	return bad;
}

/* Substitution I of an Itanium name: S_, S0_, S1_, ... SA_ (base 36). */
static void
seq(char *out, int i)
{
	static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

	if (i == 0)
		strcpy(out, "S_");
	else if (i - 1 < 36)
		sprintf(out, "S%c_", digits[i - 1]);
	else
		sprintf(out, "S%c%c_", digits[(i - 1) / 36], digits[(i - 1) % 36]);
}

/*
 * tests/hostile.sh's bomb: each parameter a pointer to a function of two
 * of the one before, gigabytes demangled: refused, quickly.
 */
static int
bomb(void)
{
	char name[512] = "_Z1fPi", s[8];
	struct sbuf sb;
	int k, got;

	for (k = 1; k <= 30; k++) {
		seq(s, k == 1 ? 0 : 2 * k - 2);
		strcat(name, "PFv");
		strcat(name, s);
		strcat(name, s);
		strcat(name, "E");
	}
	sbuf_init(&sb);
	got = demangle_into(name, '\0', &sb);
	sbuf_release(&sb);
	if (got != 0 || demangle_fits(name))
		return printf("a demangler bomb demangled (%d, fits %d)\n", got, demangle_fits(name)), 1;
	return 0;
}

static unsigned long
made_cases(void)
{
	unsigned long bad = 0;

	bad += known("__Z3fooi", '_', "foo(int)");
	bad += known("_bar", '_', "bar");
	bad += known("bar", '_', NULL);
	bad += known("_._Z3fooi@plt", '_', ".foo(int)@plt");
	bad += known("_Z3fooi@plt", '\0', "foo(int)@plt");
	bad += known("f_1", '\0', NULL);
	bad += (unsigned long)bomb();
	demangle_set_style("java");
	bad += demangle_into("_Z3fooi", '\0', &(struct sbuf){ NULL, 0, 0, 0 }) != -1;
	return bad;
}

int
main(int argc, char **argv)
{
	static const char *const styles[] = { "auto", "gnu-v3", "rust" };
	unsigned long n, i, bad = 0, shown = 0;
	size_t k, s;
	char name[256];

	if (argc != 3)
		return fprintf(stderr, "usage: test-demangle N SEED\n"), 2;
	n = strtoul(argv[1], NULL, 10);
	test_seed = strtoul(argv[2], NULL, 10);
	for (s = 0; s < sizeof styles / sizeof *styles; s++) {
		demangle_set_style(styles[s]);
		for (k = 0; k < sizeof names / sizeof *names; k++)
			bad += (unsigned long)differs(names[k], styles[s], &shown);
		for (i = 0; i < n; i++) {
			change(name, sizeof name);
			bad += (unsigned long)differs(name, styles[s], &shown);
		}
	}
	demangle_set_style("auto");
	bad += made_cases();
	printf("%lu differences\n", bad);
	return bad != 0;
}
