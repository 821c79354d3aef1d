#!/usr/bin/env python3
"""live_gen.py N DIR: a C program of N small functions, every one called each round, for make bench's live part.

Writes DIR/fK.c (5,000 functions each, and run_K() calling them all
directly: one arc each, in the call sites' slots) and DIR/main.c, whose
main() runs ROUNDS rounds (its argument) of every run_K().  Deterministic.
"""
import os
import sys

PER = 5000


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    files = (n + PER - 1) // PER
    for k in range(files):
        lo, hi = k * PER, min(n, (k + 1) * PER)
        lines = ['extern volatile unsigned long sink;']
        for i in range(lo, hi):
            lines.append('__attribute__((noinline)) void f%d(void) { sink += %du; }' % (i, i % 97 + 1))
        lines.append('void run_%d(void) {' % k)
        lines += ['\tf%d();' % i for i in range(lo, hi)]
        lines.append('}')
        with open(os.path.join(out, 'f%d.c' % k), 'w') as f:
            f.write('\n'.join(lines) + '\n')
    lines = ['#include <stdlib.h>', 'volatile unsigned long sink;']
    lines += ['void run_%d(void);' % k for k in range(files)]
    lines += ['int main(int argc, char **argv) {', '\tlong r, rounds = argc > 1 ? atol(argv[1]) : 100;',
              '\tfor (r = 0; r < rounds; r++) {']
    lines += ['\t\trun_%d();' % k for k in range(files)]
    lines += ['\t}', '\treturn 0;', '}']
    with open(os.path.join(out, 'main.c'), 'w') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
