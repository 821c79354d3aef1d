#!/bin/sh
# tests/ui.sh: the browser, scripted in-process (TGPROF_SCRIPT) and end to end in tmux.
#
# Usage: ui.sh TGPROF OUT PROGDIR, where PROGDIR/cycles_O0 holds prog,
# gmon.out, arcs.out and hist.out (tests/progs.sh makes them).
# T=PATTERN runs only the cases whose names contain it (tests/lib.sh want).
# 1. Golden screens: each tests/ui/NAME.keys drives a browser of its own over
#    tests/gen/synth.py's 30-function profile (deterministic), on an 80x24
#    screen unless the script resizes it, and dumps NAME, which must equal
#    tests/ui/NAME.expected; a file the keys write (P) and that has an
#    .expected is compared too.  Case names: the screens' names.  The call
#    tree's, tree-cyc-* and tree-cxx-*, are over cycles.c and calltree.cpp
#    with a histogram chosen by tests/ui/tree-gmon.py.
# 2. On cycles.c, the panes must show what tgprof --batch prints: flat rows
#    and call-graph entries are the same report rows, and the source pane
#    the exact call counts (batch); profile files missing a part (missing);
#    o runs the editor (editor); UTF-8 names (utf8); the manual documents
#    every key of the key table (manual); a script's end quits (script-end).
#    The call tree: its numbers are the call graph's (tree-numbers), its
#    marks outside UTF-8 (tree-ascii), deep trees (tree-deep), its row cap
#    (tree-cap).
# 3. In tmux, a real terminal: start, search, open, follow a caller, back,
#    the call tree, help, resize, quit, and the terminal must be given back
#    (tmux); also when the browser is killed (tmux-TERM, tmux-SEGV).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
PROGDIR=$(cd "$3" && pwd)
T_NAME=ui
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
export LC_ALL=C.UTF-8

"$TGPROF" -v | grep -q . || fatal "no tgprof"
grep -q 'HAVE_UI 1' "$TOP/config.h" || { pass "built without ncursesw: skipped"; finish; }
P=$PROGDIR/cycles_O0

# same NAME FILE: FILE must equal tests/ui/NAME.expected.
# A screen shows where the tree is checked out (a source's path): it is
# compared as TOP, and without the blanks that end its lines.
same() {
	sed -e "s|$TOP|TOP|g" -e 's/ *$//' "$2" >"$2.same"
	if sed 's/ *$//' "$TOP/tests/ui/$1.expected" | cmp -s - "$2.same"; then
		pass "screen $1"
	else
		fail "screen $1"
		sed 's/ *$//' "$TOP/tests/ui/$1.expected" | diff - "$2.same" | head -n 10 | sed 's/^/#   /'
	fi
	compared="$compared $1 "
}

# screen NAME: runs tests/ui/NAME.keys in a fresh browser in $OUT/syn/NAME
# ($OUT/cyc/NAME for tree-cyc-*, $OUT/cxx/NAME for tree-cxx-*: section 4).
screen() {
	case $1 in
	tree-cyc-*) d=$OUT/cyc/$1 ;;
	tree-cxx-*) d=$OUT/cxx/$1 ;;
	flame-*) d=$OUT/flm/$1 ;;
	compare-*) d=$OUT/cmp/$1 ;;
	*) d=$OUT/syn/$1 ;;
	esac
	rm -rf "$d"
	mkdir -p "$d"
	case $1 in
	compare-*) set -- "$1" --diff ../prog ../old.gmon ../new.gmon ;;
	*) set -- "$1" ../prog ../gmon.out ;;
	esac
	(cd "$d" && keys=$TOP/tests/ui/$1.keys && shift &&
	    TGPROF_SIZE=80x24 TGPROF_SCRIPT="$keys" "$TGPROF" "$@")
	rc=$?
	[ $rc -eq 0 ] || fail "screen $1: the script exits $rc"
	same "$1" "$d/$1"
	for f in "$d"/*; do
		[ "${f##*/}" != "$1" ] && [ -f "$TOP/tests/ui/${f##*/}.expected" ] && same "${f##*/}" "$f"
	done
}

# 1. Golden screens.
python3 "$TOP/tests/gen/synth.py" 30 "$OUT/syn" >/dev/null || fatal "tests/gen/synth.py failed"
# The call tree's (tree-cyc-*, tree-cxx-*): cycles.c and calltree.cpp with
# the histogram chosen (tests/ui/tree-gmon.py), so that the times are the
# same on every run as the call counts are.
tree_profile() {	# name progdir name=samples...
	td=$OUT/$1 tp=$PROGDIR/$2
	shift 2
	mkdir -p "$td" && cp "$tp/prog" "$td/prog" &&
	    python3 "$TOP/tests/ui/tree-gmon.py" "$td/prog" "$tp/gmon.out" "$td/gmon.out" "$@" ||
	    fatal "tests/ui/tree-gmon.py failed on $tp"
}
tree_profile cyc cycles_O0 burn=600 fib=120 is_odd=40 tri_c=30 ring=25 leaf_b=20 fact=15 main=10 mid=5
tree_profile cxx calltree_O0 'work::spin<1>=300' 'work::spin<2>=200' 'work::spin<3>=50' \
    'Parser<char>::factor=40' 'Parser<char>::expr=20' quicksort=60 'Matrix<double, 3>::mul=90' \
    worker=5 main=10
# The flame graph's (flame-*): cyc's profile with the stacks of tests/stacks/cycles.spec.
mkdir -p "$OUT/flm" && cp "$OUT/cyc/prog" "$OUT/flm/prog" &&
    python3 "$TOP/tests/gen/stacks.py" "$OUT/flm/prog" "$OUT/cyc/gmon.out" "$OUT/flm/gmon.out" \
    "$OUT/flm/gmon.out.stacks" 0x5eed <"$TOP/tests/stacks/cycles.spec" || fatal "tests/gen/stacks.py failed"
# The comparison's (compare-*): two runs of cycles.c (the second twice as
# long: calls doubled), their histograms chosen.
mkdir -p "$OUT/cmp" && cp "$PROGDIR/cycles_O0/prog" "$OUT/cmp/prog" &&
    python3 "$TOP/tests/ui/tree-gmon.py" "$OUT/cmp/prog" "$PROGDIR/cycles_O0/gmon.1" "$OUT/cmp/old.gmon" \
    burn=300 fib=50 ring=20 tri_c=30 &&
    python3 "$TOP/tests/ui/tree-gmon.py" "$OUT/cmp/prog" "$PROGDIR/cycles_O0/gmon.2" "$OUT/cmp/new.gmon" \
    burn=600 fib=45 ring=90 leaf_b=12 || fatal "tests/ui/tree-gmon.py failed on gmon.1, gmon.2"
compared=
for k in "$TOP"/tests/ui/*.keys; do
	n=$(basename "$k" .keys)
	want "$n" && screen "$n"
done
if [ -z "${T:-}" ]; then
	missing=
	for e in "$TOP"/tests/ui/*.expected; do
		n=$(basename "$e" .expected)
		case $compared in *" $n "*) ;; *) missing="$missing $n" ;; esac
	done
	if [ -n "$missing" ]; then
		fail "no tests/ui/*.keys makes:$missing"
	else
		pass "every tests/ui/*.expected is made by a script"
	fi
fi

# 2. The panes against batch output on a real program.
batch() { LC_ALL=C "$TGPROF" --batch -b "$@" "$P/prog" "$P/gmon.out"; }
# The call-graph index of fib, which is not in a cycle.
idx=$(batch -q | sed -n 's/^\[\([0-9]*\)\].* fib \[[0-9]*\]$/\1/p')
if want batch; then
	batch -p | sed -n '6,24p' >"$OUT/flat.batch"
	batch -q | awk -v i="[$idx]" '/^-----/ { if (hit) exit; n = 0; next } { line[n++] = $0 } index($0, i) == 1 { hit = 1 }
	    END { for (k = 0; k < n; k++) print line[k] }' >"$OUT/entry.batch"
	# A cycle member's index and its cycle's number.
	member=$(batch -q | sed -n 's/^\[\([0-9]*\)\].* is_even <cycle \([0-9]*\)> \[[0-9]*\]$/\1 \2/p')
	printf 'dump flat\nkey :\ntype %s\nkey Enter\ndump graph\nkey Tab\ndump source\nkey :\ntype %s\nkey Enter\nkey Enter\ndump cycle\nkey j\nkey x\ndump member-x\n' \
	    "$idx" "${member% *}" >"$OUT/cycles.keys"
	(cd "$OUT" && TGPROF_SCRIPT="$OUT/cycles.keys" TGPROF_SIZE=100x30 "$TGPROF" "$P/prog" "$P/gmon.out")
	n=$(wc -l <"$OUT/flat.batch")
	sed -n "5,$((4 + n))p" "$OUT/flat" | cut -c2- >"$OUT/flat.ui"
	cut -c1-34,53- "$OUT/flat.batch" >"$OUT/flat.batch.cut"
	cut -c1-34,53- "$OUT/flat.ui" >"$OUT/flat.ui.cut"
	check "flat pane rows = tgprof --batch -p rows but the per-call columns ($n)" \
	    cmp -s "$OUT/flat.batch.cut" "$OUT/flat.ui.cut"
	# Each per-call time in a unit of its own: self/call is self seconds (rounded to
	# 0.01) / calls, to the 3 digits shown.
	check "flat pane: each self/call, in its own unit, is self / calls" awk '
	    function sec(v) { return v ~ /ns$/ ? v * 1e-9 : v ~ /us$/ ? v * 1e-6 : v ~ /ms$/ ? v * 1e-3 : v }
	    NF >= 7 && $4 > 0 && $3 > 0 { n++; got = sec($5)
	        if (got < ($3 - 0.005) / $4 * 0.995 || got > ($3 + 0.005) / $4 * 1.005) {
	            print "row " NR ": " got; bad = 1 } }
	    END { exit bad || n < 1 }' "$OUT/flat.ui"
	n=$(wc -l <"$OUT/entry.batch")
	sed -n "4,$((3 + n))p" "$OUT/graph" | cut -c2- >"$OUT/entry.ui"
	check "call-graph pane = fib's entry in tgprof --batch -q ($n rows)" cmp -s "$OUT/entry.batch" "$OUT/entry.ui"
	check "source pane: fib's line makes 12540000 calls" \
	    grep -q '^> *[0-9.]* *[mu]*s*  *12540000  *44  long fib' "$OUT/source"
	check "Enter on a cycle member's line opens <cycle ${member#* } as a whole>" \
	    grep -q "^>\\[[0-9]*\\].*<cycle ${member#* } as a whole> \\[[0-9]*\\]\$" "$OUT/cycle"
	check "x on a member's row of a cycle's entry excludes that member" \
	    grep -q "| without is_[a-z]* (u undoes)" "$OUT/member-x"
fi

# The comparison pane's rows are the rows of tgprof --diff's table (one
# formatter, print/diffout.h), its column headings too.
if want compare-batch; then
	C=$OUT/cmp
	printf 'key P\ntype %s/compare.txt\nkey Enter\n' "$C" >"$C/batch.keys"
	(cd "$C" && TGPROF_SCRIPT="$C/batch.keys" "$TGPROF" --diff prog old.gmon new.gmon)
	(cd "$C" && LC_ALL=C "$TGPROF" --diff prog old.gmon new.gmon) >"$C/diff.batch"
	sed '1,8d' "$C/diff.batch" >"$C/diff.rows"
	sed 1d "$C/compare.txt" >"$C/pane.rows"
	n=$(sed 1,2d "$C/diff.rows" | wc -l)
	check "comparison pane: its rows and headings are tgprof --diff's table's ($n rows)" \
	    sh -c "[ $n -gt 10 ] && cmp -s '$C/diff.rows' '$C/pane.rows'"
fi

# What is missing is said, and the rest shown.
if want missing; then
	printf 'dump first\n' >"$OUT/first.keys"
	(cd "$OUT" && TGPROF_SCRIPT="$OUT/first.keys" "$TGPROF" "$P/prog" "$P/arcs.out")
	check "arcs only: opens, says there is no histogram" grep -q "tgprof: no histogram: no time" "$OUT/first"
	check "arcs only: the call graph is there" grep -q "Call graph: .* \[[0-9]*\]" "$OUT/first"
	(cd "$OUT" && TGPROF_SCRIPT="$OUT/first.keys" "$TGPROF" "$P/prog" "$P/hist.out")
	check "histogram only: opens, says there is no call graph" grep -q "| no call graph" "$OUT/first"
	check "histogram only: the flat profile is there" grep -q "^> *[0-9.]* .* burn\$" "$OUT/first"
	# Another program's profile: the warnings on the screen, the empty flat profile said.
	(cd "$OUT" && TGPROF_SIZE=400x24 TGPROF_SCRIPT="$OUT/first.keys" "$TGPROF" "$OUT/syn/prog" "$P/gmon.out" 2>/dev/null)
	check "another program's profile: the warning on the bottom line" \
	    sh -c "tail -n 1 '$OUT/first' | grep -q 'gmon.out: warning: the histogram'"
	check "another program's profile: warnings counted on the top line" grep -q "| 2 warnings (i)" "$OUT/first"
	check "another program's profile: one sentence says the profile is empty" \
	    grep -q "^>no sample or call in this program's functions: is this its profile" "$OUT/first"
fi

# The source pane: H, ] and [ on burn's lines.  Samples vary from run to
# run, so the checks hold whatever lines they fall on: H selects a line of
# the most time; ] then [ come back to it; ] from line 1 stops at or before it.
if want hot; then
	b=$(batch -q | sed -n 's/^\[\([0-9]*\)\].* burn \[[0-9]*\]$/\1/p')
	printf 'key :\ntype %s\nkey Enter\nkey H\ndump hot1\nkey ]\ndump hot2\nkey [\ndump hot3\nkey g\nkey ]\ndump hot4\n' \
	    "$b" >"$OUT/hot.keys"
	(cd "$OUT" && TGPROF_SIZE=100x40 TGPROF_SCRIPT="$OUT/hot.keys" "$TGPROF" "$P/prog" "$P/gmon.out")
	# The selected row's line number and time (columns: mark, time 2-9, calls, line 20-26).
	line() { grep '^>' "$OUT/$1" | head -n 1 | cut -c20-26 | tr -d ' '; }
	time_at() { grep '^>' "$OUT/$1" | head -n 1 | cut -c2-9 | tr -d ' '; }
	most=$(sed -n '4,39p' "$OUT/hot1" | cut -c2-9 | sort -n | tail -n 1 | tr -d ' ')
	h=$(line hot1)
	check "H: a line of the most time ($h: $(time_at hot1) s of $most)" \
	    [ -n "$h" ] && [ "$(time_at hot1)" = "$most" ]
	if tail -n 1 "$OUT/hot2" | grep -q 'no hot line below'; then
		pass "]: there is no hot line below $h, and it says so"
	else
		check "]: the next hot line is below $h ($(line hot2))" [ "$(line hot2)" -gt "$h" ]
		check "[ goes back to $h ($(line hot3))" [ "$(line hot3)" = "$h" ]
	fi
	check "] from line 1 stops at a line with time, at or before $h ($(line hot4))" \
	    [ "$(line hot4)" -le "$h" ] && [ "$(time_at hot4)" != "" ]
fi

# The source pane opens at the function's definition, not at code inlined
# into it from higher up the file; tabs go to the next tab stop (8, or --tabstop).
S=$OUT/src
if ! want src; then
	:
elif mkdir -p "$S" && printf '%s\n' '/* ui.sh: work() has hot() inlined. */' 'volatile unsigned long sink;' \
    'static inline void hot(unsigned long i)' '{' '	sink += i ^ (sink >> 3);' '}' '' '' '' '' '' '' \
    '__attribute__((noinline)) void work(unsigned long n)' '{' '	for (unsigned long i = 0; i < n; i++)' \
    '		hot(i);' '}' 'int main(void) { work(300000000UL); return 0; }' >"$S/src.c" &&
    gcc -pg -g -O2 -o "$S/prog" "$S/src.c" && (cd "$S" && ./prog); then
	printf 'key a\ndump small\nresize 100 30\ndump d\n' >"$S/keys"
	(cd "$S" && TGPROF_SIZE=100x12 TGPROF_SCRIPT=keys "$TGPROF" prog gmon.out)
	check "source: work opens at its entry's line, 14, not at hot's line 5" grep -q '^> *[0-9. ]*  14  {' "$S/d"
	check "source: three lines above it show first (its declarator, 13)" \
	    sh -c "sed -n 4p '$S/small' | grep -q '  11\$'"
	check "source: a tab goes to column 8 of the text" grep -q '  15          for (unsigned' "$S/d"
	check "source: two tabs to column 16" grep -q '  16                  hot(i);' "$S/d"
	(cd "$S" && TGPROF_SIZE=100x12 TGPROF_SCRIPT=keys "$TGPROF" --tabstop=3 prog gmon.out)
	check "source: --tabstop=3" grep -q '  16        hot(i);' "$S/d"
else
	fail "cannot build or run the inlining program"
fi

# C++ names: the status line keeps a long name's end; T shortens template arguments.
C=$PROGDIR/cxx_O0
if want cxx; then
	printf 'key /\ntype operator!=<int\nkey Enter\nkey Esc\ndump cxx-full\nkey T\ndump cxx-short\n' >"$OUT/cxx.keys"
	(cd "$OUT" && TGPROF_SIZE=110x30 TGPROF_SCRIPT="$OUT/cxx.keys" "$TGPROF" "$C/prog" "$C/gmon.out")
	check "status line: a long name's middle elided, its end kept" \
	    sh -c "tail -n 1 '$OUT/cxx-full' | grep -q '^ bool __gnu_cxx::.*….* const&): \(no samples\|[0-9.]* s ± \)'"
	check "T: the top line says templates are shortened" grep -q '| templates <…> (T)' "$OUT/cxx-short"
	check "T: __gnu_cxx::__normal_iterator<…>::base() const" \
	    grep -q '  __gnu_cxx::__normal_iterator<…>::base() const$' "$OUT/cxx-short"
	check "T: operator!=<…> shortened, its own < kept" \
	    grep -q '  bool __gnu_cxx::operator!=<…>(__gnu_cxx::__normal_iterat' "$OUT/cxx-short"
fi

# Call stacks (tests/stacks/cycles.spec, made by hand): times measured
# beside gprof's estimates in the call graph (leaf_a: 30 samples through
# mid, 5 from main, where gprof gives both callers 0.00), m hides them,
# estimates alone while narrowed.
M=$OUT/measured
if want measured && mkdir -p "$M" && python3 "$TOP/tests/gen/stacks.py" "$P/prog" "$P/gmon.out" \
    "$M/gmon.out" "$M/gmon.out.stacks" 0x5eed <"$TOP/tests/stacks/cycles.spec"; then
	i=$(batch -q | sed -n 's/^\[\([0-9]*\)\].* leaf_a \[[0-9]*\]$/\1/p')
	printf 'resize 160 30\ndump m0\nkey :\ntype %s\nkey Enter\ndump m1\nkey m\ndump m2\nkey m\nkey x\nkey m\ndump m3\n' \
	    "$i" >"$M/keys"
	(cd "$M" && TGPROF_SCRIPT=keys "$TGPROF" "$P/prog" gmon.out)
	check "measured: the top line says so (62 stacks, 95% complete)" \
	    grep -q '| measured: 62 stacks, 95% complete (m)' "$M/m1"
	# (gprof's numbers beside depend on the run's histogram: any.)
	check "measured: leaf_a's caller mid, 0.03 s beside gprof's self and children" \
	    grep -q '|    0\.03  *[0-9.]*  *[0-9.]*  *1500/1715  *mid \[' "$M/m1"
	check "measured: leaf_a's caller main, 0.01 s beside gprof's self and children" \
	    grep -q '|    0\.01  *[0-9.]*  *[0-9.]*  *215/1715  *main \[' "$M/m1"
	check "measured: leaf_a itself, 0.04 s beside gprof's % time, self and children" \
	    grep -q '|    0\.04 \[[0-9]*\]  *[0-9.]*  *[0-9.]*  *[0-9.]*  *1715  *leaf_a \[' "$M/m1"
	check "measured: the graph's column heading" grep -q '|measured index % time' "$M/m1"
	check "m: gprof's layout alone" sh -c "grep -q '|index % time' '$M/m2' &&
	    grep -q '|                [0-9.]*  *[0-9.]*  *1500/1715  *mid \[' '$M/m2'"
	check "measured: the flat pane's first column, burn on 59 of 62 stacks (95.2%)" \
	    grep -q '^[> ] *95\.2  *[0-9.]* .* burn  *|' "$M/m0"
	check "measured: the column's heading" grep -q '^ measured   %' "$M/m0"
	check "m: the column goes" sh -c "! grep -q '^ measured ' '$M/m2'"
	check "measured: the title says which numbers are measured" \
	    grep -q "Call graph: leaf_a \[[0-9]*\]; measured (first column) beside gprof's estimates" "$M/m1"
	check "m: gprof's estimates, said on the top line and the title" sh -c "
	    grep -q \"| gprof's estimates only (m: measured)\" '$M/m2' &&
	    grep -q \"Call graph: leaf_a \\[[0-9]*\\]; callers' self and children: estimated\" '$M/m2'"
	check "m while narrowed: estimates, and it says why" sh -c "
	    grep -q '| estimated while narrowed' '$M/m3' &&
	    tail -n 1 '$M/m3' | grep -q 'estimated while narrowed: the stacks know nothing of x and f'"
	# burn's callers by measured time, least first; those none of the stacks
	# went through (tri_b, tri_c, tri_a, is_odd, ring) in gprof's order.
	b=$(batch -q | sed -n 's/^\[\([0-9]*\)\].* burn \[[0-9]*\]$/\1/p')
	printf 'resize 150 40\nkey :\ntype %s\nkey Enter\nkey z\ndump burn\n' "$b" >"$M/burn.keys"
	(cd "$M" && TGPROF_SCRIPT=burn.keys "$TGPROF" "$P/prog" gmon.out)
	check "measured: burn's callers by measured time, ties in gprof's order" sh -c "
	    sed -n '4,12p' '$M/burn' | awk '{ print \$1, \$(NF-2) == \"<cycle\" ? \$(NF-3) : \$(NF-1) }' | tr '\n' ' ' |
	    grep -q '^0.00 tri_b 0.00 tri_c 0.00 tri_a 0.00 is_odd 0.00 ring 0.00 is_even 0.01 fact 0.01 leaf_b 0.04 leaf_a \$'"
	# The call tree with measured times: main's children by them, a share below leaf_a.
	printf 'resize 150 30\nkey t\nkey *\ndump t1\nkey m\ndump t2\n' >"$M/tree.keys"
	(cd "$M" && TGPROF_SCRIPT=tree.keys "$TGPROF" "$P/prog" gmon.out)
	check "measured tree: the title says so" \
	    grep -q 'Call tree: the whole program; measured from call stacks, recursion' "$M/t1"
	check "measured tree: main, then top (40 of 62 stacks) first, mid 30, leaf_b 10" sh -c "
	    grep -A 2 ' main \[[0-9]*\]' '$M/t1' | tr -s ' ' | grep -q '^ 64\.5 0\.04 1500 . top \[' &&
	    grep -q '^ *48\.4  *0\.03  *1500  *. mid \[' '$M/t1' &&
	    grep -q '^ *16\.1  *0\.01  *1500  *. leaf_b \[' '$M/t1'"
	check "measured tree: leaf_a from main 5 of 62 stacks (gprof: an estimate, ~)" sh -c "
	    grep -q '^[> ] *8\.1  *0\.01  *215  *. leaf_a \[' '$M/t1' &&
	    grep -q '^[> ] *~[0-9.]*  *~[0-9.]*  *215  *. leaf_a \[' '$M/t2'"
	check "measured tree: burn under leaf_a (called from two places) measured on its path, 48.4, no estimate" \
	    grep -q '^ *48\.4  *0\.03  *1715  *burn \[' "$M/t1"
	check "m: the tree's times are gprof's" \
	    grep -q 'Call tree: the whole program; ~: estimated, split by calls' "$M/t2"
	printf 'key m\ndump none\nkey F\ndump noflame\n' >"$M/none.keys"
	(cd "$M" && TGPROF_SCRIPT="$M/none.keys" "$TGPROF" "$P/prog" "$P/gmon.out")
	check "m without stacks: says where they come from" \
	    sh -c "tail -n 1 '$M/none' | grep -q 'no call stacks: a program linked with libtgmon'"
	check "F without stacks: the same, and the flat profile stays" sh -c "
	    tail -n 1 '$M/noflame' | grep -q 'no call stacks: a program linked with libtgmon' &&
	    grep -q 'Flat profile' '$M/noflame'"
	# P in the flame graph: its frames as text, level by level, indented.
	printf 'key F\nkey P\ntype %s/flame.txt\nkey Enter\n' "$M" >"$M/pflame.keys"
	(cd "$M" && TGPROF_SCRIPT="$M/pflame.keys" "$TGPROF" "$P/prog" gmon.out)
	check "P in the flame graph: all, then main (59 of 62), top under it (40)" sh -c "
	    sed -n 3p '$M/flame.txt' | grep -q '^all  62 samples, 100.0% of all' &&
	    grep -q '^  main  59 samples, 95.2% of all' '$M/flame.txt' &&
	    grep -q '^    top  40 samples, 64.5% of all' '$M/flame.txt'"
	# s to the measured inclusive time: the rows by it, most first (95.2% of the stacks: burn, or main).
	printf 'resize 150 30\nkey s\nkey s\nkey s\nkey s\nkey s\nkey z\ndump sorted\nkey m\ndump sorted-m\nkey m\ndump sorted-mm\n' \
	    >"$M/sort.keys"
	(cd "$M" && TGPROF_SCRIPT=sort.keys "$TGPROF" "$P/prog" gmon.out)
	check "measured: s sorts the flat profile by the measured inclusive time, most first (95.2)" sh -c "
	    head -n 1 '$M/sorted' | grep -q '| sort: measured inclusive' &&
	    sed -n '5,20p' '$M/sorted' | cut -c2- | awk '\$1 ~ /^[0-9.]+\$/ { if (NR > 1 && \$1 > last) bad = 1; last = \$1; n++;
	        if (n == 1 && \$1 != 95.2) bad = 1 } END { exit bad || n < 5 }'"
	check "measured: m (no measured column) sorts by time, m again by measured time" sh -c "
	    sed -n 2p '$M/sorted-m' | grep -q 'by time\$' && ! head -n 1 '$M/sorted-m' | grep -q '| sort:' &&
	    sed -n 2p '$M/sorted-mm' | grep -q 'by measured inclusive\$'"
elif want measured; then
	fail "measured: tests/gen/stacks.py failed"
fi

# The browser opens on the program's hottest function, not on the
# profiler's own row above it, and the source pane says what such a row
# is (tests/progs/rt/costly.c with libtgmon, its histogram chosen:
# tgmon_count 500 samples, work 300).
O=$OUT/opening
if want opening && mkdir -p "$O" && gcc -pg -O1 -o "$O/costly" "$TOP/tests/progs/rt/costly.c" \
    -L"$TOP/runtime" -l:libtgmon.a -pthread && (cd "$O" && ./costly >/dev/null) &&
    python3 "$TOP/tests/ui/tree-gmon.py" "$O/costly" "$O/gmon.out" "$O/chosen.gmon" tgmon_count=500 work=300; then
	printf 'resize 150 30\ndump open\nkey g\ndump prof\nkey %%\ndump with\n' >"$O/keys"
	(cd "$O" && TGPROF_SCRIPT=keys "$TGPROF" --no-stacks costly chosen.gmon)
	check "opening: the hottest function of the program selected (work), not tgmon_count above it" sh -c "
	    grep -q '^ *62\.50 .* tgmon_count  \[profil' '$O/open' && grep -q '^> *100\.00 .* work ' '$O/open' &&
	    tail -n 1 '$O/open' | grep -q '^ work: '"
	# The profiler's time out of the program's (its row's share is of the time
	# sampled, not added up); % counts it: work 37.5% of all, the sums 100.
	check "%: the profiler's 62.5% out of the times, then counted" sh -c "
	    head -n 1 '$O/open' | grep -q \"| the profiler's 62.5% taken out (%)\" &&
	    grep -q '^ *62\.50  *0\.00  *0\.50  .* tgmon_count' '$O/open' &&
	    head -n 1 '$O/with' | grep -q \"| the profiler's 62.5% counted (%)\" &&
	    grep -q '^[> ] *62\.50  *0\.50  *0\.50  .* tgmon_count' '$O/with' && grep -q '^ *37\.50  *0\.80 .* work ' '$O/with'"
	check "opening: the source pane of a profiler's row says what it is" \
	    grep -q "a function of the profiler (libtgmon's or the C library's mcount): its time is the cost" "$O/prof"
elif want opening; then
	fail "opening: cannot build or run tests/progs/rt/costly.c with libtgmon"
fi

# tgprof top in the browser (its live view): rate.c calls tick() 2000
# times a second and burn() 1000.  Each "tick" of the script waits for the
# next snapshot (every 0.3 s): the last interval's calls a second within
# 10%; the function selected (tick, found by /) stays selected across
# refreshes; c shows the whole run, Z pauses (a tick then changes
# nothing); q stops the program, its profile written, status 0.  A run
# that ends by itself: its final profile, the whole run, is shown.
# live_rate FILE FUNC: FUNC's calls a second on the screen FILE.
live_rate() {
	sed 's/^>//' "$1" | awk -v f="$2" '$NF == f { print int($1 + 0.5) }'
}
L=$OUT/live
if want live && mkdir -p "$L" && gcc -pg -O2 -o "$L/rate" "$TOP/tests/progs/rt/rate.c" \
    -L"$TOP/runtime" -l:libtgmon.a -pthread; then
	rm -f "$L"/gmon.out* "$L"/s.*
	printf 'resize 140 24\ndump s.first\ntick\ntick\nkey /\ntype tick\nkey Enter\ndump s.rate\ntick\ndump s.kept\nkey c\ndump s.whole\nkey Z\ntick\ndump s.paused\nkey Z\nkey g\nkey x\ntick\ndump s.narrow\nkey q\n' >"$L/keys"
	(cd "$L" && TGPROF_SCRIPT=keys timeout 60 "$TGPROF" top -d 0.3 -- ./rate 0 >/dev/null 2>"$L/err")
	rc=$?
	t=$(live_rate "$L/s.rate" tick) b=$(live_rate "$L/s.rate" burn)
	t=$(live_rate "$L/s.first" tick)
	check "live: the first snapshot's rates, since the program's start: tick $t (2000 within 20%: its start is libtgmon's)" sh -c "
	    head -n 1 '$L/s.first' | grep -q ' live: snapshot 1, its first 0\.[0-9]* s' &&
	    [ '${t:-0}' -ge 1600 ] && [ '${t:-0}' -le 2400 ]"
	cpu=$(sed 's/^>//' "$L/s.rate" | awk '$NF == "burn" { print int($2 + 0.5) }')
	check "live: burn's share of a processor over the interval: $cpu% (300 us a call, 1000 a second: 30%)" sh -c "
	    [ '${cpu:-0}' -ge 20 ] && [ '${cpu:-0}' -le 40 ]"
	check "live: the last interval's calls a second: tick $t, burn $b (2000, 1000 within 10%)" sh -c "
	    head -n 1 '$L/s.rate' | grep -q ' live: snapshot [0-9]*, its last 0\.[0-9]* s' &&
	    [ '${t:-0}' -ge 1800 ] && [ '${t:-0}' -le 2200 ] && [ '${b:-0}' -ge 900 ] && [ '${b:-0}' -le 1100 ]"
	check "live: the function selected stays selected across a refresh" sh -c "
	    grep -q '^>.* tick\$' '$L/s.rate' && grep -q '^>.* tick\$' '$L/s.kept' &&
	    [ \"\$(head -n 1 '$L/s.rate' | cut -c1-30)\" != \"\$(head -n 1 '$L/s.kept' | cut -c1-30)\" ]"
	check "live: c shows the whole run so far, without calls a second" sh -c "
	    head -n 1 '$L/s.whole' | grep -q 'the whole run so far (c: the last interval)' && ! grep -q 'calls/s' '$L/s.whole'"
	check "live: Z pauses: a tick changes nothing" sh -c "
	    head -n 1 '$L/s.paused' | grep -q '| paused (Z)' &&
	    [ \"\$(sed -n 's/.*snapshot \\([0-9]*\\).*/\\1/p;q' '$L/s.paused')\" = \"\$(sed -n 's/.*snapshot \\([0-9]*\\).*/\\1/p;q' '$L/s.whole')\" ]"
	check "live: a narrowing (x on burn) stays across a refresh" sh -c "
	    head -n 1 '$L/s.narrow' | grep -q 'live: snapshot .* | without burn (u undoes)' &&
	    [ \"\$(sed -n 's/.*snapshot \\([0-9]*\\).*/\\1/p;q' '$L/s.narrow')\" != \"\$(sed -n 's/.*snapshot \\([0-9]*\\).*/\\1/p;q' '$L/s.paused')\" ]"
	check "live: q stops the program, its profile written, status 0 ($rc)" sh -c "
	    [ $rc = 0 ] && [ -s '$L/gmon.out' ] && [ ! -s '$L/err' ]"
	# -p: a program already running with TGMON_LIVE=1, asked for a snapshot each interval; q leaves it running.
	(cd "$L" && rm -f gmon.out* && exec env TGMON_LIVE=1 TGMON_SIGNALS=1 ./rate 0 >/dev/null 2>&1) &
	pid=$!
	sleep 0.3
	printf 'resize 140 24\ntick\ntick\ndump s.pid\nkey q\n' >"$L/keys3"
	(cd "$L" && TGPROF_SCRIPT=keys3 timeout 60 "$TGPROF" top -d 0.5 -p $pid >/dev/null 2>"$L/err")
	rc=$?
	t=$(live_rate "$L/s.pid" tick)
	check "live: -p PID: the running program's calls a second (tick $t), q leaves it running (status $rc)" sh -c "
	    [ $rc = 0 ] && [ '${t:-0}' -ge 1800 ] && [ '${t:-0}' -le 2200 ] && kill -0 $pid"
	kill -TERM $pid
	wait $pid 2>/dev/null
	# phases.c: early() for its first 0.4 s, then late() alone: early, selected
	# in the first interval, stays there (and selected) in later ones without
	# a sample or a call of it.
	if gcc -pg -O2 -o "$L/phases" "$TOP/tests/progs/rt/phases.c" -L"$TOP/runtime" -l:libtgmon.a -pthread; then
		printf 'resize 140 24\nkey /\ntype early\nkey Enter\ndump s.early\ntick\ntick\ndump s.idle\nkey q\n' >"$L/keys4"
		(cd "$L" && rm -f gmon.out* && TGPROF_SCRIPT=keys4 timeout 60 "$TGPROF" top -d 0.3 -- ./phases 0.4 >/dev/null 2>"$L/err")
		check "live: the function selected stays selected in an interval with none of its samples and calls" sh -c "
		    grep -q '^>.* early\$' '$L/s.early' && grep -q '^>  *0\.0 .* early\$' '$L/s.idle' &&
		    grep -q ' late\$' '$L/s.idle'"
	else
		fail "live: cannot build tests/progs/rt/phases.c"
	fi
	printf 'tick\ntick\ntick\ntick\ntick\ntick\ntick\ntick\ndump s.final\nkey q\n' >"$L/keys2"
	(cd "$L" && TGPROF_SCRIPT=keys2 timeout 60 "$TGPROF" top -d 0.2 -- ./rate 0.5 >/dev/null 2>"$L/err")
	rc=$?
	check "live: a program that ends shows its final profile, the whole run (status $rc)" sh -c "
	    head -n 1 '$L/s.final' | grep -q 'the whole run (final: the program ended)' && [ $rc = 0 ] &&
	    grep -q ' 1000 .* tick\$' '$L/s.final'"
elif want live; then
	fail "live: cannot build tests/progs/rt/rate.c with libtgmon"
fi

# W: the profile shown exported, as tgprof --export writes it; narrowed, as
# with the -E that x stands for (and the clones folded, the browser's default).
W=$OUT/save
if want save && mkdir -p "$W"; then
	printf 'key W\ntype dot w.dot\nkey Enter\ndump s1\nkey /\ntype burn\nkey Enter\nkey Esc\nkey x\nkey W\ntype callgrind w.cg\nkey Enter\ndump s2\nkey W\ntype svg w.svg\nkey Enter\ndump s3\n' \
	    >"$W/keys"
	(cd "$W" && TGPROF_SCRIPT=keys "$TGPROF" "$P/prog" "$P/gmon.out")
	"$TGPROF" --export=dot --clones=fold "$P/prog" "$P/gmon.out" >"$W/batch.dot"
	"$TGPROF" --export=callgrind -E burn --clones=fold "$P/prog" "$P/gmon.out" >"$W/batch.cg"
	check "W dot: the file tgprof --export=dot writes" cmp -s "$W/w.dot" "$W/batch.dot"
	check "W dot: it says so" sh -c "tail -n 1 '$W/s1' | grep -q 'exported as dot to w.dot'"
	check "W after x on burn: the callgrind file of -E burn, said narrowed" sh -c "
	    cmp -s '$W/w.cg' '$W/batch.cg' && tail -n 1 '$W/s2' | grep -q 'exported as callgrind to w.cg (narrowed)'"
	check "W svg: no such format, the formats named, no file" sh -c "
	    tail -n 1 '$W/s3' | grep -q 'no such format: give a format (callgrind, dot' && [ ! -e '$W/w.svg' ]"	# The command line's export options hold for W as for --export.
	printf 'key W\ntype dot t.dot\nkey Enter\n' >"$W/t.keys"
	(cd "$W" && TGPROF_SCRIPT=t.keys "$TGPROF" --node-threshold=20 --edge-threshold=10 "$P/prog" "$P/gmon.out")
	"$TGPROF" --export=dot --clones=fold --node-threshold=20 --edge-threshold=10 "$P/prog" "$P/gmon.out" \
	    >"$W/batch-t.dot"
	check "W dot with --node-threshold and --edge-threshold: tgprof --export=dot's file" sh -c "
	    cmp -s '$W/t.dot' '$W/batch-t.dot' && ! cmp -s '$W/t.dot' '$W/w.dot'"
fi

# o: \$EDITOR +LINE FILE, the screen given over and taken back.
if want editor; then
	printf '#!/bin/sh\necho "$@" >"%s/editor.args"\n' "$OUT" >"$OUT/editor"
	chmod +x "$OUT/editor"
	printf 'key :\ntype %s\nkey Enter\nkey a\nkey j\nkey o\ndump edited\n' "$idx" >"$OUT/edit.keys"
	(cd "$OUT" && EDITOR="$OUT/editor" TGPROF_SCRIPT="$OUT/edit.keys" "$TGPROF" "$P/prog" "$P/gmon.out")
	check "o: the editor gets +45 and fib's source file" \
	    grep -q "^+45 .*tests/progs/cycles.c\$" "$OUT/editor.args"
fi

# UTF-8 names: drawn whole, one character per column or two.
U=$OUT/utf8
if ! want utf8; then
	:
elif mkdir -p "$U" && gcc -pg -g -O0 -o "$U/prog" "$TOP/tests/progs/utf8.c" &&
    (cd "$U" && ./prog >/dev/null); then
	printf 'dump d\n' >"$U/keys"
	(cd "$U" && TGPROF_SCRIPT=keys "$TGPROF" prog gmon.out)
	"$TGPROF" --batch -b -p "$U/prog" "$U/gmon.out" | sed -n '6,7p' >"$U/batch"
	sed -n '5,6p' "$U/d" | cut -c2- | cut -c1-34,53- >"$U/ui"
	cut -c1-34,53- "$U/batch" >"$U/batch.cut"
	check "UTF-8 names: the rows are the batch rows" cmp -s "$U/batch.cut" "$U/ui"
	check "UTF-8 names: café and 計算 are there" sh -c "grep -q 'café\$' '$U/ui' && grep -q '計算\$' '$U/ui'"
else
	fail "cannot build or run tests/progs/utf8.c"
fi

# The thread view (p) over cycles.c with the stacks of tests/stacks/threads.spec
# in threads (main 32 samples, worker-1 17, worker-2 12, 1 of no thread):
# its rows; Enter narrows every pane to the selected thread (worker-1: burn
# is all its self time, 100%), Space marks several (main and worker-1: 49
# samples, burn 47 of them), u undoes each; without thread records, p says so.
if want threads; then
	TH=$OUT/threads
	mkdir -p "$TH"
	python3 "$TOP/tests/gen/stacks.py" "$P/prog" "$P/gmon.out" "$TH/gmon.out" "$TH/gmon.out.stacks" 0x5eed \
	    <"$TOP/tests/stacks/threads.spec" || fatal "tests/gen/stacks.py failed (threads)"
	printf '%s\n' 'key p' 'dump list' 'key j' 'key Enter' 'dump one' 'key p' 'key Space' 'key Space' 'key Enter' \
	    'dump two' 'key p' 'dump view2' 'key u' 'key q' 'dump undone1' 'key u' 'dump whole' >"$TH/keys"
	# (50 rows: every function's row shows, whatever the run's histogram put first.)
	(cd "$TH" && TGPROF_SIZE=120x50 TGPROF_SCRIPT=keys "$TGPROF" "$P/prog" gmon.out 2>err)
	check "threads: the view lists each thread: share, samples, signals, CPU s, tid, name" sh -c "
	    [ ! -s '$TH/err' ] && grep -Eq '^> +51\.61 +32 +32 +0\.050 +1000  main \(main\)' '$TH/list' &&
	    grep -Eq '^ +27\.42 +17 +17 +0\.020 +1001  worker-1 \(ended\)' '$TH/list' &&
	    grep -Eq '^ +1\.61 +1 +- +- +-  \[other threads\]' '$TH/list' && tail -n 1 '$TH/list' | grep -q 'Space:mark Enter:narrow'"
	check "threads: Enter on worker-1: every pane its stacks; burn 100% of its 0.02 s; calls all threads'" sh -c "
	    sed -n 1p '$TH/one' | grep -q 'only thread worker-1-1001 (u undoes) | calls, gprof.s estimates: all threads' &&
	    grep -Eq '^> +100\.0 +100\.00 +0\.02 +0\.02 +78215 .* burn\$' '$TH/one' &&
	    grep -Eq '^ +41\.2 +0\.00 .* fact\$' '$TH/one'"
	check "threads: Space marks main and worker-1, Enter: their 49 samples, burn 47 (95.9%)" sh -c "
	    sed -n 1p '$TH/two' | grep -q 'only threads main-1000, worker-1-1001 and more (u undoes)' &&
	    grep -Eq '^> +95\.9 +95\.92 +0\.05 +0\.05 +78215 .* burn\$' '$TH/two' &&
	    grep -Eq '^[ >] +\* +51\.61 +32 ' '$TH/view2' && grep -Eq '^[ >] +\* +27\.42 +17 ' '$TH/view2' &&
	    ! grep -Eq '^[ >] +\* +19\.35' '$TH/view2'"
	check "threads: u undoes the two, one at a time, over the view too" sh -c "
	    sed -n 1p '$TH/undone1' | grep -q 'only thread worker-1-1001 (u undoes)' &&
	    ! grep -q 'Threads (Space' '$TH/undone1' && sed -n 1p '$TH/whole' | grep -q 'measured: 62 stacks' &&
	    ! sed -n 1p '$TH/whole' | grep -q 'only thread'"
	printf '%s\n' 'key p' 'dump none' >"$TH/none.keys"
	cp "$TOP/tests/stacks/cycles.spec" "$TH/v1.spec"
	mkdir -p "$TH/v1" && python3 "$TOP/tests/gen/stacks.py" "$P/prog" "$P/gmon.out" "$TH/v1/gmon.out" \
	    "$TH/v1/gmon.out.stacks" 0x5eed <"$TH/v1.spec" || fatal "tests/gen/stacks.py failed"
	(cd "$TH/v1" && TGPROF_SIZE=120x30 TGPROF_SCRIPT=../none.keys "$TGPROF" "$P/prog" gmon.out 2>err)
	check "threads: without thread records, p says so on the bottom line" sh -c "
	    tail -n 1 '$TH/v1/none' | grep -q 'no threads: the stacks files have no thread records' &&
	    ! grep -q 'Threads (Space' '$TH/v1/none'"
fi

# Waits (tests/stacks/waits.spec: 30 samples; waits of 0.5 s under top, in
# a library, 0.25 s in fact, 1.5 s under leaf_b): w turns the measured
# times to wall-clock time, then waits alone, then CPU time; the flat
# profile's self times follow (top 0.50 s, leaf_b 1.50 s), the flame graph
# says how much of a frame is waiting.  Without waits, w says why not.
if want waits; then
	W=$OUT/waits
	mkdir -p "$W"
	python3 "$TOP/tests/gen/stacks.py" "$P/prog" "$P/gmon.out" "$W/gmon.out" "$W/gmon.out.stacks" 0x5eed \
	    <"$TOP/tests/stacks/waits.spec" || fatal "tests/gen/stacks.py failed (waits)"
	printf '%s\n' 'key w' 'dump wall' 'key F' 'dump flame' 'key F' 'key w' 'dump wait' 'key w' 'dump cpu' >"$W/keys"
	(cd "$W" && TGPROF_SIZE=120x50 TGPROF_SCRIPT=keys "$TGPROF" "$P/prog" gmon.out 2>err)
	check "waits: w: wall-clock time, the top line says so; leaf_b's self 1.50 s, top's 0.50" sh -c "
	    [ ! -s '$W/err' ] && sed -n 1p '$W/wall' | grep -q 'wall-clock time' &&
	    grep -Eq ' 1\.50 +1500 .* leaf_b\$' '$W/wall' && grep -Eq ' 0\.50 +1500 .* top\$' '$W/wall' &&
	    tail -n 1 '$W/wall' | grep -q 'measured times: wall-clock time'"
	check "waits: the flame graph says how much of a frame waits (all: 98.7%, its error the samples')" \
	    sh -c "tail -n 1 '$W/flame' | grep -q 'all: 2.28 s .* 0.01 s in its stacks (2.280 s, 100.0% of all; 98.7% of it waiting off CPU)'"
	check "waits: w again: waits alone (fact 0.25 s, burn none); again: CPU time, the histogram's" sh -c "
	    sed -n 1p '$W/wait' | grep -q 'waits off CPU alone' && grep -Eq ' 0\.25 +1500 .* fact\$' '$W/wait' &&
	    grep -Eq ' 0\.00 +78215 .* burn\$' '$W/wait' && ! sed -n 1p '$W/cpu' | grep -q 'wall-clock\\|waits off' &&
	    grep -Eq ' [0-9.]+ +1500 .* fact\$' '$W/cpu' && ! grep -Eq ' 0\.25 +1500 .* fact\$' '$W/cpu'"
	printf '%s\n' 'key w' 'dump none' >"$W/none.keys"
	mkdir -p "$W/v1" && python3 "$TOP/tests/gen/stacks.py" "$P/prog" "$P/gmon.out" "$W/v1/gmon.out" \
	    "$W/v1/gmon.out.stacks" 0x5eed <"$TOP/tests/stacks/cycles.spec" || fatal "tests/gen/stacks.py failed"
	(cd "$W/v1" && TGPROF_SIZE=120x30 TGPROF_SCRIPT=../none.keys "$TGPROF" "$P/prog" gmon.out 2>err)
	check "waits: without waits, w says why on the bottom line" \
	    sh -c "tail -n 1 '$W/v1/none' | grep -q 'w: no waits: none were recorded'"
fi

# The manual lists every key of the key table (ui/keys.c) by the name the
# help pane, made from the table, shows; and no key the table does not have.
if want manual; then
	M=$OUT/manual
	mkdir -p "$M"
	printf 'key ?\ndump %s/help\n' "$M" >"$M/keys"
	(cd "$OUT/syn" && TGPROF_SIZE=100x60 TGPROF_SCRIPT="$M/keys" "$TGPROF" prog gmon.out)
	# Rows 3 to the last but one: after the selection mark, the names up to two blanks.
	sed -e '1,2d' -e '$d' "$M/help" | cut -c2- | sed 's/  .*//' | tr ' ' '\n' | grep -v '^$' | sort -u >"$M/table"
	check "the help fits on the screen (its last row is blank)" \
	    sh -c "tail -n 2 '$M/help' | head -n 1 | grep -q '^ *\$'"
	# At 80 columns each key's text is wrapped under its own column, not cut.
	printf 'key ?\nkey G\ndump %s/help80\n' "$M" >"$M/keys80"
	(cd "$OUT/syn" && TGPROF_SIZE=80x24 TGPROF_SCRIPT="$M/keys80" "$TGPROF" prog gmon.out)
	check "the help at 80x24: R's text wrapped whole ('collapsed through' / 'other functions')" sh -c "
	    grep -q '^.R  .*recursion collapsed\$' '$M/help80' && grep -q '^ \{21\}through other functions' '$M/help80' &&
	    ! sed -e '1,2d' -e '\$d' '$M/help80' | cut -c2- | grep -q '.\{80\}'"
	# The items of THE BROWSER's lists, \e and \& read as roff does.
	awk '/^\.Sh / { on = $0 == ".Sh THE BROWSER" } on && sub(/^\.It /, "")' "$TOP/man/tgprof.1" |
	    sed -e 's/\\e/\\/g' -e 's/\\&//g' >"$M/items"
	sed 's/^Ic //' "$M/items" | tr ' ' '\n' | grep -v '^,*$' | sort -u >"$M/manual"
	sed -n 's/^Ic //p' "$M/items" | tr ' ' '\n' | grep -v '^,*$' | sort -u >"$M/manual.keys"
	missing=$(comm -23 "$M/table" "$M/manual" | tr '\n' ' ')
	if [ -n "$missing" ] || [ "$(wc -l <"$M/table")" -lt 30 ]; then
		fail "the manual lists every key of the key table (not: $missing)"
	else
		pass "the manual lists every key of the key table ($(wc -l <"$M/table"))"
	fi
	extra=$(comm -13 "$M/table" "$M/manual.keys" | tr '\n' ' ')
	check "the manual lists no key the table does not have (${extra:-none})" [ -z "$extra" ]
fi

# At 160 columns the names get the columns the numbers leave, shared by the
# flat profile and the call graph: a C++ name shows 29 characters in the
# flat pane (24 when the screen was cut in half).
if want wide-names; then
	W=$OUT/wide-names
	mkdir -p "$W"
	printf 'dump w\n' >"$W/keys"
	(cd "$W" && TGPROF_SIZE=160x45 TGPROF_SCRIPT=keys "$TGPROF" "$PROGDIR/cxx_O2/prog" "$PROGDIR/cxx_O2/gmon.out")
	check "wide names: at 160x45 the flat pane shows 'void std::vector<geom::Shape*,' whole" \
	    grep -q '  void std::vector<geom::Shape\*,|' "$W/w"
fi

# The end of a script quits, whatever is up: a line being typed too.
if want script-end; then
	printf 'key /\ntype f_2\n' >"$OUT/typing.keys"
	(cd "$OUT/syn" && timeout 20 env TGPROF_SCRIPT="$OUT/typing.keys" "$TGPROF" prog gmon.out)
	check "a script that ends while a line is typed ends the browser (status 0)" [ $? -eq 0 ]
fi

# A script naming a key that does not exist, or a command that does not,
# fails with one line naming it: such a script would otherwise check nothing.
if want script-refused; then
	printf 'key j\nkey Escape\ndump never\n' >"$OUT/badkey.keys"
	(cd "$OUT/syn" && TGPROF_SCRIPT="$OUT/badkey.keys" "$TGPROF" prog gmon.out 2>"$OUT/badkey.err")
	rc=$?
	check "a script's unknown key name: exit 1, one line naming it, nothing after it run" sh -c "
	    [ $rc -eq 1 ] && [ \$(wc -l <'$OUT/badkey.err') -eq 1 ] &&
	    grep -q '^tgprof: .*badkey.keys:2: no key has that name: Escape\$' '$OUT/badkey.err' &&
	    [ ! -e '$OUT/syn/never' ]"
	printf 'key j\ndmup x\n' >"$OUT/badcmd.keys"
	(cd "$OUT/syn" && TGPROF_SCRIPT="$OUT/badcmd.keys" "$TGPROF" prog gmon.out 2>"$OUT/badcmd.err")
	rc=$?
	check "a script's unknown command: exit 1, the line named" sh -c "
	    [ $rc -eq 1 ] && grep -q '^tgprof: .*badcmd.keys:2: not a command (key, type, paste, dump, mouse, resize, tick): dmup x\$' '$OUT/badcmd.err'"
fi

# The call tree against gprof's call graph (tests/ui/tree-check.py): on
#    the profiles of the tree's screens, the whole program all open, and
#    each call-graph entry's function or cycle bottom-up and top-down, all
#    open (tree-numbers); ASCII marks outside UTF-8 (tree-ascii); the depth
#    shown past the indentation's end (tree-deep); E stops at the row cap
#    where the paths explode, and says so (tree-cap).
tree_check() {	# desc checker-args...: the checker's mismatches shown when it fails
	d=$1
	shift
	if python3 "$TOP/tests/ui/tree-check.py" "$@" >"$OUT/tree-check.out"; then
		pass "$d"
	else
		fail "$d"
		head -n 6 "$OUT/tree-check.out" | sed 's/^/#   /'
	fi
}
tree_numbers() {	# name: in $OUT/name
	td=$OUT/$1
	LC_ALL=C "$TGPROF" --batch -b -q "$td/prog" "$td/gmon.out" >"$td/graph.txt"
	idx=$(sed -n 's/^\[\([0-9]*\)\].*/\1/p' "$td/graph.txt")
	{
		printf 'key t\nkey E\nkey P\ntype whole.txt\nkey Enter\n'
		for i in $idx; do
			printf 'key :\ntype %s\nkey Enter\nkey b\nkey E\nkey P\ntype up-%s.txt\nkey Enter\n' "$i" "$i"
			printf 'key r\nkey E\nkey P\ntype down-%s.txt\nkey Enter\n' "$i"
		done
	} >"$td/numbers.keys"
	(cd "$td" && TGPROF_SCRIPT=numbers.keys "$TGPROF" prog gmon.out)
	for i in $idx; do
		cat "$td/up-$i.txt" "$td/down-$i.txt"
	done >"$td/entries.txt"
	tree_check "tree-numbers $1: the whole program, all open = the call graph" \
	    "$td/graph.txt" "$td/whole.txt"
	tree_check "tree-numbers $1: each entry bottom-up and top-down, all open = the call graph" \
	    "$td/graph.txt" "$td/entries.txt"
}
if want tree-numbers; then
	tree_numbers cyc
	tree_numbers cxx
fi
if want tree-ascii; then
	printf 'key t\nkey E\nkey P\ntype ascii.txt\nkey Enter\n' >"$OUT/cyc/ascii.keys"
	(cd "$OUT/cyc" && LC_ALL=C TGPROF_SCRIPT=ascii.keys "$TGPROF" prog gmon.out)
	check "tree-ascii: outside UTF-8 the marks are - + @" sh -c "grep -q '^ ~100.0 .* - main \\[1\\]\$' '$OUT/cyc/ascii.txt' &&
	    grep -q '  @ fact \\[6\\] (recursive)\$' '$OUT/cyc/ascii.txt' && ! grep -q '[^ -~]' '$OUT/cyc/ascii.txt'"
fi
if want tree-deep; then
	python3 "$TOP/tests/gen/chain.py" 40 "$OUT/chain" || fatal "tests/gen/chain.py failed"
	printf 'key t\nkey E\nkey P\ntype deep.txt\nkey Enter\n' >"$OUT/chain/deep.keys"
	(cd "$OUT/chain" && TGPROF_SCRIPT=deep.keys "$TGPROF" -S syms "$P/prog" gmon.out)
	check "tree-deep: a chain of 40 opens 38 deep, indented 16 levels, then (17) to (38)" \
	    sh -c "grep -q '^.\\{29\\} \\{34\\}▼ f16 \\[' '$OUT/chain/deep.txt' &&
	    grep -q '^.\\{29\\} \\{29\\}(17) ▼ f17 \\[' '$OUT/chain/deep.txt' &&
	    grep -q '^.\\{29\\} \\{29\\}(38)   f38 \\[[0-9]*\\]\$' '$OUT/chain/deep.txt'"
fi
if want tree-cap; then
	python3 "$TOP/tests/gen/synth.py" 3000 "$OUT/dag" >/dev/null || fatal "tests/gen/synth.py failed"
	printf 'key t\nkey E\ndump capped\nkey P\ntype capped.txt\nkey Enter\n' >"$OUT/dag/cap.keys"
	(cd "$OUT/dag" && timeout 60 env TGPROF_SCRIPT=cap.keys "$TGPROF" prog gmon.out)
	n=$(sed -n 's/.*the call tree stops short at \([0-9]*\) rows (100000 at most).* tree [0-9]*\/\([0-9]*\) *$/\1 \2/p' "$OUT/dag/capped")
	check "tree-cap: E on 3,000 functions stops short of 100000 rows and says at how many, as the counter does ($n)" \
	    sh -c "[ -n '$n' ] && [ \$(echo $n | cut -d' ' -f1) = \$(echo $n | cut -d' ' -f2) ] &&
	    [ \$(wc -l <'$OUT/dag/capped.txt') -le 100002 ] && [ \$(wc -l <'$OUT/dag/capped.txt') -gt 90000 ]"
fi

# 3. tmux (the variable T is the case filter: the tmux command is TM).
if ! command -v tmux >/dev/null 2>&1; then
	pass "tmux not installed: end-to-end tests skipped"
	finish
fi

if want tmux; then
	S=tgprof-test-$$
	TM="tmux -L $S"
	$TM kill-server 2>/dev/null
	tm_new -s "$S" -x 100 -y 30 "cd '$P' && stty -g >'$OUT/stty.before' && '$TGPROF' prog gmon.out; s=\$?; stty -g >'$OUT/stty.after'; echo EXIT=\$s; sleep 30" ||
	    fatal "tmux cannot start"
	check "tmux: the browser starts" waitfor "Flat profile: [0-9]* functions"
	$TM send-keys -t "$S" / f i b Enter
	check "tmux: search finds fib" waitfor "/fib: 1 matches"
	$TM send-keys -t "$S" Escape
	check "tmux: the match is the function shown (its time on the bottom line)" waitfor "^fib: \([0-9.]* s \|no samples\)"
	$TM send-keys -t "$S" L
	check "tmux: L's prompt says what it asks" waitfor "hide rows under percent (now 0):"
	$TM send-keys -t "$S" Escape Enter
	check "tmux: Enter opens fib's call graph" waitfor "Call graph: fib"
	$TM send-keys -t "$S" k Enter
	check "tmux: a caller opens" waitfor "Call graph: main"
	$TM send-keys -t "$S" BSpace
	check "tmux: back to fib" waitfor "Call graph: fib"
	$TM send-keys -t "$S" t
	check "tmux: t shows the call tree, main open" waitfor "[0-9] .*▼ main \[[0-9]*\]"
	$TM send-keys -t "$S" t
	check "tmux: t again, the flat profile" waitfor "Flat profile: [0-9]* functions"
	$TM send-keys -t "$S" '?'
	check "tmux: help" waitfor "Keys (q, Esc or ? closes this"
	$TM send-keys -t "$S" q
	$TM resize-window -t "$S" -x 150 -y 40 2>/dev/null
	check "tmux: resize to 150 columns shows the panes side by side" waitfor "Flat profile.*Call graph: fib"
	$TM send-keys -t "$S" q
	check "tmux: q quits with status 0" waitfor "EXIT=0"
	$TM capture-pane -p -t "$S" >"$OUT/tmux.final"
	check "tmux: the terminal is given back" cmp -s "$OUT/stty.before" "$OUT/stty.after"
	$TM kill-server 2>/dev/null
fi

# tgprof top in tmux: the live view refreshes by itself (no key pressed:
# a later snapshot comes on the screen), q stops the program (its
# profile written), exit 0, the terminal given back.
if want tmux-top && mkdir -p "$OUT/tmtop" && gcc -pg -O2 -o "$OUT/tmtop/rate" "$TOP/tests/progs/rt/rate.c" \
    -L"$TOP/runtime" -l:libtgmon.a -pthread; then
	S=tgprof-test-$$-top
	TM="tmux -L $S"
	rm -f "$OUT/tmtop"/gmon.out*
	tm_new -s "$S" -x 140 -y 30 "cd '$OUT/tmtop' && stty -g >stty.before && '$TGPROF' top -d 0.2 -- ./rate; s=\$?; stty -g >stty.after; echo EXIT=\$s; sleep 30"
	check "tmux-top: the live view starts" waitfor "live: snapshot [0-9]*, "
	check "tmux-top: it refreshes by itself (snapshot 12)" waitfor "live: snapshot 12, its last 0\.[0-9]* s"
	$TM send-keys -t "$S" q
	check "tmux-top: q stops the program: exit 0" waitfor EXIT=0 10
	check "tmux-top: its profile written" [ -s "$OUT/tmtop/gmon.out" ]
	check "tmux-top: the terminal is given back" cmp -s "$OUT/tmtop/stty.before" "$OUT/tmtop/stty.after"
	$TM kill-server 2>/dev/null
	# ^C (to the program and tgprof alike) and SIGTERM (to tgprof, passed on): the browser ends, the
	# program stops with its profile written, its status (130, 143) is tgprof's, the terminal given back.
	for sig in INT TERM; do
		S=tgprof-test-$$-top$sig
		TM="tmux -L $S"
		rm -f "$OUT/tmtop"/gmon.out*
		tm_new -s "$S" -x 140 -y 30 "cd '$OUT/tmtop' && stty -g >stty.before && '$TGPROF' top -d 0.2 -- ./rate; s=\$?; stty -g >stty.after; echo EXIT=\$s; sleep 30"
		waitfor "live: snapshot [3-9]"
		if [ $sig = INT ]; then
			$TM send-keys -t "$S" C-c
			want_rc=130
		else
			pkill -TERM -f "^$TGPROF top -d 0.2 -- ./rate\$"
			want_rc=143
		fi
		check "tmux-top: SIG$sig ends the live view, the program stopped with its status ($want_rc)" \
		    waitfor "EXIT=$want_rc" 10
		check "tmux-top: SIG$sig: the profile written, the terminal given back" sh -c "
		    [ -s '$OUT/tmtop/gmon.out' ] && cmp -s '$OUT/tmtop/stty.before' '$OUT/tmtop/stty.after'"
		$TM kill-server 2>/dev/null
	done
fi

# killed SIG STATUS: the browser ended by signal SIG (exit STATUS) gives the terminal back.
killed() {
	want "tmux-$1" || return 0
	S=tgprof-test-$$-$1
	TM="tmux -L $S"
	tm_new -s "$S" -x 100 -y 30 "cd '$P' && stty -g >'$OUT/stty.$1.before' && '$TGPROF' prog gmon.out; s=\$?; stty -g >'$OUT/stty.$1.after'; echo EXIT=\$s; sleep 30"
	waitfor "Flat profile" && pkill -"$1" -f "^$TGPROF prog gmon.out\$"
	check "tmux: SIG$1 ends the browser" waitfor "EXIT=$2"
	check "tmux: the terminal is given back after SIG$1" \
	    cmp -s "$OUT/stty.$1.before" "$OUT/stty.$1.after"
	$TM kill-server 2>/dev/null
}
killed TERM 143
killed SEGV 139
finish
