#!/usr/bin/env python3
"""callgrind-check.py: a Callgrind file's functions against tgprof's flat profile.

Usage: callgrind-check.py CALLGRIND FLAT
FLAT is `tgprof --batch -b -p` output.  Every function of the flat profile
must be in the Callgrind file with its self time (microseconds, to the flat
profile's two decimals of seconds) and, where the flat profile gives calls,
the calls into it from other functions summed over the file's calls= lines.  Prints the
differences, exits 1 if there are any.
"""
import re
import sys


def callgrind(path):
    names, fl = {}, {}
    self_us, calls_in = {}, {}
    cur = None
    pending = None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if m:
            key, num, name = m.groups()
            if name is not None:
                names[num] = name
            if key == "fn":
                cur = names[num]
                self_us.setdefault(cur, 0)
            else:
                pending = names[num]
            continue
        m = re.match(r"^calls=(\d+) ", line)
        if m:
            if pending != cur:     # the flat profile's calls are from other functions
                calls_in[pending] = calls_in.get(pending, 0) + int(m.group(1))
            pending = (pending, "cost")
            continue
        m = re.match(r"^(\d+) (\d+)$", line)
        if m:
            if isinstance(pending, tuple):   # the inclusive cost of a call
                pending = None
            elif cur is not None:
                self_us[cur] += int(m.group(2))
    return self_us, calls_in


def flat(path):
    rows = []
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.split()
        if len(f) >= 4 and re.match(r"^\d+\.\d\d$", f[0]) and re.match(r"^\d+\.\d\d$", f[2]):
            calls = int(f[3]) if len(f) >= 7 and f[3].isdigit() else None
            name = " ".join(f[6:] if calls is not None else f[3:])
            rows.append((name, float(f[2]), calls))
    return rows


def main():
    self_us, calls_in = callgrind(sys.argv[1])
    bad = 0
    rows = flat(sys.argv[2])
    for name, secs, calls in rows:
        if name not in self_us:
            print("missing: %s" % name)
            bad += 1
            continue
        if "%.2f" % (self_us[name] / 1e6) != "%.2f" % secs:
            print("%s: self %d us, flat %.2f s" % (name, self_us[name], secs))
            bad += 1
        if calls is not None and calls_in.get(name, 0) != calls:
            print("%s: %d calls in, flat %d" % (name, calls_in.get(name, 0), calls))
            bad += 1
    if not rows:
        print("no flat profile rows")
        bad += 1
    sys.exit(1 if bad else 0)


main()
