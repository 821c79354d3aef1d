#!/usr/bin/env python3
"""chain.py N DIR: an nm-style symbol list of N functions calling each other in a chain, and its gmon.out.

For `tgprof -S DIR/syms EXE DIR/gmon.out` (EXE: any x86-64 executable, which
gives the byte order): gprof's recursive depth-first search overflows its
stack on such a chain; tgprof's is iterative.
"""
import os
import struct
import sys

n, out = int(sys.argv[1]), sys.argv[2]
os.makedirs(out, exist_ok=True)
with open(out + '/syms', 'w') as f:
    for i in range(n):
        f.write('%x T f%d\n' % (0x10000 + 16 * i, i))
with open(out + '/gmon.out', 'wb') as f:
    f.write(b'gmon' + struct.pack('<I', 1) + b'\0' * 12)
    nb = 8 * n
    bins = bytearray(2 * nb)
    for i in range(0, n - 1, 97):
        struct.pack_into('<H', bins, 2 * 8 * i, 1 + i % 5)
    f.write(b'\0' + struct.pack('<QQII', 0x10000, 0x10000 + 16 * n, nb, 100))
    f.write(b'seconds'.ljust(15, b'\0') + b's' + bytes(bins))
    for i in range(n - 1):
        f.write(b'\1' + struct.pack('<QQI', 0x10000 + 16 * i + 4, 0x10000 + 16 * (i + 1), 1))
