/* linkorder: -r and -R, function and object-file orders for the linker, as GNU gprof suggests them. */
#ifndef TGPROF_ORDERING_H
#define TGPROF_ORDERING_H

#include <stdio.h>

#include "core/profile.h"
#include "util/diag.h"

/* gprof's cg_print_function_ordering(): one raw function name per line. 0 or -1 (memory). */
int ordering_functions(FILE *out, const struct profile *p, struct diag *d);

/* gprof's cg_print_file_ordering(): one object file per line (needs -R). 0 or -1 (memory). */
int ordering_files(FILE *out, const struct profile *p, struct diag *d);

#endif
