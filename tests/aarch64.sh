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
# oracle's aarch64 build) and tgprof read the files and must agree.
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
finish
