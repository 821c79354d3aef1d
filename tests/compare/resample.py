#!/usr/bin/env python3
"""resample.py: another run's gmon.out as sampling would give it: each histogram bin redrawn from Poisson.

Usage: resample.py IN OUT SEED [K]
Copies the GNU gmon.out IN (64-bit, little-endian) to OUT with every
histogram bin's count c replaced by a draw from a Poisson distribution of
mean c (seeded: the same file every time), the arcs kept: what a second
run of a deterministic program differs by, sampling noise alone.  With K,
each sampling signal brings K samples (a CPU-time timer at K times the
kernel's tick): a bin is K times a draw of mean c / K, its variance K c.
"""
import math
import random
import struct
import sys


def poisson(rng, mean):
    if mean == 0:
        return 0
    if mean > 50:   # the normal approximation, rounded
        return max(0, int(round(rng.gauss(mean, math.sqrt(mean)))))
    limit, k, p = math.exp(-mean), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def main():
    src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    k = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    rng = random.Random(seed)
    data = open(src, "rb").read()
    assert data[:4] == b"gmon", "not a GNU gmon.out"
    out, off = bytearray(data[:20]), 20
    while off < len(data):
        tag = data[off]
        if tag == 0:
            n = struct.unpack("<I", data[off + 17:off + 21])[0]
            bins = struct.unpack("<%dH" % n, data[off + 41:off + 41 + 2 * n])
            out += data[off:off + 41] + struct.pack("<%dH" % n, *[min(65535, k * poisson(rng, c / k))
                                                                  for c in bins])
            off += 41 + 2 * n
        elif tag == 1:
            out += data[off:off + 21]
            off += 21
        else:
            sys.exit("resample.py: record tag %d" % tag)
    open(dst, "wb").write(bytes(out))


main()
