#!/usr/bin/env python3
"""bench/truth.py: libtgmon's profile against perf's of the program built without -pg (make bench, issue #25).

usage: BENCH_TRUTH_BUILD=SCRIPT truth.py TOP SRC OUT [WORKLOAD...]

Real programs are built from their sources twice into OUT: plain (-O2 -g,
OUT/NAME-plain/NAME) and profiled (-O2 -g -pg linked with TOP's
libtgmon.a, OUT/NAME-pg/NAME).  The sources are other people's, and so
is the way to build them: this repository keeps neither.  SRC holds a
git directory of each (SRC/OWNER+NAME/repo), and the script that
BENCH_TRUTH_BUILD names builds one as `SCRIPT NAME plain|pg GITDIR DEST
TOP` (from GITDIR's HEAD, by `git archive`, into DEST/NAME; linking the
-pg build again at each call, as libtgmon.a changes).  Each workload
runs three times: plain, timed (CPU time); plain under `perf record -e
cpu-clock --call-graph dwarf`; profiled, timed, for its gmon.out, which
`tgprof --export=json` reads (TRUTH_REUSE=1 keeps perf.data, and reads
the last runs again when they are there).  perf's samples are charged as libtgmon
charges its own: the self time to the innermost function of the program
on the stack (time in the C library and the kernel to the program's
function that called it), the inclusive time to every distinct program
function on the stack (up to main, where libtgmon's stacks end).  A
function of the program is one the -pg build has as a symbol: perf's
inlined frames of such functions (addr2line -i) count as themselves, as
GCC inlines otherwise with -pg, unless the -pg build's profile has no
call to the function from its caller on that stack: then the -pg build
inlined it there too (keeping a copy for other callers), and its time is
the caller's (called() below).  A function the -pg build does not have
is charged to its caller.  GCC's clones (foo.isra.0, foo.part.0,
foo.constprop.0, foo.cold) count as foo on both sides.  Samples with no
program function on the stack are left out of both sides.

tgprof's shares are each function's self (or inclusive) seconds over the
sum of the self seconds of the program's functions, the profiler's own
rows (tgmon_*, mcount, functions[].profiler) left out.  Where tgprof
takes -pg's cost out of the times (the json's "truth"), `--raw` gives
them as sampled: "raw" is that self share with the profiler's rows
counted (the picture before issue #25), "sampled" without them (only
the profiler's rows taken out).  The goals (issue #25): within 2 points
of perf's for the 15 functions with the most self time, within 3 for the
15 with the most inclusive time.  sigma is one standard deviation of the
difference from sampling alone, sqrt(p(1-p)/n) on each side, with n
perf's samples and libtgmon's signals (its samples when the profile does
not say how many signals delivered them: then it is too small where the
kernel's tick is slower than 1 kHz).
"""

import itertools
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys

CLONE = re.compile(r'(\.(?:isra|part|constprop|cold|lto_priv|localalias)(?:\.\d+)?)+$')
PROFILER = {'mcount', '_mcount', '__mcount_internal', '__fentry__'}
TOP_N = 15
GOAL_SELF, GOAL_INCL = 2.0, 3.0
PERF_HZ = 4000


def base(name):
    return CLONE.sub('', name)


def say(*a):
    print(*a, flush=True)


def run(argv, cwd=None, log=None, env=None):
    """Runs ARGV; True if it succeeded (its output to LOG, else discarded)."""
    with open(log or os.devnull, 'a') as f:
        return subprocess.call(argv, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, env=env) == 0


def cpu_run(argv, cwd, stdin=None):
    """Runs ARGV (stdout discarded), returning its CPU time (user + system, s) or None if it failed."""
    with open(os.devnull, 'w') as null:
        p = subprocess.Popen(argv, cwd=cwd, stdout=null, stdin=stdin)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime if p.returncode == 0 else None


# ---- the programs ---------------------------------------------------------

REPOS = {'lua': 'lua+lua', 'zstd': 'facebook+zstd', 'mawk': 'ThomasDickey+mawk-snapshots'}


def make(build, name, srcroot, out, top):
    """Both builds of NAME by the script BUILD: '=' and the source's commit, or why not."""
    gitdir = os.path.join(srcroot, REPOS[name], 'repo')
    if not os.path.isdir(gitdir):
        return 'no source at %s (a git directory of github.com/%s)' % (gitdir, REPOS[name].replace('+', '/'))
    for kind in ('plain', 'pg'):
        dest = os.path.join(out, name + '-' + kind)
        log = dest + '.log'
        if os.path.exists(log):
            os.remove(log)
        if not run([build, name, kind, gitdir, dest, top], log=log) or not os.access(os.path.join(dest, name), os.X_OK):
            return '%s could not build it %s (%s)' % (build, 'plain' if kind == 'plain' else 'with -pg', log)
    return '=' + subprocess.check_output(['git', '--git-dir=' + gitdir, 'rev-parse', 'HEAD'], text=True).strip()


# ---- workloads ----------------------------------------------------------

def make_text(path, size=16000000):
    """A log-like text of SIZE bytes (Zipf-distributed words, numbers), the same at every run."""
    if os.path.exists(path) and os.path.getsize(path) >= size:
        return
    r = random.Random(25)
    vocab = [''.join(r.choice('etaoinshrdlucmfwypvbgkqjxz') for _ in range(r.randint(2, 10)))
             for _ in range(5000)]
    cum = list(itertools.accumulate(1.0 / (i + 1) for i in range(len(vocab))))
    out, n, t = [], 0, 1700000000
    while n < size:
        t += r.randint(0, 3)
        line = '%d.%03d host%02d %s[%d]: %s %d %08x\n' % (
            t, r.randint(0, 999), r.randint(0, 40), r.choice(('sshd', 'kernel', 'cron', 'nginx', 'app')),
            r.randint(100, 30000), ' '.join(r.choices(vocab, cum_weights=cum, k=r.randint(3, 14))),
            r.randint(0, 1 << 20), r.getrandbits(32))
        out.append(line)
        n += len(line)
    with open(path + '.tmp', 'w') as f:
        f.write(''.join(out))
    os.rename(path + '.tmp', path)


def workloads(top, out):
    t = os.path.join(top, 'bench', 'truth')
    text = os.path.join(out, 'text.txt')
    return [
        # (name, build, arguments, what it is)
        ('lua', 'lua', [os.path.join(t, 'mixed.lua')],
         'an interpreter: Lua, bench/truth/mixed.lua (sort with a Lua comparator, strings, objects)'),
        ('zstd', 'zstd', ['-q', '-c', '-12'] + [text] * 7,
         'a compressor: zstd -12, 7 x 16 MB of log-like text'),
        ('mawk', 'mawk', ['-f', os.path.join(t, 'report.awk')] + [text] * 15,
         'the C library: mawk, bench/truth/report.awk (printf, sprintf, strtod) over 15 x 16 MB'),
        ('lua-format', 'lua', [os.path.join(t, 'format.lua')],
         'the C library: Lua, bench/truth/format.lua (string.format, tostring, tonumber)'),
    ]


# ---- perf's side ---------------------------------------------------------

FRAME = re.compile(r'^\s+([0-9a-f]+) (.*) \((.*)\)$')


def perf_samples(data, exe):
    """perf script's samples as lists of (address to look up, perf's symbol), innermost first, the program's frames only.

    None stands for the frames of libraries between two of the program's.

    A frame's address is its return address less one (the call), except the
    first frame in user space, which is where the program was.
    """
    p = subprocess.Popen(['perf', 'script', '-i', data, '-F', 'comm,tid,ip,sym,dso', '--no-inline'],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors='replace')
    samples, cur, user = [], None, False
    for line in p.stdout:
        if not line.strip():
            continue
        if not line[0].isspace():
            if cur is not None:
                samples.append(cur)
            cur, user = [], False
            continue
        m = FRAME.match(line)
        if m is None or cur is None:
            continue
        addr, sym, dso = int(m.group(1), 16), m.group(2), m.group(3)
        if dso.startswith('[kernel') or addr >= 0xffff800000000000:
            continue
        if dso == exe:
            cur.append((addr if not user else addr - 1, sym))
        elif cur and cur[-1] is not None:
            cur.append(None)	# a library's frames between the program's
        user = True
    if cur is not None:
        samples.append(cur)
    p.wait()
    return samples


def inline_chains(exe, addrs):
    """addr2line -i: each address's functions, innermost first (DWARF's names; '??' where it has none)."""
    addrs = sorted(addrs)
    p = subprocess.run(['addr2line', '-e', exe, '-a', '-f', '-i'], input=''.join('%x\n' % a for a in addrs),
                       capture_output=True, text=True)
    chains, cur, lines = {}, None, p.stdout.split('\n')
    i = 0
    while i < len(lines):
        ln = lines[i]
        if re.fullmatch(r'0x[0-9a-f]+', ln):
            cur = int(ln, 16)
            chains[cur] = []
            i += 1
            continue
        if cur is not None and ln:
            chains[cur].append(ln)
            i += 2	# the function, then its file:line
        else:
            i += 1
    return chains


def called(frames, kept, i, arcs, parts):
    """Whether the -pg build calls frames[i]'s function from the function above it on the stack.

    That is the first function above it that is KEPT (those between are
    inlined in it in the -pg build), or one further up when the -pg build
    split the functions between for partial inlining (PARTS: foo.part.0,
    whose head is inlined in its callers), or itself (recursion); a
    function a library calls back is called.
    """
    n = frames[i][0]
    if frames[i + 1][1]:
        return True	# called back by a library
    for j in range(i + 1, len(frames)):
        if j > i + 1 and frames[j][1]:
            return False
        if frames[j][0] == n or (frames[j][0], n) in arcs:
            return True
        if kept[j] and frames[j][0] not in parts:
            return False
    return False


def perf_profile(data, exe, pg_functions, pg_parts, pg_arcs):
    """perf's samples charged as libtgmon charges its own, by the -pg build's functions and call arcs.

    A function of the plain build's stack (inlined or not) that the -pg
    build has is itself, unless its caller on the stack never calls it in
    the -pg build's profile (see called()): then the -pg build inlined it
    there, and its time is its caller's.
    """
    samples = perf_samples(data, exe)
    chains = inline_chains(exe, {f[0] for s in samples for f in s if f is not None})
    self_, incl, recharged, merged = {}, {}, {}, {}
    kept = reached = 0
    for s in samples:
        frames, outer = [], None	# (function, a library's frames between it and the one it called)
        below = False
        for f in s:
            if f is None:
                below = True
                continue
            chain = [base(n) for n in chains.get(f[0], [])] or ['??']
            if chain[-1] == '??':
                chain[-1] = base(f[1])
            # the inlined frames (all but the last) and the function itself, where the -pg build has them
            for n in chain:
                if n in pg_functions:
                    frames.append((n, below))
                    below = False
            if outer is None:
                outer = chain[-1] if not frames else ''
        if not frames:
            continue
        names, kept_ = [], [False] * len(frames)
        for i in range(len(frames) - 1, -1, -1):	# from the root
            n = frames[i][0]
            if names and not called(frames, kept_, i, pg_arcs, pg_parts):
                if i == 0:
                    merged[(n, names[-1])] = merged.get((n, names[-1]), 0) + 1
                continue
            kept_[i] = True
            names.append(n)
        names.reverse()
        if 'main' in names:	# libtgmon's stacks end there
            names = names[:len(names) - names[::-1].index('main')]
            reached += 1
        kept += 1
        self_[names[0]] = self_.get(names[0], 0) + 1
        if outer:	# the innermost frame's function is not the -pg build's: charged to its caller
            recharged[outer] = recharged.get(outer, 0) + 1
        for n in set(names):
            incl[n] = incl.get(n, 0) + 1
    return {'samples': len(samples), 'kept': kept, 'reached_main': reached,
            'self': self_, 'incl': incl, 'recharged': recharged, 'merged': merged}


def pg_symbols(exe):
    """The -pg build's functions, and those of them GCC split for partial inlining (foo.part.0)."""
    out = subprocess.check_output(['nm', exe], text=True)
    syms = [f[2] for f in (ln.split() for ln in out.split('\n')) if len(f) == 3 and f[1] in 'tTwWiI']
    return {base(n) for n in syms}, {base(n) for n in syms if '.part.' in n}


# ---- tgprof's side -------------------------------------------------------

def tgprof_profile(tgprof, exe, gmon):
    """tgprof --export=json's functions by name: self, inclusive, calls; the profiler's rows; the arcs; the raw self."""
    def export(*opts):
        return json.loads(subprocess.check_output([tgprof, '--export=json'] + list(opts) + [exe, gmon]))

    def profiler(f, has_flag):
        if has_flag:
            return bool(f.get('profiler'))
        return f['raw_name'] in PROFILER or f['raw_name'].startswith('tgmon_')

    d = export()
    fs = d['functions']
    has_flag = any('profiler' in f for f in fs)
    self_, incl, calls, prof = {}, {}, {}, {}
    for f in fs:
        n = base(f['raw_name'])
        if profiler(f, has_flag):
            prof[n] = prof.get(n, 0) + f['self']
            continue
        self_[n] = self_.get(n, 0) + f['self']
        incl[n] = max(incl.get(n, 0), f['inclusive'])	# clones not folded by the export: the larger
        calls[n] = calls.get(n, 0) + f['calls'] + f['self_calls']
    ids = {f['id']: base(f['raw_name']) for f in fs}
    arcs = {(ids[a['caller']], ids[a['callee']]) for a in d['arcs'] if a['count'] > 0}
    # The raw picture, as before #25's compensation: the times as sampled, the profiler's rows counted.
    r = export('--raw') if 'truth' in d else d
    raw = {}
    for f in r['functions']:
        raw[base(f['raw_name'])] = raw.get(base(f['raw_name']), 0) + f['self']
    return {'self': self_, 'incl': incl, 'calls': calls, 'profiler': prof, 'arcs': arcs, 'raw': raw,
            'hist': d['histogram'], 'stacks': d.get('stacks'), 'times': d.get('times'), 'truth': d.get('truth')}


# ---- the comparison ------------------------------------------------------

def compare(name, what, plain_cpu, pg_cpu, pf, tg):
    n_perf = pf['kept']
    tot = sum(tg['self'].values())
    raw_tot = sum(tg['raw'].values())
    prog_tot = raw_tot - sum(tg['raw'].get(n, 0.0) for n in tg['profiler'])
    st = tg['stacks'] or {}
    n_tg = st.get('signals') or tg['hist']['samples']
    say('%s: %s' % (name, what))
    say('  CPU time: plain %.2f s, -pg with libtgmon %.2f s (%.2fx)' % (plain_cpu, pg_cpu, pg_cpu / plain_cpu))
    say('  perf: %d samples, %d with a function of the program (%.1f%% of those reach main)' % (
        pf['samples'], n_perf, 100.0 * pf['reached_main'] / max(n_perf, 1)))
    say('  tgprof: %d samples (%s), stacks %s, signals %s; times %s' % (
        tg['hist']['samples'], '%d Hz' % tg['hist']['hz'],
        '%d (%d complete)' % (st['samples'], st['complete']) if st else 'none',
        st.get('signals', 'not recorded'), tg['times']))
    if n_perf == 0 or tot <= 0:
        say('  (no samples to compare)')
        return None
    worst = {}
    for kind, key, goal in (('self', 'self', GOAL_SELF), ('inclusive', 'incl', GOAL_INCL)):
        rows = sorted(pf[key].items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_N]
        say('  %s: the %d with the most in perf, %% of the program\'s time%s' % (kind, TOP_N, (
            ' (raw: as sampled, profiler rows counted; sampled: as sampled, profiler rows out)' if key == 'self' else '')))
        say('    %-36s %7s %7s %7s %6s %7s %7s %15s' % ('function', 'perf', 'tgprof', 'diff', 'sigma',
                                                      'raw' if key == 'self' else '',
                                                      'sampled' if key == 'self' else '', 'calls'))
        w, wr = (0.0, '-'), [(0.0, '-'), (0.0, '-')]
        for fn, c in rows:
            p = 100.0 * c / n_perf
            t = 100.0 * tg[key].get(fn, 0.0) / tot
            q = p / 100
            sigma = 100 * math.sqrt(q * (1 - q) / n_perf + q * (1 - q) / max(n_tg, 1))
            raw = sampled = ''
            if key == 'self':
                raw = '%7.2f' % (100.0 * tg['raw'].get(fn, 0.0) / raw_tot)
                sampled = '%7.2f' % (100.0 * tg['raw'].get(fn, 0.0) / prog_tot)
            say('    %-36s %7.2f %7.2f %+7.2f %6.2f %7s %7s %15s' % (
                fn[:36], p, t, t - p, sigma, raw, sampled, '{:,}'.format(tg['calls'][fn]) if fn in tg['calls'] else '-'))
            if abs(t - p) > abs(w[0]):
                w = (t - p, fn)
            for k, tot_ in ((0, raw_tot), (1, prog_tot)):
                r = 100.0 * tg['raw'].get(fn, 0.0) / tot_ - p
                if key == 'self' and abs(r) > abs(wr[k][0]):
                    wr[k] = (r, fn)
        say('    worst: %s %+.2f points (goal: within %g)%s' % (
            w[1], w[0], goal, '; raw: %s %+.2f; sampled: %s %+.2f' % (wr[0][1], wr[0][0], wr[1][1], wr[1][0])
            if key == 'self' else ''))
        worst[key] = w
        if key == 'self':
            worst['raw'] = wr
    prof = sorted(tg['profiler'].items(), key=lambda kv: -kv[1])
    say('  profiler rows, of all tgprof\'s self time: %s' % (
        ', '.join('%s %.1f%%' % (n, 100 * tg['raw'].get(n, s) / raw_tot) for n, s in prof if s > 0) or 'none'))
    if tg['truth']:
        say('  tgprof took out: %s (-pg\'s call %g ns; the program %.3f s of %.3f s sampled)' % (
            tg['truth']['taken_out'] or 'nothing', tg['truth']['call_ns'], tg['truth']['program_seconds'],
            tg['hist']['seconds']))
    mg = sorted(pf['merged'].items(), key=lambda kv: -kv[1])[:5]
    if mg:
        say('  perf\'s self time of functions the -pg build inlines there (no arc), charged to their callers: %s' % (
            ', '.join('%s in %s %.2f%%' % (a, b, 100.0 * c / n_perf) for (a, b), c in mg)))
    rc = sorted(pf['recharged'].items(), key=lambda kv: -kv[1])[:5]
    if rc:
        say('  perf\'s self time of functions the -pg build does not have, charged to their callers: %s' % (
            ', '.join('%s %.2f%%' % (n, 100.0 * c / n_perf) for n, c in rc)))
    return worst


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.split('\n\n')[1])
    top, srcroot, out = (os.path.abspath(a) for a in sys.argv[1:4])
    only = set(sys.argv[4:])
    tgprof = os.path.join(top, 'tgprof')
    os.makedirs(out, exist_ok=True)
    say('against the truth: libtgmon\'s profile and perf\'s of the build without -pg (issue #25)')
    if shutil.which('perf') is None:
        say('(truth: no perf here: Debian\'s linux-perf)')
        return
    probe = subprocess.run(['perf', 'record', '-e', 'cpu-clock', '-F', str(PERF_HZ), '--call-graph', 'dwarf',
                            '-N', '-q', '-o', os.path.join(out, 'probe.data'), '--', 'true'],
                           capture_output=True, text=True)
    if os.path.exists(os.path.join(out, 'probe.data')):
        os.remove(os.path.join(out, 'probe.data'))
    if probe.returncode != 0:
        why = (probe.stderr.strip().split('\n') or ['?'])[0]
        say('(truth: perf record refused: %s)' % why)
        return
    build = os.environ.get('BENCH_TRUTH_BUILD', '')
    if not os.access(build, os.X_OK):
        say('(truth: skipped: BENCH_TRUTH_BUILD names no script to build the programs%s; this repository'
            ' keeps no recipe for them: see bench/truth.py)' % ((' (%s)' % build) if build else ''))
        return
    made = {}
    summary = []
    for name, bname, args, what in workloads(top, out):
        if only and name not in only:
            continue
        if bname not in made:
            made[bname] = make(build, bname, srcroot, out, top)
        commit = made[bname]
        if not commit.startswith('='):
            say('(truth: %s skipped: %s)' % (name, commit))
            continue
        if any(a.endswith('text.txt') for a in args):
            make_text(os.path.join(out, 'text.txt'))
        what = '%s, at %s' % (what, commit[1:13])
        d = os.path.join(out, 'run-' + name)
        os.makedirs(d, exist_ok=True)
        plain, pg = (os.path.realpath(os.path.join(out, bname + '-' + k, bname)) for k in ('plain', 'pg'))
        data = os.path.join(d, 'perf.data')
        times = os.path.join(d, 'cpu.json')
        reuse = os.environ.get('TRUTH_REUSE') and os.path.exists(data) and os.path.exists(times)
        if reuse:	# analyse the last runs again (kept by TRUTH_REUSE=1)
            plain_cpu, pg_cpu = json.load(open(times))
        else:
            plain_cpu = cpu_run([plain] + args, d)
            ok = plain_cpu is not None and run(
                ['perf', 'record', '-e', 'cpu-clock', '-F', str(PERF_HZ), '--call-graph', 'dwarf', '-N', '-q',
                 '-o', data, '--', plain] + args, cwd=d)
            for f in os.listdir(d):
                if f.startswith('gmon.out'):
                    os.remove(os.path.join(d, f))
            pg_cpu = cpu_run([pg] + args, d) if ok else None
            with open(times, 'w') as f:
                json.dump([plain_cpu, pg_cpu], f)
        if pg_cpu is None or not os.path.exists(os.path.join(d, 'gmon.out')):
            say('(truth: %s skipped: a run failed, in %s)' % (name, d))
            continue
        tg = tgprof_profile(tgprof, pg, os.path.join(d, 'gmon.out'))
        pf = perf_profile(data, plain, *pg_symbols(pg), tg['arcs'])
        w = compare(name, what, plain_cpu, pg_cpu, pf, tg)
        if not os.environ.get('TRUTH_REUSE'):
            os.remove(data)	# a few hundred MB
        if w:
            summary.append('  %-10s self %+6.2f %s, inclusive %+6.2f %s; raw self %+6.2f %s, sampled %+6.2f %s;'
                           ' CPU %.2f s plain, %.2f s -pg' % (
                               name, w['self'][0], w['self'][1], w['incl'][0], w['incl'][1], w['raw'][0][0],
                               w['raw'][0][1], w['raw'][1][0], w['raw'][1][1], plain_cpu, pg_cpu))
    if summary:
        say('against the truth, the worst of the top %d, tgprof\'s share less perf\'s, in points (goals: self within %g, inclusive within %g):'
            % (TOP_N, GOAL_SELF, GOAL_INCL))
        for s in summary:
            say(s)


if __name__ == '__main__':
    main()
