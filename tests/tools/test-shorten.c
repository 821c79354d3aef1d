/* test-shorten: each line of standard input, a demangled name, with its template arguments shortened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/shorten.h"

int
main(void)
{
	char line[4096];

	while (fgets(line, sizeof line, stdin) != NULL) {
		char *s;

		if (line[0] == '#')
			continue;	/* a .t file's comment */
		line[strcspn(line, "\n")] = '\0';
		s = shorten_templates(line, "...");
		printf("%s\n", s != NULL ? s : line);
		free(s);
	}
	return 0;
}
