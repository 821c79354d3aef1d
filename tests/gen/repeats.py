#!/usr/bin/env python3
"""repeats.py IN EARLY LATE N: two gmon files of IN's run (its header and histogram) whose arcs repeat.

IN is a libtgmon gmon.out (little-endian, 64-bit).  EARLY gets IN's first
two arcs A and B, N records each of one call (A's first); LATE gets N
records of two calls each, B's first: the interval LATE less EARLY is N
calls of each, found only through repeated entries of one hash, in
another order (tgprof --since must take them in linear time).
"""
import struct
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    data = open(sys.argv[1], 'rb').read()
    n = int(sys.argv[4])
    pos, hist, arcs = 20, b'', []
    while pos < len(data):
        if data[pos] == 0:
            bins = struct.unpack('<QQII', data[pos + 1:pos + 25])[2]
            size = 1 + 24 + 16 + 2 * bins
            hist += data[pos:pos + size]
            pos += size
        elif data[pos] == 1:
            arcs.append(struct.unpack('<QQ', data[pos + 1:pos + 17]))
            pos += 21
        else:
            sys.exit('repeats.py: %s: a record of tag %d' % (sys.argv[1], data[pos]))
    if len(arcs) < 2:
        sys.exit('repeats.py: %s: fewer than two arcs' % sys.argv[1])
    a, b = arcs[0], arcs[1]

    def write(path, first, second, calls):
        recs = [first] * n + [second] * n
        open(path, 'wb').write(data[:20] + hist + b''.join(
            b'\1' + struct.pack('<QQI', f, s, calls) for f, s in recs))

    write(sys.argv[2], a, b, 1)
    write(sys.argv[3], b, a, 2)


main()
