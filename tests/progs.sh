#!/bin/sh
# tests/progs.sh: the -pg test programs, built and run once for every suite that reads them.
#
# Usage: progs.sh PROGDIR (make progs: tests/out/progs, remade when a source changes).
# Each program has a directory PROGDIR/NAME with prog and the gmon.out of
# one run.  Suites read them and never write there: one that writes next to
# a program (gmon.sum, a.out, ...) copies the directory first, and
# tests/run.sh checks PROGDIR/MANIFEST after the suites.
#   cycles_O0 cycles_O2      tests/progs/cycles.c, gcc -pg -g at -O0 and -O2
#   multi_O0 multi_O2        multi_a.c and multi_b.c
#   clones_O0 clones_O2      clones.c (GCC's .constprop/.isra/.part clones)
#   cxx_O0 cxx_O2            cxx.cpp, g++
#   cycles_nopie cxx_nopie   -no-pie (glibc writes absolute addresses)
#   calltree_O0              calltree.cpp, g++ -pthread: the call tree's screens
#   stl_O2                   stl.cpp, g++ -std=c++17: the standard library's names
#     gmon.1 gmon.2 gmon.3   in cycles_O0, cycles_O2, multi_O2 and cxx_O0: runs
#                            with 200, 400 and 600 as the argument
#     arcs.out hist.out      in cycles_O0: its gmon.out without the histogram,
#                            without the arcs (tests/diff/mkgmon.py)
#   multidir_O0 multidir_O2  tests/progs/multidir, sources in three directories
#   objs                     multi_a.o multi_b.o (prog), util.o deep.o, and nm's
#                            maps of them: map.nm (for -R), all.nm (known.sh)
#   elf-NAME                 hand-made from tests/diff/elf/NAME.spec (no DWARF)
# PROGDIR/PROGRAMS lists the programs tests/diff/cases.txt runs on.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
T_NAME=progs
. "$TOP/tests/lib.sh"
[ $# -eq 1 ] || fatal "usage: progs.sh PROGDIR"
OUT=$1
SRC=$TOP/tests/progs
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

build() {	# name compiler optlevel [flags] sources...: in tests/progs, as the debugging information names it
	name=$1 cc=$2 opt=$3
	shift 3
	mkdir -p "$OUT/$name"
	(cd "$SRC" && $cc -pg -g "-$opt" -o "$OUT/$name/prog" "$@") || fatal "cannot build $name"
}

run_prog() {	# name [args]: gmon.out in the program's directory
	name=$1
	shift
	(cd "$OUT/$name" && ./prog "$@" >/dev/null) || fatal "cannot run $name"
}

# One program: built, then run for gmon.out (and gmon.1-3 where listed above).
program() {	# name compiler optlevel [flags] sources...
	build "$@"
	case $1 in
	cycles_O0 | cycles_O2 | multi_O2 | cxx_O0)
		for n in 1 2 3; do
			run_prog "$1" "$((n * 200))"
			mv "$OUT/$1/gmon.out" "$OUT/$1/gmon.$n"
		done ;;
	esac
	run_prog "$1"
	if [ "$1" = cycles_O0 ]; then
		for v in arcs hist; do
			python3 "$TOP/tests/diff/mkgmon.py" $v-only "$OUT/cycles_O0/gmon.out" \
			    "$OUT/cycles_O0/$v.out" || fatal "cannot make cycles_O0/$v.out"
		done
	fi
}

multidir() {	# optlevel
	mkdir -p "$OUT/multidir_$1"
	(cd "$SRC" && gcc -pg -g "-$1" -Imultidir/include -o "$OUT/multidir_$1/prog" multidir/main.c \
	    multidir/lib/util.c multidir/lib/deep/deep.c) || fatal "cannot build multidir_$1"
	run_prog "multidir_$1" 20000
}

objs() {
	d=$OUT/objs
	mkdir -p "$d"
	for f in multi_a multi_b; do
		gcc -pg -g -O1 -c -o "$d/$f.o" "$SRC/$f.c" || fatal "cannot compile $f.c"
	done
	for f in lib/util lib/deep/deep; do
		gcc -pg -g -O1 -I"$SRC/multidir/include" -c -o "$d/${f##*/}.o" "$SRC/multidir/$f.c" ||
		    fatal "cannot compile $f.c"
	done
	(cd "$d" && gcc -pg -o prog multi_a.o multi_b.o && ./prog 1000 >/dev/null) || fatal "cannot run objs"
	(cd "$d" && nm --extern-only --defined-only -v --print-file-name multi_a.o multi_b.o util.o deep.o \
	    >map.nm && nm --defined-only -v --print-file-name multi_a.o multi_b.o >all.nm) || fatal "nm failed"
}

elf() {	# name
	mkdir -p "$OUT/elf-$1"
	python3 "$TOP/tests/diff/mkelf.py" "$TOP/tests/diff/elf/$1.spec" "$OUT/elf-$1" || fatal "mkelf $1 failed"
}

# Every program at once (each job's failure in FAILED), then wait for all.
job() {
	("$@") || echo "$*" >>"$OUT/FAILED" &
}
PROGRAMS=
for opt in O0 O2; do
	job program "cycles_$opt" gcc "$opt" cycles.c
	job program "multi_$opt" gcc "$opt" multi_a.c multi_b.c
	job program "clones_$opt" gcc "$opt" clones.c
	job program "cxx_$opt" g++ "$opt" cxx.cpp
	PROGRAMS="$PROGRAMS cycles_$opt multi_$opt clones_$opt cxx_$opt"
	job multidir "$opt"
done
job program cycles_nopie gcc O2 -no-pie cycles.c
job program calltree_O0 g++ O0 -pthread calltree.cpp
job program cxx_nopie g++ O0 -no-pie cxx.cpp
job program stl_O2 g++ O2 -std=c++17 stl.cpp
PROGRAMS="$PROGRAMS cycles_nopie cxx_nopie stl_O2"
job objs
for spec in "$TOP"/tests/diff/elf/*.spec; do
	job elf "$(basename "$spec" .spec)"
done
wait
[ -f "$OUT/FAILED" ] && fatal "cannot make:$(cat "$OUT/FAILED" | cut -d' ' -f2 | tr '\n' ' ')"
echo $PROGRAMS >"$OUT/PROGRAMS"

(cd "$OUT" && find . -type f ! -name MANIFEST | LC_ALL=C sort | xargs cksum) >"$OUT/MANIFEST"
