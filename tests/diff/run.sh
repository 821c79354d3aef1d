#!/bin/sh
# tests/diff/run.sh: compare tgprof --batch with GNU gprof, byte for byte, on real programs.
#
# Usage: run.sh TGPROF OUTDIR PROGDIR.  Copies the programs tests/progs.sh
# built into PROGDIR (gcc -pg / g++ -pg at -O0 and -O2, each with the
# gmon.out of a run) to OUTDIR, then runs every case of
# tests/diff/cases.txt (and the scenarios below) through both tools with
# LC_ALL=C and compares stdout and exit status.  A case's name is its
# directory and arguments ("cycles_O0 -b -z prog gmon.out"); T selects
# cases by name.  Where the installed gprof is not the oracle (GNU gprof
# 2.40, tests/lib.sh), the suite is skipped with one line.

set -u
TGPROF=$1
OUT=$2
PROGDIR=$3
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib.sh"
. "$TOP/tests/diff/compare.sh"

oracle || { echo "diff: skipped: $ORACLE_WHY"; exit 0; }
[ -f "$PROGDIR/PROGRAMS" ] || fatal "no $PROGDIR/PROGRAMS: run tests/progs.sh (make progs) first"
rm -rf "$OUT"
mkdir -p "$OUT"
# The cases write next to the programs (gmon.sum, a.out, variants): a copy.
for d in "$PROGDIR"/*/; do
	cp -pR "$d" "$OUT/" || fatal "cannot copy $d"
done
PROGS=$(cat "$PROGDIR/PROGRAMS")

run_prog() {	# name [args]: gmon.out in the program's directory
	name=$1
	shift
	(cd "$OUT/$name" && ./prog "$@" >/dev/null) || fatal "cannot run $name"
}

# The cases file: "PATTERN | OPTIONS".
while IFS='|' read -r pattern opts; do
	case $pattern in '#'* | '') continue ;; esac
	pattern=$(echo "$pattern" | tr -d ' ')
	for p in $PROGS; do
		# shellcheck disable=SC2254
		case $p in $pattern)
			# shellcheck disable=SC2086
			diff_case "$OUT/$p" $opts prog gmon.out ;;
		esac
	done
done <"$TOP/tests/diff/cases.txt"

# Defaults: a.out and gmon.out in the current directory.
for p in cycles_O0 cxx_O2; do
	cp -p "$OUT/$p/prog" "$OUT/$p/a.out"
	diff_case "$OUT/$p" -b
	diff_case "$OUT/$p" -b a.out
done

# Response files (@FILE).
printf -- '-b\n-p\n' >"$OUT/cycles_O0/resp"
diff_case "$OUT/cycles_O0" @resp prog gmon.out
printf -- '-b -q "top" prog\n' >"$OUT/cycles_O0/resp2"
diff_case "$OUT/cycles_O0" @resp2 gmon.out

# Several gmon files: the same program run three times with different work (tests/progs.sh).
for p in cycles_O0 cycles_O2 multi_O2 cxx_O0; do
	diff_case "$OUT/$p" prog gmon.1 gmon.2 gmon.3
	diff_case "$OUT/$p" -b -i prog gmon.out gmon.1 gmon.2
	diff_case "$OUT/$p" -T prog gmon.3 gmon.1
	diff_case "$OUT/$p" -b -q prog gmon.1 gmon.1
done

# A gmon.out past tgprof's 16 MiB reading window: the histogram's pages are
# given back while the arcs are read, and read again for the report; the
# histogram at the end adds to the first.
if want_any "cycles_O0 -b prog window.out" "cycles_O0 -s prog window.out"; then
	python3 "$TOP/tests/diff/window.py" "$OUT/cycles_O0/gmon.out" "$OUT/cycles_O0/window.out" ||
		fatal "cannot make window.out"
	diff_case "$OUT/cycles_O0" -b prog window.out
	sum_case "$OUT/cycles_O0" prog window.out
fi

# -s: gmon.sum must be byte-identical, and both tools must read it back alike.
for p in cycles_O0 cycles_O2 multi_O0 clones_O2; do
	sum_case "$OUT/$p" prog gmon.out
done
for p in cycles_O0 cycles_O2 multi_O2; do
	sum_case "$OUT/$p" prog gmon.1 gmon.2 gmon.3
	sum_case "$OUT/$p" -k main/fib prog gmon.1 gmon.2
done

# Annotated source of a program whose sources live in several directories:
# in place, after they moved (not found), and found again with -I and
# GPROF_PATH.  -y writes FILE-ann files: compared with gprof's.
. "$TOP/tests/diff/sources.sh"

# -R: object-file ordering with the maps nm made of tests/progs.sh's objects, and odd maps.
. "$TOP/tests/diff/ordering.sh"

# Hand-made executables and gmon files for what the toolchain no longer writes.
. "$TOP/tests/diff/handmade.sh"

finish
