#!/bin/sh
# tests/diff/run.sh: compare tgprof --batch with GNU gprof, byte for byte, on real programs.
#
# Builds the programs in tests/progs with gcc -pg / g++ -pg at -O0 and -O2,
# runs them, then runs every case of tests/diff/cases.txt (and the
# scenarios below) through both tools with LC_ALL=C and compares stdout
# and exit status.  Usage: run.sh TGPROF OUTDIR

set -u
TGPROF=$1
OUT=$2
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib.sh"
. "$TOP/tests/diff/compare.sh"

command -v gprof >/dev/null 2>&1 || { echo "gprof not installed: skipping differential suite"; exit 0; }
rm -rf "$OUT"
mkdir -p "$OUT"

build() {	# name compiler optlevel [flags] sources...
	name=$1 cc=$2 opt=$3
	shift 3
	mkdir -p "$OUT/$name"
	(cd "$TOP/tests/progs" && $cc -pg -g "-$opt" -o "$OUT/$name/prog" "$@") ||
		fatal "cannot build $name"
}

run_prog() {	# name [args]: gmon.out in the program's directory
	name=$1
	shift
	(cd "$OUT/$name" && ./prog "$@" >/dev/null) || fatal "cannot run $name"
}

PROGS=
for opt in O0 O2; do
	build "cycles_$opt" gcc "$opt" cycles.c
	build "multi_$opt" gcc "$opt" multi_a.c multi_b.c
	build "clones_$opt" gcc "$opt" clones.c
	build "cxx_$opt" g++ "$opt" cxx.cpp
	PROGS="$PROGS cycles_$opt multi_$opt clones_$opt cxx_$opt"
done
# Non-PIE executables: glibc writes absolute addresses instead of offsets.
build cycles_nopie gcc O2 -no-pie cycles.c
build cxx_nopie g++ O0 -no-pie cxx.cpp
PROGS="$PROGS cycles_nopie cxx_nopie"
for p in $PROGS; do
	run_prog "$p"
done

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
	cp "$OUT/$p/prog" "$OUT/$p/a.out"
	diff_case "$OUT/$p" -b
	diff_case "$OUT/$p" -b a.out
done

# Response files (@FILE).
printf -- '-b\n-p\n' >"$OUT/cycles_O0/resp"
diff_case "$OUT/cycles_O0" @resp prog gmon.out
printf -- '-b -q "top" prog\n' >"$OUT/cycles_O0/resp2"
diff_case "$OUT/cycles_O0" @resp2 gmon.out

# Several gmon files: the same program run three times with different work.
for p in cycles_O0 cycles_O2 multi_O2 cxx_O0; do
	for n in 1 2 3; do
		run_prog "$p" "$((n * 200))"
		mv "$OUT/$p/gmon.out" "$OUT/$p/gmon.$n"
	done
	run_prog "$p"
	diff_case "$OUT/$p" prog gmon.1 gmon.2 gmon.3
	diff_case "$OUT/$p" -b -i prog gmon.out gmon.1 gmon.2
	diff_case "$OUT/$p" -T prog gmon.3 gmon.1
	diff_case "$OUT/$p" -b -q prog gmon.1 gmon.1
done

# A gmon.out past tgprof's 16 MiB reading window: the histogram's pages are
# given back while the arcs are read, and read again for the report; the
# histogram at the end adds to the first.
python3 "$TOP/tests/diff/window.py" "$OUT/cycles_O0/gmon.out" "$OUT/cycles_O0/window.out" ||
	fatal "cannot make window.out"
diff_case "$OUT/cycles_O0" -b prog window.out
sum_case "$OUT/cycles_O0" prog window.out

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

# -R: object-file ordering with maps made by nm.
. "$TOP/tests/diff/ordering.sh"

# Hand-made executables and gmon files for what the toolchain no longer writes.
. "$TOP/tests/diff/handmade.sh"

finish
