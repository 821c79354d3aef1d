/* dlfoo: opens each libfoo.so named (argv[1]...; ./libfoo.so if none) with dlopen() after start and calls its foo_loop(1000) 100 times. */
#include <dlfcn.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
	unsigned long (*loop)(int);
	unsigned long s = 0;

	for (int k = 1; k < argc || k == 1; k++) {
		void *h = dlopen(argc > 1 ? argv[k] : "./libfoo.so", RTLD_NOW);

		if (h == NULL || (loop = (unsigned long (*)(int))dlsym(h, "foo_loop")) == NULL) {
			fprintf(stderr, "dlfoo: %s\n", dlerror());
			return 1;
		}
		for (int r = 0; r < 100; r++)
			s += loop(1000);
	}
	printf("%lu\n", s);
	return 0;
}
