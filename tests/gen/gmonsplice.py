#!/usr/bin/env python3
"""Rewrite a GNU gmon.out whose arc records follow its histogram (synth.py's).

usage: gmonsplice.py IN OUTDIR

Writes into OUTDIR, for the damaged suite's checks of the records judged
ahead (src/core/ahead.c), the same profile as IN:
  split.0, split.1, ...  its arc records in files of at most 60,000 (each
                         read on one thread), the histogram in the first;
  bb21.out               a basic-block record of one block (21 bytes, an
                         arc record's size) at a quarter and at three
                         quarters of the arc records;
  bb5.out                a basic-block record of no block (5 bytes) at a
                         quarter: every later record off the places judged;
  cut.out                cut in the middle of an arc record at 3/4;
  ones.out               every count 1;
  ones-bb277.out         the same, a basic-block record of 17 blocks (277
                         bytes) at a quarter: the places judged fall on
                         each later record's count, whose first byte (1)
                         is an arc record's tag.
Without -l the basic blocks change nothing but a warning.
"""
import os, struct, sys

ARC = 21    # tag, two 8-byte addresses, a 4-byte count


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = open(sys.argv[1], 'rb').read()
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if data[20] != 0:
        sys.exit('gmonsplice.py: no histogram record first')
    nbins = struct.unpack_from('<I', data, 20 + 17)[0]
    first = 20 + 1 + 16 + 8 + 16 + 2 * nbins
    if (len(data) - first) % ARC or any(data[o] != 1 for o in range(first, len(data), ARC)):
        sys.exit('gmonsplice.py: the arc records do not run from the histogram to the end')
    head, hist = data[:20], data[20:first]
    arcs = [data[o:o + ARC] for o in range(first, len(data), ARC)]
    n = len(arcs)

    def write(name, parts):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(b''.join(parts))

    for k, lo in enumerate(range(0, n, 60000)):
        write('split.%d' % k, [head] + ([hist] if k == 0 else []) + arcs[lo:lo + 60000])
    bb21 = b'\2' + struct.pack('<IQQ', 1, 0, 0)
    bb5 = b'\2' + struct.pack('<I', 0)
    q, t = n // 4, 3 * n // 4
    write('bb21.out', [head, hist] + arcs[:q] + [bb21] + arcs[q:t] + [bb21] + arcs[t:])
    write('bb5.out', [head, hist] + arcs[:q] + [bb5] + arcs[q:])
    write('cut.out', [head, hist] + arcs[:t] + [arcs[t][:9]])
    ones = [a[:17] + struct.pack('<I', 1) for a in arcs]
    bb277 = b'\2' + struct.pack('<I', 17) + b'\0' * 16 * 17
    write('ones.out', [head, hist] + ones)
    write('ones-bb277.out', [head, hist] + ones[:q] + [bb277] + ones[q:])
    print('%d arc records, %d split files' % (n, (n + 59999) // 60000))


main()
