#!/usr/bin/env python3
"""mkgmon.py: make the gmon.out variants the toolchain no longer writes, for the differential tests.

usage: mkgmon.py COMMAND IN OUT [ARGS]

Reads a GNU magic gmon.out IN (little-endian, 64-bit unless --be/--32)
and writes OUT:
  copy                 as is (re-encoded)
  bsd                  old BSD format (one histogram, then arcs)
  bsd44 [RATE]         4.4BSD format with a profiling rate (default: IN's)
  rate N               histogram records with prof_rate N (0: gprof divides by 0)
  arcs-only            no histogram records
  hist-only            no arc records
  nobins               one histogram record with num_bins 0
  dup-hist             every histogram record twice (gprof sums equal ranges)
  split-hist           the histogram cut into two records at its middle
  overlap-hist         an extra record overlapping the first one (an error)
  scale-hist           a second record with another scale (an error)
  dimen-hist           a second record with another dimension name (an error)
  bb [ADDR...]         add basic-block records (version 1)
  bigcount             arc counts near 2^32 so sums overflow 32 bits
  bsd-hugecount        old BSD format, every other arc's count above 2^62,
                       the others' between (64-bit counts: the orders'
                       one-key sort gives way to two passes)
  bigbins              bins near 2^16 so sums wrap in gmon.sum
  badtag               a record with tag 7 after the header
  truncate N           only the first N bytes
  version N            header version N
  reverse-arcs         arc records in reverse order
  put ADDR N           add N samples to the bin holding ADDR
Options: --be (big-endian), --32 (32-bit addresses), --out-be/--out-32 to re-encode.
"""
import struct
import sys


class Gmon:
    def __init__(self):
        self.hist = []   # (lowpc, highpc, rate, dimen(15 bytes), abbrev, [counts])
        self.arcs = []   # (from, self, count)
        self.bbs = []    # (addr, count)
        self.version = 1


def fmt(be, b32):
    return ('>' if be else '<'), ('I' if b32 else 'Q')


def read(path, be=False, b32=False):
    e, v = fmt(be, b32)
    vs = 4 if b32 else 8
    data = open(path, 'rb').read()
    g = Gmon()
    assert data[:4] == b'gmon', 'not a magic gmon file'
    g.version = struct.unpack(e + 'I', data[4:8])[0]
    off = 20
    while off < len(data):
        tag = data[off]
        off += 1
        if tag == 0:
            lo, hi = struct.unpack(e + v + v, data[off:off + 2 * vs])
            off += 2 * vs
            n, rate = struct.unpack(e + 'II', data[off:off + 8])
            off += 8
            dimen, abbrev = data[off:off + 15], data[off + 15:off + 16]
            off += 16
            counts = list(struct.unpack(e + '%dH' % n, data[off:off + 2 * n]))
            off += 2 * n
            g.hist.append((lo, hi, rate, dimen, abbrev, counts))
        elif tag == 1:
            f, s = struct.unpack(e + v + v, data[off:off + 2 * vs])
            off += 2 * vs
            c = struct.unpack(e + 'I', data[off:off + 4])[0]
            off += 4
            g.arcs.append((f, s, c))
        elif tag == 2:
            n = struct.unpack(e + 'I', data[off:off + 4])[0]
            off += 4
            for _ in range(n):
                a, c = struct.unpack(e + v + v, data[off:off + 2 * vs])
                off += 2 * vs
                g.bbs.append((a, c))
        else:
            raise SystemExit('bad tag %d' % tag)
    return g


def magic(g, be=False, b32=False):
    e, v = fmt(be, b32)
    out = b'gmon' + struct.pack(e + 'I', g.version) + b'\0' * 12
    for lo, hi, rate, dimen, abbrev, counts in g.hist:
        out += b'\0' + struct.pack(e + v + v + 'II', lo, hi, len(counts), rate) + dimen + abbrev
        out += struct.pack(e + '%dH' % len(counts), *[c & 0xffff for c in counts])
    for f, s, c in g.arcs:
        out += b'\1' + struct.pack(e + v + v + 'I', f, s, c & 0xffffffff)
    if g.bbs:
        out += b'\2' + struct.pack(e + 'I', len(g.bbs))
        for a, c in g.bbs:
            out += struct.pack(e + v + v, a, c)
    return out


def bsd(g, be=False, b32=False, rate=None):
    e, v = fmt(be, b32)
    lo, hi, r, _, _, counts = g.hist[0]
    if rate is None:
        hdr = 12 if b32 else 20
        out = struct.pack(e + v + v + 'I', lo, hi, hdr + 2 * len(counts))
    else:
        hdr = 32 if b32 else 40
        out = struct.pack(e + v + v + 'III', lo, hi, hdr + 2 * len(counts), 0x00051879, rate)
        out += b'\0' * 12
    out += struct.pack(e + '%dH' % len(counts), *counts)
    for f, s, c in g.arcs:
        out += struct.pack(e + v + v + v, f, s, c)
    return out


def transform(g, cmd, args):
    if cmd == 'rate':
        g.hist = [(h[0], h[1], int(args[0])) + h[3:] for h in g.hist]
    elif cmd == 'arcs-only':
        g.hist = []
    elif cmd == 'hist-only':
        g.arcs = []
    elif cmd == 'nobins':
        g.hist = [g.hist[0][:5] + ([],)]
    elif cmd == 'dup-hist':
        g.hist = g.hist + g.hist
    elif cmd in ('split-hist', 'overlap-hist', 'scale-hist', 'dimen-hist'):
        lo, hi, rate, dimen, abbrev, counts = g.hist[0]
        n = len(counts)
        half = n // 2
        # Keep the scale: cut at a bin boundary that is an integer address.
        step = (hi - lo) / n
        while half > 0 and abs(half * step - round(half * step)) > 1e-9:
            half -= 1
        mid = lo + int(round(half * step))
        if cmd == 'split-hist':
            g.hist = [(lo, mid, rate, dimen, abbrev, counts[:half]),
                      (mid, hi, rate, dimen, abbrev, counts[half:])] + g.hist[1:]
        elif cmd == 'overlap-hist':
            g.hist.append((lo + 16, hi + 16, rate, dimen, abbrev, counts))
        elif cmd == 'scale-hist':
            g.hist.append((hi + 64, hi + 64 + 4 * n, rate, dimen, abbrev, counts))
        else:
            g.hist.append((hi + 64, hi + 64 + (hi - lo), rate, b'ticks'.ljust(15, b'\0'), abbrev, counts))
    elif cmd == 'bb':
        addrs = [int(a, 0) for a in args] or [g.arcs[0][1], g.arcs[0][1] + 4, g.arcs[-1][1]]
        g.bbs = [(a, 1000 + 7 * i) for i, a in enumerate(addrs)]
    elif cmd == 'bigcount':
        g.arcs = [(f, s, 0xfffffff0 - i) for i, (f, s, c) in enumerate(g.arcs)]
    elif cmd == 'bsd-hugecount':
        g.arcs = [(f, s, (1 << 62) + i if i % 2 == 0 else (1 << 20) + c)
                  for i, (f, s, c) in enumerate(g.arcs)]
    elif cmd == 'bigbins':
        g.hist = [h[:5] + ([min(0xffff, 40000 + c) if c else 0 for c in h[5]],) for h in g.hist]
    elif cmd == 'put':
        addr, n = int(args[0], 0), int(args[1])
        for lo, hi, rate, dimen, abbrev, counts in g.hist:
            if lo <= addr < hi:
                i = (addr - lo) * len(counts) // (hi - lo)
                counts[i] = min(0xffff, counts[i] + n)
                break
        else:
            raise SystemExit('put: 0x%x is outside the histogram' % addr)
    elif cmd == 'reverse-arcs':
        g.arcs.reverse()
    elif cmd == 'version':
        g.version = int(args[0])
    elif cmd not in ('copy', 'bsd', 'bsd44', 'badtag', 'truncate'):
        raise SystemExit('unknown command ' + cmd)


def main():
    argv = sys.argv[1:]
    be = '--be' in argv
    b32 = '--32' in argv
    obe = '--out-be' in argv or be
    o32 = '--out-32' in argv or b32
    argv = [a for a in argv if not a.startswith('--')]
    if len(argv) < 3:
        raise SystemExit(__doc__)
    cmd, src, dst, args = argv[0], argv[1], argv[2], argv[3:]
    g = read(src, be, b32)
    transform(g, cmd, args)
    if cmd in ('bsd', 'bsd-hugecount'):
        out = bsd(g, obe, o32)
    elif cmd == 'bsd44':
        out = bsd(g, obe, o32, int(args[0]) if args else g.hist[0][2])
    else:
        out = magic(g, obe, o32)
    if cmd == 'badtag':
        out = out[:20] + b'\7' + out[20:]
    elif cmd == 'truncate':
        out = out[:int(args[0])]
    open(dst, 'wb').write(out)


main()
