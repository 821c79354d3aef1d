#!/usr/bin/env python3
"""tree-gmon.py: a gmon.out whose histogram is chosen, for the call tree's golden screens.

usage: tree-gmon.py PROG IN OUT NAME=SAMPLES...

Reads IN, the GNU gmon.out of a run of PROG (64-bit, little-endian), and
writes OUT with the same arcs (call counts are exact, so they are the same
on every run) and its histogram's range, but with every bin empty except
SAMPLES samples in the middle of each function NAME (nm -C's name, or the
one function whose name contains NAME).  The times the browser shows are
then the same on every run too.
"""
import struct
import subprocess
import sys


def functions(prog):
    out = subprocess.run(['nm', '-C', '-S', '--defined-only', prog], capture_output=True,
                         text=True, check=True).stdout
    fns = {}
    for line in out.splitlines():
        f = line.split(None, 3)
        if len(f) == 4 and f[2] in 'TtWw':
            fns[f[3]] = (int(f[0], 16), int(f[1], 16))
    return fns


def find(fns, name):
    if name in fns:
        return fns[name]
    hits = [n for n in fns if name in n]
    if len(hits) != 1:
        sys.exit('tree-gmon.py: %s: %d functions match' % (name, len(hits)))
    return fns[hits[0]]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    prog, src, dst = sys.argv[1:4]
    data = open(src, 'rb').read()
    assert data[:4] == b'gmon', 'not a GNU gmon.out'
    out, off = data[:20], 20
    fns = functions(prog)
    while off < len(data):
        tag = data[off]
        if tag == 0:
            lo, hi, n, rate = struct.unpack('<QQII', data[off + 1:off + 25])
            bins = [0] * n
            for spec in sys.argv[4:]:
                name, samples = spec.rsplit('=', 1)
                addr, size = find(fns, name)
                bins[(addr + size // 2 - lo) * n // (hi - lo)] += int(samples)
            out += data[off:off + 41] + struct.pack('<%dH' % n, *bins)
            off += 41 + 2 * n
        elif tag == 1:
            out += data[off:off + 21]
            off += 21
        else:
            sys.exit('tree-gmon.py: record tag %d' % tag)
    open(dst, 'wb').write(out)


main()
