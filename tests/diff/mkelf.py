#!/usr/bin/env python3
"""mkelf.py: write a small ELF executable and a matching gmon.out from a text spec.

usage: mkelf.py SPEC OUTDIR     (writes OUTDIR/prog and OUTDIR/gmon.out)

Spec lines ('#' starts a comment):
  elf CLASS ORDER MACHINE    32|64, le|be, x86-64|i386|aarch64|none
  text VMA SIZE              the .text section
  sym NAME BIND TYPE OFFSET  BIND g (global), l (local), w (weak);
                             TYPE f (function), n (no type); OFFSET from VMA
  data NAME BIND OFFSET      a symbol in a .data section after the text
  hist LOW HIGH BINS RATE    a histogram record (offsets from VMA; default:
                             the whole text, 2-byte bins, rate 100)
  sample NAME TICKS [DELTA]  TICKS samples at NAME+DELTA (default: spread over it)
  arc FROM TO COUNT          FROM and TO are NAME[+DELTA] or a raw address
  code OFFSET HEXBYTES       machine code bytes in .text (for -c)
The symbol table keeps the spec's order; names are laid out in .strtab in
that order too, so gprof's static-name filter sees the same neighbours.
"""
import struct
import sys


def parse(path):
    spec = {'elf': (64, 'le', 'x86-64'), 'text': (0x401000, 0x400), 'syms': [], 'data': [],
            'hist': [], 'samples': [], 'arcs': [], 'code': []}
    for line in open(path):
        line = line.split('#', 1)[0].split()
        if not line:
            continue
        k, a = line[0], line[1:]
        if k == 'elf':
            spec['elf'] = (int(a[0]), a[1], a[2])
        elif k == 'text':
            spec['text'] = (int(a[0], 0), int(a[1], 0))
        elif k == 'sym':
            spec['syms'].append((a[0], a[1], a[2], int(a[3], 0)))
        elif k == 'data':
            spec['data'].append((a[0], a[1], int(a[2], 0)))
        elif k == 'hist':
            spec['hist'].append(tuple(int(x, 0) for x in a))
        elif k == 'sample':
            spec['samples'].append((a[0], int(a[1]), int(a[2], 0) if len(a) > 2 else None))
        elif k == 'arc':
            spec['arcs'].append((a[0], a[1], int(a[2])))
        elif k == 'code':
            spec['code'].append((int(a[0], 0), bytes.fromhex(a[1])))
        else:
            raise SystemExit('%s: unknown line %s' % (path, k))
    return spec


MACHINE = {'x86-64': 62, 'i386': 3, 'aarch64': 183, 'none': 0}


def write_elf(spec, out):
    bits, order, mach = spec['elf']
    e = '<' if order == 'le' else '>'
    b64 = bits == 64
    vma, size = spec['text']
    data_vma = (vma + size + 0xfff) & ~0xfff
    text = bytearray(b'\x90' * size)
    for off, code in spec['code']:
        text[off:off + len(code)] = code
    data = b'\0' * 64
    strtab = b'\0'
    symtab = b'\0' * (24 if b64 else 16)
    names = {}
    all_syms = [(n, b, t, vma + o, 1) for n, b, t, o in spec['syms']]
    all_syms += [(n, b, 'o', data_vma + o, 2) for n, b, o in spec['data']]
    # Locals first, as ELF requires; keep the spec's order otherwise.
    ordered = [s for s in all_syms if s[1] == 'l'] + [s for s in all_syms if s[1] != 'l']
    for name, bind, typ, value, shndx in ordered:
        names[name] = len(strtab)
        strtab += name.encode() + b'\0'
    nlocal = 1 + sum(1 for s in ordered if s[1] == 'l')
    for name, bind, typ, value, shndx in ordered:
        info = ({'l': 0, 'g': 1, 'w': 2}[bind] << 4) | {'f': 2, 'n': 0, 'o': 1}[typ]
        if b64:
            symtab += struct.pack(e + 'IBBHQQ', names[name], info, 0, shndx, value, 0)
        else:
            symtab += struct.pack(e + 'IIIBBH', names[name], value, 0, info, 0, shndx)
    shstr = b'\0.text\0.data\0.symtab\0.strtab\0.shstrtab\0'
    ehsize = 64 if b64 else 52
    shentsize = 64 if b64 else 40
    offs = [ehsize]
    blobs = [bytes(text), data, symtab, strtab, shstr]
    for bl in blobs[:-1]:
        offs.append(offs[-1] + len(bl))
    shoff = offs[-1] + len(blobs[-1])
    shoff = (shoff + 7) & ~7
    img = bytearray()
    ident = b'\x7fELF' + bytes([2 if b64 else 1, 1 if order == 'le' else 2, 1]) + b'\0' * 9
    if b64:
        img += ident + struct.pack(e + 'HHIQQQIHHHHHH', 2, MACHINE[mach], 1, vma, 0, shoff, 0,
                                   ehsize, 0, 0, shentsize, 6, 5)
    else:
        img += ident + struct.pack(e + 'HHIIIIIHHHHHH', 2, MACHINE[mach], 1, vma, 0, shoff, 0,
                                   ehsize, 0, 0, shentsize, 6, 5)
    for bl in blobs:
        img += bl
    img += b'\0' * (shoff - len(img))
    entsize = 24 if b64 else 16

    def sh(name, typ, flags, addr, off, sz, link=0, info=0, align=1, es=0):
        if b64:
            return struct.pack(e + 'IIQQQQIIQQ', name, typ, flags, addr, off, sz, link, info, align, es)
        return struct.pack(e + 'IIIIIIIIII', name, typ, flags, addr, off, sz, link, info, align, es)
    img += sh(0, 0, 0, 0, 0, 0)
    img += sh(1, 1, 6, vma, offs[0], len(blobs[0]), align=16)
    img += sh(7, 1, 3, data_vma, offs[1], len(blobs[1]), align=8)
    img += sh(13, 2, 0, 0, offs[2], len(blobs[2]), 4, nlocal, 8, entsize)
    img += sh(21, 3, 0, 0, offs[3], len(blobs[3]))
    img += sh(29, 3, 0, 0, offs[4], len(blobs[4]))
    open(out, 'wb').write(bytes(img))
    addrs = {n: vma + o for n, b, t, o in spec['syms']}
    addrs.update({n: data_vma + o for n, b, o in spec['data']})
    return addrs, vma, size


def addr_of(word, addrs):
    name, _, delta = word.partition('+')
    if name in addrs:
        return addrs[name] + (int(delta, 0) if delta else 0)
    return int(word, 0)


def write_gmon(spec, addrs, vma, size, out):
    bits, order, _ = spec['elf']
    e = '<' if order == 'le' else '>'
    v = 'Q' if bits == 64 else 'I'
    hists = spec['hist'] or [(0, size, size // 2, 100)]
    g = b'gmon' + struct.pack(e + 'I', 1) + b'\0' * 12
    starts = sorted(a for a in addrs.values() if a < vma + size) + [vma + size]
    for lo, hi, nbins, rate in hists:
        bins = [0] * nbins
        scale = (hi - lo) / nbins
        for name, ticks, delta in spec['samples']:
            a0 = addrs[name]
            nxt = min([s for s in starts if s > a0] or [vma + size])
            for t in range(ticks):
                a = a0 + (delta if delta is not None else (t * 7) % max(1, nxt - a0))
                b = int((a - vma - lo) / scale)
                if 0 <= b < nbins:
                    bins[b] += 1
        g += b'\0' + struct.pack(e + v + v + 'II', vma + lo, vma + hi, nbins, rate)
        g += b'seconds'.ljust(15, b'\0') + b's' + struct.pack(e + '%dH' % nbins, *bins)
    for f, t, c in spec['arcs']:
        g += b'\1' + struct.pack(e + v + v + 'I', addr_of(f, addrs), addr_of(t, addrs), c)
    open(out, 'wb').write(g)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    spec = parse(sys.argv[1])
    addrs, vma, size = write_elf(spec, sys.argv[2] + '/prog')
    write_gmon(spec, addrs, vma, size, sys.argv[2] + '/gmon.out')


main()
