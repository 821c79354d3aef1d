#!/usr/bin/env python3
"""json-check.py: a --export=json file against its schema and against tgprof's batch report.

Usage: json-check.py JSON SCHEMA FLAT CALLGRAPH
FLAT is `tgprof --batch -b -p`, CALLGRAPH `tgprof --batch -b -q` of the
same profile.  The file must validate; each flat row's self seconds and
calls, each call-graph entry's self and children, and each arc's count
(its caller's callee lines) must be the file's, to the report's decimals.
Prints the differences, exits 1 if there are any.
"""
import json
import re
import sys

import jsonschema


def flat(path):
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.split()
        if len(f) >= 4 and re.match(r"^\d+\.\d\d$", f[0]) and re.match(r"^\d+\.\d\d$", f[2]):
            calls = int(f[3]) if len(f) >= 7 and f[3].isdigit() else 0
            yield " ".join(f[6:] if len(f) >= 7 and f[3].isdigit() else f[3:]), float(f[2]), calls


def entries(path):
    """(name, self, children, callees {name: count}) of each entry that is a function's."""
    block = []
    for line in open(path, encoding="utf-8", errors="replace").read().split("\n") + ["-----"]:
        if not line.startswith("-----"):
            if line.strip():
                block.append(line)
            continue
        prim = [k for k, l in enumerate(block) if re.match(r"^\[\d+\]", l)]
        if prim and " as a whole>" not in block[prim[0]]:     # a cycle's entry is no function's
            f = block[prim[0]].split()
            name = re.sub(r"( <cycle \d+>)? \[\d+\]$", "", " ".join(f[5 if re.match(r"^\d", f[4]) and len(f) > 5 else 4:]))
            callees = {}
            for l in block[prim[0] + 1:]:
                m = re.match(r"^\s+(?:[\d.]+\s+[\d.]+\s+)?(\d+)(?:/\d+)?\s+(.*)$", l)
                if m:
                    callees[re.sub(r"( <cycle \d+>)? \[\d+\]$", "", m.group(2))] = int(m.group(1))
            yield name, float(f[2]), float(f[3]), callees
        block = []


def main():
    doc = json.load(open(sys.argv[1], encoding="utf-8"))
    jsonschema.validate(doc, json.load(open(sys.argv[2])))
    by_name = {f["name"]: f for f in doc["functions"]}
    by_id = {f["id"]: f for f in doc["functions"]}
    bad = []
    rows = list(flat(sys.argv[3]))
    for name, secs, calls in rows:
        f = by_name.get(name)
        if f is None or "%.2f" % f["self"] != "%.2f" % secs or f["calls"] != calls:
            bad.append("flat %s: %s s %d calls; json %s" % (name, secs, calls, f and (f["self"], f["calls"])))
    n = 0
    for name, self, children, callees in entries(sys.argv[4]):
        f = by_name.get(name)
        n += 1
        if f is None:
            bad.append("entry %s: not in the file" % name)
            continue
        if abs(f["inclusive"] - self - children) > 0.0101:     # two numbers rounded to 0.01
            bad.append("entry %s: %.2f + %.2f; json %s" % (name, self, children, f["inclusive"]))
        got = {by_id[a["callee"]]["name"]: a["count"] for a in doc["arcs"]
               if a["caller"] == f["id"] and a["callee"] in by_id}
        for callee, count in callees.items():
            if got.get(callee) != count:
                bad.append("arc %s -> %s: %d; json %s" % (name, callee, count, got.get(callee)))
    if not rows or n == 0:
        bad.append("nothing compared")
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
