#!/usr/bin/env python3
"""flame_spec.py: a spec for tests/gen/stacks.py with many distinct stacks over PROG's functions.

Usage: flame_spec.py PROG STACKS > SPEC
STACKS distinct stacks, 2 to 40 frames deep, under main, branching as a
real program's do (a few hot paths shared by many stacks, a long tail),
counts from 1 to 50; fixed seed, so every run benchmarks the same tree.
"""
import random
import subprocess
import sys


def main():
    out = subprocess.run(["nm", "--defined-only", sys.argv[1]], capture_output=True, text=True).stdout
    names = sorted(l.split()[2] for l in out.splitlines() if l.split()[1:2] in (["t"], ["T"])
                   and l.split()[2].startswith("f_"))
    stacks, n = int(sys.argv[2]), len(names)
    rng = random.Random(1)
    hot = [[names[rng.randrange(n)] for _ in range(rng.randrange(2, 12))] for _ in range(50)]
    seen = set()
    print("rate 1000")
    while len(seen) < stacks:
        path = ["main"] + rng.choice(hot)[:rng.randrange(1, 12)]
        path += [names[rng.randrange(n)] for _ in range(rng.randrange(1, 28))]
        key = ";".join(path)
        if key in seen:
            continue
        seen.add(key)
        print("%d 1 %s" % (rng.randrange(1, 51), key))


main()
