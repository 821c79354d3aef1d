/* test-symtab: gprof's symbol-table rules (sort, duplicates, end addresses, lookup) from text. */
/*
 * Input (stdin), '#' starts a comment:
 *   text END              the last text address (default 0xffff)
 *   sym ADDR NAME [FLAGS] FLAGS: s (static), n (not a function), e=END
 *   lookup ADDR
 * Output: the table after symtab_finalize(), then one line per lookup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/symtab.h"

int
main(void)
{
	static char names[1024][64];
	struct symtab_ent *ent = calloc(1024, sizeof *ent);
	unsigned long long lookups[1024], text_end = 0xffff, a;
	char line[256], name[64], flags[64];
	size_t n = 0, nl = 0, i;
	struct symtab tab;

	while (fgets(line, sizeof line, stdin) != NULL && n < 1024 && nl < 1024) {
		char *hash = strchr(line, '#');

		if (hash != NULL)
			*hash = '\0';
		flags[0] = '\0';
		if (sscanf(line, "text %llx", &text_end) == 1)
			continue;
		if (sscanf(line, "lookup %llx", &a) == 1) {
			lookups[nl++] = a;
			continue;
		}
		if (sscanf(line, "sym %llx %63s %63s", &a, name, flags) < 2)
			continue;
		strcpy(names[n], name);
		ent[n].addr = a;
		ent[n].name = names[n];
		ent[n].is_static = strchr(flags, 's') != NULL;
		ent[n].is_func = strchr(flags, 'n') == NULL;
		ent[n].end_addr = strstr(flags, "e=") ? strtoull(strstr(flags, "e=") + 2, NULL, 16) : 0;
		ent[n].file = ent[n].aux = SYMTAB_NONE;
		n++;
	}
	if (symtab_finalize(&tab, ent, (uint32_t)n, text_end) != 0)
		return 2;
	for (i = 0; i < tab.len; i++)
		printf("%llx-%llx %s%s%s\n", (unsigned long long)tab.ent[i].addr,
		    (unsigned long long)tab.ent[i].end_addr, tab.ent[i].name,
		    tab.ent[i].is_static ? " static" : "", tab.ent[i].is_func ? "" : " notfunc");
	if (tab.has_after)
		printf("after %llx\n", (unsigned long long)tab.after_addr);
	for (i = 0; i < nl; i++) {
		long k = symtab_lookup(tab.ent, tab.len, lookups[i]);

		printf("lookup %llx: %s\n", lookups[i], k < 0 ? "-" : tab.ent[k].name);
	}
	symtab_release(&tab);
	return 0;
}
