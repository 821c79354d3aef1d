#!/usr/bin/env python3
"""bench/interp_gen.py: writes interp.c, a bytecode interpreter shaped like Lua's for make bench.

Usage: interp_gen.py OUT.c

What libtgmon's cost depends on is the shape of the calls, not what they
compute: Lua's run in #17 made 191 million calls over about 2,000 distinct
arcs from a hot dispatch loop, with a few call sites (its C functions)
reaching many callees through pointers.  interp.c has the same shape:
200 opcodes dispatched by a switch, each a function calling 3 to 6 of 600
helpers from call sites of its own (helpers call further helpers), and a
table of 64 "native" functions called through one pointer call site.  The
bytecode is drawn with a skewed opcode frequency, as real programs are.
Deterministic (fixed seed); it prints a checksum so that nothing is
optimised away.  Run as "interp ROUNDS [THREADS]": THREADS threads
run ROUNDS rounds each.
"""
import random
import sys

OPS, HELPERS, NATIVES, CODE = 200, 600, 64, 4096


def helper(out, rng, i):
    out.append("__attribute__((noinline)) unsigned h%d(unsigned a, unsigned b)\n{" % i)
    out.append("\tunsigned r = a * %du + (b ^ %du);" % (rng.randrange(3, 999, 2), rng.randrange(1 << 16)))
    later = list(range(i + 1, HELPERS))
    for _ in range(rng.choice((0, 1, 1, 2)) if later else 0):
        j = rng.choice(later[:40])
        out.append("\tif ((r & %d) == 0)\n\t\tr += h%d(r, a);" % (rng.choice((1, 3, 7)), j))
    out.append("\treturn r;\n}\n")


def native(out, rng, i):
    out.append("__attribute__((noinline)) unsigned n%d(unsigned a)\n{\n\treturn h%d(a, %du);\n}\n"
               % (i, rng.randrange(HELPERS), i))


def op(out, rng, i):
    out.append("__attribute__((noinline)) unsigned op%d(unsigned acc, unsigned x)\n{" % i)
    for _ in range(rng.randrange(3, 7)):
        out.append("\tacc = h%d(acc, x);" % rng.randrange(HELPERS))
    if rng.random() < 0.3:
        out.append("\tacc += native[(acc >> 3) %% %d](x);" % NATIVES)
    out.append("\treturn acc;\n}\n")


def main():
    rng = random.Random(17)
    out = ["/* interp.c: written by bench/interp_gen.py; a Lua-shaped bytecode interpreter. */",
           "#include <pthread.h>", "#include <stdio.h>", "#include <stdlib.h>", ""]
    out += ["unsigned h%d(unsigned, unsigned);" % i for i in range(HELPERS)]
    for i in range(HELPERS):
        helper(out, rng, i)
    for i in range(NATIVES):
        native(out, rng, i)
    out.append("static unsigned (*const volatile native[%d])(unsigned) = { %s };\n"
               % (NATIVES, ", ".join("n%d" % i for i in range(NATIVES))))
    for i in range(OPS):
        op(out, rng, i)
    weights = [1.0 / (k + 1) for k in range(OPS)]
    code = rng.choices(range(OPS), weights, k=CODE)
    out.append("static const unsigned char code[%d] = { %s };\n" % (CODE, ", ".join(map(str, code))))
    out.append("static unsigned\nrun(unsigned acc)\n{\n\tfor (int pc = 0; pc < %d; pc++) {" % CODE)
    out.append("\t\tswitch (code[pc]) {")
    out += ["\t\tcase %d: acc = op%d(acc, (unsigned)pc); break;" % (i, i) for i in range(OPS)]
    out.append("\t\t}\n\t}\n\treturn acc;\n}\n")
    out.append("static int rounds;\n\nstatic void *\nworker(void *p)\n{\n\tunsigned acc = 1;\n"
               "\n\tfor (int r = 0; r < rounds; r++)\n\t\tacc = run(acc);\n\t*(unsigned *)p = acc;"
               "\n\treturn p;\n}\n")
    out.append("int\nmain(int argc, char **argv)\n{\n\tint threads = argc > 2 ? atoi(argv[2]) : 0;"
               "\n\tpthread_t t[64];\n\tunsigned acc[64] = { 0 }, sum = 0;\n"
               "\n\trounds = argc > 1 ? atoi(argv[1]) : 1000;\n\tif (threads < 1 || threads > 64) {"
               "\n\t\tworker(&sum);\n\t\tprintf(\"%u\\n\", sum);\n\t\treturn 0;\n\t}"
               "\n\tfor (int k = 0; k < threads; k++)\n\t\tif (pthread_create(&t[k], NULL, worker, &acc[k]) != 0)"
               "\n\t\t\treturn 1;\n\tfor (int k = 0; k < threads; k++) {\n\t\tpthread_join(t[k], NULL);"
               "\n\t\tsum += acc[k];\n\t}\n\tprintf(\"%u\\n\", sum);\n\treturn 0;\n}")
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
