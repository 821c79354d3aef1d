#!/bin/sh
# tests/narrow.sh: profile_narrow() (the browser's x and f) against tgprof --batch with the same options.
#
# Usage: narrow.sh TGPROF OUT PROGDIR -- PROGDIR holds the programs tests/progs.sh built.
# For each program and each case "BASE -- EXTRA [-- EXTRA]",
# tests/tools/test-narrow loads the profile with the options BASE, narrows
# it with each EXTRA group in turn (-e -E -f -F -n -N) and prints it as
# batch output; that must equal tgprof --batch BASE EXTRA... byte for
# byte, and so must test-narrow -u (narrowing a profile not loaded for
# it) and test-narrow -f (the same symspecs in one profile_load()), with
# the same exit status.  The names come from each program's call graph: a
# cycle member, a busy function, main, the last entry.  Case names:
# "PROGRAM: BASE -- EXTRA"; T selects.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
PROGDIR=$3
T_NAME=narrow
. "$TOP/tests/lib.sh"
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || fatal "cannot make $OUT"
TOOL=$TOP/tests/tools/test-narrow
export LC_ALL=C

# same NAME ARGS...: ARGS is "BASE... -- EXTRA... [-- EXTRA...]", run in the current directory.
same() {
	name=$1
	shift
	want "$name" || return 0
	base= extra= seen=
	for a in "$@"; do
		if [ "$a" = -- ]; then
			seen=1
		elif [ -n "$seen" ]; then
			extra="$extra $a"
		else
			base="$base $a"
		fi
	done
	# shellcheck disable=SC2086
	"$TGPROF" --batch $base $extra >"$OUT/want" 2>"$OUT/want.err"
	w=$?
	"$TOOL" "$@" >"$OUT/got" 2>"$OUT/got.err"
	g=$?
	"$TOOL" -u "$@" >"$OUT/unprepared" 2>"$OUT/unprepared.err"
	u=$?
	"$TOOL" -f "$@" >"$OUT/fresh" 2>"$OUT/fresh.err"
	f=$?
	if [ $w -eq $g ] && [ $w -eq $u ] && [ $w -eq $f ] && cmp -s "$OUT/want" "$OUT/got" &&
	    cmp -s "$OUT/want" "$OUT/unprepared" && cmp -s "$OUT/want" "$OUT/fresh" &&
	    [ -s "$OUT/want" ]; then
		pass "$name"
	else
		fail "$name (exit $w, narrowed $g, unprepared $u, fresh $f)"
		for o in got unprepared fresh; do
			diff "$OUT/want" "$OUT/$o" | head -n 6 | sed "s/^/#   $o: /"
		done
		sed 's/^/#   /' "$OUT/got.err" | head -n 3
	fi
}

# The call graph's primary names (raw), one a line: cycle members marked with a leading '@'.
primaries() {
	"$TGPROF" --batch -b -q --no-demangle prog gmon.out 2>/dev/null |
	    sed -n 's/^\[[0-9]*\].*[0-9 ] \([^ ][^ ]*\)\( <cycle [0-9]*>\)\{0,1\} \[[0-9]*\]$/\1\2/p' |
	    sed -e '/^<cycle/d' -e 's/^\(.*\) <cycle.*$/@\1/'
}

# A source file of each program, for a file symspec.
source_of() {
	case $1 in
	cycles_*) echo cycles.c ;;
	multi_*) echo multi_a.c ;;
	clones_*) echo clones.c ;;
	cxx_*) echo cxx.cpp ;;
	multidir_*) echo main.c ;;
	*) echo none.c ;;
	esac
}

for d in "$PROGDIR"/*/; do
	n=$(basename "$d")
	[ -f "$d/prog" ] && [ -f "$d/gmon.out" ] || continue
	want_any "$n:" || continue
	cd "$d" || fatal "cannot enter $d"
	primaries >"$OUT/$n.names"
	member=$(sed -n 's/^@//p' "$OUT/$n.names" | head -n 1)
	busy=$(sed -n '2s/^@//p' "$OUT/$n.names")
	last=$(tail -n 1 "$OUT/$n.names" | sed 's/^@//')
	first=$(head -n 1 "$OUT/$n.names" | sed 's/^@//')
	[ -n "$first" ] || { cd "$TOP" || exit 2; continue; }
	[ -n "$busy" ] || busy=$first
	[ -n "$member" ] || member=$busy
	src=$(source_of "$n")
	same "$n: -- -E $member" prog gmon.out -- -E "$member"
	same "$n: -- -F $member" prog gmon.out -- -F "$member"
	same "$n: -b -- -E $busy -E $member" -b prog gmon.out -- -E "$busy" -E "$member"
	same "$n: -b -q -- -e $busy -f $first" -b -q prog gmon.out -- -e "$busy" -f "$first"
	same "$n: -- -n $busy -N $member" prog gmon.out -- -n "$busy" -N "$member"
	same "$n: -b -- -E $first -- -F $member -- -E $last" -b prog gmon.out -- -E "$first" -- \
	    -F "$member" -- -E "$last"
	same "$n: -E $busy -- -F $member" -E "$busy" prog gmon.out -- -F "$member"
	same "$n: -z -p -q -- -E $src" -z -p -q prog gmon.out -- -E "$src"
	same "$n: --clones=fold -- -E $member -- -E $busy" --clones=fold prog gmon.out -- -E "$member" \
	    -- -E "$busy"
	same "$n: --clones=show -b -- -F $busy" --clones=show -b prog gmon.out -- -F "$busy"
	same "$n: -T -- -f $last -e $member" -T prog gmon.out -- -f "$last" -e "$member"
	same "$n: -c -b -- -E $last" -c -b prog gmon.out -- -E "$last"
	same "$n: -- -F $member -F $busy -E $member" prog gmon.out -- -F "$member" -F "$busy" -E "$member"
	if [ -f gmon.1 ]; then
		same "$n: gmon.1 gmon.2 -- -F $busy" prog gmon.1 gmon.2 -- -F "$busy"
		same "$n: -l -b -q -- -E $member" -l -b -q prog gmon.out -- -E "$member"
	fi
	cd "$TOP" || exit 2
done

# Variants of one profile (tests/diff/mkgmon.py): without histogram, without
# call graph (nothing to narrow), counts near 2^32, arcs in reverse order,
# no profiling rate, the old BSD format, and in it counts above 2^62 (the
# call graph's orders then sort by class and count in two passes).
d=$OUT/variants
if want_any "variants:" && [ -f "$PROGDIR/cycles_O0/prog" ]; then
	mkdir -p "$d" && cp "$PROGDIR/cycles_O0/prog" "$PROGDIR/cycles_O0/gmon.out" "$d/" ||
	    fatal "cannot copy cycles_O0"
	cd "$d" || fatal "cannot enter $d"
	for v in arcs-only hist-only bigcount reverse-arcs "rate 0" bsd bsd-hugecount; do
		file=$(echo "$v" | tr -d ' ').out
		# shellcheck disable=SC2086
		python3 "$TOP/tests/diff/mkgmon.py" ${v%% *} gmon.out "$file" $(echo "$v" | cut -s -d' ' -f2) ||
		    fatal "mkgmon.py $v failed"
		same "variants: $file -- -E ring" prog "$file" -- -E ring
		same "variants: -b $file -- -F main -- -E is_odd" -b prog "$file" -- -F main -- -E is_odd
	done
	cd "$TOP" || exit 2
fi

# The browser warms the memory of its first narrowing in the background
# while the profile is analysed (src/cli/warm.c, from about 150,000
# functions): its first x, on a generated profile of 180,000, excludes
# the busiest function, and the browser quits cleanly (under the
# sanitizers too).
if want "warmed: the first x at 180,000 functions" && grep -q 'HAVE_UI 1' "$TOP/config.h"; then
	w=$OUT/warm
	python3 "$TOP/tests/gen/synth.py" 180000 "$w" >/dev/null || fatal "synth.py 180000 failed"
	top=$("$TGPROF" --batch -b -p "$w/prog" "$w/gmon.out" | awk 'NR == 6 { print $NF }')
	printf 'key x\nresize 120 10\ndump %s\nkey Q\n' "$w/screen" >"$w/keys"
	TGPROF_SCRIPT=$w/keys "$TGPROF" "$w/prog" "$w/gmon.out" >"$w/out" 2>&1
	check "warmed: the first x at 180,000 functions" sh -c "[ $? -eq 0 ] && [ -n '$top' ] &&
	    sed -n 1p '$w/screen' | grep -q 'without $top (u undoes)'"
fi

# Only -e -E -f -F -n -N narrow: another symspec is refused, with a message.
d=$PROGDIR/cycles_O0
if want "refused: -pmain" && [ -f "$d/prog" ]; then
	"$TOOL" "$d/prog" "$d/gmon.out" -- -pmain >"$OUT/refused" 2>&1
	rc=$?
	grep -q 'only call-graph and time symspecs' "$OUT/refused" || rc=0
	check "refused: -pmain" [ $rc -eq 1 ]
fi
finish
