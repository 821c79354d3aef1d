/* test-argfile: argfile_split/argfile_expand must give what libiberty's buildargv/expandargv give gprof. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libiberty/libiberty.h>

#include "cli/argfile.h"

/* The characters buildargv treats specially, and a few plain ones. */
static const char alphabet[] = "ab@ \t\n\v\f\r'\"\\\\\"'";

static unsigned long failures;

static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
random_text(uint64_t *s, char *buf, size_t max)
{
	size_t n = next(s) % max, i;

	for (i = 0; i < n; i++)
		buf[i] = alphabet[next(s) % (sizeof alphabet - 1)];
	buf[n] = '\0';
}

/* Both vectors' arguments, one per line, for comparing and showing. */
static void
show(char *out, size_t size, int argc, char **argv)
{
	size_t used = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < argc && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "[%s]", argv[i]);
}

static void
check_split(const char *text)
{
	char mine[512], want[2048], got[2048];
	char **ref = NULL, *args[256], *p;
	size_t n, i, spaces = strspn(text, " \t\n\v\f\r");

	if (text[spaces] != '\0')
		ref = buildargv(text);	/* expandargv() skips text of only whitespace */
	strcpy(mine, text);
	n = argfile_split(mine);
	for (i = 0, p = mine; i < n; i++, p += strlen(p) + 1)
		args[i] = p;
	show(want, sizeof want, ref != NULL ? countargv(ref) : 0, ref);
	show(got, sizeof got, (int)n, args);
	if (strcmp(want, got) != 0 && failures++ < 10)
		printf("split '%s': libiberty %s, tgprof %s\n", text, want, got);
	freeargv(ref);
}

/*
 * Files f0..f3 with random text, where fK may name f(K+1).. as @-files
 * (no cycles: expandargv would exit), then a command line naming them.
 */
static void
check_expand(uint64_t *s, const char *dir)
{
	char text[200], path[4][300], arg[6][300], want[8192], got[8192];
	char *argv[8] = { "prog" };
	int argc = 1, k, i;
	struct argfile af;
	struct diag d;

	for (k = 0; k < 4; k++) {
		FILE *f;

		snprintf(path[k], sizeof path[k], "%s/f%d", dir, k);
		random_text(s, text, 40);
		if ((f = fopen(path[k], "w")) == NULL)
			abort();
		fputs(text, f);
		for (i = k + 1; i < 4; i++)
			if (next(s) % 3 == 0)
				fprintf(f, "%s@%s%s", next(s) % 2 ? " " : "\n", path[i], next(s) % 2 ? "\n" : "");
		fclose(f);
	}
	for (i = 0; i < 6; i++) {
		k = (int)(next(s) % 5);
		if (k < 4)
			snprintf(arg[i], sizeof arg[i], "@%s", path[k]);
		else
			snprintf(arg[i], sizeof arg[i], "%s", next(s) % 2 ? "@nosuch" : "plain");
		argv[argc++] = arg[i];
	}
	argv[argc] = NULL;
	diag_init(&d);
	if (argfile_expand(&af, argc, argv, &d) != 0)
		abort();
	show(got, sizeof got, af.argc, af.argv);
	{
		char **ref = argv;
		int refc = argc;

		expandargv(&refc, &ref);
		show(want, sizeof want, refc, ref);
		if (ref != argv)
			freeargv(ref);
	}
	if (strcmp(want, got) != 0 && failures++ < 10)
		printf("expand: libiberty %s\n        tgprof    %s\n", want, got);
	argfile_release(&af);
	diag_release(&d);
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 2 ? strtoul(argv[1], NULL, 10) : 0, i;
	uint64_t s = 0x9e3779b97f4a7c15u;
	char text[64];

	if (argc != 3) {
		fprintf(stderr, "usage: test-argfile N DIR\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		random_text(&s, text, sizeof text);
		check_split(text);
	}
	for (i = 0; i < n / 100; i++)
		check_expand(&s, argv[2]);
	printf("%lu splits, %lu expansions, %lu differences\n", n, n / 100, failures);
	return failures != 0;
}
