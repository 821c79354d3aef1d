#!/bin/sh
# tests/clones.sh: the engine's clone modes (pf_opts.clones: gprof's, shown, folded).
#
# Usage: clones.sh TGPROF OUT PROGDIR -- PROGDIR holds the programs tests/progs.sh built.
# tests/tools/test-clones checks every suite program: shown clones against
# an -S profile of the same symbols (where gprof itself keeps the clones),
# folded clones against the shown ones folded by the test.  clonefold.c,
# built so that GCC clones functions that stay, has known call counts.
# Case names: the programs' ("cycles_O2"), and the checks' on clonefold.c
# ("fold: hot called 10000 times"); T selects.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
PROGDIR=$3
T_NAME=clones
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
TOOL=$TOP/tests/tools/test-clones
export LC_ALL=C

for d in "$PROGDIR"/*/; do
	n=$(basename "$d")
	case $n in elf-*) continue ;; esac	# hand-made: labels that -S cannot mark
	[ -f "$d/prog" ] && [ -f "$d/gmon.out" ] && want "$n" || continue
	if "$TOOL" check "$d/prog" "$d/gmon.out" >"$OUT/$n.log" 2>&1; then
		pass "$n: $(tail -n 1 "$OUT/$n.log")"
	else
		fail "$n"
		sed 's/^/#   /' "$OUT/$n.log" | head -n 12
	fi
done

# clonefold: hot.constprop.0 (5000 calls) next to hot (5000 through a
# pointer), checked.cold (calls note() 1250 times), split.part.0 (8749
# calls from split's inlined test in driver) next to split (5000).
d=$OUT/clonefold
mkdir -p "$d"
gcc -pg -g -O2 -fipa-cp-clone -o "$d/prog" "$TOP/tests/progs/clonefold.c" &&
    (cd "$d" && ./prog >/dev/null) || fatal "cannot build or run clonefold.c"
for c in hot.constprop.0 checked.cold split.part.0; do
	nm "$d/prog" | grep -q " t $c\$" ||
	    fatal "gcc made no $c: tests/progs/clonefold.c needs changing for this compiler"
done
TABLE_OUT=$d/table "$TOOL" check "$d/prog" "$d/gmon.out" >"$d/check" 2>&1
rc=$?
tcheck "clonefold: modes agree ($(tail -n 1 "$d/check"))" [ $rc -eq 0 ]
"$GPROF" -b -S "$d/table" "$d/prog" "$d/gmon.out" >"$d/gprof-S" 2>&1
"$TGPROF" --batch -b -S "$d/table" "$d/prog" "$d/gmon.out" >"$d/tgprof-S" 2>&1
gcheck "clonefold: tgprof -S = gprof -S on the shown symbols" cmp -s "$d/gprof-S" "$d/tgprof-S"
for m in gprof show fold; do
	"$TOOL" list $m "$d/prog" "$d/gmon.out" >"$d/$m" 2>&1 || fail "list $m"
done

# has FILE ROW: a row of the listing matches ROW (name|ticks|calls|callers, * for ticks).
has() {
	awk -F'|' -v want="$2" 'BEGIN { split(want, w, "|") }
	    $1 == w[1] && (w[2] == "*" || $2 == w[2]) && $3 == w[3] && $4 == w[4] { found = 1 }
	    END { exit !found }' "$1"
}
tcheck "gprof: clones' calls land on hot (13749)" has "$d/gprof" "hot|*|13749|driver:13749"
tcheck "show: hot [clone .constprop.0] called 5000 times" \
    has "$d/show" "hot [clone .constprop.0]|*|5000|driver:5000"
tcheck "show: hot called 5000 times" has "$d/show" "hot|*|5000|driver:5000"
tcheck "show: note called from checked [clone .cold]" \
    has "$d/show" "note|0|1250|checked [clone .cold]:1250"
tcheck "show: split [clone .part.0] called 8749 times" \
    has "$d/show" "split [clone .part.0]|*|8749|driver:8749"
tcheck "fold: hot called 10000 times" has "$d/fold" "hot|*|10000|driver:10000"
tcheck "fold: split called 13749 times" has "$d/fold" "split|*|13749|driver:13749"
tcheck "fold: note called from checked" has "$d/fold" "note|0|1250|checked:1250"
tcheck "fold: no clone left" sh -c "! grep -q clone '$d/fold'"
"$TGPROF" --batch -b --clones=fold "$d/prog" "$d/gmon.out" >"$d/batch-fold" 2>&1
tcheck "--clones=fold: split's 13749 calls in the report" \
    grep -q '^ *[0-9.]*  *[0-9.]*  *[0-9.]*  *13749  .* split$' "$d/batch-fold"

# The browser folds by default and says so on its top line, with how to see batch's numbers.
if grep -q 'HAVE_UI 1' "$TOP/config.h"; then
	printf 'resize 200 24\ndump top\n' >"$d/top.keys"
	(cd "$d" && TGPROF_SCRIPT=top.keys "$TGPROF" prog gmon.out)
	n=$(nm "$d/prog" | grep -c ' t [a-z_]*\.\(constprop\|cold\|part\|isra\)\.*[0-9]*$')
	tcheck "browser: the top line says $n clones are folded" \
	    grep -q "| $n clones folded (--clones=gprof: as --batch)" "$d/top"
	(cd "$d" && TGPROF_SCRIPT=top.keys "$TGPROF" --clones=gprof prog gmon.out)
	tcheck "browser, --clones=gprof: nothing said of clones" sh -c "! grep -q 'clones folded' '$d/top'"
fi

# Folded, checked's lines hold the call to note() made in checked.cold.
line=$(grep -n '^		note(n);' "$TOP/tests/progs/clonefold.c" | cut -d: -f1)
"$TOP/tests/tools/test-lines" -F "$d/prog" "$d/gmon.out" >"$d/lines" 2>&1
got=$(awk -v l="clonefold.c:$line" '/^checked /{f=1; next} /^[^ ]/{f=0}
    f && index($1, l) && $1 ~ (l "$") { print $3 }' "$d/lines")
tcheck "fold: checked's line $line makes 1250 calls (${got:-none})" [ "$got" = 1250 ]
finish
