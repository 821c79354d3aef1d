#!/bin/sh
# tests/damaged.sh: damaged and hostile inputs: one clear line and status 1, or the sound part, never a crash.
#
# Usage: damaged.sh TGPROF OUT PROGDIR -- PROGDIR holds prog and gmon.out (cycles.c from the suite).
# Fixed cases give an exact message; generated ones (the gmon.out cut at
# many lengths, bit flips at many places) must end with status 0 or 1,
# within 20 s, and anything on standard error must be tgprof's own lines.
# Case names: the checks' ("an unknown record tag", "cut and bit-flipped
# gmon.out files"); T selects.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
P=$3
T_NAME=damaged
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
export LC_ALL=C

# refuse DESC EXPECTED-LINE PROG GMON: status 1 and exactly that line on standard error.
refuse() {
	want "$1" || return 0
	"$TGPROF" --batch "$3" "$4" >/dev/null 2>"$OUT/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(cat "$OUT/err")" = "$2" ]; then
		pass "$1"
	else
		fail "$1 (status $rc: $(head -c 300 "$OUT/err"))"
	fi
}

: >"$OUT/empty"
refuse "an empty gmon.out" "tgprof: $OUT/empty: file too short to be a gmon file" "$P/prog" "$OUT/empty"
refuse "a histogram tag at the very end (found by fuzzing)" \
    "tgprof: $TOP/tests/damaged/hist-tag-at-end.out: unexpected end of file" \
    "$P/prog" "$TOP/tests/damaged/hist-tag-at-end.out"
refuse "a gmon.out given as the executable" "tgprof: $P/gmon.out: not in executable format" \
    "$P/gmon.out" "$P/gmon.out"
refuse "a missing executable" "tgprof: $OUT/nosuch: No such file or directory" \
    "$OUT/nosuch" "$P/gmon.out"
cp "$P/prog" "$OUT/stripped" && strip "$OUT/stripped"
refuse "a stripped executable" "tgprof: $OUT/stripped: file has no symbols" "$OUT/stripped" "$P/gmon.out"
python3 - "$P/gmon.out" "$OUT" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
out = sys.argv[2]
def put(name, b):
    open(out + '/' + name, 'wb').write(b)
b = bytearray(d); struct.pack_into('<I', b, 20 + 1 + 16, 0xffffffff); put('absurd-bins', b)
b = bytearray(d); b[3] = ord('X'); put('wrong-magic', b)
b = bytearray(d); b[20] = 9; put('unknown-tag', b)
b = bytearray(d); struct.pack_into('<I', b, 4, 7); put('version-7', b)
PY
refuse "4294967295 bins announced" \
    "tgprof: $OUT/absurd-bins: unexpected EOF after reading 1830 of 4294967295 samples" \
    "$P/prog" "$OUT/absurd-bins"
refuse "an unknown record tag" "tgprof: $OUT/unknown-tag: found bad tag 9 at byte 20 (file corrupted?)" \
    "$P/prog" "$OUT/unknown-tag"
refuse "an unknown version" "tgprof: $OUT/version-7: file has unsupported version 7" \
    "$P/prog" "$OUT/version-7"

# Another program's profile (PIE's addresses for a non-PIE program): the
# report gprof gives, and two warnings.
if [ -f "$P/../cycles_nopie/prog" ]; then
	"$TGPROF" --batch -b -p "$P/../cycles_nopie/prog" "$P/gmon.out" >"$OUT/other.t" 2>"$OUT/other.err"
	rc=$?
	"$GPROF" -b -p "$P/../cycles_nopie/prog" "$P/gmon.out" >"$OUT/other.g" 2>/dev/null
	gcheck "another program's profile: status 0, gprof's report" \
	    sh -c "[ $rc -eq 0 ] && cmp -s '$OUT/other.t' '$OUT/other.g'"
	tcheck "another program's profile: it says so" sh -c \
	    "grep -q 'warning: the histogram does not cover .*is this its profile' '$OUT/other.err' &&
	    grep -q 'warning: none of its [0-9]* call arcs is in .*is this its profile' '$OUT/other.err'"
fi

# Found by fuzzing: a histogram of no bins makes gprof's scale NaN (its
# conversions of NaN are x86-64's, which tgprof reproduces without UB).
"$TGPROF" --batch "$P/prog" "$TOP/tests/damaged/nan-scale.out" >"$OUT/nan.t" 2>&1
"$GPROF" "$P/prog" "$TOP/tests/damaged/nan-scale.out" >"$OUT/nan.g" 2>&1
gcheck "a NaN histogram scale (found by fuzzing): gprof's output" cmp -s "$OUT/nan.t" "$OUT/nan.g"

# Memory limit: allocations that would pass it are refused with a message
# before the kernel's out-of-memory killer would end tgprof (status 137).
want_any "ulimit -v 45000: status 1 and one line" "TGPROF_MAX_MEMORY=4M: status 1, one line" \
    "TGPROF_MAX_MEMORY=1G: the whole report" "in a cgroup of 24 MiB: status 1" &&
    { python3 "$TOP/tests/gen/chain.py" 100000 "$OUT/chain" >/dev/null || fatal "cannot make the chain"; }
big() {	# tgprof on a 100,000-function profile (about 40 MB at its peak)
	"$TGPROF" --batch -b -q -S "$OUT/chain/syms" "$P/prog" "$OUT/chain/gmon.out"
}
# ulimit -v: malloc() fails (not under ASan: it reserves more address space than any limit).
SAN=
grep -q '^CFLAGS = .*-fsanitize' "$TOP/Makefile" && SAN=1
if ! want "ulimit -v 45000: status 1 and one line"; then
	:
elif [ -n "$SAN" ]; then
	pass "ulimit -v 45000: skipped under the sanitizers"
else
	(ulimit -v 45000; big >/dev/null 2>"$OUT/err")
	rc=$?
	tcheck "ulimit -v 45000: status 1 and one line (status $rc)" \
	    sh -c "[ $rc -eq 1 ] && [ \"\$(cat '$OUT/err')\" = 'tgprof: out of memory' ]"
fi
if want "TGPROF_MAX_MEMORY=4M: status 1, one line"; then
	TGPROF_MAX_MEMORY=4M big >/dev/null 2>"$OUT/err"
	check "TGPROF_MAX_MEMORY=4M: status 1, one line" sh -c "[ $? -eq 1 ] &&
	    [ \"\$(cat '$OUT/err')\" = 'tgprof: out of memory (more than the 4 MiB it may use)' ]"
fi
if want "TGPROF_MAX_MEMORY=1G: the whole report"; then
	TGPROF_MAX_MEMORY=1G big >"$OUT/a" 2>&1 && big >"$OUT/b" 2>&1
	check "TGPROF_MAX_MEMORY=1G: the whole report" sh -c "cmp -s '$OUT/a' '$OUT/b' && grep -q f99998 '$OUT/a'"
fi
TGPROF_MAX_MEMORY=lots "$TGPROF" --batch "$P/prog" "$P/gmon.out" >/dev/null 2>"$OUT/err"
tcheck "TGPROF_MAX_MEMORY that is not a size: status 1, one line" sh -c "[ $? -eq 1 ] &&
    [ \"\$(cat '$OUT/err')\" = 'tgprof: TGPROF_MAX_MEMORY: not a size (bytes, or with K, M or G): lots' ]"
# By default the limit is what the system has: in a cgroup of 24 MiB (where
# root may make one), a message instead of being killed.  Not under ASan,
# whose shadow memory alone would pass the cgroup's limit.
CG=
[ -n "$SAN" ] || ! want "in a cgroup of 24 MiB: status 1" ||
for d in /sys/fs/cgroup/tgprof-test.$$ /sys/fs/cgroup/memory/tgprof-test.$$; do
	if [ -f "${d%/*}/cgroup.procs" ] && mkdir "$d" 2>/dev/null; then
		if { echo 25165824 >"$d/memory.max" || echo 25165824 >"$d/memory.limit_in_bytes"; } \
		    2>/dev/null; then
			CG=$d
			break
		fi
		rmdir "$d"
	fi
done
if [ -n "$CG" ]; then
	sh -c "echo \$\$ >'$CG/cgroup.procs' && exec '$TGPROF' --batch -b -q -S '$OUT/chain/syms' \
	    '$P/prog' '$OUT/chain/gmon.out'" >/dev/null 2>"$OUT/err"
	rc=$?
	rmdir "$CG"
	check "in a cgroup of 24 MiB: status 1 (not killed: $rc), one line" sh -c "[ $rc -eq 1 ] &&
	    grep -q '^tgprof: out of memory (more than the [0-9]* MiB it may use)$' '$OUT/err' &&
	    [ \$(wc -l <'$OUT/err') -eq 1 ]"
elif want "in a cgroup of 24 MiB: status 1"; then
	pass "in a cgroup of 24 MiB: skipped (sanitizers, or no memory cgroup can be made here)"
fi

# Records judged ahead (src/core/ahead.c): a file of 65,536 arc records or
# more has its later half judged on a helper thread, at the places the
# records would be.  The same records in files of 60,000 (read on one
# thread each) are the oracle; basic-block records in the run (one of an
# arc record's size, one of 5 bytes that puts every later record off the
# places judged) change nothing but a warning; a record cut short in the
# later half is the same error.  Where the places judged fall inside later
# records, on bytes that look like an arc record's tag (each count's first
# byte), none of what was judged there is taken.
A=$OUT/ahead
if want_any "ahead: split" "ahead: the file given twice" "ahead: a basic block" "ahead: cut" \
    "a gmon.out cut short while it is read"; then
	{ python3 "$TOP/tests/gen/synth.py" 20000 "$A" >/dev/null &&
	    python3 "$TOP/tests/gen/gmonsplice.py" "$A/gmon.out" "$A" >/dev/null; } ||
	    fatal "cannot make the profiles judged ahead"
	"$TGPROF" --batch -b "$A/prog" "$A/gmon.out" >"$A/whole" 2>&1 || fail "ahead: the whole file"
fi
tcheck "ahead: split into files of 60,000 records, the same -b" \
    sh -c "'$TGPROF' --batch -b '$A/prog' '$A'/split.* | cmp -s - '$A/whole'"
tcheck "ahead: the file given twice (each judged ahead) = its splits twice" \
    sh -c "'$TGPROF' --batch -b '$A/prog' '$A/gmon.out' '$A/gmon.out' >'$A/twice' &&
    '$TGPROF' --batch -b '$A/prog' '$A'/split.* '$A'/split.* | cmp -s - '$A/twice' &&
    ! cmp -s '$A/twice' '$A/whole'"
W='tgprof: warning: ignoring basic-block exec counts (use -l or --line)'
for f in "bb21 $W" "bb5 "; do	# (a record of no block says nothing)
	tcheck "ahead: a basic block in the arc records (${f%% *}.out), the same -b" \
	    sh -c "'$TGPROF' --batch -b '$A/prog' '$A/${f%% *}.out' 2>'$A/err' | cmp -s - '$A/whole' &&
	    [ \"\$(cat '$A/err')\" = '${f#* }' ]"
done
if want "ahead: a basic block that puts the places judged on each count"; then
	"$TGPROF" --batch -b "$A/prog" "$A/ones.out" >"$A/ones" 2>&1 || fail "ahead: ones.out"
	check "ahead: a basic block that puts the places judged on each count, the same -b" \
	    sh -c "'$TGPROF' --batch -b '$A/prog' '$A/ones-bb277.out' 2>/dev/null | cmp -s - '$A/ones' &&
	    grep -q 'f_1999[0-9]' '$A/ones'"
fi
refuse "ahead: cut in an arc record of the later half" "tgprof: $A/cut.out: unexpected end of file" \
    "$A/prog" "$A/cut.out"

# A gmon.out cut short while it is read (a program run again truncates its
# gmon.out in place): the last of 41 files, cut once tgprof has mapped
# them all and is reading the first 40 (each the 20,000 functions' file),
# is refused in one line, not a SIGBUS.  The cut lands in time on the
# first try on most machines; three tries, each a delay after the start.
if want "a gmon.out cut short while it is read"; then
	hit=0
	for delay in 0.15 0.3 0.06; do
		cp "$A/gmon.out" "$A/cut-while-read.out"
		set --
		for i in $(seq 40); do set -- "$@" "$A/gmon.out"; done
		"$TGPROF" --batch -b -p "$A/prog" "$@" "$A/cut-while-read.out" >/dev/null 2>"$A/cut-err" &
		pid=$!
		sleep $delay
		: >"$A/cut-while-read.out"
		wait $pid
		rc=$?
		[ $rc -gt 1 ] && break
		[ $rc -eq 1 ] && [ "$(cat "$A/cut-err")" = \
		    "tgprof: $A/cut-while-read.out: cut short while it was read (was it written again?)" ] &&
		    { hit=1; break; }
	done
	if [ $rc -gt 1 ]; then
		fail "a gmon.out cut short while it is read: status $rc ($(head -c 200 "$A/cut-err"))"
	elif [ $hit -eq 0 ]; then
		fail "a gmon.out cut short while it is read: the cut never landed while it was read ($(head -c 200 "$A/cut-err"))"
	else
		pass "a gmon.out cut short while it is read: status 1, one line (cut $delay s after the start)"
	fi
fi

# survive NAME: status 0 or 1 within 20 s; standard error only tgprof's lines.
survive() {
	timeout 20 "$TGPROF" --batch "$P/prog" "$OUT/$1" >/dev/null 2>"$OUT/err"
	rc=$?
	if [ $rc -gt 1 ]; then
		fail "$1: status $rc"
		cp "$OUT/$1" "$OUT/failed-$1"
	elif grep -qv '^tgprof: ' "$OUT/err"; then
		fail "$1: $(grep -v '^tgprof: ' "$OUT/err" | head -n 2)"
	else
		n=$((n + 1))
	fi
}
want "cut and bit-flipped gmon.out files" || finish
survive wrong-magic
n=0
len=$(wc -c <"$P/gmon.out")
python3 - "$P/gmon.out" "$OUT" <<'PY'
import random, sys
d = open(sys.argv[1], 'rb').read()
out = sys.argv[2]
cuts = list(range(0, 64)) + list(range(64, len(d), 97))
for c in cuts:
    open('%s/cut-%d' % (out, c), 'wb').write(d[:c])
r = random.Random(7)
for k in range(150):
    b = bytearray(d)
    for _ in range(1 + k % 4):
        b[r.randrange(len(b))] ^= 1 << r.randrange(8)
    open('%s/flip-%d' % (out, k), 'wb').write(bytes(b))
PY
for f in "$OUT"/cut-* "$OUT"/flip-*; do
	survive "$(basename "$f")"
done
pass "$n cut and bit-flipped gmon.out files (of $len bytes): no crash, no hang, only tgprof's lines"
finish
