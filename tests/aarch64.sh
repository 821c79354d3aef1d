#!/bin/sh
# tests/aarch64.sh: libtgmon for aarch64, cross-built and run under qemu-user, read back by gprof and tgprof.
#
# Usage: aarch64.sh TGPROF OUT
# Needs aarch64-linux-gnu-gcc (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross)
# and qemu-aarch64 (qemu-user); without them the suite is skipped, unless
# TGPROF_AARCH64=required (CI).  The programs of tests/progs/rt, built -pg
# at -O0 and -O2 and linked with runtime/aarch64/libtgmon.a, make counts
# known exactly: threads, the ways out (return, _exit, fork), one call site
# with nine callees and ninety of one.  aarch64-linux-gnu-gprof (the
# oracle's aarch64 build) and tgprof read the files and must agree.  Then
# the call stacks (walk-aarch64.c) of runtime.sh's stack programs: their
# paths, and the share of them that reached their thread's root.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
T_NAME=aarch64
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
export LC_ALL=C
CC=aarch64-linux-gnu-gcc
A64_GPROF=aarch64-linux-gnu-gprof
P=$TOP/tests/progs/rt

if ! command -v $CC >/dev/null 2>&1 || ! command -v qemu-aarch64 >/dev/null 2>&1; then
	[ "${TGPROF_AARCH64:-}" = required ] &&
	    fatal "$CC or qemu-aarch64 is missing (TGPROF_AARCH64=required)"
	pass "no $CC or qemu-aarch64: skipped (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)"
	finish
fi
make -s -C "$TOP" runtime/aarch64/libtgmon.a >"$OUT/make.log" 2>&1 || fatal "libtgmon for aarch64 does not build"
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu

# calls FILE PROG FUNC: FUNC's calls in tgprof's flat profile of FILE and in
# aarch64-linux-gnu-gprof's (both must agree); "x" if they differ.
calls() {
	t=$("$TGPROF" --batch -b -p "$2" "$1" 2>/dev/null | awk -v f="$3" '$NF == f && NF >= 6 { print $4 }')
	g=$t
	command -v $A64_GPROF >/dev/null 2>&1 &&
	    g=$($A64_GPROF -b -p "$2" "$1" 2>/dev/null | awk -v f="$3" '$NF == f && NF >= 6 { print $4 }')
	[ "$g" = "$t" ] && echo "${g:-0}" || echo "x($g/$t)"
}

# run DIR PROG ARGS...: PROG under qemu in DIR, its old files removed.
run() {
	_d=$1
	shift
	(cd "$_d" && rm -f gmon.out* && qemu-aarch64 "$@")
}

for flags in -O0 -O2; do
	tag=aarch64$flags
	d=$OUT/$tag
	mkdir -p "$d"
	for p in threads exits sites; do
		$CC -pg $flags -o "$d/$p" "$P/$p.c" -L"$TOP/runtime/aarch64" -l:libtgmon.a -pthread ||
		    fatal "$CC -pg $flags $p.c does not build"
	done
	run "$d" ./threads >/dev/null
	n=$(calls "$d/gmon.out" "$d/threads" leaf_thr)
	tcheck "$tag threads: 4 x 1000000 calls of leaf_thr ($n)" [ "$n" = 4000000 ]
	n=$(calls "$d/gmon.out" "$d/threads" leaf_main)
	tcheck "$tag threads: 2000000 calls of leaf_main ($n)" [ "$n" = 2000000 ]
	tcheck "$tag threads: the samples made a histogram" \
	    sh -c "'$TGPROF' --batch -b -p '$d/threads' '$d/gmon.out' | grep -q ' tgmon_mcount\$'"
	run "$d" ./exits >/dev/null
	tcheck "$tag return: 3000 calls" [ "$(calls "$d/gmon.out" "$d/exits" work)" = 3000 ]
	run "$d" ./exits _exit >/dev/null
	tcheck "$tag _exit: 3000 calls" [ "$(calls "$d/gmon.out" "$d/exits" work)" = 3000 ]
	pid=$(run "$d" ./exits fork)
	tcheck "$tag fork: the parent's 4000 calls" [ "$(calls "$d/gmon.out" "$d/exits" work)" = 4000 ]
	tcheck "$tag fork: the child's own file, its 500 calls" \
	    [ "$(calls "$d/gmon.out.$pid" "$d/exits" child_work)" = 500 ]
	run "$d" ./sites >/dev/null 2>"$d/sites.err"
	got= want=
	for k in 0 1 2 3 4 5 6 7 8; do
		got="$got $(calls "$d/gmon.out" "$d/sites" t$k)"
		want="$want $(( (k + 1) * 1000 + 1000 ))"
	done
	tcheck "$tag sites: nine callees of one call site, 90 call sites:$got" [ "$got" = "$want" ]
	tcheck "$tag sites: no call dropped, and a stacks file" \
	    sh -c "[ ! -s '$d/sites.err' ] && [ -s '$d/gmon.out.stacks' ]"
	# The same over 2 MiB of text: its slots in chunks, not flat (TGMON_FLAT_MAX).
	$CC -pg $flags -DBIG_TEXT -o "$d/sites-big" "$P/sites.c" -L"$TOP/runtime/aarch64" -l:libtgmon.a -pthread ||
	    fatal "$CC -pg $flags -DBIG_TEXT sites.c does not build"
	run "$d" ./sites-big >/dev/null 2>"$d/sites-big.err"
	got=
	for k in 0 1 2 3 4 5 6 7 8; do
		got="$got $(calls "$d/gmon.out" "$d/sites-big" t$k)"
	done
	tcheck "$tag sites over 2 MiB of text (chunked slots): the same counts:$got" \
	    sh -c "[ '$got' = '$want' ] && [ ! -s '$d/sites-big.err' ]"
done

# Call stacks.  stackab: main calls a() and c(), which both call b() to
# burn, a 3 times as long; "calls": mid() calls leaf() (samples in the
# stub, and in leaf's prologue and epilogue, where x30 holds its return
# address); stackthr: four threads, thrK calls pK calls spin; libtime:
# time in the C library under known callers.  Built -pg
# -fno-omit-frame-pointer at -O0 and -O2, and (stackab) at -O2 with return
# addresses signed (-mbranch-protection=standard: qemu's CPU authenticates
# them).
# test-stacks (runtime.sh's) checks each file's every promise and names
# its frames; tgprof reads it too.  A stack is complete when its walk
# reached the thread's root frame: at least 95% must be (all were, in
# runs under qemu 7.2).  qemu-user delivers a timer's signal only at the
# end of a translated block, so samples pile up in a few places (_mcount's
# one branch): paths are checked, shares no finer than between 2:1 and 4:1.
stk_dir=$OUT/stacks
mkdir -p "$stk_dir"
cc -std=c11 -O2 -Wall -I"$TOP/src" -o "$stk_dir/test-stacks" "$TOP/tests/tools/test-stacks.c" ||
    fatal "cannot build tests/tools/test-stacks.c"
# stackab's spin_rbp (clobber.c) is x86-64 assembly; these runs never call it.
echo 'unsigned long spin_rbp(unsigned long n, unsigned long j) { return n ^ j; }' >"$stk_dir/spin.c"
$CC -O2 -c -o "$stk_dir/spin.o" "$stk_dir/spin.c" || fatal "$CC: spin.c does not build"

# stk DIR PROG: DIR's gmon.out and gmon.out.stacks read by test-stacks
# into DIR/out, frames named by PROG's symbols (nonzero: the file is bad).
stk() {
	aarch64-linux-gnu-nm "$1/$2" >"$1/$2.nm" 2>/dev/null || nm "$1/$2" >"$1/$2.nm"
	"$stk_dir/test-stacks" -n "$1/$2.nm" -g "$1/gmon.out" "$1/gmon.out.stacks" >"$1/out" 2>"$1/err"
}
# sums FILE REGEX: the samples of FILE's stacks whose "KIND PATH" matches REGEX.
sums() {
	awk -v re="$2" 'NF == 3 && $1 ~ /^[0-9]+$/ && ($2 " " $3) ~ re { n += $1 } END { print n + 0 }' "$1"
}
# head_of FILE WORD: the word after WORD on the lines of FILE that are not stacks.
head_of() {
	awk -v w="$2" '!/^[0-9]/ { for (i = 1; i < NF; i++) if ($i == w) { print $(i + 1); exit } }' "$1"
}
# same_run FILE: test-stacks read FILE's stacks and gmon files (-g), and their run ids are one.
same_run() {
	[ -s "$1" ] && [ "$(head_of "$1" runid)" = "$(sed -n 's/^gmon runid \([0-9a-f]*\) .*/\1/p' "$1")" ]
}
# share A B MIN [MAX]: whether MIN <= A / B (<= MAX), B > 0.
share() {
	awk -v a="$1" -v b="$2" -v lo="$3" -v hi="${4:-1e9}" 'BEGIN { exit !(b > 0 && a / b >= lo && a / b <= hi) }'
}

for flags in -O0 -O2 "-O2 -mbranch-protection=standard"; do
	tag="aarch64 stacks$(echo " $flags" | sed 's/ -mbranch-protection=standard/ pac/')"
	want_any "$tag" || continue
	e=$stk_dir/$(echo "$flags" | tr -d ' =-')
	mkdir -p "$e"
	$CC -pg $flags -fno-omit-frame-pointer -o "$e/stackab" "$P/stackab.c" "$stk_dir/spin.o" \
	    -L"$TOP/runtime/aarch64" -l:libtgmon.a -pthread || fatal "$CC -pg $flags stackab.c does not build"
	$CC -pg $flags -fno-omit-frame-pointer -o "$e/stackthr" "$P/stackthr.c" \
	    -L"$TOP/runtime/aarch64" -l:libtgmon.a -pthread || fatal "$CC -pg $flags stackthr.c does not build"
	case $flags in
	*branch-protection*)
		tcheck "$tag: the build signs its return addresses (paciasp)" \
		    sh -c "aarch64-linux-gnu-objdump -d '$e/stackab' | grep -q paciasp"
	esac

	run "$e" ./stackab "" 4000000 >/dev/null
	stk "$e" stackab
	tcheck "$tag: a stacks file, sound, of gmon.out's run $(cat "$e/err")" same_run "$e/out" || continue
	n=$(head_of "$e/out" samples) r=$(head_of "$e/out" root)
	tcheck "$tag: $r of $n samples reached the root (at least 95%, and 200 samples)" \
	    sh -c "[ $n -ge 200 ] && awk 'BEGIN { exit !($r >= 0.95 * $n) }'"
	ab=$(sums "$e/out" '^root .*;main;a;b$') cb=$(sums "$e/out" '^root .*;main;c;b$')
	tcheck "$tag: main;a;b and main;c;b hold $ab + $cb of $n samples (at least 90%)" \
	    share $((ab + cb)) "$n" 0.9
	tcheck "$tag: main;a;b against main;c;b, $ab:$cb (3:1, between 2:1 and 4:1)" share "$ab" "$cb" 2 4
	c=$("$TGPROF" --batch --export=json "$e/stackab" "$e/gmon.out" 2>/dev/null |
	    sed -n 's/.*"stacks": {[^}]*"samples": \([0-9]*\), "complete": \([0-9]*\).*/\2 \1/p')
	tcheck "$tag: tgprof reads them: ${c% *} of ${c#* } complete (--export=json; at least 95%)" \
	    share "${c% *}" "${c#* }" 0.95
	tcheck "$tag: tgprof's folded stacks name main;a;b" \
	    sh -c "'$TGPROF' --batch --folded '$e/stackab' '$e/gmon.out' | grep -q ';main;a;b [0-9]'"

	run "$e" ./stackab calls 3000000 >/dev/null
	stk "$e" stackab || fail "$tag calls: $(cat "$e/err")"
	s1=$(sums "$e/out" '^root .*;main;mid;leaf;(_mcount|tgmon_[a-z]*)$') s0=$(sums "$e/out" ';(_mcount|tgmon_[a-z]*)$')
	tcheck "$tag calls: $s1 of $s0 samples in the stub have main;mid;leaf above (at least 95%)" \
	    sh -c "[ $s0 -ge 40 ] && awk 'BEGIN { exit !($s1 >= 0.95 * $s0) }'"
	l1=$(sums "$e/out" '^root .*;main;mid;leaf$') l0=$(sums "$e/out" ';leaf$')
	tcheck "$tag calls: $l1 of $l0 samples in leaf have main;mid above (at least 95%)" \
	    sh -c "[ $l0 -ge 8 ] && awk 'BEGIN { exit !($l1 >= 0.95 * $l0) }'"

	[ "$flags" = "${flags%standard}" ] || continue	# threads, libraries: signed or not, the same walk
	# libtime: 40% in memcpy (a leaf: no record, x30 returns into
	# copy_heavy), 40% in snprintf's frames under format_heavy, 20% own.
	$CC -pg $flags -fno-omit-frame-pointer -o "$e/libtime" "$P/libtime.c" \
	    -L"$TOP/runtime/aarch64" -l:libtgmon.a -pthread || fatal "$CC -pg $flags libtime.c does not build"
	run "$e" ./libtime 1 >/dev/null
	stk "$e" libtime || fail "$tag library: $(cat "$e/err")"
	n=$(head_of "$e/out" samples) r=$(head_of "$e/out" root)
	cl=$(sums "$e/out" '^root .*;main;(phase;)?copy_heavy;\[libc[^;]*\]$')	# phase: at -O0
	fl=$(sums "$e/out" '^root .*;main;(phase;)?report;format_heavy(;\[libc[^;]*\])+$')
	tcheck "$tag library: $r of $n samples reached the root (at least 95%)" share "$r" "$n" 0.95
	tcheck "$tag library: main;copy_heavy;[libc] $cl, main;report;format_heavy;[libc]... $fl of $n (30% each at least)" \
	    sh -c "awk 'BEGIN { exit !($cl >= 0.3 * $n && $fl >= 0.3 * $n) }'"
	got=$("$TGPROF" --batch -b -p "$e/libtime" "$e/gmon.out" |
	    awk '$NF == "copy_heavy" || $NF == "format_heavy" { printf " %s %s", $NF, $1 }')
	tcheck "$tag library: the histogram charges the library's time to its callers (30% each at least):$got" \
	    sh -c "echo '$got' | awk '{ exit !(NF == 4 && \$2 >= 30 && \$4 >= 30) }'"
	run "$e" ./stackthr >/dev/null
	stk "$e" stackthr || fail "$tag threads: $(cat "$e/err")"
	n=$(head_of "$e/out" samples) r=$(head_of "$e/out" root)
	tcheck "$tag threads: $r of $n samples reached their thread's root (at least 95%)" share "$r" "$n" 0.95
	got=
	for k in 0 1 2 3; do
		got="$got $(sums "$e/out" "^root (.*;)?thr$k;p$k;spin\$")"
	done
	tcheck "$tag threads: thrK;pK;spin each has its share, at least 15% of $n:$got" \
	    sh -c "for x in $got; do awk -v x=\$x 'BEGIN { exit !(x >= 0.15 * $n) }' || exit 1; done"
	tcheck "$tag threads: no thread on another's path" \
	    sh -c "! sed -n 's/.*;thr\([0-9]\);p\([0-9]\);.*/\1 \2/p' '$e/out' | awk '\$1 != \$2 { f = 1 } END { exit !f }'"
done
finish
