#!/bin/sh
# tests/lines.sh: the per-line interface (profile_lines()) through tests/tools/test-lines.
#
# Usage: lines.sh OUT PROGDIR -- PROGDIR holds the programs tests/progs.sh built.
# For every program with debugging information, each function's per-line
# ticks and calls must equal what the -l analysis (gprof -l's line symbols,
# which the differential suite checks) charges to the same lines.  calls.c
# makes calls from known lines a known number of times.  Case names: the
# programs' ("cycles_O2"), and "calls.c -O0", "calls.c -O2"; T selects.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$1
PROGDIR=$2
T_NAME=lines
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
TOOL=$TOP/tests/tools/test-lines
ticked=

for d in "$PROGDIR"/*/; do
	n=$(basename "$d")
	case $n in elf-*) continue ;; esac
	[ -f "$d/prog" ] && [ -f "$d/gmon.out" ] && want "$n" || continue
	if "$TOOL" "$d/prog" "$d/gmon.out" >"$OUT/$n.log" 2>&1; then
		pass "$n: $(tail -n 1 "$OUT/$n.log")"
	else
		fail "$n"
		sed 's/^/#   /' "$OUT/$n.log" | head -n 12
	fi
	# A program run again truncates its gmon.out in place: what the load
	# read must stay as read (no file is read after the load).
	"$TOOL" -p "$d/prog" "$d/gmon.out" >"$OUT/$n.lines" 2>&1
	cp "$d/gmon.out" "$OUT/$n.again"
	"$TOOL" -T "$d/prog" "$OUT/$n.again" >"$OUT/$n.lines.again" 2>&1
	check "$n: the same lines once gmon.out is truncated after the load" \
	    sh -c "[ ! -s '$OUT/$n.again' ] && cmp -s '$OUT/$n.lines' '$OUT/$n.lines.again'"
	awk '$1 ~ /:[0-9]+$/ && $2 > 0 { t = 1 } END { exit !t }' "$OUT/$n.lines" && ticked="$ticked $n"
done
[ -z "${T:-}" ] && check "lines with ticks, for the truncation (${ticked:-none})" [ -n "$ticked" ]

for o in O0 O2; do
	want "calls.c -$o" || continue
	dir=$OUT/calls_$o
	mkdir -p "$dir"
	gcc -pg -g -$o -o "$dir/prog" "$TOP/tests/progs/calls.c" && (cd "$dir" && ./prog) ||
	    fatal "cannot build or run calls.c"
	"$TOOL" -p "$dir/prog" "$dir/gmon.out" >"$dir/lines" 2>&1
	# driver's calls by line: file:line ticks calls
	got=$(awk '/^driver /{f=1; next} /^[^ ]/{f=0} f && $1 ~ /calls\.c:/ {
		sub(/.*:/, "", $1); if ($3 > 0) printf "%s=%s ", $1, $3 }' "$dir/lines")
	check "calls.c -$o: driver's calls by line ($got)" [ "$got" = "20=1200 22=300 24=2 " ]
	check "calls.c -$o: agrees with -l" "$TOOL" "$dir/prog" "$dir/gmon.out"
done
finish
