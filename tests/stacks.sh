#!/bin/sh
# tests/stacks.sh: call stacks (libtgmon's stacks files): --folded, --measured, and damaged stacks files.
#
# Usage: stacks.sh TGPROF OUT PROGDIR.  tests/gen/stacks.py writes a stacks
# file of stacks named by hand (tests/stacks/cycles.spec) over cycles.c's
# real program and gmon.out, so the measured numbers are known exactly:
# burn is on 59 of the 62 stacks, fact on 7 (three deep, counted once),
# leaf_a on 35 (30 through mid, 5 from main).  Live stacks from libtgmon
# are tests/runtime.sh's; here, one live program shows what they change.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
P=$3/cycles_O0
T_NAME=stacks
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
export LC_ALL=C
GEN=$TOP/tests/gen/stacks.py
python3 "$GEN" "$P/prog" "$P/gmon.out" "$OUT/gmon.out" "$OUT/gmon.out.stacks" 0x5eed \
    <"$TOP/tests/stacks/cycles.spec" || fatal "tests/gen/stacks.py failed"
tg() { (cd "$OUT" && "$TGPROF" --batch "$@" "$P/prog" gmon.out); }

if want folded; then
	tg --folded >"$OUT/folded" 2>"$OUT/err"
	tcheck "--folded: the stacks, one line each, sorted" cmp -s "$TOP/tests/stacks/cycles.folded" "$OUT/folded"
	tcheck "--folded: the counts add up to the 62 samples" \
	    awk '{ s += $NF } END { exit s != 62 }' "$OUT/folded"
	tcheck "--folded: nothing on standard error" [ ! -s "$OUT/err" ]
fi

# FUNC's entry line ("[index] %time self children ...") matches PATTERN.
entry_is() {
	awk -v f="$1" '$1 ~ /^\[/ && $NF ~ /^\[/ && $(NF-1) == f { print; exit }' "$OUT/measured" |
	    grep -q "$2"
}
# In FUNC's entry, the line of its caller CALLER matches PATTERN.
caller_is() {
	awk -v f="$1" -v c="$2" '/^-----/ { n = 0; next } { line[n++] = $0 }
	    $1 ~ /^\[/ && $(NF-1) == f { for (k = 0; k < n; k++) if (index(line[k], " " c " [")) print line[k]; exit }' \
	    "$OUT/measured" | grep -q "$3"
}
if want measured; then
	tg -b -q --measured >"$OUT/measured" 2>&1
	tcheck "--measured: says the times are measured, from 62 stacks, 95.2% complete" \
	    grep -q '^times measured from 62 call stacks, 95.2% of them complete' "$OUT/measured"
	tcheck "--measured: main is on 59 of 62 stacks (95.2%)" entry_is main '^\[[0-9]*\] *95\.2 '
	tcheck "--measured: fact, three deep, counts once: 7 of 62 (11.3%)" entry_is fact '^\[[0-9]*\] *11\.3 '
	tcheck "--measured: burn's self time is its 59 samples (0.06 s)" \
	    entry_is burn '^\[[0-9]*\] *95\.2 *0\.06 *0\.00 '
	tcheck "--measured: leaf_a through mid: 30 samples (0.03 s)" \
	    caller_is leaf_a mid '^ *0\.00 *0\.03 *[0-9]*/[0-9]* *mid '
	tcheck "--measured: leaf_a from main: 5 samples (0.01 s)" \
	    caller_is leaf_a main '^ *0\.00 *0\.01 *[0-9]*/[0-9]* *main '
	tcheck "--measured: the cycle as a whole, 4 of 62 (6.5%)" \
	    grep -q '^\[[0-9]*\] *6\.5 .*<cycle 1 as a whole>' "$OUT/measured"
fi

# --tree of a function on no stack (ring: called, never sampled): the
# header and a line saying so (it crashed).
if want "tree unsampled"; then
	tg --tree=ring >"$OUT/ring.tree" 2>"$OUT/ring.err"
	rc=$?
	tcheck "tree unsampled: --tree=ring says it is on no call stack" sh -c "
	    [ $rc -eq 0 ] && sed -n 3p '$OUT/ring.tree' | grep -qx '(on no call stack: never sampled)' && [ ! -s '$OUT/ring.err' ]"
fi

# A shared library's frames are named from its own symbols; a stripped
# one's from its dynamic symbols (the exported functions), from its
# detached debugging file by build ID (TGPROF_DEBUG_DIR), else as [its file].
# With O (--library-rows), the browser's flat profile shows that time as
# rows of its own, out of burn's (the histogram chosen: burn's 10 ticks,
# all with stacks here).
if want library; then
	printf '%s\n' 'static int lib_hidden(int n) { return n * 3; }' \
	    'int lib_work(int n) { return lib_hidden(n) + 2; }' \
	    'int lib_outer(int n) { return lib_work(n) + 1; }' >"$OUT/lib.c"
	gcc -shared -fPIC -O0 -Wl,--build-id -o "$OUT/liblt.so" "$OUT/lib.c" &&
	    strip -o "$OUT/liblt-stripped.so" "$OUT/liblt.so" || fatal "cannot build a shared library"
	hidden=$(nm "$OUT/liblt.so" | awk '$3 == "lib_hidden" { print $1 }')
	id=$(readelf -n "$OUT/liblt.so" | sed -n 's/^ *Build ID: *//p')
	mkdir -p "$OUT/lib" "$OUT/debug/.build-id/${id%"${id#??}"}"
	objcopy --only-keep-debug "$OUT/liblt.so" "$OUT/debug/.build-id/${id%"${id#??}"}/${id#??}.debug" ||
	    fatal "cannot make a debugging file"
	L1=$OUT/liblt.so L2=$OUT/liblt-stripped.so
	printf '%s\n' 'rate 100' "3 1 main;burn;@$L1:lib_outer;@$L1:lib_work" "2 1 main;burn;@$L2:lib_outer" \
	    "1 1 main;burn;@$L2:+$hidden" "2 1 main;@$L2:+$hidden;burn" >"$OUT/lib.spec"
	python3 "$TOP/tests/ui/tree-gmon.py" "$P/prog" "$P/gmon.out" "$OUT/lib/chosen.gmon" burn=10 &&
	    python3 "$GEN" "$P/prog" "$OUT/lib/chosen.gmon" "$OUT/lib/gmon.out" "$OUT/lib/gmon.out.stacks" 7 \
	    <"$OUT/lib.spec" || fatal "tests/gen/stacks.py failed"
	(cd "$OUT/lib" && TGPROF_DEBUG_DIR=$OUT/none "$TGPROF" --batch --folded "$P/prog" gmon.out >folded 2>&1 &&
	    TGPROF_DEBUG_DIR=$OUT/debug "$TGPROF" --batch --folded "$P/prog" gmon.out >debug 2>&1)
	tcheck "a library's frames by its functions' names" grep -qx 'main;burn;lib_outer;lib_work 3' "$OUT/lib/folded"
	tcheck "a stripped library's exported functions by name" grep -qx 'main;burn;lib_outer 2' "$OUT/lib/folded"
	tcheck "a stripped library's other frames as [its file]" sh -c "
	    grep -qx 'main;\[liblt-stripped.so\];burn 2' '$OUT/lib/folded' &&
	    grep -qx 'main;burn;\[liblt-stripped.so\] 1' '$OUT/lib/folded'"
	tcheck "a stripped library's frames named from its debugging file" sh -c "
	    grep -qx 'main;lib_hidden;burn 2' '$OUT/lib/debug' && grep -qx 'main;burn;lib_hidden 1' '$OUT/lib/debug'"
	printf 'dump plain\nkey O\ndump rows\nkey j\ndump row2\nkey s\nkey s\nkey s\nkey s\ndump named\n' >"$OUT/lib/o.keys"
	printf 'key j\nkey s\nkey s\nkey s\nkey s\ndump named.opt\n' >"$OUT/lib/opt.keys"
	(cd "$OUT/lib" && export TGPROF_SIZE=100x30 TGPROF_DEBUG_DIR="$OUT/none" &&
	    TGPROF_SCRIPT=o.keys "$TGPROF" "$P/prog" gmon.out &&
	    TGPROF_SCRIPT=opt.keys "$TGPROF" --library-rows "$P/prog" gmon.out)
	tcheck "library rows (O): burn's self is 0.10 s, then 0.04 s beside its libraries' rows" sh -c "
	    grep -q '100.14 *0.10 *0.10 .* burn\$' '$OUT/lib/plain' && grep -q ' 0.04 *[0-9]* .* burn\$' '$OUT/lib/rows'"
	tcheck "library rows (O): lib_work@liblt.so 0.03 s, lib_outer@liblt-stripped.so 0.02 s, [liblt-stripped.so] 0.01 s" sh -c "
	    grep -q '  30.00  *0.07  *0.03  *lib_work@liblt.so\$' '$OUT/lib/rows' &&
	    grep -q '  20.00  *0.09  *0.02  *lib_outer@liblt-stripped.so\$' '$OUT/lib/rows' &&
	    grep -q '  10.00  *0.10  *0.01  *\[liblt-stripped.so\]\$' '$OUT/lib/rows' &&
	    grep -q 'Flat profile: [0-9]* functions and 3 in libraries' '$OUT/lib/rows'"
	tcheck "library rows (O): the bottom line of lib_work's row gives its own time" sh -c "
	    tail -n 1 '$OUT/lib/row2' | grep -Eq '^ lib_work@liblt.so: 0.03 s (±|[+]-) 0.02 s [(]3 samples[)], a library.s, out of its callers. time'"
	tcheck "library rows (O): sorted by name, and the same with --library-rows" sh -c "
	    grep -q 'by name' '$OUT/lib/named' && cmp -s '$OUT/lib/named' '$OUT/lib/named.opt'"
fi

# Without --measured or --folded the report is gprof's, stacks file or not.
if want unchanged; then
	tg >"$OUT/with" 2>&1
	mv "$OUT/gmon.out.stacks" "$OUT/aside"
	tg >"$OUT/without" 2>&1
	mv "$OUT/aside" "$OUT/gmon.out.stacks"
	tcheck "a stacks file changes nothing without --measured" cmp -s "$OUT/with" "$OUT/without"
	tcheck "--measured without a stacks file: one line, status 1" sh -c "
	    cd '$OUT' && ! '$TGPROF' --batch --measured --no-stacks '$P/prog' gmon.out >/dev/null 2>err &&
	    [ \$(wc -l <err) -eq 1 ] && grep -q '^tgprof: --no-stacks: no call stacks' err"
	tcheck "--stacks with two gmon files: refused in one line" sh -c "
	    cd '$OUT' && ! '$TGPROF' --batch --measured --stacks=gmon.out.stacks '$P/prog' gmon.out gmon.out \
	    >/dev/null 2>err && [ \$(wc -l <err) -eq 1 ]"
fi

# Live, from libtgmon (tests/progs/rt): work() called 10,000 times cheaply
# from cheap() and 10 times for 97% of the time from costly(); gprof's
# estimate gives costly() almost nothing, the measure at least 90%.
L=$OUT/live
RTP=$TOP/tests/progs/rt
mkdir -p "$L"
pgcc() { gcc -pg -O1 "$@" -L"$TOP/runtime" -l:libtgmon.a -pthread; }
pct() { awk -v f="$1" '$1 ~ /^\[/ && $(NF-1) == f { print $2; exit }' "$2"; }
if want live && pgcc -o "$L/costly" "$RTP/costly.c" && (cd "$L" && ./costly >/dev/null); then
	"$TGPROF" --batch -b -q "$L/costly" "$L/gmon.out" >"$L/estimated"
	"$TGPROF" --batch -b -q --measured "$L/costly" "$L/gmon.out" >"$L/measured"
	check "live: gprof's estimate: costly() under 10%, cheap() over 90% ($(pct costly "$L/estimated"), $(pct cheap "$L/estimated"))" \
	    awk -v c="$(pct costly "$L/estimated")" -v h="$(pct cheap "$L/estimated")" 'BEGIN { exit !(c < 10 && h > 90) }'
	check "live: measured: costly() at least 90%, cheap() under 10% ($(pct costly "$L/measured"), $(pct cheap "$L/measured"))" \
	    awk -v c="$(pct costly "$L/measured")" -v h="$(pct cheap "$L/measured")" 'BEGIN { exit !(c >= 90 && h < 10) }'
	"$TGPROF" --batch --folded "$L/costly" "$L/gmon.out" >"$L/folded"
	hist=$("$TGPROF" --batch -b -p "$L/costly" "$L/gmon.out" | awk 'NR == 5 { t = $2 } NR > 5 && $2 ~ /^[0-9.]+$/ { t = $2 } END { printf "%.0f", t * 1000 }')
	# The flat profile's seconds have two decimals: 10 samples either way, and 1%.
	check "live: the folded stacks add up to the histogram's samples ($(awk '{ s += $NF } END { print s }' "$L/folded") of $hist)" \
	    awk -v h="$hist" '{ s += $NF } END { exit !(h > 0 && s >= h * 0.99 - 10 && s <= h * 1.01 + 10) }' "$L/folded"
elif want live; then
	fail "live: cannot build or run tests/progs/rt/costly.c with libtgmon"
fi

# The call tree of the stacks (--tree, as the browser's t, r, b): eval()
# and apply() call each other, heavy() under apply() has 90% and more of
# eval()'s time (tests/progs/rt/evalapply.c).  gprof's arcs collapse the
# cycle and cannot reach heavy from eval; their times are marked ~.  The
# roots of the whole program add up to 100%, none counted twice.
if want tree && pgcc -o "$L/ea" "$RTP/evalapply.c" && (cd "$L" && ./ea >/dev/null); then
	(cd "$L" && "$TGPROF" --tree=eval ea gmon.out >ea.tree && "$TGPROF" --tree=eval --estimated ea gmon.out >ea.est &&
	    "$TGPROF" --tree ea gmon.out >ea.whole && "$TGPROF" --tree=heavy --callers ea gmon.out >ea.up)
	heavy=$(awk '$NF == "[4]" || $(NF-1) == "heavy" { print $1; exit }' "$L/ea.tree")
	check "tree: r on eval reaches heavy through apply, at 90% or more ($heavy%)" sh -c "
	    grep -q '^ *[0-9.]* *[0-9.]* *[0-9]*  *- apply <cycle 1> \[' '$L/ea.tree' &&
	    awk -v h='${heavy:-0}' 'BEGIN { exit !(h >= 90) }'"
	check "tree: gprof's tree of eval cannot reach heavy, and marks its time ~" sh -c "
	    ! grep -q heavy '$L/ea.est' && grep -q '^ *~[0-9.]* .* eval <cycle 1> \[' '$L/ea.est'"
	# A root's mark is in column 32 (a leaf's name in column 34, as no mark is there deeper).
	check "tree: the whole program's roots add up to 100% (no overlap)" awk '
	    NR > 2 && (substr($0, 32, 1) != " " || substr($0, 34, 1) !~ /[-+@ ]/) { s += $1 }
	    END { exit !(s > 99.4 && s < 100.6) }' "$L/ea.whole"
	check "tree: --callers of heavy: apply, then eval, then main" sh -c "
	    sed -n 3,5p '$L/ea.up' | tr -s ' ' | cut -d ' ' -f 6- | tr '\n' ' ' | grep -q '^heavy \[.*apply <cycle 1> \[.*eval <cycle 1> \['"
	(cd "$L" && ! "$TGPROF" --tree=nosuch ea gmon.out 2>e1 >/dev/null && ! "$TGPROF" --callers ea gmon.out 2>e2 >/dev/null)
	check "tree: no such function, --callers without --tree: status 1, one line each" sh -c "
	    grep -q '^tgprof: --tree=nosuch: no such function in ea\$' '$L/e1' && [ \$(wc -l <'$L/e1') -eq 1 ] &&
	    grep -q '^tgprof: --callers: of a --tree\$' '$L/e2' && [ \$(wc -l <'$L/e2') -eq 1 ]"
elif want tree; then
	fail "tree: cannot build or run tests/progs/rt/evalapply.c with libtgmon"
fi

# make demo's program (tests/progs/demo.c): lookup() is called 800 times as
# often from count_words() as from rebuild_index(), whose few calls take
# most of its time.  gprof's estimate gives count_words() nearly all of it,
# the measure gives rebuild_index() most: the demo shows that.
if want demo && pgcc -g -o "$L/demo" "$TOP/tests/progs/demo.c" && (cd "$L" && rm -f gmon.out* && ./demo 0.5 >/dev/null); then
	(cd "$L" && "$TGPROF" --batch -b -q demo gmon.out >demo.est && "$TGPROF" --batch -b -q --measured demo gmon.out >demo.mes)
	# arc CALLER FILE: the self and children of lookup's line for CALLER in its entry, added.
	arc() { awk -v c="$1" '/^-----/ { n = 0; next } { l[n++] = $0 } $1 ~ /^\[/ && $(NF-1) == "lookup" {
	    for (k = 0; k < n; k++) { split(l[k], f); if (f[3] ~ /\// && f[4] == c) print f[1] + f[2] }; exit }' "$2"; }
	check "demo: gprof's estimate gives count_words nearly all lookup's time ($(arc count_words "$L/demo.est") s against $(arc rebuild_index "$L/demo.est") s)" \
	    awk -v c="$(arc count_words "$L/demo.est")" -v r="$(arc rebuild_index "$L/demo.est")" 'BEGIN { exit !(c > 10 * r) }'
	check "demo: measured, rebuild_index has most of it ($(arc rebuild_index "$L/demo.mes") s against $(arc count_words "$L/demo.mes") s)" \
	    awk -v c="$(arc count_words "$L/demo.mes")" -v r="$(arc rebuild_index "$L/demo.mes")" 'BEGIN { exit !(r > 1.5 * c) }'
elif want demo; then
	fail "demo: cannot build or run tests/progs/demo.c with libtgmon"
fi

# Known truth (tests/progs/rt/calltruth.c): built without -pg the program
# times its three phases itself (forty million tiny calls, one long loop,
# memcpy: SCALE 4, about 0.8 s, so that each share is good to a point or
# two); built with -pg and libtgmon, tgprof's shares of them, the
# profiler's rows out of the program's time, are those: the tiny calls'
# phase comes out 3 to 7 points low (libtgmon's counting runs alongside
# leaf()'s work and hardly slows it, but its samples are the profiler's:
# the known limit of taking those out), never more than 8 low or 2 high;
# copy()'s time (in memcpy) against bulk()'s within 15% (the plain run's own
# timing of memcpy moves by 10% on a busy machine).
# --call-cost=1
# takes 1 ns times leaf()'s forty million calls out of its self time,
# exactly; --raw counts the profiler's rows again.
if want truth && gcc -O1 -o "$L/ct-plain" "$RTP/calltruth.c" && pgcc -o "$L/ct" "$RTP/calltruth.c" &&
    (cd "$L" && ./ct-plain 4 >ct.truth && rm -f gmon.out* && ./ct 4 >/dev/null); then
	(cd "$L" && "$TGPROF" --export=json ct gmon.out >ct.json && "$TGPROF" --export=json --call-cost=1 ct gmon.out \
	    >ct1.json && "$TGPROF" --export=json --raw ct gmon.out >ctraw.json)
	check "truth: the shares as without -pg (leafy 8 low to 2 high, copy:bulk within 15%; $(cat "$L/ct.truth"))" \
	    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read().split()
truth = {t[0]: float(t[1]), t[2]: float(t[3]), t[4]: float(t[5])}
own = {f['name']: f['self'] for f in d['functions'] if not f.get('profiler')}
total = sum(own.values())
assert abs(total - d['truth']['program_seconds']) < 0.002, (total, d['truth'])
assert any(f.get('profiler') for f in d['functions']), 'no profiler rows'
got = {'leafy': own.get('leaf', 0) + own.get('leafy', 0), 'bulk': own.get('bulk', 0), 'copy': own.get('copy', 0)}
tt = sum(truth.values())
a, b = 100 * got['leafy'] / total, 100 * truth['leafy'] / tt
assert -8 <= a - b <= 2, ('leafy', a, b)
r, q = got['copy'] / got['bulk'], truth['copy'] / truth['bulk']
assert abs(r / q - 1) <= 0.15, ('copy against bulk', r, q)
" "$L/ct.json" "$L/ct.truth"
	check "truth: --call-cost=1 takes 40 ms (40,000,000 calls of 1 ns) out of leaf's self time, exactly" python3 -c "
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
s = lambda d: [f['self'] for f in d['functions'] if f['name'] == 'leaf'][0]
want = min(s(a), 0.04)
assert abs((s(a) - s(b)) - want) < 1e-9 and b['truth']['call_ns'] == 1, (s(a), s(b))
assert a['truth']['call_ns'] == 0 and a['truth']['call_ns_measured'] > 0
" "$L/ct.json" "$L/ct1.json"
	(cd "$L" && "$TGPROF" --export=callgrind ct gmon.out >ct.cg && "$TGPROF" --export=dot ct gmon.out >ct.dot &&
	    "$TGPROF" --batch --folded ct gmon.out >ct.folded && "$TGPROF" --batch -b -q --measured ct gmon.out >ct.cgm)
	check "truth: the exports and --measured say the profiler's share is taken out, and leave its stacks out" sh -c "
	    grep -q \"^desc: Times: the profiler's [0-9.]*% taken out (tgprof --raw: as sampled)\\\$\" '$L/ct.cg' &&
	    grep -q \"comment=.*; the profiler's [0-9.]*% taken out\" '$L/ct.dot' &&
	    head -n 1 '$L/ct.folded' | grep -q \"^# tgprof: the profiler's [0-9.]*% taken out (--raw: as sampled)\\\$\" &&
	    ! grep -q 'tgmon_' '$L/ct.folded' && grep -q \"complete (not gprof's estimates); the profiler's\" '$L/ct.cgm'"
	check "truth: --raw counts the profiler's rows: the program's time is all that was sampled" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['truth']['raw'] and abs(d['truth']['program_seconds'] - d['histogram']['seconds']) < 1e-9
" "$L/ctraw.json"
elif want truth; then
	fail "truth: cannot build or run tests/progs/rt/calltruth.c"
fi

# Through libc (a qsort comparator: libc keeps no frame pointer), a
# 100,000-deep recursion, a signal handler: no fault, every sample kept,
# the stacks that stop early or are cut said to be.
if want live && pgcc -o "$L/mix" "$RTP/stackmix.c"; then
	for m in qsort deep signal; do
		mkdir -p "$L/$m"
		(cd "$L/$m" && ../mix $m >/dev/null)
		check "live $m: the program ends normally" [ $? -eq 0 ]
		"$TGPROF" --batch --folded "$L/mix" "$L/$m/gmon.out" >"$L/$m/folded" 2>"$L/$m/err"
		check "live $m: --folded reads its stacks" [ -s "$L/$m/folded" ] && [ ! -s "$L/$m/err" ]
	done
	check "live qsort: the comparator's samples end in cmp;burn" grep -q ';cmp;burn [0-9]*$' "$L/qsort/folded"
	check "live signal: the handler's samples are above what it interrupted (signals;[burn;]on_alarm;burn, under one libc frame or none)" \
	    grep -q '^\([^;]*;\)\{0,1\}main;signals;\(burn;\)\{0,1\}on_alarm;burn [0-9]*$' "$L/signal/folded"
	check "live deep: stacks cut at 256 frames are [truncated]" grep -q '^\[truncated\];deep;deep;' "$L/deep/folded"
	check "live deep: their innermost frames kept (deep;burn)" grep -q '^\[truncated\];.*;deep;burn [0-9]*$' "$L/deep/folded"
fi

# A -pg shared library: its frames named from its symbols.
if want live && gcc -pg -O2 -fPIC -shared -o "$L/libfoo.so" "$RTP/libfoo.c" &&
    gcc -pg -O2 -o "$L/usefoo" "$RTP/usefoo.c" -L"$L" -lfoo -Wl,-rpath,"$L" -L"$TOP/runtime" \
    -l:libtgmon.a -pthread && (cd "$L" && rm -f gmon.out* && ./usefoo >/dev/null); then
	"$TGPROF" --batch --folded "$L/usefoo" "$L/gmon.out" >"$L/foo.folded" 2>&1
	check "live: libfoo.so's frames by name (foo_leaf)" grep -q ';foo_leaf[; ]' "$L/foo.folded"
	# The library's own profile, read with the program's stacks: its frames are its functions.
	(cd "$L" && "$TGPROF" --batch -b -q --measured --stacks=gmon.out.stacks libfoo.so gmon.libfoo.so.out >foo.mes 2>&1)
	check "live: --measured on libfoo.so's own profile: foo_loop measured at 90% or more, not 0 ($(pct foo_loop "$L/foo.mes"))" \
	    awk -v p="$(pct foo_loop "$L/foo.mes")" 'BEGIN { exit !(p >= 90) }'
	# tgprof record says where the library's profile went, and how to read it.
	(cd "$L" && mkdir -p rec && "$TGPROF" record -o rec/gmon.out -- ./usefoo >/dev/null 2>rec/err)
	check "live: record names the -pg library's profile beside the program's" sh -c "
	    grep -q '^tgprof: record: rec/gmon.libfoo.so.out: the profile of the -pg library libfoo.so, apart from the program.s: tgprof libfoo.so rec/gmon.libfoo.so.out\$' '$L/rec/err' &&
	    [ -s '$L/rec/gmon.libfoo.so.out' ]"
fi

# Library time under the program's function that called it, with C++
# exceptions (throwtime.cpp: catcher() catches what thrower() throws,
# 80% of the CPU time, nearly all of it in the unwinder, libgcc_s and
# libstdc++, called from thrower; own_work() 20%; each phase's CPU time
# printed).  The histogram charges a sample in a library to the call into
# it, in the stacks' innermost function of the program: thrower, as perf
# finds (75% and catcher 4%, here and with perf --call-graph dwarf).
# g++ -O2 puts the throw in thrower.cold, whose address gprof gives to
# the symbol before it (_init had 77% of the time, thrower none); -O1
# ends thrower with its call to __cxa_throw, whose return address is
# catcher's first byte (catcher had 80%); -mfentry shrink-wraps thrower,
# whose cold part sets up the frame and looks like a function; through a
# pointer (-DTHROW_PTR: -O2's thrower.cold again), thrower is the
# function its call site's slot counted, which jumps to that part.  The
# flat profile's rows of the program (not the profiler's, nor _init)
# hold 95% of the stacks' samples at least; thrower's self time is its
# stacks' (within 3% and 5 samples), and with catcher's the throwing
# phase's (within 3.5 standard deviations of the signals and 3%); _init
# (the program's own cold code, the PLT) 3% at most.
for o in O2 O1 mfentry pointer; do
	want "exceptions $o: " || continue
	X=$OUT/throw-$o
	mkdir -p "$X"
	case $o in
	mfentry) flags="-mfentry -O2 -fno-omit-frame-pointer" ;;
	pointer) flags="-O2 -DTHROW_PTR" ;;
	*) flags=-$o ;;
	esac
	# shellcheck disable=SC2086
	if ! g++ -pg $flags -o "$X/throwtime" "$RTP/throwtime.cpp" -L"$TOP/runtime" -l:libtgmon.a -pthread ||
	    ! (cd "$X" && rm -f gmon.out* && ./throwtime 0.6 >phases); then
		fail "exceptions $o: cannot build or run tests/progs/rt/throwtime.cpp with libtgmon"
		continue
	fi
	"$TGPROF" --batch --no-demangle --folded "$X/throwtime" "$X/gmon.out" >"$X/folded"
	"$TGPROF" --batch --no-demangle -b -p "$X/throwtime" "$X/gmon.out" >"$X/flat"
	# the samples: the stacks' (n), under thrower (m); the flat profile's
	# rows of the program (f), thrower's (t), catcher's (c), _init's (i);
	# the signals (s); the throwing phase's share of the CPU time (p)
	n=$(awk '!/^#/ { s += $NF } END { print s + 0 }' "$X/folded")
	m=$(awk '/(^|;)_Z7throwerl[;. ]/ { s += $NF } END { print s + 0 }' "$X/folded")
	row() { awk -v f="$1" 'NR > 5 && $2 ~ /^[0-9.]+$/ && $NF == f { s += $3 } END { printf "%.0f", s * 1000 }' "$X/flat"; }
	f=$(awk 'NR > 5 && $2 ~ /^[0-9.]+$/ && $NF != "_init" && $NF !~ /^(tgmon_|_?mcount$|__fentry__$)/ { s += $3 }
	    END { printf "%.0f", s * 1000 }' "$X/flat")
	t=$(row _Z7throwerl) c=$(row _Z7catcheri) i=$(row _init)
	s=$(python3 -c "import sys; print(int.from_bytes(open(sys.argv[1], 'rb').read()[80:88], 'little'))" \
	    "$X/gmon.out.stacks")
	p=$(awk '{ printf "%.4f", $2 / ($2 + $4) }' "$X/phases")
	tcheck "exceptions $o: the flat profile's rows of the program hold $f of the stacks' $n samples (95%)" \
	    awk -v f="$f" -v n="$n" 'BEGIN { exit !(n > 0 && f >= 0.95 * n) }'
	tcheck "exceptions $o: thrower's self time is its samples under the unwinder: $t of $m in the stacks" \
	    awk -v t="$t" -v m="$m" 'BEGIN { d = t - m; exit !(m > 0 && (d < 0 ? -d : d) <= 0.03 * m + 5) }'
	tcheck "exceptions $o: thrower and catcher have the throwing phase's share ($t + $c of $n samples, $p of the time)" \
	    awk -v a="$t" -v b="$c" -v n="$n" -v p="$p" -v s="$s" 'BEGIN { e = 3.5 * sqrt(p * (1 - p) / s) + 0.03
	        d = (a + b) / n - p; exit !(n > 0 && s >= 50 && d < e && -d < e && a >= 0.8 * (a + b)) }'
	tcheck "exceptions $o: _init (nobody) has $i of $n samples (3% at most)" \
	    awk -v i="$i" -v n="$n" 'BEGIN { exit !(n > 0 && i <= 0.03 * n) }'
done

# Many library functions: 120,000 distinct frames of a library with as
# many functions (generated in assembly) are named and counted in well
# under 20 s (each was looked for among all before it: about a minute).
if want "many library functions"; then
	M=$OUT/many
	rm -rf "$M" && mkdir -p "$M"
	python3 -c "
n = 120000
with open('$M/many.s', 'w') as f:
    f.write('.text\n')
    for i in range(n):
        f.write('.globl f%d\n.type f%d,@function\nf%d: ret\nnop\n.size f%d,2\n' % (i, i, i, i))
" && gcc -shared -nostdlib -o "$M/libmany.so" "$M/many.s" || fatal "cannot build libmany.so"
	{ echo 'rate 1000'; nm --defined-only "$M/libmany.so" | awk -v l="$M/libmany.so" '$3 ~ /^f[0-9]+$/ {
	    printf "1 1 main;@%s:+%s\n", l, $1 }'; } >"$M/many.spec"
	python3 "$GEN" "$P/prog" "$P/gmon.out" "$M/gmon.out" "$M/gmon.out.stacks" 9 <"$M/many.spec" ||
	    fatal "tests/gen/stacks.py failed"
	(cd "$M" && timeout 20 "$TGPROF" --batch --folded "$P/prog" gmon.out >folded 2>err)
	rc=$?
	tcheck "many library functions: 120,000 distinct frames named, in under 20 s" sh -c "
	    [ $rc -eq 0 ] && [ \$(grep -c '^main;f[0-9]* 1\$' '$M/folded') -eq 120000 ]"
fi

# A FIFO (or a device) named gmon.out.stacks beside gmon.out is not read:
# a warning says so, and nothing waits for a writer that never comes.
if want "fifo beside"; then
	F=$OUT/fifo
	rm -rf "$F" && mkdir -p "$F" && cp "$OUT/gmon.out" "$F/gmon.out"
	if mkfifo "$F/gmon.out.stacks" 2>/dev/null; then
		(cd "$F" && timeout 20 "$TGPROF" --export=callgrind "$P/prog" gmon.out >cg 2>err1;
		    echo $? >rc1; printf 'key q\n' >q.keys; TGPROF_SCRIPT=q.keys timeout 20 "$TGPROF" "$P/prog" gmon.out \
		    >/dev/null 2>err2; echo $? >rc2; timeout 20 "$TGPROF" --diff "$P/prog" gmon.out gmon.out >diff 2>err3;
		    echo $? >rc3)
		tcheck "fifo beside: --export, the browser and --diff do not wait on a FIFO gmon.out.stacks" sh -c "
		    [ \$(cat '$F/rc1') -eq 0 ] && [ \$(cat '$F/rc2') -eq 0 ] && [ \$(cat '$F/rc3') -eq 0 ] &&
		    grep -q '^# callgrind format' '$F/cg' &&
		    grep -q 'gmon.out.stacks: not a regular file: not read' '$F/err1'"
	else
		pass "fifo beside: mkfifo cannot make one here: skipped"
	fi
fi

# Threads (stacks file version 3, tests/stacks/threads.spec): the stacks of
# cycles.spec in three threads and none, each thread's truth known: main
# 32 samples (30 through mid), worker-1 17 (10 through top, 7 in fact),
# worker-2 12, no thread record 1; 62 in all.
python3 "$GEN" "$P/prog" "$P/gmon.out" "$OUT/gmon.out.th" "$OUT/threads.stacks" 0x5eed \
    <"$TOP/tests/stacks/threads.spec" || fatal "tests/gen/stacks.py failed (threads)"
cmp -s "$OUT/gmon.out.th" "$OUT/gmon.out" || fatal "tests/gen/stacks.py: two gmon files of one run differ"
th() { (cd "$OUT" && "$TGPROF" --batch --stacks=threads.stacks "$@" "$P/prog" gmon.out); }
sumof() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
if want "threads list"; then
	th --threads >"$OUT/th.list" 2>"$OUT/th.err"
	tcheck "threads list: one row a thread: share, samples, signals, CPU s, tid, name" sh -c "
	    [ ! -s '$OUT/th.err' ] && grep -q '^Threads: 3, 62 samples\$' '$OUT/th.list' &&
	    grep -Eq '^ +51\.61 +32 +32 +0\.050 +1000  main \(main\)\$' '$OUT/th.list' &&
	    grep -Eq '^ +27\.42 +17 +17 +0\.020 +1001  worker-1 \(ended\)\$' '$OUT/th.list' &&
	    grep -Eq '^ +19\.35 +12 +12 +\? +1002  worker-2 \(ended\)\$' '$OUT/th.list' &&
	    grep -Eq '^ +1\.61 +1 +- +- +-  \[other threads\]\$' '$OUT/th.list' &&
	    grep -q 'calls are not: they are all threads' '$OUT/th.list'"
	th --threads --thread=worker-1 >"$OUT/th.list2" 2>&1
	tcheck "threads list: --thread marks the chosen with *" sh -c "
	    grep -Eq '^\* +27\.42 +17 ' '$OUT/th.list2' && [ \$(grep -c '^\*' '$OUT/th.list2') -eq 1 ]"
fi
if want "threads folded"; then
	th --folded --thread=main >"$OUT/th.main" 2>"$OUT/th.err"
	tcheck "threads folded: --thread=main: its two stacks, 32 samples" sh -c "
	    [ ! -s '$OUT/th.err' ] && [ \$(wc -l <'$OUT/th.main') -eq 2 ] && grep -qx 'main 2' '$OUT/th.main' &&
	    grep -qx 'main;top;mid;leaf_a;burn 30' '$OUT/th.main'"
	th --folded --thread=1001,worker-2 >"$OUT/th.two" 2>&1
	th --folded --thread='worker-*' >"$OUT/th.glob" 2>&1
	tcheck "threads folded: --thread=1001,worker-2: 29 samples; a glob worker-* the same" sh -c "
	    [ $(sumof "$OUT/th.two") -eq 29 ] && cmp -s '$OUT/th.two' '$OUT/th.glob' &&
	    grep -qx 'main;fact;fact;fact;burn 7' '$OUT/th.two' && ! grep -q 'mid' '$OUT/th.two'"
	th --folded --thread-frames >"$OUT/th.frames" 2>&1
	tcheck "threads folded: --thread-frames: each stack under NAME-TID, the rest [other threads]" sh -c "
	    [ $(sumof "$OUT/th.frames") -eq 62 ] && grep -qx 'worker-1-1001;main;fact;fact;fact;burn 7' '$OUT/th.frames' &&
	    grep -qx 'worker-2-1002;\[incomplete\];leaf_b;burn 3' '$OUT/th.frames' &&
	    grep -qx '\[other threads\];main;\[libc.so.6\] 1' '$OUT/th.frames' && [ \$(wc -l <'$OUT/th.frames') -eq 8 ]"
	th --export=folded --thread-frames --thread=main >"$OUT/th.exp" 2>&1
	tcheck "threads folded: --export=folded --thread-frames --thread=main" sh -c "
	    grep -qx 'main-1000;main;top;mid;leaf_a;burn 30' '$OUT/th.exp' && [ $(sumof "$OUT/th.exp") -eq 32 ]"
fi
if want "threads tree"; then
	th --tree=main --thread=worker-1 >"$OUT/th.tree" 2>&1
	tcheck "threads tree: says whose, calls all threads'; main 0.02 s (17), top 58.8%, fact 41.2%" sh -c "
	    sed -n 1p '$OUT/th.tree' | grep -qx 'Measured for thread worker-1-1001 (1 of 3); calls: all threads' &&
	    grep -Eq '^ +100\.0 +0\.02 .*- main \[' '$OUT/th.tree' && grep -Eq '^ +58\.8 .* top \[' '$OUT/th.tree' &&
	    grep -Eq '^ +41\.2 .* fact' '$OUT/th.tree' && ! grep -q ' mid \[' '$OUT/th.tree'"
fi
# Refused, in one line and status 1.
refuse() {	# name pattern tgprof-arguments...
	n=$1 pat=$2
	shift 2
	want "threads refused: $n" || return 0
	th "$@" >/dev/null 2>"$OUT/th.err"
	rc=$?
	tcheck "threads refused: $n" sh -c "
	    [ $rc -eq 1 ] && [ \$(wc -l <'$OUT/th.err') -eq 1 ] && grep -q '^tgprof: $pat' '$OUT/th.err'"
}
refuse "no such thread" "--thread: no thread nosuch (--threads lists them)" --folded --thread=main,nosuch
refuse "an empty element" "--thread=main,: an empty thread id or name" --folded --thread=main,
refuse "a tid of none" "--thread: no thread 999" --folded --thread=999
refuse "the report" "--thread: with --folded, --tree, --export or --threads" -b --thread=main
refuse "--measured" "--thread: not with --measured" --folded --measured --thread=main
refuse "--estimated" "--thread: not with --estimated" --export=json --estimated --thread=main
if want "threads refused: version 1"; then
	(cd "$OUT" && "$TGPROF" --batch --folded --thread=main "$P/prog" gmon.out >/dev/null 2>th.err1; echo $? >th.rc1;
	    "$TGPROF" --batch --threads "$P/prog" gmon.out >/dev/null 2>th.err2; echo $? >th.rc2)
	tcheck "threads refused: a stacks file without thread records: --thread and --threads, one line" sh -c "
	    [ \$(cat '$OUT/th.rc1') -eq 1 ] && [ \$(cat '$OUT/th.rc2') -eq 1 ] &&
	    [ \$(wc -l <'$OUT/th.err1') -eq 1 ] && [ \$(wc -l <'$OUT/th.err2') -eq 1 ] &&
	    grep -q 'no thread records' '$OUT/th.err1' && grep -q 'no thread records' '$OUT/th.err2'"
fi
# A hostile thread name: an escape sequence, ';', a quote and a backslash.
if want "threads hostile name"; then
	sed 's/^thread 1001 worker-1/thread 1001 \\x1b[31m;"\\\\x/' "$TOP/tests/stacks/threads.spec" >"$OUT/hostile-th.spec"
	python3 "$GEN" "$P/prog" "$P/gmon.out" "$OUT/gmon.out.th" "$OUT/hostile-th.stacks" 0x5eed <"$OUT/hostile-th.spec" ||
	    fatal "tests/gen/stacks.py failed (a hostile thread)"
	(cd "$OUT" && "$TGPROF" --batch --stacks=hostile-th.stacks --threads "$P/prog" gmon.out >h.list 2>&1 &&
	    "$TGPROF" --batch --stacks=hostile-th.stacks --folded --thread-frames "$P/prog" gmon.out >h.folded 2>&1 &&
	    "$TGPROF" --stacks=hostile-th.stacks --export=json --thread=1001 "$P/prog" gmon.out >h.json 2>&1)
	tcheck "threads hostile name: no control character out; ';' ':' in folded; JSON escaped" sh -c "
	    ! grep -q \"\$(printf '\\033')\" '$OUT/h.list' '$OUT/h.folded' '$OUT/h.json' &&
	    grep -q '?\[31m;\"\\\\x (ended)\$' '$OUT/h.list' && grep -qF '?[31m:\"\\x-1001;main;fact;fact;fact;burn 7' '$OUT/h.folded' &&
	    python3 -c 'import json, sys; n = json.load(open(sys.argv[1]))[\"threads\"][1][\"name\"]; sys.exit(n != \"?[31m;\" + chr(34) + chr(92) + \"x\")' '$OUT/h.json'"
fi

# Damaged stacks files: one line naming the file, status 1, no crash.
DAMAGE_FROM=$OUT/gmon.out.stacks
damage() {	# name python-expression-on-bytes message-pattern (of the file DAMAGE_FROM)
	want "damaged: $1" || return 0
	python3 -c "
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
$2
open(sys.argv[2], 'wb').write(b)" "$DAMAGE_FROM" "$OUT/bad.stacks" || fatal "damage $1"
	(cd "$OUT" && "$TGPROF" --batch --folded --stacks=bad.stacks "$P/prog" gmon.out >/dev/null 2>err)
	rc=$?
	tcheck "damaged: $1: status 1, one line: $3" sh -c "
	    [ $rc -eq 1 ] && [ \$(wc -l <'$OUT/err') -eq 1 ] && grep -q '^tgprof: bad.stacks: $3' '$OUT/err'"
}
damage "empty" "b = b[:0]" "not a libtgmon stacks file"
damage "magic" "b[0:8] = b'tgstackz'" "not a libtgmon stacks file"
damage "version" "b[8] = 4" "stacks file version 4: only versions up to 3 are known"
# Version 2 (libtgmon's now): 8 more bytes of header, -pg's call cost and the clock.
V2='b[8] = 2; b[88:88] = (930).to_bytes(4, "little") + (2).to_bytes(4, "little")'
damage "v2 unknown clock" "$V2; b[92] = 0x10" "stacks file version 2 with an unknown clock (0x10)"
damage "v2 header cut" "$V2; b = b[:92]" "damaged stacks file (its header is cut)"
damage "v2 cut in a stack" "$V2; b = b[:-3]" "damaged stacks file"
if want "damaged: v2 sound"; then
	python3 -c "
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
$V2
open(sys.argv[2], 'wb').write(b)" "$OUT/gmon.out.stacks" "$OUT/v2.stacks" || fatal "damage v2"
	(cd "$OUT" && "$TGPROF" --batch --folded --stacks=v2.stacks "$P/prog" gmon.out >v2.folded 2>v2.err)
	tcheck "damaged: v2 sound: a version 2 file reads as its version 1 twin" sh -c "
	    [ ! -s '$OUT/v2.err' ] && cmp -s '$OUT/v2.folded' '$TOP/tests/stacks/cycles.folded'"
fi
damage "run id" "b[16] ^= 1" "not from the run that wrote gmon.out"
damage "rate 0" "b[24:28] = bytes(4)" "damaged stacks file"
damage "no modules" "b[28:32] = bytes(4)" "damaged stacks file"
damage "65 modules" "b[28] = 65" "damaged stacks file"
damage "depth limit 0" "b[32:36] = bytes(4)" "damaged stacks file"
damage "name past the end" "b[88 + 24:88 + 28] = (1 << 30).to_bytes(4, 'little')" "damaged stacks file"
damage "cut in a stack" "b = b[:-3]" "damaged stacks file"
damage "a byte more" "b += b'x'" "damaged stacks file"
damage "sum of samples" "b[48] ^= 1" "damaged stacks file"
damage "count of stacks" "b[40] ^= 1" "damaged stacks file"
damage "a depth of 2^32-1" "i = 88 + 28 + 28 + len(b'/usr/lib/libc.so.6'); b[i + 8:i + 12] = b'\xff\xff\xff\xff'" "damaged stacks file"
damage "a count of 0" "i = 88 + 28 + 28 + len(b'/usr/lib/libc.so.6'); b[i:i + 8] = bytes(8)" "damaged stacks file"
# Waits (tests/stacks/waits.spec): main 20 samples, waits of 0.5 s (top, in
# a library) and 0.25 s (fact); worker-1 10 samples, 1.5 s waited in
# leaf_b's call of a library.  --clock picks which time the measured
# outputs are: CPU (the default), waits (in samples of the rate: 1000 a
# second), or both; pprof carries both as types of their own.
python3 "$GEN" "$P/prog" "$P/gmon.out" "$OUT/gmon.out.w" "$OUT/waits.stacks" 0x5eed \
    <"$TOP/tests/stacks/waits.spec" || fatal "tests/gen/stacks.py failed (waits)"
wt() { (cd "$OUT" && "$TGPROF" --batch --stacks=waits.stacks "$@" "$P/prog" gmon.out); }
if want "waits folded"; then
	wt --folded >"$OUT/w.cpu" 2>&1
	wt --folded --clock=wait >"$OUT/w.wait" 2>&1
	wt --folded --clock=wall >"$OUT/w.wall" 2>&1
	tcheck "waits folded: --clock=cpu (the default) has the 30 samples, no wait" sh -c "
	    [ \$(grep -v '^#' '$OUT/w.cpu' | awk '{ s += \$NF } END { print s }') = 30 ] && ! grep -q 'libc\\|fact' '$OUT/w.cpu'"
	tcheck "waits folded: --clock=wait has the waits alone, in ms: 500, 250, 1500, and says so" sh -c "
	    grep -q '^# tgprof: waits off CPU alone (--clock=wait)' '$OUT/w.wait' &&
	    grep -q '^main;top;\\[libc.so.6\\] 500\$' '$OUT/w.wait' && grep -q '^main;fact;fact 250\$' '$OUT/w.wait' &&
	    grep -q '^main;top;leaf_b;\\[libc.so.6\\] 1500\$' '$OUT/w.wait' && [ \$(grep -vc '^#' '$OUT/w.wait') = 3 ]"
	tcheck "waits folded: --clock=wall has both: 2280" sh -c "
	    [ \$(grep -v '^#' '$OUT/w.wall' | awk '{ s += \$NF } END { print s }') = 2280 ]"
fi
if want "waits threads"; then
	wt --threads >"$OUT/w.list" 2>&1
	th --threads >"$OUT/w.list0" 2>&1
	tcheck "waits threads: --threads says the waits recorded, or why none" sh -c "
	    grep -q '^Waits off CPU: 2.250 s recorded' '$OUT/w.list' &&
	    grep -q '^Waits off CPU: none were recorded (libtgmon records them on x86-64' '$OUT/w.list0'"
fi
if want "waits json"; then
	(cd "$OUT" && "$TGPROF" --export=json --clock=wall --stacks=waits.stacks "$P/prog" gmon.out >w.json 2>w.err)
	tcheck "waits json: wall: valid; top 2.03 s inclusive, leaf_b 1.51, fact 0.25 self; 2.25 s of waits" python3 -c "
import json, sys
import jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
f = {x['name']: x for x in d['functions']}
assert d['truth']['clock'] == 'wall' and abs(d['truth']['program_seconds'] - 2.28) < 1e-6, d['truth']
assert abs(f['top']['inclusive'] - 2.03) < 1e-6 and abs(f['leaf_b']['inclusive'] - 1.51) < 1e-6, (f['top'], f['leaf_b'])
assert abs(f['fact']['self'] - 0.25) < 1e-6 and abs(f['top']['self'] - 0.5) < 1e-6, (f['fact'], f['top'])
assert abs(d['stacks']['wait_seconds'] - 2.25) < 1e-9 and d['stacks']['waits'] == 3 and d['stacks']['waits_recorded']
" "$OUT/w.json" "$TOP/doc/tgprof-profile.schema.json"
fi
PROTO=/usr/share/gocode/src/github.com/google/pprof/proto
if want "waits pprof"; then
	(cd "$OUT" && "$TGPROF" --export=pprof --clock=wait -o w.pb.gz --stacks=waits.stacks "$P/prog" gmon.out) 2>"$OUT/wp.err"
	gzip -dc "$OUT/w.pb.gz" 2>/dev/null | protoc --decode=perftools.profiles.Profile -I "$PROTO" "$PROTO/profile.proto" \
	    >"$OUT/wp.txt" 2>>"$OUT/wp.err"
	tcheck "waits pprof: five types (samples, cpu, calls, wait, wall), wait the default: 30 samples, 2.25 s waited, 2.28 s wall" \
	    python3 -c "
import re, sys
t = open(sys.argv[1]).read()
strs = re.findall(r'string_table: \"([^\"]*)\"', t)
types = [strs[int(a)] for a in re.findall(r'sample_type \{\s*type: (\d+)', t)]
assert types == ['samples', 'cpu', 'calls', 'wait', 'wall'], types
assert strs[int(re.search(r'default_sample_type: (\d+)', t).group(1))] == 'wait'
v = [list(map(int, re.findall(r'value: (\d+)', s))) for s in re.findall(r'sample \{(.*?)\n\}', t, re.S)]
s = [sum(x[i] for x in v) for i in range(5)]
assert s[0] == 30 and s[1] == 30000000 and s[3] == 2250000000 and s[4] == 2280000000, s
" "$OUT/wp.txt"
fi
if want "waits refused"; then
	th --folded --clock=wait >"$OUT/w.no" 2>&1
	tcheck "waits refused: --clock=wait of stacks without waits, in one line, why" sh -c "
	    [ \$(wc -l <'$OUT/w.no') = 1 ] && grep -q '^tgprof: --clock=wait: no waits in the stacks files: none were recorded' '$OUT/w.no'"
	wt --clock=wall -b -p >"$OUT/w.no2" 2>&1
	tcheck "waits refused: --clock with gprof's report (its times are the histogram's)" \
	    grep -q '^tgprof: --clock: with --folded, --tree or --export' "$OUT/w.no2"
	wt --folded --clock=sometimes >"$OUT/w.no3" 2>&1
	tcheck "waits refused: --clock=sometimes" grep -q '^tgprof: --clock: sometimes is not cpu, wait or wall' "$OUT/w.no3"
fi

# Version 3 (threads, tests/stacks/threads.spec): a header of 112 bytes, the
# two modules (74 bytes), then the thread records (52 bytes and the name:
# main at 186, worker-1 at 242, worker-2 at 302), then the stacks (20 bytes
# and the addresses, the first at 362, its thread at 378).
DAMAGE_FROM=$OUT/threads.stacks
if want "damaged: v3 sound"; then
	(cd "$OUT" && "$TGPROF" --batch --folded --stacks=threads.stacks "$P/prog" gmon.out >v3.folded 2>v3.err)
	tcheck "damaged: v3 sound: its stacks, in threads, fold as cycles.spec's" sh -c "
	    [ ! -s '$OUT/v3.err' ] && cmp -s '$OUT/v3.folded' '$TOP/tests/stacks/cycles.folded'"
fi
damage "v3 65537 threads" "b[36:40] = (65537).to_bytes(4, 'little')" "damaged stacks file (65537 threads, more than 65536)"
damage "v3 threads past the end" "b[36:40] = (100000 // 52).to_bytes(4, 'little')" "damaged stacks file (1923 threads past its end)"
damage "v3 a thread name of 65 bytes" "b[186 + 48] = 65" "damaged stacks file (thread 0)"
damage "v3 a thread name past the end" "b[302 + 48:302 + 52] = (1 << 31).to_bytes(4, 'little')" "damaged stacks file (thread 2)"
damage "v3 an unknown thread flag" "b[242 + 4] |= 64" "damaged stacks file (thread 1)"
damage "v3 CPU time not measured, yet given" "b[302 + 8] = 1" "damaged stacks file (thread 2)"
damage "v3 ended before it started" "b[242 + 32:242 + 40] = (1 << 40).to_bytes(8, 'little')" "damaged stacks file (thread 1)"
damage "v3 more signals than samples" "b[186 + 24] = 33" "damaged stacks file (thread 0)"
damage "v3 a stack of thread 3 of 3" "b[378] = 3" "damaged stacks file (stack 0, or its sums)"
damage "v3 a stack of thread 2^32-2" "b[378:382] = (0xfffffffe).to_bytes(4, 'little')" "damaged stacks file (stack 0, or its sums)"
damage "v3 an ended thread with fewer samples than its stacks" "b[242 + 16] = 16; b[242 + 24] = 16" \
    "damaged stacks file (thread 1: 16 samples, its stacks count 17)"
damage "v3 unknown header flags" "b[12] = 8" "stacks file version 3 with unknown flags (0x8)"
damage "v3 a wait's nanoseconds not the header's" "b[96] = 1" "damaged stacks file"
damage "v3 a stack marked a wait (the samples' sum then short)" "b[362 + 12] |= 4" "damaged stacks file"
damage "v3 read as version 2" "b[8] = 2" "damaged stacks file"
damage "v3 cut in a thread" "b = b[:200]" "damaged stacks file"
DAMAGE_FROM=$OUT/gmon.out.stacks
if want "damaged: directory"; then
	mkdir -p "$OUT/dir.stacks"
	(cd "$OUT" && "$TGPROF" --batch --folded --stacks=dir.stacks "$P/prog" gmon.out >/dev/null 2>err)
	rc=$?
	tcheck "damaged: a directory: status 1, one line" sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$OUT/err') -eq 1 ]"
fi
finish
