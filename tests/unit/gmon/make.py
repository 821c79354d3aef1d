#!/usr/bin/env python3
"""make.py: writes the small gmon files the reader's unit tests read (tests/unit/gmon/*.t)."""
import struct
import sys


def magic(e='<', v='Q', version=1, hist=True, arcs=True, bb=False, tag=None):
    out = b'gmon' + struct.pack(e + 'I', version) + b'\0' * 12
    if tag is not None:
        out += bytes([tag])
    if hist:
        bins = [0] * 128
        bins[3], bins[40], bins[127] = 5, 7, 65535
        out += b'\0' + struct.pack(e + v + v + 'II', 0x1000, 0x1100, 128, 100)
        out += b'seconds'.ljust(15, b'\0') + b's' + struct.pack(e + '128H', *bins)
    if arcs:
        out += b'\1' + struct.pack(e + v + v + 'I', 0x1010, 0x1040, 3)
        out += b'\1' + struct.pack(e + v + v + 'I', 0x0ff0, 0x1010, 4000000000)
    if bb:
        out += b'\2' + struct.pack(e + 'I', 2) + struct.pack(e + v + v + v + v, 0x1010, 9, 0x1014, 12)
    return out


def bsd(e='<', v='Q', rate=None):
    bins = [0] * 64
    bins[0], bins[63] = 2, 3
    if rate is None:
        hdr = struct.pack(e + v + v + 'I', 0x2000, 0x2080, (20 if v == 'Q' else 12) + 128)
    else:
        size = 40 if v == 'Q' else 32
        hdr = struct.pack(e + v + v + 'III', 0x2000, 0x2080, size + 128, 0x00051879, rate) + b'\0' * 12
    c = v
    return hdr + struct.pack(e + '64H', *bins) + struct.pack(e + v + v + c, 0x2004, 0x2040, 77)


FILES = {
    'le64': magic(),
    'be64': magic('>'),
    'le32': magic('<', 'I'),
    'bb': magic(bb=True),
    'v0bad': magic(version=3),
    'badtag': magic(tag=9),
    'short': magic()[:10],
    'cut_hist': magic()[:20 + 1 + 16 + 8 + 16 + 100],
    'cut_arc': magic()[:-5],
    'arcs_only': magic(hist=False),
    'bsd64': bsd(),
    'bsd44': bsd(rate=1000),
    'bsd32be': bsd('>', 'I'),
    'bsd_cut': bsd()[:20 + 60],
}

for name, data in FILES.items():
    open(sys.argv[1] + '/' + name, 'wb').write(data)
