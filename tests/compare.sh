#!/bin/sh
# tests/compare.sh: tgprof --diff on a program built in two versions (tests/progs/cmp), table, JSON and CI gate.
#
# Usage: compare.sh TGPROF OUT.  The program, linked with libtgmon (1,000
# samples a second), runs about 0.4 s (V1) and 0.7 s (V2): in V2 slower()
# does three times the work, often() is called twice as often, removed() is
# gone, added() is new, and b.c's static helper() is helper2(), while
# main.c's static helper() stays.  Calls are asserted exactly, times by
# their significance and sign.  What sampling noise alone does is checked
# on the V1 run's profile against itself resampled (tests/compare/
# resample.py: each bin redrawn from Poisson, seeded): two live runs also
# differ by the machine's noise (a shared machine's CPU time varies more
# than sampling says), which the rule does not claim to absorb.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
T_NAME=compare
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
export LC_ALL=C
S=$TOP/tests/progs/cmp
for v in 1 2; do
	def=
	[ $v = 2 ] && def=-DV2
	gcc -pg -O1 -g $def -o "$OUT/v$v" "$S/main.c" "$S/b.c" -L"$TOP/runtime" -l:libtgmon.a -pthread ||
	    fatal "cannot build tests/progs/cmp (V$v)"
done
run() {	# prog name: its gmon.out as OUT/NAME.gmon
	(cd "$OUT" && rm -f gmon.out gmon.out.stacks && "./$1" && mv gmon.out "$2.gmon") ||
	    fatal "cannot run $1"
}
run v1 a
run v2 c
for seed in 1 2 3; do
	python3 "$TOP/tests/compare/resample.py" "$OUT/a.gmon" "$OUT/r$seed.gmon" $seed ||
	    fatal "tests/compare/resample.py failed"
done
tg() { (cd "$OUT" && "$TGPROF" --diff "$@"); }

if want table; then
	tg v1 a.gmon v2 c.gmon >"$OUT/ac" 2>"$OUT/ac.err"
	tcheck "two builds: status 0, nothing on standard error" sh -c "[ $? -eq 0 ] && [ ! -s '$OUT/ac.err' ]"
	tcheck "slower: self time up, significant, 1 call both sides" awk '$NF == "slower" && NF == 10 {
	    f = 1; ok = $3 > 0 && $4 ~ /\*$/ && $8 == 1 && $9 == 1 } END { exit !(f && ok) }' "$OUT/ac"
	tcheck "often: calls 100 -> 200, time up, significant" awk '$NF == "often" && NF == 10 {
	    f = 1; ok = $8 == 100 && $9 == 200 && $3 > 0 && $4 ~ /\*$/ } END { exit !(f && ok) }' "$OUT/ac"
	tcheck "removed: only in the old (-), calls 1 -> 0" grep -q ' 1  *0  - removed$' "$OUT/ac"
	tcheck "added: only in the new (+), calls 0 -> 1, 'new'" sh -c "
	    grep -q ' 0  *1  + added\$' '$OUT/ac' && grep ' + added\$' '$OUT/ac' | grep -q ' new\\*'"
	tcheck "statics by file: b.c's helper gone (-), helper2 new (+), main.c's helper on both sides" sh -c "
	    grep -q ' - helper\$' '$OUT/ac' && grep -q ' + helper2\$' '$OUT/ac' &&
	    grep -q ' 1  *1  helper\$' '$OUT/ac'"
	tcheck "the biggest change of self time first (slower, +0.2 s)" sh -c "
	    sed -n 11p '$OUT/ac' | grep -q ' slower\$'"
fi
if want noise; then
	tg v1 a.gmon a.gmon >"$OUT/aa"
	tcheck "a profile against itself: every change 0, none significant" sh -c "
	    ! sed 1,10d '$OUT/aa' | grep -q '\\*' &&
	    sed 1,10d '$OUT/aa' | awk '!/ \\+0\\.00 .* \\+0\\.00 / { exit 1 }'"
	# The rule's 2 sqrt(n1 + n2) is 2.8 standard deviations of a resample
	# (whose variance is n, not n1 + n2): about 0.5% of the 18 functions'
	# self times of 3 seeds are flagged by chance, a quarter of one in all
	# (a caller's inclusive time may be flagged with it: not counted); three
	# or more (0.2% by chance) is not chance.
	flagged=0
	for seed in 1 2 3; do
		tg v1 a.gmon r$seed.gmon >"$OUT/ar$seed"
		tcheck "a run against itself resampled (seed $seed): the total within sampling error, changes shown" \
		    sh -c "grep -q 'within sampling error' '$OUT/ar$seed' &&
		    sed 1,10d '$OUT/ar$seed' | grep -qv ' +0\\.00 .* +0\\.00 '"
		flagged=$((flagged + $(sed 1,10d "$OUT/ar$seed" | awk '$4 ~ /\*$/ { n++ } END { print n + 0 }')))
	done
	tcheck "runs against themselves resampled: $flagged self times flagged (at most 2 by chance)" \
	    [ "$flagged" -le 2 ]
fi
# Signals that bring several samples (a CPU-time timer at 1 kHz on a 250 Hz
# kernel brings four): 30 pairs of the V1 run resampled so, four samples a
# signal (resample.py K 4), their stacks files saying so (tests/gen/stacks.py:
# 4000 samples in 1000 signals).  --fail-if-slower=20 needs a change beyond 3
# deviations (of 4n, not n): noise trips it 0.13% of the time, and where 20%
# is within 3 deviations, so in at most about 0.7 of the 30 pairs' 540
# comparisons; 2 trips is allowed (a run in twenty or so gets 2 by chance,
# 3 one in a hundred).  Told one sample a signal (no stacks files), the
# rule sees a deviation half the true one, and the gate trips on noise.
if want "noise signals"; then
	printf 'rate 1000\nsignals 1000\n4000 1 main\n' >"$OUT/four.spec"
	gated=0 told=0
	for seed in $(seq 1 30); do
		n=$((seed * 2))
		for side in x y; do
			n=$((n + 1))
			python3 "$TOP/tests/compare/resample.py" "$OUT/a.gmon" "$OUT/$side.raw" $n 4 ||
			    fatal "tests/compare/resample.py failed"
			python3 "$TOP/tests/gen/stacks.py" "$OUT/v1" "$OUT/$side.raw" "$OUT/$side$seed.gmon" \
			    "$OUT/$side$seed.gmon.stacks" $((seed + 1)) <"$OUT/four.spec" ||
			    fatal "tests/gen/stacks.py failed"
		done
		tg --fail-if-slower=20 v1 x$seed.gmon y$seed.gmon >/dev/null 2>&1 || gated=$((gated + 1))
		mkdir -p "$OUT/told"
		cp "$OUT/x$seed.gmon" "$OUT/y$seed.gmon" "$OUT/told/"
		tg --fail-if-slower=20 v1 told/x$seed.gmon told/y$seed.gmon >/dev/null 2>&1 || told=$((told + 1))
	done
	tcheck "noise signals: 30 resampled pairs at 4 samples a signal trip --fail-if-slower=20 $gated times (at most 2)" \
	    [ "$gated" -le 2 ]
	# (How many trip depends on how many functions a.gmon, a fresh run, has
	# near the threshold: 4 to 15 in 30 pairs; the signals' trips 0 to 2.)
	tcheck "noise signals: told one sample a signal, the same pairs trip it $told times, 2 more at least (the rule needs the signals)" \
	    [ "$told" -ge $((gated + 2)) ]
fi
# The new side's gmon.out from another program (300 functions of unequal
# sizes called once each, with libtgmon too, so that its histogram and
# arcs overlap all of V1's code, libtgmon's included) against V1: its arcs
# enter V1's functions anywhere, not at their prologues' call to mcount: a
# warning asks, as it asks when nothing overlaps at all.
if want "another program"; then
	mkdir -p "$OUT/other"
	awk 'BEGIN { print "volatile unsigned long sink;"
		for (i = 1; i <= 300; i++)
			printf "__attribute__((noinline)) void f%d(void) { for (int k = 0; k < %d; k++) sink += k * %d; }\n", i, i % 7 + 1, i
		printf "int main(void) {"; for (i = 1; i <= 300; i++) printf " f%d();", i; print " return 0; }" }' >"$OUT/other/other.c"
	(cd "$OUT/other" && gcc -pg -O1 -o other other.c -L"$TOP/runtime" -l:libtgmon.a -pthread && rm -f gmon.out &&
	    ./other && cp gmon.out ../other.gmon) || fatal "cannot build or run the other program"
	tg v1 a.gmon other.gmon >/dev/null 2>"$OUT/other.err"
	tg v1 a.gmon a.gmon >/dev/null 2>"$OUT/same.err"
	tcheck "another program: --diff warns that the new side is not v1's profile, and not for its own" sh -c "
	    grep -q '^tgprof: other.gmon: warning: .* call arcs enter v1.s functions where a prologue calls mcount, the others elsewhere: is this its profile?\$' '$OUT/other.err' &&
	    ! grep -q 'is this its profile' '$OUT/same.err'"
fi
# A full disk (/dev/full): status 1 and one line, as --batch says it; the text and the JSON.
if want "full disk" && [ -w /dev/full ]; then
	tg v1 a.gmon v2 c.gmon >/dev/full 2>"$OUT/full.err"
	rc=$?
	tg --format=json v1 a.gmon v2 c.gmon >/dev/full 2>"$OUT/full.json.err"
	rcj=$?
	tcheck "full disk: --diff and --diff --format=json say so, status 1" sh -c "
	    [ $rc -eq 1 ] && [ $rcj -eq 1 ] && [ \$(wc -l <'$OUT/full.err') -eq 1 ] &&
	    grep -q '^tgprof: standard output: No space left on device\$' '$OUT/full.err' &&
	    grep -q '^tgprof: standard output: No space left on device\$' '$OUT/full.json.err'"
fi
if want json; then
	tg --format=json v1 a.gmon v2 c.gmon >"$OUT/ac.json"
	tcheck "json: read by python, its facts those of the table" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
f = {(x['name'], x['only_in']): x for x in d['functions']}
assert d['tgprof_diff'] == 1 and d['total']['significant'] and d['total']['change'] > 0
assert f[('often', None)]['old']['calls'] == 100 and f[('often', None)]['new']['calls'] == 200
assert f[('often', None)]['change']['calls'] == 100 and f[('often', None)]['significant']['self']
assert f[('removed', 'old')]['new'] is None and f[('added', 'new')]['old'] is None
assert f[('added', 'new')]['change']['self_percent'] is None
assert f[('slower', None)]['significant']['self'] and f[('slower', None)]['change']['self'] > 0
assert not f[('steady', None)]['significant']['self']
assert [x['file'] for x in d['functions'] if x['name'] == 'helper2'][0].endswith('b.c')
" "$OUT/ac.json"
fi
if want gate; then
	tg --fail-if-slower=50 v1 a.gmon v2 c.gmon >/dev/null 2>"$OUT/g1"
	tcheck "--fail-if-slower=50: status 3, slower's self time named first (the rows' order)" sh -c "
	    [ $? -eq 3 ] && head -n 1 '$OUT/g1' | grep -q '^tgprof: gate: slower: self time +[0-9.]*% (.*), beyond 3 deviations\$'"
	tg --fail-if-slower=10 v1 a.gmon r1.gmon >/dev/null 2>"$OUT/g2"
	tcheck "--fail-if-slower=10 on sampling noise alone: status 0, nothing said" sh -c "[ $? -eq 0 ] && [ ! -s '$OUT/g2' ]"
	tg --fail-if-calls-changed v1 a.gmon v2 c.gmon >/dev/null 2>"$OUT/g3"
	tcheck "--fail-if-calls-changed: status 3, often 100 -> 200" sh -c "
	    [ $? -eq 3 ] && grep -q '^tgprof: gate: often: calls 100 -> 200\$' '$OUT/g3'"
	tg --fail-if-calls-changed=steady v1 a.gmon v2 c.gmon >/dev/null 2>"$OUT/g4"
	tcheck "--fail-if-calls-changed=steady: status 0" sh -c "[ $? -eq 0 ] && [ ! -s '$OUT/g4' ]"
	tg --fail-if-calls-changed=no_such_function v1 a.gmon v2 c.gmon >/dev/null 2>"$OUT/g6"
	tcheck "--fail-if-calls-changed=no_such_function: refused, status 1, one line" sh -c "
	    [ $? -eq 1 ] && [ \$(wc -l <'$OUT/g6') -eq 1 ] &&
	    grep -q '^tgprof: --fail-if-calls-changed=no_such_function: no function of that name in either profile\$' '$OUT/g6'"
	# A function GCC kept only as a clone (clonecalls.c: work() as work.isra.0) is named by its name.
	I=$OUT/clone
	mkdir -p "$I" && gcc -pg -O2 -o "$I/cc" "$TOP/tests/progs/rt/clonecalls.c" &&
	    (cd "$I" && ./cc 10 >/dev/null && mv gmon.out a.gmon && ./cc 20 >/dev/null && mv gmon.out b.gmon) ||
	    fatal "cannot build or run tests/progs/rt/clonecalls.c"
	if nm "$I/cc" | grep -q ' t work\.' && ! nm "$I/cc" | grep -q ' t work$'; then
		(cd "$I" && "$TGPROF" --diff --fail-if-calls-changed=work cc a.gmon b.gmon >/dev/null 2>g7)
		tcheck "--fail-if-calls-changed=work, work only a clone: its calls' change found, status 3" sh -c "
		    [ $? -eq 3 ] && grep -q '^tgprof: gate: work.*: calls 10 -> 20\$' '$I/g7'"
	else
		pass "--fail-if-calls-changed=work: gcc kept work() itself here: nothing to check"
	fi
	tg --fail-if-total-slower=10 v1 a.gmon v2 c.gmon >/dev/null 2>"$OUT/g5"
	tcheck "--fail-if-total-slower=10: status 3" sh -c "
	    [ $? -eq 3 ] && grep -q '^tgprof: gate: total time +' '$OUT/g5'"
fi
if want sum; then
	tg v1 a.gmon,r1.gmon v2 c.gmon >"$OUT/sum"
	tcheck "a,r1: the old side sums two runs (steady's time about twice c's)" sh -c "
	    grep ' steady\$' '$OUT/sum' | awk '{ exit !(\$1 > 1.5 * \$2) }'"
fi
# The browser's comparison mode (TGPROF_SCRIPT: a terminal's keys, 200x30).
if want browser && grep -q 'HAVE_UI 1' "$TOP/config.h"; then
	printf 'dump b1\nkey s\ndump b2\nkey s\nkey s\nkey s\nkey /\ntype often\nkey Enter\nkey Enter\ndump b3\nkey Tab\nkey Tab\nkey Tab\nkey \\\ntype help\nkey Enter\ndump b4\nkey x\ndump b5\n' >"$OUT/b.keys"
	(cd "$OUT" && TGPROF_SIZE=200x30 TGPROF_SCRIPT=b.keys "$TGPROF" --diff v1 a.gmon v2 c.gmon)
	# (libtgmon's own functions, when sampled, are compared too: last.)
	tcheck "browser: the comparison in the flat profile's place, 9 functions, biggest change first" sh -c "
	    grep -q '> Comparison: [0-9.]* s -> [0-9.]* s (+[0-9.]* s, significant), 9 functions, by change of self time' '$OUT/b1' ||
	    { grep -q '> Comparison: [0-9.]* s -> [0-9.]* s (+[0-9.]* s, significant), 1[0-9] functions, by change of self time' '$OUT/b1' &&
	    sed -n 14p '$OUT/b1' | grep -q ' tgmon_'; }"
	tcheck "browser: the biggest change first" sh -c "sed -n 5p '$OUT/b1' | grep -q ' slower *|'"
	tcheck "browser: one-sided functions marked, new ones red (significant)" sh -c "
	    grep -q ' new\*.*  + added *|' '$OUT/b1' && grep -q '  - removed *|' '$OUT/b1'"
	tcheck "browser: s sorts by the change of inclusive time" grep -q 'by change of inclusive time' "$OUT/b2"
	printf 'key /\ntype removed\nkey Enter\nkey Esc\nkey s\ndump sel\n' >"$OUT/sel.keys"
	(cd "$OUT" && TGPROF_SIZE=200x30 TGPROF_SCRIPT=sel.keys "$TGPROF" --diff v1 a.gmon v2 c.gmon)
	tcheck "browser: s keeps a one-sided row selected (- removed)" grep -q '^>.*  - removed *|' "$OUT/sel"
	tcheck "browser: Enter opens often's entry, the old calls and time beside (main called it 100 times, now 200)" sh -c "
	    grep -q 'Call graph: often \[[0-9]*\]; old calls and time first' '$OUT/b3' &&
	    grep -q '|old calls old time index % time' '$OUT/b3' &&
	    grep -q '|      100  *[0-9.]*  *[0-9.]*  *[0-9.]*  *200/200  *main \[' '$OUT/b3'"
	tcheck "browser: \\ filters the comparison by name (helper, helper, helper2)" \
	    grep -q 'Comparison: .* 3 functions' "$OUT/b4"
	# At 160 columns the comparison's numbers leave no room for a call graph beside
	# with names: the graph goes below, on the comparison's selected row.
	printf 'key j\ndump w160\n' >"$OUT/w160.keys"
	(cd "$OUT" && TGPROF_SIZE=160x45 TGPROF_SCRIPT=w160.keys "$TGPROF" --diff v1 a.gmon v2 c.gmon)
	tcheck "browser at 160x45: the comparison's names shown, the call graph below on its selected row" sh -c "
	    grep -q '^>.*  *100  *200  often *\$' '$OUT/w160' && grep -q '^ *Call graph: often \[' '$OUT/w160'"
	printf 'resize 200 40\nkey /\ntype often\nkey Enter\nkey Enter\nkey a\ndump s1\n' >"$OUT/s.keys"
	(cd "$OUT" && TGPROF_SCRIPT=s.keys "$TGPROF" --diff v1 a.gmon v2 c.gmon)
	tcheck "browser: the source gives often's line its old time, then its new (about twice)" sh -c "
	    grep -q '^ old time    time    calls   line  source' '$OUT/s1' &&
	    grep ' 17  __attribute__((noinline)) void often' '$OUT/s1' |
	    awk 'function sec(v) { return v ~ /us\$/ ? v / 1e6 : v ~ /ms\$/ ? v / 1e3 : v + 0 }
	        { sub(/^>/, \"\"); exit !(sec(\$1) > 0 && sec(\$2) > 1.4 * sec(\$1)) }'"
	# With call stacks beside both sides: the new side's measure the browser (and no complaint).
	(cd "$OUT" && rm -f gmon.out* && ./v1 && mv gmon.out s1.gmon && mv gmon.out.stacks s1.gmon.stacks &&
	    ./v2 && mv gmon.out s2.gmon && mv gmon.out.stacks s2.gmon.stacks) >/dev/null || fatal "cannot run v1, v2"
	printf 'resize 200 30\ndump st\n' >"$OUT/st.keys"
	(cd "$OUT" && TGPROF_SCRIPT=st.keys "$TGPROF" --diff v1 s1.gmon v2 s2.gmon 2>st.err)
	tcheck "browser: with stacks, the new side's are measured, nothing on standard error" sh -c "
	    head -n 1 '$OUT/st' | grep -q '| measured: [0-9]* stacks' && [ ! -s '$OUT/st.err' ]"
	printf 'resize 200 30\nkey x\ndump x1\nkey u\ndump x2\n' >"$OUT/x.keys"
	(cd "$OUT" && TGPROF_SCRIPT=x.keys "$TGPROF" --diff v1 a.gmon v2 c.gmon)
	tcheck "browser: x on slower narrows both sides (-E): its inclusive time gone on each, its self kept" sh -c "
	    grep -q '| without slower (u undoes)' '$OUT/x1' &&
	    grep ' slower *|' '$OUT/x1' | grep -q '^>* *[0-9.]*  *[0-9.]*  *+[0-9.]* *+[0-9.]*%\*  *0\.00  *0\.00  *+0\.00 '"
	tcheck "browser: u compares the whole profiles again" sh -c "
	    ! grep -q 'without slower' '$OUT/x2' && grep ' slower *|' '$OUT/x2' | grep -q '\*.*\*'"
fi
# One rule matches functions across the two profiles (core/diff.h): a
# static by its name and file, also where it has neither time nor calls
# (tests/progs/statics: a.c's and b.c's static constructors setup(),
# called from outside the program).  The browser's old column of each
# init's caller is its own file's setup's arc, 1 call.
if want statics && grep -q 'HAVE_UI 1' "$TOP/config.h"; then
	ST=$OUT/statics
	mkdir -p "$ST" && gcc -pg -O1 -g -o "$ST/prog" "$TOP/tests/progs/statics/a.c" "$TOP/tests/progs/statics/b.c" &&
	    (cd "$ST" && ./prog && mv gmon.out old.gmon && ./prog && mv gmon.out new.gmon) >/dev/null ||
	    fatal "cannot build or run tests/progs/statics"
	for f in a b; do
		printf 'key /\ntype init_%s\nkey Enter\nkey Esc\nkey Enter\ndump %s\n' $f $f >"$ST/$f.keys"
		(cd "$ST" && TGPROF_SIZE=119x30 TGPROF_SCRIPT=$f.keys "$TGPROF" --diff prog old.gmon new.gmon)
		check "statics: init_$f's caller, $f.c's static setup, matched by file in the browser: 1 old call" \
		    grep -q '^  *1  *0\.00  *0\.00  *0\.00  *1/1  *setup \[' "$ST/$f"
	done
fi
if want refused; then
	head -c 100 "$OUT/c.gmon" >"$OUT/cut.gmon"
	tg v1 a.gmon cut.gmon >/dev/null 2>"$OUT/r1"
	tcheck "a truncated side: status 1, one line naming it" sh -c "
	    [ $? -eq 1 ] && [ \$(wc -l <'$OUT/r1') -eq 1 ] && grep -q '^tgprof: cut.gmon: ' '$OUT/r1'"
	tg v1 a.gmon >/dev/null 2>"$OUT/r2"
	tcheck "one gmon file: status 1, what to give" sh -c "
	    [ $? -eq 1 ] && grep -q '^tgprof: --diff: give PROG OLD NEW, or OLDPROG OLD NEWPROG NEW\$' '$OUT/r2'"
	tg --format=xml v1 a.gmon r1.gmon >/dev/null 2>"$OUT/r3"
	tcheck "--format=xml: status 1" sh -c "[ $? -eq 1 ] && grep -q '^tgprof: --format: text or json' '$OUT/r3'"
fi
finish
