#!/usr/bin/env python3
"""dot-check.py: a --export=dot graph against tgprof's call graph.

Usage: dot-check.py GRAPH CALLGRAPH NODE_PCT
CALLGRAPH is `tgprof --batch -b -q` output.  Each node must be a call-graph
entry with its % time (to the entry's one decimal) and calls, at least
NODE_PCT percent (less rounding); each entry with more than NODE_PCT + 0.1
percent must be a node; each edge's calls must be its caller's entry's count
for that callee.  Prints the differences, exits 1 if there are any.
"""
import re
import sys


def graph(path):
    nodes, edges = {}, []
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r'^\tf(\d+) \[.*label="((?:[^"\\]|\\.)*)"\];$', text, re.M):
        parts = m.group(2).split("\\n")
        calls = int(parts[3].rstrip("\u00d7")) if len(parts) > 3 else 0
        nodes[m.group(1)] = (parts[0].replace('\\"', '"').replace("\\\\", "\\"),
                             float(parts[1].rstrip("%")), calls)
    for m in re.finditer(r'^\tf(\d+) -> f(\d+) \[.*label="([0-9.]+)%\\n(\d+)\u00d7"', text, re.M):
        edges.append((m.group(1), m.group(2), int(m.group(4))))
    return nodes, edges


def callgraph(path):
    """Entries by name: % time, calls, and the counts of its callees by name."""
    entries = {}
    block = []
    for line in open(path, encoding="utf-8") .read().split("\n") + ["-----"]:
        if line.startswith("-----"):
            prim = [k for k, l in enumerate(block) if re.match(r"^\[\d+\]", l)]
            if prim:
                k = prim[0]
                f = block[k].split()
                name = re.sub(r"( <cycle \d+>)? \[\d+\]$", "", " ".join(f[4:]))
                called = re.match(r"^(\d+)", f[4]) if len(f) > 5 else None
                name = re.sub(r"( <cycle \d+>)? \[\d+\]$", "", " ".join(f[5 if called else 4:]))
                callees = {}
                for l in block[k + 1:]:
                    # "self children count/total name [i]", or "count name [i]" inside a cycle
                    m = re.match(r"^\s+(?:[\d.]+\s+[\d.]+\s+)?(\d+)(?:/\d+)?\s+(.*)$", l)
                    if m:
                        callee = re.sub(r"( <cycle \d+>)? \[\d+\]$", "", m.group(2))
                        callees[callee] = int(m.group(1))
                entries[name] = (float(f[1]), int(called.group(1)) if called else 0, callees)
            block = []
        elif line.strip():
            block.append(line)
    return entries


def main():
    nodes, edges = graph(sys.argv[1])
    cg = callgraph(sys.argv[2])
    pct = float(sys.argv[3])
    if all(e[0] == 0 for e in cg.values()):
        pct = 0     # no time: every entry is a node
    bad = []
    for name, p, calls in nodes.values():
        if name not in cg:
            bad.append("node %s: no call-graph entry" % name)
            continue
        cp, ccalls, _ = cg[name]
        if abs(p - cp) > 0.051 or calls != ccalls or p < pct - 0.005:
            bad.append("node %s: %.2f%% %d calls; call graph %.1f%% %d" % (name, p, calls, cp, ccalls))
    names = {n[0] for n in nodes.values()}
    for name, (cp, _, _) in cg.items():
        if cp > pct + 0.1 and name not in names and not name.startswith("<cycle"):
            bad.append("entry %s (%.1f%%): no node" % (name, cp))
    for a, b, calls in edges:
        pa, pb = nodes[a][0], nodes[b][0]
        got = cg.get(pa, (0, 0, {}))[2].get(pb)
        if got != calls:
            bad.append("edge %s -> %s: %d calls; call graph %s" % (pa, pb, calls, got))
    if not nodes or not edges:
        bad.append("no nodes or no edges")
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
