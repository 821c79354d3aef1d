#!/usr/bin/env python3
"""pprof-check.py: a profile.proto (as protoc --decode prints it) against tgprof's flat profile.

Usage: pprof-check.py DECODED FLAT SAMPLES
The samples' first values must add up to SAMPLES (to one: rounding); each function of FLAT
(`tgprof --batch -b -p`) with calls must have them as the calls value of
the sample holding its location alone, and its name must be in the
string table.  Prints the differences, exits 1 if there are any.
"""
import re
import sys


def parse(text):
    """The decoded message as nested lists of (field, value)."""
    stack = [[]]
    for line in text.splitlines():
        line = line.strip()
        if line.endswith("{"):
            node = []
            stack[-1].append((line[:-1].strip(), node))
            stack.append(node)
        elif line == "}":
            stack.pop()
        elif ":" in line:
            k, v = line.split(":", 1)
            v = v.strip()
            if v.startswith('"'):
                v = bytes(v[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")
            elif v in ("true", "false"):
                v = v == "true"
            else:
                v = int(v)
            stack[-1].append((k.strip(), v))
    return stack[0]


def main():
    msg = parse(open(sys.argv[1], encoding="utf-8").read())
    strings = [v for k, v in msg if k == "string_table"]
    fn_name = {}
    for k, v in msg:
        if k == "function":
            f = dict(v)
            fn_name[f["id"]] = strings[f.get("name", 0)]
    loc_fn = {}
    for k, v in msg:
        if k == "location":
            loc = dict(v)
            line = dict(loc.get("line", []))
            loc_fn[loc["id"]] = fn_name.get(line.get("function_id"))
    total, calls = 0, {}
    for k, v in msg:
        if k != "sample":
            continue
        locs = [x for f, x in v if f == "location_id"]
        vals = [x for f, x in v if f == "value"]
        total += vals[0]
        if vals[2]:
            calls[loc_fn.get(locs[0])] = vals[2]
    bad = []
    if abs(total - int(sys.argv[3])) > 1:     # estimated counts are rounded: to one
        bad.append("samples %d, expected %s" % (total, sys.argv[3]))
    for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
        f = line.split()
        if len(f) >= 7 and re.match(r"^\d+\.\d\d$", f[0]) and f[3].isdigit():
            name = " ".join(f[6:])
            if name not in strings:
                bad.append("%s: not in the string table" % name)
            elif calls.get(name, 0) < int(f[3]):    # the flat profile's are from others only
                bad.append("%s: %s calls, flat %s" % (name, calls.get(name), f[3]))
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
