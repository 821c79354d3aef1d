#!/usr/bin/env python3
"""stacks.py: writes a libtgmon stacks file (src/input/gmon_out.h) of stacks named by function.

Usage: stacks.py PROG GMON_IN GMON_OUT STACKS_OUT RUNID < SPEC
Copies GMON_IN to GMON_OUT with RUNID (decimal or 0x...) in its GNU header's
spare bytes, and writes STACKS_OUT with RUNID.  Each SPEC line is
"COUNT FLAGS FRAMES": FLAGS a sum of 1 (reached the root) and 2 (truncated),
FRAMES outermost first, ';'-separated, each a function of PROG (nm) or
"@NAME" for a frame in a library called NAME, or "@PATH:FUNC" for function
FUNC of the shared library PATH (nm; "+HEX": at that offset), placed as the dynamic linker would.  The executable is placed at
0x555555554000 as a PIE is; the sampled PC is a function's address + 1, a
return address its caller's + 2, so that address - 1 is inside the caller.
Optional "#" lines are comments; a line "rate N" sets the sampling rate,
"signals N" the signals that brought the samples (by default one each).
A line "thread TID NAME [CPU_NS]" makes the file version 3 (thread records,
gmon_out.h) and the stack lines after it that thread's (NAME: bytes, with
Python's backslash escapes; "thread -" goes back to no thread,
TGSTACKS_NO_THREAD).  The first thread is the main one, the others ended;
a thread's samples are its stacks' counts, its signals as many; CPU_NS,
when given, is its measured CPU time.  Without a thread line the file is
version 1, as before.  In version 3, FLAGS may add 4 (a wait: COUNT is
nanoseconds off CPU, not samples); the header then says waits were
recorded.
"""
import codecs
import struct
import subprocess
import sys

BASE = 0x555555554000
LIB_BASE = 0x7f0000000000
LIB_SPACE = 0x100000000     # between libraries: room for any library's text


def symbols(prog):
    """PROG's text symbols by name, from its symbol table, else its dynamic one."""
    out = subprocess.run(["nm", "--defined-only", prog], capture_output=True, text=True).stdout
    out += subprocess.run(["nm", "-D", "--defined-only", prog], capture_output=True,
                          text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms.setdefault(parts[2], int(parts[0], 16))
    return syms


def thread(threads, words):
    """A "thread" line's record added to THREADS (TID NAME [CPU_NS]); its index, or no thread ("-")."""
    if words[0] == "-":
        return 0xffffffff
    name = codecs.escape_decode(words[1].encode())[0]
    threads.append((int(words[0]), name, int(words[2]) if len(words) > 2 else None))
    return len(threads) - 1


def main():
    prog, gin, gout, sout, runid = sys.argv[1:6]
    runid = int(runid, 0)
    syms = symbols(prog)
    data = bytearray(open(gin, "rb").read())
    assert data[:4] == b"gmon"
    data[8:16] = struct.pack("<Q", runid)
    open(gout, "wb").write(data)
    libs, stacks, rate, signals, top = [], [], 1000, None, {}
    threads, cur = [], 0xffffffff
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("rate "):
            rate = int(line.split()[1])
            continue
        if line.startswith("signals "):
            signals = int(line.split()[1])
            continue
        if line.startswith("thread "):
            cur = thread(threads, line.split()[1:])
            continue
        count, flags, frames = line.split(None, 2)
        names = frames.split(";")
        addrs = []
        for k, name in enumerate(reversed(names)):
            if name.startswith("@"):
                lib, _, fn = name[1:].partition(":")
                if lib not in libs:
                    libs.append(lib)
                off = (int(fn[1:], 16) if fn.startswith("+") else symbols(lib)[fn]) if fn else 0x1000
                top[lib] = max(top.get(lib, 0), off)
                a = LIB_BASE + LIB_SPACE * libs.index(lib) + off
            else:
                a = BASE + syms[name]
            addrs.append(a + (1 if k == 0 else 2))
        stacks.append((int(count), int(flags), addrs, cur))
    lo = BASE + min(syms.values())
    hi = BASE + max(syms.values()) + 0x1000
    mods = [(BASE, lo, hi, b"")]
    for i, name in enumerate(libs):
        b = LIB_BASE + LIB_SPACE * i
        path = name if "/" in name else "/usr/lib/" + name
        mods.append((b, b, b + max(0x10000, top.get(name, 0) + 0x1000), path.encode()))
    samples = sum(c for c, f, _, _ in stacks if not f & 4)
    root = sum(c for c, f, _, _ in stacks if f & 1 and not f & 4)
    trunc = sum(c for c, f, _, _ in stacks if f & 2 and not f & 4)
    wait_ns = sum(c for c, f, _, _ in stacks if f & 4)
    waits = sum(1 for _, f, _, _ in stacks if f & 4)
    v3 = bool(threads)
    assert v3 or not waits, "wait records need version 3 (a thread line)"
    out = bytearray(b"tgstacks")
    out += struct.pack("<IIQIIII", 3 if v3 else 1, 1 if waits else 0, runid, rate, len(mods), 256,
                       len(threads))
    out += struct.pack("<QQQQQQ", len(stacks), samples, root, trunc, 0,
                       samples if signals is None else signals)
    assert len(out) == 88
    if v3:
        out += struct.pack("<II", 0, 1)     # call_ps: not measured; clock: a CPU-time timer
        out += struct.pack("<QQ", wait_ns, waits)
    for base, lo_, hi_, name in mods:
        out += struct.pack("<QQQI", base, lo_, hi_, len(name)) + name
    for i, (tid, name, cpu) in enumerate(threads):
        n = sum(c for c, f, _, t in stacks if t == i and not f & 4)
        flags = (2 if i == 0 else 1) | (4 if cpu is not None else 0)
        start = 1000 * i
        out += struct.pack("<IIQQQQQI", tid, flags, cpu or 0, n, n, start, start + 1000000, len(name))
        out += name
    for count, flags, addrs, t in stacks:
        out += struct.pack("<QII", count, len(addrs), flags)
        if v3:
            out += struct.pack("<I", t)
        out += b"".join(struct.pack("<Q", a) for a in addrs)
    open(sout, "wb").write(out)


if __name__ == "__main__":
    main()
