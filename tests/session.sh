#!/bin/sh
# tests/session.sh: the browser's model (model/session.h) and call trees, driven as text by tests/tools/test-session.
#
# Usage: session.sh TGPROF OUT PROGDIR -- PROGDIR holds the programs tests/progs.sh built.
# 1. Against tgprof --batch, on cycles.c's runs of 300 (gmon.1) and 600
#    (gmon.3): each narrowing (x: -E, f: -F, stacked) is the call graph
#    the command line's symspecs make; undo goes back; in a comparison the
#    old profile is narrowed as the new one (its call graph that of -E on
#    the old file) and the comparison is tgprof --diff's with the same
#    symspecs, whether it began before or after the narrowing; replace
#    loads another run under the narrowings in force; stop ends the
#    comparison.  Case names: the operations.
# 2. Golden texts: each tests/session/NAME.cmds runs in a directory with
#    fixed profiles (cyc: cycles.c with a chosen histogram; flm: the same
#    with the stacks of tests/stacks/cycles.spec, and gmon.th.stacks
#    those of tests/stacks/threads.spec, in threads) and its output must
#    equal tests/session/NAME.expected: the generations, what fails and
#    why, call trees measured and estimated.
# 3. The call trees against gprof's call graph (tests/ui/tree-check.py):
#    the whole program, and each entry top-down and bottom-up, every node
#    open, on cycles.c and calltree.cpp (tree-check).
# 4. Two static functions of one name, matched by file; names alike
#    without files, the one with calls first (statics).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
PROGDIR=$(cd "$3" && pwd)
T_NAME=session
. "$TOP/tests/lib.sh"
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || fatal "cannot make $OUT"
TOOL=$TOP/tests/tools/test-session
export LC_ALL=C
P=$PROGDIR/cycles_O0
[ -x "$TOOL" ] || fatal "no $TOOL (make tests/tools/test-session)"

# same NAME WANT GOT: the files must be equal.
same() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1"
		diff "$2" "$3" | head -n 8 | sed 's/^/#   /'
	fi
}

# drive NAME: runs the commands on standard input in $OUT, output in $OUT/NAME.
drive() {
	(cd "$P" && "$TOOL") >"$OUT/$1" 2>"$OUT/$1.err" || fail "$1: test-session exits $?"
}

# batch NAME ARGS: tgprof --batch -b ARGS in $P into $OUT/NAME.want.
batch() {
	n=$1
	shift
	(cd "$P" && "$TGPROF" --batch -b "$@") >"$OUT/$n.want" 2>/dev/null
}

# 1. Against tgprof --batch.
for f in ring burn main fib is_even; do
	want "narrow $f" || continue
	printf 'load prog gmon.3\nnarrow %s\ngraph\n' "$f" | drive n
	batch n -q -E "$f" prog gmon.3
	same "narrow $f: the call graph of -E $f" "$OUT/n.want" "$OUT/n"
	printf 'load prog gmon.3\nfocus %s\ngraph\n' "$f" | drive f
	batch f -q -F "$f" prog gmon.3
	same "focus $f: the call graph of -F $f" "$OUT/f.want" "$OUT/f"
done
if want stacked; then
	printf 'load prog gmon.3\nnarrow ring\nfocus main\nnarrow tri_a\ngraph\nflat\n' | drive s
	batch s -q -p -E ring -F main -E tri_a prog gmon.3
	(cd "$P" && "$TGPROF" --batch -b -p -E ring -F main -E tri_a prog gmon.3) >"$OUT/s.flat"
	(cd "$P" && "$TGPROF" --batch -b -q -E ring -F main -E tri_a prog gmon.3) >"$OUT/s.want"
	cat "$OUT/s.flat" >>"$OUT/s.want"
	same "stacked: narrow ring, focus main, narrow tri_a = -E ring -F main -E tri_a" "$OUT/s.want" "$OUT/s"
fi
if want undo; then
	printf 'load prog gmon.3\nnarrow ring\nfocus main\nundo\ngraph\nundo\ngraph\n' | drive u
	batch u1 -q -E ring prog gmon.3
	batch u0 -q prog gmon.3
	cat "$OUT/u0.want" >>"$OUT/u1.want"
	same "undo: one narrowing less, then none" "$OUT/u1.want" "$OUT/u"
fi
# diff_rows FILE: tgprof --diff's table less its first 8 lines (the columns and rows stay).
diff_rows() {
	sed 1,8d "$1"
}
if want compare; then
	for when in before after; do
		if [ $when = before ]; then
			printf 'load prog gmon.3\ncompare prog gmon.1\nnarrow ring\nold\ndiff\n' | drive c
		else
			printf 'load prog gmon.3\nnarrow ring\ncompare prog gmon.1\nold\ndiff\n' | drive c
		fi
		batch c -q -E ring prog gmon.1
		(cd "$P" && "$TGPROF" --diff -E ring prog gmon.1 gmon.3) >"$OUT/c.diff"
		diff_rows "$OUT/c.diff" >>"$OUT/c.want"
		sed '/^match /d' "$OUT/c" >"$OUT/c.got"
		same "compare $when narrow ring: the old side -E ring's, the rows tgprof --diff -E ring's" \
		    "$OUT/c.want" "$OUT/c.got"
	done
	printf 'load prog gmon.3\ncompare prog gmon.1\nnarrow ring\nundo\nold\ndiff\n' | drive cu
	batch cu -q prog gmon.1
	(cd "$P" && "$TGPROF" --diff prog gmon.1 gmon.3) >"$OUT/cu.diff"
	diff_rows "$OUT/cu.diff" >>"$OUT/cu.want"
	sed '/^match /d' "$OUT/cu" >"$OUT/cu.got"
	same "compare, narrow ring, undo: both sides whole again" "$OUT/cu.want" "$OUT/cu.got"
fi
if want replace; then
	printf 'load prog gmon.3\ncompare prog gmon.3\nnarrow ring\nreplace prog gmon.1\ngraph\ndiff\nstate\n' | drive r
	batch r -q -E ring prog gmon.1
	(cd "$P" && "$TGPROF" --diff -E ring prog gmon.3 gmon.1) >"$OUT/r.diff"
	diff_rows "$OUT/r.diff" >>"$OUT/r.want"
	echo "gen 4 names 3 loaded 2 narrowed: without ring; comparing: yes" >>"$OUT/r.want"
	sed '/^match /d' "$OUT/r" >"$OUT/r.got"
	same "replace under a narrowing and a comparison: both made again on the new run" \
	    "$OUT/r.want" "$OUT/r.got"
fi
# reload: a profile read again with the executable of an earlier one
# (profile_reload(), tgprof top's refreshes) is the same as one loaded
# whole: its reports, its call tree, under a narrowing and after undo.
if want reload; then
	for f in gmon.1 "--clones=fold gmon.1" gmon.3; do
		n=$(echo "$f" | tr -c 'a-z0-9\n' _)
		printf 'load %s\nnarrow ring\nreplace prog %s\nflat\ngraph\ntree\nundo\nflat\ngraph\ntree\n' "${f%gmon.*}prog gmon.3" "$f" | drive rl.want.$n
		printf 'load %s\nnarrow ring\nreload prog %s\nflat\ngraph\ntree\nundo\nflat\ngraph\ntree\n' "${f%gmon.*}prog gmon.3" "$f" | drive rl.got.$n
		same "reload of $f: as replace loads it whole" "$OUT/rl.want.$n" "$OUT/rl.got.$n"
	done
fi
if want stop; then
	printf 'load prog gmon.3\ncompare prog gmon.1\nnarrow ring\nstop\nstate\nold\ndiff\ngraph\n' | drive st
	{
		echo "gen 4 names 2 loaded 1 narrowed: without ring; comparing: no"
		echo "not comparing"
		echo "not comparing"
	} >"$OUT/st.want"
	batch st.g -q -E ring prog gmon.3
	cat "$OUT/st.g.want" >>"$OUT/st.want"
	same "stop: the comparison ends, the narrowing stays" "$OUT/st.want" "$OUT/st"
fi

# 2. Golden texts, on profiles whose every number is the same on every run.
python3 "$TOP/tests/gen/synth.py" 30 "$OUT/syn" >/dev/null || fatal "tests/gen/synth.py failed"
mkdir -p "$OUT/cyc" "$OUT/flm" && cp "$P/prog" "$OUT/cyc/prog" && cp "$P/prog" "$OUT/flm/prog" &&
    python3 "$TOP/tests/ui/tree-gmon.py" "$OUT/cyc/prog" "$P/gmon.out" "$OUT/cyc/gmon.out" \
    burn=600 fib=120 is_odd=40 tri_c=30 ring=25 leaf_b=20 fact=15 main=10 mid=5 &&
    python3 "$TOP/tests/ui/tree-gmon.py" "$OUT/cyc/prog" "$P/gmon.1" "$OUT/cyc/gmon.1" \
    burn=300 fib=60 ring=20 &&
    python3 "$TOP/tests/gen/stacks.py" "$OUT/flm/prog" "$OUT/cyc/gmon.out" "$OUT/flm/gmon.out" \
    "$OUT/flm/gmon.out.stacks" 0x5eed <"$TOP/tests/stacks/cycles.spec" &&
    python3 "$TOP/tests/gen/stacks.py" "$OUT/flm/prog" "$OUT/cyc/gmon.out" "$OUT/flm/gmon.th" \
    "$OUT/flm/gmon.th.stacks" 0x5eed <"$TOP/tests/stacks/threads.spec" ||
    fatal "tests/ui/tree-gmon.py or tests/gen/stacks.py failed"
compared=
for c in "$TOP"/tests/session/*.cmds; do
	n=$(basename "$c" .cmds)
	compared="$compared $n "
	want "$n" || continue
	(cd "$OUT" && "$TOOL" <"$c" >"$OUT/$n.out" 2>"$OUT/$n.err")
	rc=$?
	[ $rc -eq 0 ] || fail "$n: test-session exits $rc: $(head -n 1 "$OUT/$n.err")"
	same "$n: tests/session/$n.expected" "$TOP/tests/session/$n.expected" "$OUT/$n.out"
done
if [ -z "${T:-}" ]; then
	for e in "$TOP"/tests/session/*.expected; do
		case $compared in *" $(basename "$e" .expected) "*) ;; *) fail "no .cmds makes $e" ;; esac
	done
fi

# 3. Call trees against the call graph.
tree_check() {	# desc checker-args...
	d=$1
	shift
	if python3 "$TOP/tests/ui/tree-check.py" "$@" >"$OUT/tree-check.out"; then
		pass "$d"
	else
		fail "$d"
		head -n 6 "$OUT/tree-check.out" | sed 's/^/#   /'
	fi
}
# trees DIR NAME: in DIR (prog, gmon.out), the whole program's tree and every entry's both ways.
trees() {
	(cd "$1" && "$TGPROF" --batch -b -q prog gmon.out) >"$OUT/$2.graph" 2>/dev/null
	{
		echo "load prog gmon.out"
		echo "tree"
		for i in $(sed -n 's/^\[\([0-9]*\)\].*/\1/p' "$OUT/$2.graph"); do
			printf 'tree #%s\ntree #%s callers\n' "$i" "$i"
		done
	} | (cd "$1" && "$TOOL") >"$OUT/$2.trees"
	tree_check "tree-check $2: the whole program and each entry's trees, all open = the call graph" \
	    "$OUT/$2.graph" "$OUT/$2.trees"
}
if want tree-check; then
	trees "$OUT/cyc" cyc
	mkdir -p "$OUT/cxx" && cp "$PROGDIR/calltree_O0/prog" "$OUT/cxx/prog" &&
	    python3 "$TOP/tests/ui/tree-gmon.py" "$OUT/cxx/prog" "$PROGDIR/calltree_O0/gmon.out" \
	    "$OUT/cxx/gmon.out" 'work::spin<1>=300' 'work::spin<2>=200' quicksort=60 main=10 ||
	    fatal "tests/ui/tree-gmon.py failed on calltree_O0"
	trees "$OUT/cxx" cxx
fi

# 4. The matching rule: tests/progs/statics has a static setup() in a.c and in
#    b.c, with neither time nor calls: each is matched with its own file's.
if want statics; then
	ST=$OUT/statics
	mkdir -p "$ST" && gcc -pg -O1 -g -o "$ST/prog" "$TOP/tests/progs/statics/a.c" "$TOP/tests/progs/statics/b.c" &&
	    (cd "$ST" && ./prog && mv gmon.out old.gmon && ./prog && mv gmon.out new.gmon) >/dev/null ||
	    fatal "cannot build or run tests/progs/statics"
	printf 'load prog new.gmon\ncompare prog old.gmon\ndiff\n' | (cd "$ST" && "$TOOL") >"$ST/out"
	check "statics: a.c's setup matched with a.c's, b.c's with b.c's" sh -c "
	    grep -q '^match setup .*/a\\.c -> setup .*/a\\.c\$' '$ST/out' &&
	    grep -q '^match setup .*/b\\.c -> setup .*/b\\.c\$' '$ST/out'"
	# Without -g, statics are matched by name: of two helper() in the old
	# build, c.c's never called and first, a.c's with its one call is the
	# match of the new build's (a.c's alone): one row, 1 call each side.
	gcc -pg -O1 -o "$ST/old" "$TOP/tests/progs/statics/c.c" "$TOP/tests/progs/statics/a.c" \
	    "$TOP/tests/progs/statics/b.c" && gcc -pg -O1 -o "$ST/new" "$TOP/tests/progs/statics/a.c" \
	    "$TOP/tests/progs/statics/b.c" && (cd "$ST" && ./old && mv gmon.out old2.gmon && ./new &&
	    mv gmon.out new2.gmon) >/dev/null || fatal "cannot build or run tests/progs/statics without -g"
	printf 'load new new2.gmon\ncompare old old2.gmon\ndiff\n' | (cd "$ST" && "$TOOL") >"$ST/out2"
	(cd "$ST" && "$TGPROF" --diff old old2.gmon new new2.gmon) >"$ST/out2.batch"
	check "statics: names alike, the one with calls matched first (helper: one row, 1 -> 1 calls)" sh -c "
	    [ \$(grep -c ' helper\$' '$ST/out2') -eq 1 ] && grep -q ' 1  *1  helper\$' '$ST/out2' &&
	    [ \$(grep -c ' helper\$' '$ST/out2.batch') -eq 1 ] && grep -q ' 1  *1  helper\$' '$ST/out2.batch'"
fi
finish
