#!/bin/sh
# tests/known.sh: where GNU gprof 2.40 is wrong, tgprof does better; each case says why.
#
# Like a regress suite's list of the reference's defects: gprof is not run
# on these (it crashes, hangs or allocates gigabytes); tgprof's result is
# checked against what is right.  Usage: known.sh TGPROF OUTDIR PROGDIR
# (PROGDIR: cycles_O0 of tests/progs.sh, with prog and gmon.out; its
# neighbours cxx_O2 and objs are read too).  Case names: the checks'
# ("600,000-function chain: no crash"); T selects.
set -u
TGPROF=$1
OUT=$2
PROG=$3
TOP=$(cd "$(dirname "$0")/.." && pwd)
T_NAME=known
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"

# 1. -O bsd on a GNU-format file: gprof reads the magic header as a BSD
#    header, allocates and clears ~16 GiB before checking it, and needs a
#    minute (or dies) to say "does not appear to be in gmon.out format".
#    tgprof checks before allocating and says the same at once.
(cd "$PROG" && LC_ALL=C "$TGPROF" --batch -b -O bsd prog gmon.out >"$OUT/o.out" 2>"$OUT/o.err")
tcheck "-O bsd on a magic file: refused" test $? -eq 1
tcheck "-O bsd on a magic file: gprof's message" grep -q "does not appear to be in gmon.out format" "$OUT/o.err"

# 2. A 600,000-function call chain: gprof's recursive depth-first search
#    overflows its stack (SIGSEGV).  tgprof's is iterative.
if want_any "600,000-function chain: no crash" "600,000-function chain: time reaches the top" \
    "600,000-function chain: ... through every function"; then
	python3 "$TOP/tests/gen/chain.py" 600000 "$OUT/chain" || fatal "cannot make the chain"
	(LC_ALL=C "$TGPROF" --batch -b -q -S "$OUT/chain/syms" "$PROG/prog" "$OUT/chain/gmon.out" >"$OUT/chain.out" 2>"$OUT/chain.err")
	tcheck "600,000-function chain: no crash" test $? -eq 0
	# Every 97th function has 1 to 5 ticks: 18,556 in all, f0's one its own,
	# the rest propagated up the whole chain.
	tcheck "600,000-function chain: time reaches the top" \
	    grep -q '^\[1\] *100.0 *0.01 *185.55 *f0 \[1\]$' "$OUT/chain.out"
	tcheck "600,000-function chain: ... through every function" \
	    grep -q '^\[2\] *100.0 *0.00 *185.55 *1 *f1 \[2\]$' "$OUT/chain.out"
fi

# 3. -d: Debian's gprof is built with DEBUG and floods stdout with traces;
#    tgprof accepts -d and prints the report as without it.
(cd "$PROG" && LC_ALL=C "$TGPROF" --batch -b -d prog gmon.out >"$OUT/d1" 2>&1 &&
    LC_ALL=C "$TGPROF" --batch -b prog gmon.out >"$OUT/d2" 2>&1)
tcheck "-d is accepted and changes nothing" cmp -s "$OUT/d1" "$OUT/d2"

# 4. -l on a C++ program at -O2: libbfd names an inlined function after its
#    caller during gprof's first walk over the text but not its second, so
#    gprof aborts ("somebody miscounted").  tgprof prints the line profile:
#    the same functions and times as without -l, attributed to lines.
CXX=$(dirname "$PROG")/cxx_O2
if [ -f "$CXX/prog" ]; then
	(cd "$CXX" && LC_ALL=C "$TGPROF" --batch -b -l -p prog gmon.out >"$OUT/l.out" 2>"$OUT/l.err")
	tcheck "-l where gprof aborts: a report" test $? -eq 0
	tcheck "-l where gprof aborts: lines named" grep -q '(cxx.cpp:[0-9]* @ [0-9a-f]*)$' "$OUT/l.out"
	# The flat profile accounts for the same total time with and without -l.
	(cd "$CXX" && LC_ALL=C "$TGPROF" --batch -b -p prog gmon.out >"$OUT/nol.out")
	cum='$1 ~ /^[0-9]+\.[0-9]+$/ && NF >= 4 { c = $2 } END { print c }'
	tcheck "-l where gprof aborts: the same total time" test \
	    "$(awk "$cum" "$OUT/l.out")" = "$(awk "$cum" "$OUT/nol.out")"
	tcheck "-l where gprof aborts: some time" test "$(awk "$cum" "$OUT/nol.out")" != 0.00
fi

# 5. -R with a map whose first entry for an object file is not a function
#    (nm without --extern-only lists .LC0 first): gprof marks each file's
#    first entry but never clears the flag of the others, which come from
#    uninitialised memory, so it renames whichever functions the heap
#    makes look first.  tgprof follows the rule: a function is mapped only
#    if it is its file's first entry; here none is, so each object's
#    functions are dropped and both files are listed as having no text.
OBJS=$(dirname "$PROG")/objs
if [ -f "$OBJS/all.nm" ]; then
	(cd "$OBJS" && LC_ALL=C "$TGPROF" --batch -b -p -R all.nm prog gmon.out >"$OUT/r.out" 2>&1)
	tcheck "-R, no function first: no object file in the flat profile" test \
	    "$(awk '$1 ~ /^[0-9.]+$/ && $NF ~ /[.]o$/' "$OUT/r.out")" = ""
	tcheck "-R, no function first: both files listed as without text" sh -c \
	    "tail -n 2 '$OUT/r.out' | tr '\\n' ' ' | grep -q '^multi_a.o multi_b.o \$'"
fi

# 6. A FIFO where the debugging information places a source file: gprof
#    -A opens it and waits for a writer for ever.  tgprof opens sources
#    only if they are regular files (or directories, which gprof shows
#    empty too) and warns about the rest.
F=$OUT/fifo
if want_any "-A with a FIFO for a source: no hang" "-A with a FIFO for a source: one warning naming it"; then
	rm -rf "$F" && mkdir -p "$F"
	cp "$TOP/tests/progs/calls.c" "$F/" && (cd "$F" && cc -pg -g -o prog calls.c && ./prog >/dev/null) ||
	    fatal "cannot build calls.c"
	rm -f "$F/calls.c" && mkfifo "$F/calls.c"
	(cd "$F" && timeout 20 "$TGPROF" --batch -A prog gmon.out >"$OUT/fifo.out" 2>"$OUT/fifo.err")
	tcheck "-A with a FIFO for a source: no hang (status $?)" test $? -eq 0
	tcheck "-A with a FIFO for a source: one warning naming it" sh -c "[ \$(wc -l <'$OUT/fifo.err') -eq 1 ] &&
	    grep -q '^tgprof: .*/fifo/calls.c: No such device or address (try -I with its directory)$' '$OUT/fifo.err'"
fi

finish
