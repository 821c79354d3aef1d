#!/bin/sh
# tests/export.sh: tgprof --export=FORMAT, each format read by the program that consumes it.
#
# Usage: export.sh TGPROF OUT PROGDIR.  The consumers are Debian's
# (.ci/run installs them): callgrind_annotate (valgrind), dot (graphviz),
# python3-jsonschema, protoc with pprof's profile.proto
# (golang-github-google-pprof-dev), gzip.  A consumer that
# is missing fails its cases: a format nobody checked is not tested.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
PROGS=$3
T_NAME=export
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
export LC_ALL=C

# The histogram's samples: the flat profile's cumulative seconds over a sample's.
samples() {	# prog gmon
	"$TGPROF" --batch -p "$1" "$2" | awk '/^Each sample counts as/ { s = $5 }
	    $1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9.]+$/ { c = $2 } END { printf "%.0f", c / s }'
}

# callgrind: callgrind_annotate reads it; every function's self time and
# calls are the flat profile's; -o writes the file whole, with the umask's mode.
for prog in cycles_O0 cxx_O2 calltree_O0; do
	want "callgrind $prog" || continue
	P=$PROGS/$prog
	d=$OUT/$prog
	mkdir -p "$d"
	"$TGPROF" --export=callgrind "$P/prog" "$P/gmon.out" >"$d/callgrind.out" 2>"$d/err"
	tcheck "callgrind $prog: written, nothing on standard error" sh -c "[ $? -eq 0 ] && [ ! -s '$d/err' ]"
	"$TGPROF" --batch -b -p "$P/prog" "$P/gmon.out" >"$d/flat"
	tcheck "callgrind $prog: callgrind_annotate reads it" sh -c "callgrind_annotate '$d/callgrind.out' >'$d/annotated'"
	total=$(awk 'NF >= 6 && $2 ~ /^[0-9]+\.[0-9][0-9]$/ && $3 ~ /^[0-9]+\.[0-9][0-9]$/ { t = $2 } END { printf "%.2f", t }' "$d/flat")
	tcheck "callgrind $prog: its total is the flat profile's ($total s, the last cumulative seconds)" sh -c "
	    sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS/\1/p' '$d/annotated' | tr -d , |
	    awk -v t=$total '{ d = \$1 / 1e6 - t; exit !(d < 0.0051 && d > -0.0051) }' &&
	    grep -q 'PROGRAM TOTALS' '$d/annotated'"
	tcheck "callgrind $prog: each function's self time and calls are the flat profile's" \
	    python3 "$TOP/tests/export/callgrind-check.py" "$d/callgrind.out" "$d/flat"
done
# dot: graphviz draws it; its nodes and edges are the call graph's, cut at
# gprof2dot's thresholds (--node-threshold, --edge-threshold).
for prog in cycles_O0 cxx_O2 calltree_O0; do
	want "dot $prog" || continue
	P=$PROGS/$prog
	d=$OUT/$prog
	mkdir -p "$d"
	"$TGPROF" --export=dot "$P/prog" "$P/gmon.out" >"$d/graph.dot" 2>"$d/err.dot"
	tcheck "dot $prog: written, nothing on standard error" sh -c "[ $? -eq 0 ] && [ ! -s '$d/err.dot' ]"
	"$TGPROF" --batch -b -q "$P/prog" "$P/gmon.out" >"$d/callgraph"
	tcheck "dot $prog: dot -Tsvg draws it" sh -c "dot -Tsvg '$d/graph.dot' >'$d/graph.svg' && grep -q '<svg' '$d/graph.svg'"
	tcheck "dot $prog: its nodes and edges are the call graph's" \
	    python3 "$TOP/tests/export/dot-check.py" "$d/graph.dot" "$d/callgraph" 0.5
done
if want "dot thresholds"; then
	P=$PROGS/cycles_O0
	d=$OUT/cycles_O0
	"$TGPROF" --export=dot --node-threshold=10 --edge-threshold=20 "$P/prog" "$P/gmon.out" >"$d/cut.dot"
	tcheck "dot --node-threshold=10: nodes of 10% or more only, as the call graph says" \
	    python3 "$TOP/tests/export/dot-check.py" "$d/cut.dot" "$d/callgraph" 10
	tcheck "dot --edge-threshold=20: every edge drawn carries 20% or more, but those inside a cycle" python3 -c "
import re, sys
text = open(sys.argv[1]).read()
cluster = {}
for m in re.finditer(r'subgraph cluster_(\\d+) \\{([^}]*)\\}', text):
    for f in re.findall(r'f\\d+', m.group(2)):
        cluster[f] = m.group(1)
edges = re.findall(r'\\t(f\\d+) -> (f\\d+) \\[.*label=\"([0-9.]+)%', text)
assert any(float(p) >= 20 for a, b, p in edges), 'no edge of 20% or more'
for a, b, p in edges:
    assert float(p) >= 20 or (a in cluster and cluster.get(a) == cluster.get(b)), (a, b, p)
" "$d/cut.dot"
	tcheck "dot: a cycle's members in a cluster" grep -q 'subgraph cluster_1' "$d/graph.dot"
	"$TGPROF" --export=dot --node-threshold=101 "$P/prog" "$P/gmon.out" 2>"$d/err.pct" >/dev/null
	tcheck "dot --node-threshold=101: refused in one line" sh -c "
	    [ $? -eq 1 ] && grep -q '^tgprof: --node-threshold: not a percentage from 0 to 100: 101' '$d/err.pct'"
fi
# json: valid against doc/tgprof-profile.schema.json (python3-jsonschema),
# its numbers the batch report's; any bytes in a name still make JSON.
for prog in cycles_O0 cxx_O2 calltree_O0; do
	want "json $prog" || continue
	P=$PROGS/$prog
	d=$OUT/$prog
	mkdir -p "$d"
	"$TGPROF" --export=json "$P/prog" "$P/gmon.out" >"$d/profile.json" 2>"$d/err.json"
	tcheck "json $prog: written, nothing on standard error" sh -c "[ $? -eq 0 ] && [ ! -s '$d/err.json' ]"
	"$TGPROF" --batch -b -p "$P/prog" "$P/gmon.out" >"$d/flat.json-check"
	"$TGPROF" --batch -b -q "$P/prog" "$P/gmon.out" >"$d/cg.json-check"
	tcheck "json $prog: valid, and the flat profile's and call graph's numbers" \
	    python3 "$TOP/tests/export/json-check.py" "$d/profile.json" "$TOP/doc/tgprof-profile.schema.json" \
	    "$d/flat.json-check" "$d/cg.json-check"
done
if want "json hostile name"; then
	P=$PROGS/cycles_O0
	nm "$P/prog" | python3 -c "
import sys
for l in sys.stdin.buffer:
    sys.stdout.buffer.write(l.replace(b' burn\\n', b' bu\"r\\\\n\\x01\\xff\\xc3\\n'))" >"$OUT/hostile.syms"
	"$TGPROF" --export=json -S "$OUT/hostile.syms" "$P/prog" "$P/gmon.out" >"$OUT/hostile.json"
	tcheck "json: a name with a quote, a backslash, a control character and bad UTF-8 is escaped" python3 -c "
import json, sys
d = json.load(open(sys.argv[1], encoding='utf-8'))
assert any(f['raw_name'] == 'bu\"r\\\\n\\x01\\ufffd\\ufffd' for f in d['functions']), [f['raw_name'] for f in d['functions']]
" "$OUT/hostile.json"
fi
# folded: estimated from the call graph without stacks (a comment says so,
# the counts add up to the samples, every stack from main); with stacks,
# --folded's measured ones.
if want "folded estimated"; then
	# A run has a dozen samples, too few for every path to keep one: 500
	# more in burn, which each arm of the is_even/is_odd cycle calls.
	P=$PROGS/cycles_O0
	burn=$(nm "$P/prog" | awk '$3 == "burn" { print "0x" $1 }')
	python3 "$TOP/tests/diff/mkgmon.py" put "$P/gmon.out" "$OUT/est.gmon" $((burn + 8)) 500 ||
	    fatal "tests/diff/mkgmon.py put failed"
	"$TGPROF" --export=folded "$P/prog" "$OUT/est.gmon" >"$OUT/est.folded"
	samples=$(samples "$P/prog" "$OUT/est.gmon")
	tcheck "folded estimated: first a comment saying so" \
	    sh -c "head -n 1 '$OUT/est.folded' | grep -q '^# tgprof: stacks estimated from the call graph'"
	tcheck "folded estimated: the counts add up to the histogram's $samples samples (to one: bins cut)" \
	    awk -v s="$samples" '!/^#/ { n += $NF } END { exit !(n >= s - 1 && n <= s + 1) }' "$OUT/est.folded"
	tcheck "folded estimated: every stack from main, cycles entered from it (main;is_even;is_odd;burn)" sh -c "
	    ! grep -v '^#' '$OUT/est.folded' | grep -qv '^main' && grep -q '^main;is_even;is_odd;burn [0-9]*\$' '$OUT/est.folded'"
fi
if want "folded measured"; then
	P=$PROGS/cycles_O0
	python3 "$TOP/tests/gen/stacks.py" "$P/prog" "$P/gmon.out" "$OUT/st.gmon" "$OUT/st.gmon.stacks" 0x5eed \
	    <"$TOP/tests/stacks/cycles.spec" || fatal "tests/gen/stacks.py failed"
	(cd "$OUT" && "$TGPROF" --export=folded "$P/prog" st.gmon >m.folded && "$TGPROF" --batch --folded "$P/prog" st.gmon >f.folded)
	tcheck "folded with stacks: --folded's measured stacks" sh -c "cmp -s '$OUT/m.folded' '$OUT/f.folded' && [ -s '$OUT/m.folded' ]"
fi
# pprof: gzip reads it, protoc decodes it with pprof's profile.proto
# (golang-github-google-pprof-dev); its samples add up, its calls are the
# flat profile's; go tool pprof -top reads it where go is installed.
PROTO=/usr/share/gocode/src/github.com/google/pprof/proto
pprof_check() {	# name prog gmon samples dir
	(cd "$5" && "$TGPROF" --export=pprof -o "$1.pb.gz" "$2" "$3") 2>"$OUT/$1.err"
	tcheck "pprof $1: written, a gzip file" sh -c "[ ! -s '$OUT/$1.err' ] && gzip -t '$5/$1.pb.gz'"
	gzip -dc "$5/$1.pb.gz" | protoc --decode=perftools.profiles.Profile -I "$PROTO" "$PROTO/profile.proto" \
	    >"$OUT/$1.txt" 2>"$OUT/$1.protoc"
	(cd "$5" && "$TGPROF" --batch -b -p "$2" "$3") >"$OUT/$1.flat"
	tcheck "pprof $1: protoc decodes it; $4 samples, the flat profile's calls and names" sh -c "
	    [ ! -s '$OUT/$1.protoc' ] && python3 '$TOP/tests/export/pprof-check.py' '$OUT/$1.txt' '$OUT/$1.flat' $4"
	if command -v go >/dev/null 2>&1; then
		tcheck "pprof $1: go tool pprof -top reads it" sh -c "go tool pprof -top '$5/$1.pb.gz' >/dev/null 2>&1"
	fi
}
if want "pprof"; then
	P=$PROGS/cycles_O0
	pprof_check estimated "$P/prog" "$P/gmon.out" "$(samples "$P/prog" "$P/gmon.out")" "$OUT"
	tcheck "pprof estimated: the comment says the stacks are estimated" \
	    grep -q 'string_table: "tgprof: no call stacks were recorded: the stacks are estimated' "$OUT/estimated.txt"
	[ -f "$OUT/st.gmon.stacks" ] || python3 "$TOP/tests/gen/stacks.py" "$P/prog" "$P/gmon.out" "$OUT/st.gmon" \
	    "$OUT/st.gmon.stacks" 0x5eed <"$TOP/tests/stacks/cycles.spec" || fatal "tests/gen/stacks.py failed"
	pprof_check measured "$P/prog" st.gmon 62 "$OUT"
	P=$PROGS/cxx_O2
	pprof_check cxx "$P/prog" "$P/gmon.out" "$(samples "$P/prog" "$P/gmon.out")" "$OUT"
	if command -v script >/dev/null 2>&1; then
		script -qec "'$TGPROF' --export=pprof '$P/prog' '$P/gmon.out'" /dev/null >"$OUT/tty.out" 2>&1
		tcheck "pprof to a terminal: refused (-o FILE)" grep -q 'tgprof: --export=pprof: not to a terminal (-o FILE)' "$OUT/tty.out"
	fi
fi
# Threads (a stacks file of version 3, tests/stacks/threads.spec): json's
# "threads" (valid against the schema), and with --thread the chosen
# threads' times, self times too; pprof's samples labelled by thread and tid.
if want_any "threads json" "threads pprof"; then
	P=$PROGS/cycles_O0
	python3 "$TOP/tests/gen/stacks.py" "$P/prog" "$P/gmon.out" "$OUT/th.gmon" "$OUT/th.gmon.stacks" 0x5eed \
	    <"$TOP/tests/stacks/threads.spec" || fatal "tests/gen/stacks.py failed (threads)"
fi
if want "threads json"; then
	(cd "$OUT" && "$TGPROF" --export=json "$P/prog" th.gmon >th.json 2>th.err &&
	    "$TGPROF" --export=json --thread=worker-2 "$P/prog" th.gmon >th2.json 2>>th.err)
	tcheck "threads json: valid; three threads, their samples, CPU times and shares; all chosen" sh -c "
	    [ ! -s '$OUT/th.err' ] && python3 - '$OUT/th.json' '$TOP/doc/tgprof-profile.schema.json' <<'PY'
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
t = d['threads']
assert [(x['tid'], x['name'], x['samples'], x['cpu_seconds'], x['main'], x['chosen']) for x in t] == [
    (1000, 'main', 32, 0.05, True, True), (1001, 'worker-1', 17, 0.02, False, True),
    (1002, 'worker-2', 12, None, False, True)], t
assert abs(t[0]['share'] - 32 / 62) < 1e-9 and d['stacks']['threads_chosen'] is False
PY"
	tcheck "threads json: --thread=worker-2: its 12 samples, burn's self and inclusive 0.012 s, calls whole" sh -c "
	    python3 - '$OUT/th2.json' '$TOP/doc/tgprof-profile.schema.json' '$OUT/th.json' <<'PY'
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
whole = {f['name']: f for f in json.load(open(sys.argv[3]))['functions']}
f = {f['name']: f for f in d['functions']}
assert [x['chosen'] for x in d['threads']] == [False, False, True]
assert d['stacks']['samples'] == 12 and d['stacks']['threads_chosen'] is True
assert abs(f['burn']['self'] - 0.012) < 1e-9 and abs(f['burn']['measured']['inclusive'] - 0.012) < 1e-9, f['burn']
assert abs(f['main']['measured']['inclusive'] - 0.009) < 1e-9, f['main']
assert f['burn']['calls'] == whole['burn']['calls'] > 0
PY"
fi
if want "threads pprof"; then
	(cd "$OUT" && "$TGPROF" --export=pprof -o th.pb.gz "$P/prog" th.gmon &&
	    "$TGPROF" --export=pprof -o th1.pb.gz --thread=1001 "$P/prog" th.gmon) 2>"$OUT/th.err"
	for f in th th1; do
		gzip -dc "$OUT/$f.pb.gz" | protoc --decode=perftools.profiles.Profile -I "$PROTO" "$PROTO/profile.proto" \
		    >"$OUT/$f.txt" 2>>"$OUT/th.err"
		python3 "$TOP/tests/export/pprof-threads.py" "$OUT/$f.txt" >"$OUT/$f.sums" 2>>"$OUT/th.err"
	done
	printf '%s\n' '[other threads] - 1' 'main 1000 32' 'worker-1 1001 17' 'worker-2 1002 12' >"$OUT/th.want"
	tcheck "threads pprof: samples labelled thread and tid, each thread's its own (main 32, worker-1 17, ...)" sh -c "
	    [ ! -s '$OUT/th.err' ] && grep -v '^unlabelled' '$OUT/th.sums' | cmp -s - '$OUT/th.want' &&
	    grep -qx 'unlabelled 0' '$OUT/th.sums'"
	tcheck "threads pprof: --thread=1001: worker-1's 17 samples only, the comment says calls are all threads'" sh -c "
	    grep -v '^unlabelled' '$OUT/th1.sums' | grep -qx 'worker-1 1001 17' && [ \$(grep -vc '^unlabelled' '$OUT/th1.sums') -eq 1 ] &&
	    grep -q 'string_table: \"tgprof: .*thread worker-1-1001 (1 of 3); calls: all threads' '$OUT/th1.txt'"
fi
# With libtgmon's call stacks the exports tell the measured story by
# default (tests/progs/rt/costly.c: work() called 10,000 times cheaply
# from cheap() and 10 times, for 97% of the time, from costly(), where
# gprof's estimate gives costly() almost nothing), and say so; with
# --estimated, gprof's estimates, said so too.
C=$OUT/costly
if want_any "measured callgrind" "measured dot" "measured json" "measured folded pprof"; then
	mkdir -p "$C" && gcc -pg -O1 -o "$C/costly" "$TOP/tests/progs/rt/costly.c" -L"$TOP/runtime" -l:libtgmon.a \
	    -pthread && (cd "$C" && ./costly >/dev/null) || fatal "cannot build or run tests/progs/rt/costly.c"
	for how in measured estimated; do
		flag=
		[ $how = estimated ] && flag=--estimated
		(cd "$C" && "$TGPROF" --export=callgrind $flag costly gmon.out >$how.callgrind &&
		    "$TGPROF" --export=dot $flag costly gmon.out >$how.dot &&
		    "$TGPROF" --export=json $flag costly gmon.out >$how.json) 2>"$C/err" ||
		    fail "measured: the exports ($how) fail: $(head -n 1 "$C/err")"
		callgrind_annotate --inclusive=yes --threshold=100 "$C/$how.callgrind" >"$C/$how.annotated" 2>&1
	done
fi
if want "measured callgrind"; then
	# callgrind_annotate --inclusive: "COST (PCT%)  file:function".
	share() { sed -n "s/^ *[0-9,]* ( *\([0-9.]*\)%)  [^ :]*:$2\\( \\[.*\\]\\)\\{0,1\\}\$/\1/p" "$1" | head -n 1; }
	c=$(share "$C/measured.annotated" costly)
	e=$(share "$C/estimated.annotated" costly)
	tcheck "measured callgrind: callgrind_annotate --inclusive gives costly() ${c:-?}% (over 90), --estimated ${e:-?}% (under 10)" \
	    awk -v c="${c:-0}" -v e="${e:-100}" 'BEGIN { exit !(c > 90 && e < 10) }'
	tcheck "measured callgrind: its desc says measured, --estimated's estimated" sh -c "
	    grep -q '^desc: Calls.* measured from libtgmon' '$C/measured.callgrind' &&
	    grep -q '^desc: Calls.* gprof.s estimates' '$C/estimated.callgrind'"
fi
if want "measured dot"; then
	edge() { python3 -c "
import re, sys
t = open(sys.argv[1]).read()
ids = {m.group(2): m.group(1) for m in re.finditer(r'\t(f\d+) \[.*label=\"([A-Za-z_]+)\\\\n', t)}
m = 'costly' in ids and re.search(r'\t%s -> %s \[.*label=\"([0-9.]+)%%' % (ids['costly'], ids['work']), t)
print(m.group(1) if m else 'none')" "$1"; }
	tcheck "measured dot: the edge costly -> work carries over 90% ($(edge "$C/measured.dot")), --estimated leaves it out ($(edge "$C/estimated.dot"))" \
	    sh -c "[ \"\$(echo '$(edge "$C/measured.dot")' | awk '\$1 > 90 { print \"ok\" }')\" = ok ] && [ '$(edge "$C/estimated.dot")' = none ]"
	tcheck "measured dot: dot draws it; the graph's comment says measured, --estimated's estimated" sh -c "
	    dot -Tsvg '$C/measured.dot' | grep -q '<svg' && grep -q 'comment=\"tgprof: times measured' '$C/measured.dot' &&
	    grep -q 'comment=\"tgprof: times estimated' '$C/estimated.dot'"
fi
if want "measured json"; then
	(cd "$C" && "$TGPROF" --batch -b -p costly gmon.out >flat && "$TGPROF" --batch -b -q --measured costly gmon.out >cg.measured &&
	    "$TGPROF" --batch -b -q costly gmon.out >cg.estimated)
	tcheck "measured json: valid, its inclusive times the measured call graph's (tgprof --measured)" \
	    python3 "$TOP/tests/export/json-check.py" "$C/measured.json" "$TOP/doc/tgprof-profile.schema.json" \
	    "$C/flat" "$C/cg.measured"
	tcheck "measured json --estimated: valid, its inclusive times gprof's" \
	    python3 "$TOP/tests/export/json-check.py" "$C/estimated.json" "$TOP/doc/tgprof-profile.schema.json" \
	    "$C/flat" "$C/cg.estimated"
	tcheck "measured json: times measured, costly -> work's inclusive over 90% of the stacks, gprof's beside each function" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
f = {x['name']: x for x in d['functions']}
a = [x for x in d['arcs'] if x['caller'] == f['costly']['id'] and x['callee'] == f['work']['id']][0]
total = d['stacks']['samples'] / d['stacks']['hz']
assert d['times'] == 'measured' and a['inclusive'] > 0.9 * total, (a, total)
assert all('estimated' in x for x in d['functions'])
e = json.load(open(sys.argv[2]))
assert e['times'] == 'estimated' and not any('estimated' in x for x in e['functions'])
" "$C/measured.json" "$C/estimated.json"
fi
# folded and pprof with --estimated: gprof's estimate too, said so, though
# there are stacks (costly() then gets almost none of work()'s samples).
if want "measured folded pprof"; then
	(cd "$C" && "$TGPROF" --export=folded costly gmon.out >m.folded &&
	    "$TGPROF" --export=folded --estimated costly gmon.out >e.folded &&
	    "$TGPROF" --export=pprof --estimated -o e.pb.gz costly gmon.out) 2>"$C/err" ||
	    fail "measured folded pprof: the exports fail: $(head -n 1 "$C/err")"
	# on FILE: the share of the samples on stacks through main;costly;work.
	on() { awk '{ n = $NF; t += n } /(^|;)costly;work( |;)/ { c += n } END { printf "%.3f", (t > 0 ? c / t : 0) }' "$1"; }
	tcheck "measured folded pprof: folded through costly;work $(on "$C/m.folded"), --estimated $(on "$C/e.folded") with its comment" sh -c "
	    awk -v m='$(on "$C/m.folded")' -v e='$(on "$C/e.folded")' 'BEGIN { exit !(m > 0.9 && e < 0.1) }' &&
	    head -n 1 '$C/e.folded' | grep -q '^# tgprof: stacks estimated from the call graph (--estimated, though call stacks were recorded)'"
	gzip -dc "$C/e.pb.gz" | protoc --decode=perftools.profiles.Profile -I "$PROTO" "$PROTO/profile.proto" \
	    >"$C/e.pprof.txt" 2>/dev/null
	tcheck "measured folded pprof: pprof --estimated says its stacks are estimated" \
	    grep -q 'string_table: "tgprof: --estimated: the stacks are estimated from the call graph' "$C/e.pprof.txt"
fi
# GCC's clones are named as the browser names them (--clones=fold, unless
# --clones says), not after the symbol before them as gprof does
# (tests/progs/rt/isra.c: -O2 makes hot() hot.constprop.0.isra.0, which
# gprof counts as frame_dummy's).
if want "clones"; then
	I=$OUT/isra
	mkdir -p "$I" && gcc -pg -O2 -o "$I/isra" "$TOP/tests/progs/rt/isra.c" -L"$TOP/runtime" -l:libtgmon.a \
	    -pthread && (cd "$I" && ./isra >/dev/null) || fatal "cannot build or run tests/progs/rt/isra.c"
	if nm "$I/isra" | grep -q ' t hot\.'; then
		(cd "$I" && "$TGPROF" --export=callgrind isra gmon.out >cg && "$TGPROF" --batch --folded isra gmon.out >folded &&
		    "$TGPROF" --export=pprof -o isra.pb.gz isra gmon.out && printf 'dump flat\n' >keys &&
		    TGPROF_SIZE=150x10 TGPROF_SCRIPT=keys "$TGPROF" isra gmon.out)
		# The flat row: measured %, % time, seconds, self, calls, two per-call times, the name.
		name=$(sed -n 5p "$I/flat" | cut -c2- | awk '{ for (i = 8; i <= NF; i++) printf "%s%s", $i, i < NF ? " " : "" }')
		gzip -dc "$I/isra.pb.gz" | protoc --decode=perftools.profiles.Profile -I "$PROTO" "$PROTO/profile.proto" \
		    >"$I/pprof.txt" 2>/dev/null
		tcheck "clones: callgrind, --folded and pprof name hot's clone as the browser does ($name), none frame_dummy" sh -c "
		    case '$name' in hot*) ;; *) exit 1 ;; esac &&
		    grep -F ') $name' '$I/cg' | grep -q '^c\{0,1\}fn=(' && grep -qF ';$name ' '$I/folded' &&
		    grep -qF 'string_table: \"$name\"' '$I/pprof.txt' &&
		    ! grep -q frame_dummy '$I/cg' && ! grep -q frame_dummy '$I/folded'"
		raw=$(nm "$I/isra" | awk '$3 ~ /^hot\./ { print $3; exit }')
		(cd "$I" && "$TGPROF" --tree="$raw" isra gmon.out >tree)
		tcheck "clones: --tree=$raw is the tree of $name, the function the stacks know" sh -c "
		    head -n 1 '$I/tree' | grep -qF 'Call tree: $name [' && sed -n 3p '$I/tree' | grep -qF ' $name ['"
	else
		pass "clones: gcc made no clone of hot (nm): nothing to check"
	fi
fi
if want "callgrind -o"; then
	P=$PROGS/cycles_O0
	(umask 027 && "$TGPROF" --export=callgrind -o "$OUT/o.callgrind" "$P/prog" "$P/gmon.out")
	tcheck "callgrind -o: the file, mode 0640 under umask 027" sh -c "
	    [ \"\$(stat -c %a '$OUT/o.callgrind')\" = 640 ] && head -1 '$OUT/o.callgrind' | grep -q '^# callgrind format'"
	"$TGPROF" --export=callgrind -o "$OUT/no/such/dir/x" "$P/prog" "$P/gmon.out" 2>"$OUT/err.o"
	tcheck "callgrind -o into no directory: status 1, one line" sh -c "
	    [ $? -eq 1 ] && [ \$(wc -l <'$OUT/err.o') -eq 1 ] && grep -q '^tgprof: $OUT/no/such/dir/x: ' '$OUT/err.o'"
fi
# -o to what is not a regular file is written through, never replaced:
# /dev/null stays the device, /dev/stdout (a pipe) gets the export, a FIFO
# without a reader is refused at once (not waited for); -s likewise.
if want "-o device"; then
	P=$PROGS/cycles_O0
	"$TGPROF" --export=callgrind -o /dev/null "$P/prog" "$P/gmon.out"
	rc=$?
	tcheck "-o /dev/null: status 0, /dev/null still a character device" sh -c "[ $rc -eq 0 ] && [ -c /dev/null ]"
	"$TGPROF" --export=callgrind -o /dev/stdout "$P/prog" "$P/gmon.out" | head -n 1 >"$OUT/o.stdout"
	tcheck "-o /dev/stdout into a pipe: the export comes through it" grep -q '^# callgrind format' "$OUT/o.stdout"
	rm -f "$OUT/o.fifo"
	if mkfifo "$OUT/o.fifo" 2>/dev/null; then
		timeout 10 "$TGPROF" --export=callgrind -o "$OUT/o.fifo" "$P/prog" "$P/gmon.out" 2>"$OUT/o.fifo.err"
		rc=$?
		tcheck "-o a FIFO without a reader: refused at once, one line, the FIFO kept" sh -c "
		    [ $rc -eq 1 ] && [ \$(wc -l <'$OUT/o.fifo.err') -eq 1 ] && [ -p '$OUT/o.fifo' ] &&
		    grep -q '^tgprof: $OUT/o.fifo: ' '$OUT/o.fifo.err'"
	else
		pass "-o a FIFO: mkfifo cannot make one here: skipped"
	fi
	rm -rf "$OUT/sumdir" && mkdir -p "$OUT/sumdir" && ln -s /dev/null "$OUT/sumdir/gmon.sum"
	(cd "$OUT/sumdir" && "$TGPROF" -s "$P/prog" "$P/gmon.out" >/dev/null 2>sum.err)
	tcheck "-s with gmon.sum a link to /dev/null: written through, the link kept" sh -c "
	    [ -L '$OUT/sumdir/gmon.sum' ] && [ -c /dev/null ] && [ ! -s '$OUT/sumdir/sum.err' ]"
fi
# A name of 20,000 bytes (graphviz refuses a string over 16 KiB): its label
# keeps 1 KiB of it, an ellipsis in the middle, the tooltip 8 KiB; dot draws it.
if want "dot long name"; then
	G=$OUT/long
	mkdir -p "$G"
	name=$(python3 -c "print('L' + 'x' * 19998 + 'R')")
	printf '%s\n' "void longest(int *p) __asm__(\"$name\");" '__attribute__((noinline)) void longest(int *p) { *p += 1; }' \
	    'int main(void) { int x = 0; for (int i = 0; i < 100; i++) longest(&x); return x != 100; }' >"$G/long.c"
	gcc -pg -O1 -o "$G/long" "$G/long.c" && (cd "$G" && ./long) || fatal "cannot build or run long.c"
	(cd "$G" && "$TGPROF" --export=dot --node-threshold=0 long gmon.out >long.dot)
	dot -Tsvg "$G/long.dot" >"$G/long.svg" 2>"$G/dot.err"
	tcheck "dot long name: dot draws it, the label cut to 1 KiB with an ellipsis, the tooltip to 8 KiB" python3 -c "
import re, sys
t = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'label=\"(Lx*\u2026x*R)\\\\n.*tooltip=\"(Lx*\u2026x*R)\"', t)
assert m and len(m.group(1).encode()) <= 1027 and 7000 < len(m.group(2).encode()) <= 8003, m
assert '<svg' in open(sys.argv[2]).read()
" "$G/long.dot" "$G/long.svg"
fi
if want "unknown format"; then
	"$TGPROF" --export=svg "$PROGS/cycles_O0/prog" "$PROGS/cycles_O0/gmon.out" >/dev/null 2>"$OUT/err.fmt"
	tcheck "--export=svg: status 1, the formats named" sh -c "
	    [ $? -eq 1 ] && grep -q '^tgprof: --export: no format \"svg\" (formats: callgrind' '$OUT/err.fmt'"
fi
finish
