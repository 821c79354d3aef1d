#!/usr/bin/env python3
"""tree-check.py: the call tree's numbers against gprof's call graph.

usage: tree-check.py GRAPH TREES [--inverted]

GRAPH is `tgprof --batch -b -q` (gprof's call graph); TREES one call tree
or several, each as the tree pane's P writes it (tests/tools/test-session's
tree command too), opened (E): each starts at its "Call tree:" title, and
one whose title says "(bottom-up)" is checked as --inverted says.  Checks
every row against the call graph:
  - a root: its %time and time are its primary line's (self + children);
  - a node under a function along an arc: its calls are the arc's count
    (gprof's child line, or with --inverted its parent line; the arcs
    into one cycle, or from one caller into a cycle, summed) and its time
    is the arc's self + children times the share of its parent's whole
    time that the parent node carries;
  - top-down it is marked ~ exactly where its time is a share split by
    calls (its parent's is, or the arc's calls are less than all: count
    < total) or its own whole time is not exact (it is a cycle or in
    one, or a function under it is called from elsewhere too); bottom-up
    where its parent is or the arc's calls are less than all; a root
    where its whole time is not exact;
  - a cycle's member under the cycle: its whole time (member line) times
    the cycle node's share; with --inverted, a cycle under its member has
    the member's time, and under it the cycle's callers from outside (the
    members' parent lines) their arcs' times times the cycle node's share;
  - a recursive row: the count of the self call, no time.
Prints each mismatch and exits 1 if there is one.
"""
import re
import sys

TOL = 0.0151         # two numbers rounded to 0.01 each, summed


def num(s):
    return float(s.strip().lstrip('~'))


def parse_graph(path):
    """Entries by name: {'whole': s+c, 'pct': str, 'kids': [...], 'parents': [...], 'members': [...]}."""
    entries = {}
    block = []
    lines = open(path, encoding='utf-8').read().split('\n')
    start = next(i for i, l in enumerate(lines) if l.startswith('index % time'))
    for line in lines[start + 1:]:
        if line.startswith('-----') or line.strip() == '' or line.startswith('Index by'):
            if block:
                entry(block, entries)
            block = []
            if line.startswith('Index by'):
                break
            continue
        block.append(line)
    return entries


def arc_line(line):
    """(self + children or None, count, total or None, name) of a parent, child or member line."""
    m = re.match(r'\s+(?:(\d+\.\d+)\s+(\d+\.\d+)\s+)?(\d+)(?:/(\d+)|\+(\d+))?\s+(.*)$', line)
    if m is None:
        return None
    t = float(m.group(1)) + float(m.group(2)) if m.group(1) else None
    return t, int(m.group(3)), m.group(4), m.group(6)


def entry(block, entries):
    p = next(i for i, l in enumerate(block) if l.startswith('['))
    m = re.match(r'\[\d+\]\s+(\d+\.\d)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(?:(\d+)(?:\+\d+)?\s+)?(.*)$',
                 block[p])
    name = m.group(5)
    e = {'pct': m.group(1), 'whole': float(m.group(2)) + float(m.group(3)),
         'called': int(m.group(4) or 0),
         'parents': [arc_line(l) for l in block[:p] if arc_line(l)],
         'kids': [arc_line(l) for l in block[p + 1:] if arc_line(l)]}
    entries[name] = e


def parse_trees(path):
    """The trees of PATH: (title, rows) each."""
    trees = []
    for line in open(path, encoding='utf-8').read().split('\n'):
        if line.startswith('Call tree: '):
            trees.append((line, [], 0))
        elif trees:
            title, rows, n = trees[-1]
            trees[-1] = (title, rows, n + 1)
            if n >= 1:              # the column headings first
                row = parse_row(line)
                if row:
                    rows.append(row)
    return [(t, r) for t, r, _ in trees]


def parse_row(line):
    if len(line) < 33:
        return None
    rest = line[31:]
    lead = len(rest) - len(rest.lstrip(' '))
    d = re.match(r'\s*\((\d+)\) ', rest)
    body = rest[len(d.group(0)):] if d else rest[lead:]
    marked = body[:1] in '\u25bc\u25b6\u21ba+-@'
    depth = int(d.group(1)) if d else (lead if marked else lead - 2) // 2
    name = body[2:] if marked else body.lstrip(' ')
    rec = name.endswith(' (recursive)')
    return {'pct': line[:7].strip(), 'time': line[7:18], 'calls': line[18:29].strip(),
            'est': '~' in line[:18], 'depth': depth, 'name': name[:-12] if rec else name,
            'rec': rec, 'line': line}


EXACT = {}


def exact(g, name):
    """Whether NAME's whole time in the call graph G holds no share gprof split by calls."""
    if name in EXACT:
        return EXACT[name]
    EXACT[name] = False                 # a cycle of calls is not exact while it is worked out
    e = g.get(name)
    ok = e is not None and '<cycle' not in name
    for k in (e['kids'] if ok else []):
        if k[3] == name:
            continue                    # a recursive call of its own
        if '<cycle' in k[3] or (k[2] is not None and k[1] < int(k[2])) or not exact(g, k[3]):
            ok = False
            break
    EXACT[name] = ok
    return ok


def cycle_of(name):
    m = re.search(r'<cycle (\d+)', name)
    return m.group(1) if m else None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    g = parse_graph(args[0])
    trees = parse_trees(args[1])
    bad = []
    nrows = 0
    for title, rows in trees:
        inv = '--inverted' in sys.argv or '(bottom-up)' in title
        stack = []
        nrows += len(rows)
        for r in rows:
            del stack[r['depth']:]
            why = check(g, r, stack[-1] if stack else None, inv)
            stack.append(r)
            if why:
                bad.append('%s\n  %s\n    %s' % (title, r['line'], why))
    for b in bad:
        print('not as gprof: ' + b)
    print('%d trees, %d rows, %d not as gprof' % (len(trees), nrows, len(bad)))
    sys.exit(1 if bad or nrows == 0 or any(not r for _, r in trees) else 0)


def approx_share(g, par):
    """The share of its whole time a node carries, from the numbers printed."""
    w = g[par['name']]['whole']
    return min(1.0, num(par['time']) / w) if w > 0 else 1.0


def arc_of(g, r, par, inv):
    """The call-graph lines R stands for under PAR, summed: (time, count, total, name), or a reason."""
    pe = g.get(par['name'])
    if pe is None:
        return 'no entry for its parent'
    if 'as a whole' in par['name'] and not inv:
        arcs = [k for k in pe['kids'] if k[3] == r['name']]      # the member lines
    elif 'as a whole' in par['name']:
        # A cycle's callers from outside: the members' parent lines.
        c = cycle_of(par['name'])
        arcs = [k for m in pe['kids'] for k in g[m[3]]['parents']
                if k[3] == r['name'] and cycle_of(k[3]) != c]
        arcs = [(k[0], k[1], str(pe['called']), k[3]) for k in arcs]
    elif 'as a whole' in r['name']:
        c = cycle_of(r['name'])                                  # arcs into members
        arcs = [k for k in pe['kids'] if cycle_of(k[3]) == c]
    else:
        arcs = [k for k in (pe['parents'] if inv else pe['kids']) if k[3] == r['name']]
    if not arcs:
        return 'no such arc'
    if len(arcs) == 1 or any(k[0] is None for k in arcs):
        return arcs[0]
    return (sum(k[0] for k in arcs), sum(k[1] for k in arcs), arcs[0][2], r['name'])


def check(g, r, par, inv):
    r['share'], r['exact'] = 1.0, True
    if par is None:
        e = g.get(r['name'])
        if e is None:
            return 'no entry'
        if r['pct'].lstrip('~') != e['pct'] or abs(num(r['time']) - e['whole']) > TOL:
            return 'root: %s%% %.2f in the call graph' % (e['pct'], e['whole'])
        if r['est'] != (not exact(g, r['name'])):
            return 'root marked estimated: %s, but its time is %s' % (
                r['est'], 'exact' if exact(g, r['name']) else 'not exact')
        return None
    r['shared'] = False
    if inv and 'as a whole' in r['name']:
        # A member's cycle: all of the member node's time goes up through it.
        r['share'], r['exact'] = approx_share(g, r), None
        if num(r['time']) != num(par['time']) or r['est'] != par['est']:
            return 'not its member\'s time, or marked estimated otherwise'
        return None
    a = arc_of(g, r, par, inv)
    if isinstance(a, str):
        return a
    if str(a[1]) != r['calls']:
        return 'calls: %d in the call graph' % a[1]
    if r['rec']:
        return None if a[0] is None else 'recursive, but the call graph gives it time'
    if a[0] is None:
        return 'no time for this arc in the call graph'
    split = a[2] is not None and a[1] < int(a[2])    # a time split by calls here
    s = par['share'] if par['exact'] else approx_share(g, par)
    if not inv and par['exact']:
        r['share'] = s * a[1] / int(a[2]) if a[2] is not None else s
    else:
        r['exact'] = None
        r['share'] = approx_share(g, r) if r['name'] in g else 1.0
    want = a[0] * s
    if abs(num(r['time']) - want) > TOL + 0.02 * want:
        return 'time: %.4f from the call graph' % want
    if inv:
        want = par['est'] or split
    else:
        r['shared'] = par.get('shared', False) or split
        want = r['shared'] or 'as a whole' in r['name'] or not exact(g, r['name'])
    if r['est'] != want:
        return 'marked estimated: %s, but its parent is %s, the calls %s' % (
            r['est'], 'estimated' if par['est'] else 'not', 'split' if split else 'all here')
    return None


main()
