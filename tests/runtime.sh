#!/bin/sh
# tests/runtime.sh: libtgmon on live programs, read back with GNU gprof and tgprof.
#
# Usage: runtime.sh TGPROF OUT
# Each program of tests/progs/rt is built with gcc (and clang when there is
# one) as -pg -O0, -pg -O2 and -pg -mfentry -O2 and linked with libtgmon.a;
# the counts it makes are known exactly.  Also: LD_PRELOAD of libtgmon.so
# into a program linked for glibc's runtime, the time accounted (a ratio of
# CPU time, not seconds), an output path that cannot be written, and the
# call stacks of the samples (gmon.out.stacks, read by tests/tools/test-stacks).
# The files are read back by gprof and tgprof, which must agree (by tgprof
# alone where the installed gprof is not the oracle, tests/lib.sh).  Case
# names: the checks' ("gccO2 fork: the parent's 4000 calls"); T selects.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
T_NAME=runtime
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
export LC_ALL=C
RT=$TOP/runtime
P=$TOP/tests/progs/rt
[ "$(uname -m)" = x86_64 ] || { pass "not x86-64: skipped"; finish; }

# calls FILE PROG FUNC: FUNC's calls in gprof's flat profile of FILE, and
# the same from tgprof (both must agree); "x" if they differ.
calls() {
	t=$("$TGPROF" --batch -b -p "$2" "$1" 2>/dev/null | awk -v f="$3" '$NF == f && NF >= 6 { print $4 }')
	if [ -n "$READER" ]; then
		g=$("$GPROF" -b -p "$2" "$1" 2>/dev/null | awk -v f="$3" '$NF == f && NF >= 6 { print $4 }')
	else
		g=$t
	fi
	[ "$g" = "$t" ] && echo "${g:-0}" || echo "x($g/$t)"
}
# sites CC FLAGS TAG DIR: a call site with nine callees in a changing
# order (its first callee in the site's slot, the others in the hash
# table), 90 call sites of one callee each, and calls from libc (qsort:
# outside the text, in the hash table), with libtgmon.a and with check's
# build of it that has no slots and a hash table of 16 to start with, so
# that it grows: t_k's calls are exactly (k + 1) * 1000 + 1000.
sites() {
	for lib in libtgmon.a libtgmon-small.a; do
		$1 -pg $2 -o "$4/sites" "$P/sites.c" -L"$RT" -l:$lib -pthread ||
		    fatal "$1 -pg $2 sites.c does not build"
		(cd "$4" && rm -f gmon.out* && ./sites >/dev/null 2>"$4/sites.err")
		got= want=
		for k in 0 1 2 3 4 5 6 7 8; do
			got="$got $(calls "$4/gmon.out" "$4/sites" t$k)"
			want="$want $(( (k + 1) * 1000 + 1000 ))"
		done
		tcheck "$3 $lib: nine callees of one call site, 90 call sites:$got" [ "$got" = "$want" ]
		tcheck "$3 $lib: no call dropped" [ ! -s "$4/sites.err" ]
	done
}

READER=
oracle && READER=$GPROF
[ -n "$READER" ] || echo "# tgprof alone reads the files back: $ORACLE_WHY"

compilers=gcc
command -v clang >/dev/null 2>&1 && compilers="gcc clang"
for cc in $compilers; do
	for flags in "-O0" "-O2" "-mfentry -O2"; do
		[ "$cc" = clang ] && [ "$flags" = "-mfentry -O2" ] && continue
		tag=$cc$(echo "$flags" | tr -d ' -')
		d=$OUT/$tag
		mkdir -p "$d"
		for p in threads exits regs; do
			$cc -pg $flags -o "$d/$p" "$P/$p.c" -L"$RT" -l:libtgmon.a -pthread ||
			    fatal "$cc -pg $flags $p.c does not build"
		done
		(cd "$d" && rm -f gmon.out* && ./threads >/dev/null)
		n=$(calls "$d/gmon.out" "$d/threads" leaf_thr)
		tcheck "$tag threads: 4 x 1000000 calls of leaf_thr ($n)" [ "$n" = 4000000 ]
		n=$(calls "$d/gmon.out" "$d/threads" leaf_main)
		tcheck "$tag threads: 2000000 calls of leaf_main ($n)" [ "$n" = 2000000 ]
		(cd "$d" && rm -f gmon.out* && ./exits >/dev/null)
		tcheck "$tag return: 3000 calls" [ "$(calls "$d/gmon.out" "$d/exits" work)" = 3000 ]
		(cd "$d" && rm -f gmon.out* && ./exits _exit >/dev/null)
		tcheck "$tag _exit: 3000 calls" [ "$(calls "$d/gmon.out" "$d/exits" work)" = 3000 ]
		mkdir -p "$d/elsewhere"
		(cd "$d" && rm -f gmon.out* elsewhere/gmon.out && ./exits chdir elsewhere >/dev/null)
		tcheck "$tag chdir: the file where the program started" \
		    sh -c "[ -f '$d/gmon.out' ] && [ ! -f '$d/elsewhere/gmon.out' ]"
		pid=$(cd "$d" && rm -f gmon.out* && ./exits fork)
		tcheck "$tag fork: the parent's 4000 calls" \
		    [ "$(calls "$d/gmon.out" "$d/exits" work)" = 4000 ]
		tcheck "$tag fork: the child's own file, its 500 calls" \
		    [ "$(calls "$d/gmon.out.$pid" "$d/exits" child_work)" = 500 ]
		tcheck "$tag fork: no parent's calls in the child's file" \
		    [ "$(calls "$d/gmon.out.$pid" "$d/exits" work)" = 0 ]
		tcheck "$tag vector arguments and the static chain survive" \
		    sh -c "cd '$d' && ./regs | grep -q '^ok '"
		sites "$cc" "$flags" "$tag" "$d"
		[ "$(ls "$d" | grep -c 'tmp\|tgmon-')" -eq 0 ] || fail "$tag: a temporary file was left"
	done
done

# Fatal signals: a file only when asked for (TGMON_SIGNALS=1).
d=$OUT/gccO2
(cd "$d" && rm -f gmon.out* && ./exits term; true) >/dev/null 2>&1
tcheck "SIGTERM: no file unless asked for" test ! -f "$d/gmon.out"
(cd "$d" && rm -f gmon.out* && TGMON_SIGNALS=1 ./exits term; true) >/dev/null 2>&1
tcheck "SIGTERM with TGMON_SIGNALS=1: the file, 3000 calls" \
    [ "$(calls "$d/gmon.out" "$d/exits" work)" = 3000 ]
mkdir -p "$d/outdir"
(cd "$d" && rm -f gmon.out* outdir/gmon.out && TGMON_DIR=outdir ./exits >/dev/null)
tcheck "TGMON_DIR: the file goes there" sh -c "[ -f '$d/outdir/gmon.out' ] && [ ! -f '$d/gmon.out' ]"

# Long paths (#26.12): GMON_OUT_PREFIX and TGMON_DIR of any length, as
# glibc takes the prefix: about 600 bytes, and 6,000 (over PATH_MAX: the
# directory is opened in pieces).  DIR/long/NNN...: 30 names of 199 bytes.
if want_any "long GMON_OUT_PREFIX" "long TGMON_DIR"; then
	nm=$(printf '%0199d' 0)
	deep=$nm
	for i in $(seq 29); do deep=$deep/$nm; done
	rm -rf "$d/long" && mkdir -p "$d/long/$deep" || fatal "cannot make the long directories"
	# indir N CMD: CMD run in DIR/long and N of its names down (ls there: a cwd of any length).
	indir() { (cd "$d/long" && for i in $(seq "$1"); do cd -P "$nm" || exit 1; done && shift && "$@"); }
	for n in 3 30; do
		sub=$(echo "$deep" | cut -c1-$((n * 200 - 1)))
		(cd "$d" && rm -f gmon.out* && GMON_OUT_PREFIX=$d/long/$sub/prof ./exits >/dev/null 2>"$d/err")
		f=$(indir "$n" sh -c 'ls prof.* 2>/dev/null | grep -v stacks')
		tcheck "long GMON_OUT_PREFIX ($(($(echo "$d/long/$sub/prof" | wc -c) - 1)) bytes): PREFIX.PID there, 3000 calls, nothing said" \
		    sh -c "[ -n '$f' ] && [ ! -e '$d/gmon.out' ] && [ ! -s '$d/err' ] &&
		    [ \"\$(cd '$d/long' && for i in \$(seq $n); do cd -P '$nm'; done &&
		    '$TGPROF' --batch -b -p '$d/exits' '$f' | awk '\$NF == \"work\" { print \$4 }')\" = 3000 ]"
		indir "$n" sh -c "rm -f prof.*"
		(cd "$d" && rm -f gmon.out* && TGMON_DIR=long/$sub ./exits >/dev/null 2>"$d/err")
		tcheck "long TGMON_DIR ($((${#sub} + 5)) bytes, relative): gmon.out there, nothing said" \
		    sh -c "[ ! -e '$d/gmon.out' ] && [ ! -s '$d/err' ] &&
		    (cd '$d/long' && for i in \$(seq $n); do cd -P '$nm'; done && [ -f gmon.out ])"
		indir "$n" rm -f gmon.out
	done
	(cd "$d" && rm -f gmon.out* && GMON_OUT_PREFIX=$d/long/$nm/$nm$nm/prof ./exits >/dev/null 2>"$d/err")
	tcheck "long GMON_OUT_PREFIX: a name over NAME_MAX: one line, no file elsewhere" sh -c "
	    [ ! -e '$d/gmon.out' ] && [ \$(wc -l <'$d/err') -eq 1 ] && grep -q ': cannot be written: File name too long' '$d/err'"
	rm -rf "$d/long"	# paths over PATH_MAX: cp -a of the tree (CI's sanitizer copy) fails on them
fi

# Self-starting: linked without gcrt1.o (no -pg at link time).
gcc -pg -O2 -c -o "$d/threads.o" "$P/threads.c" &&
    gcc -o "$d/threads-nogcrt" "$d/threads.o" -L"$RT" -l:libtgmon.a -pthread ||
    fatal "cannot link threads.o without -pg"
(cd "$d" && rm -f gmon.out && ./threads-nogcrt >/dev/null)
tcheck "without gcrt1.o: 4000000 calls of leaf_thr" \
    [ "$(calls "$d/gmon.out" "$d/threads-nogcrt" leaf_thr)" = 4000000 ]

# Short threads one after another: their tables are reused, their counts kept.
gcc -pg -O2 -o "$d/many" "$P/many.c" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build many.c"
(cd "$d" && rm -f gmon.out && ./many >/dev/null)
tcheck "5000 short threads: 500000 calls of leaf" [ "$(calls "$d/gmon.out" "$d/many" leaf)" = 500000 ]

# Over 65535 samples in one bin: several histogram records, summed, never wrapped.
gcc -pg -O2 -o "$d/spin" "$P/spin.c" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build spin.c"
cpu=$(cd "$d" && rm -f gmon.out && TGMON_HZ=100000 ./spin)
t=$("$TGPROF" --batch -b -p "$d/spin" "$d/gmon.out" | awk '$NF == "spin" { print $3 }')
g=$t
[ -n "$READER" ] && g=$("$GPROF" -b -p "$d/spin" "$d/gmon.out" | awk '$NF == "spin" { print $3 }')
gcheck "a bin over 65535: gprof and tgprof agree ($g s, $t s)" [ "$g" = "$t" ]
tcheck "a bin over 65535: $g s sampled of $cpu s (at least 85%, no wrap)" \
    awk -v s="$g" -v c="$cpu" 'BEGIN { exit !(c > 0 && s >= 0.85 * c) }'

# A shared library built with -pg: a file of its own, in its addresses.
d=$OUT/shlib
mkdir -p "$d"
gcc -pg -O2 -fPIC -shared -o "$d/libfoo.so" "$P/libfoo.c" &&
    gcc -pg -O2 -o "$d/usefoo" "$P/usefoo.c" -L"$d" -lfoo -Wl,-rpath,"$d" -L"$RT" -l:libtgmon.a \
    -pthread || fatal "cannot build libfoo.so and usefoo"
(cd "$d" && rm -f gmon* && ./usefoo >/dev/null)
tcheck "shared library: gmon.libfoo.so.out is written" test -f "$d/gmon.libfoo.so.out"
n=$(calls "$d/gmon.libfoo.so.out" "$d/libfoo.so" foo_leaf)
tcheck "shared library: 3000000 calls of foo_leaf in it ($n)" [ "$n" = 3000000 ]
tcheck "shared library: its time is sampled" sh -c \
    "${READER:-$TGPROF --batch} -b -p '$d/libfoo.so' '$d/gmon.libfoo.so.out' | awk '\$NF == \"foo_leaf\" && \$3 > 0 { f = 1 } END { exit !f }'"

# With snapshots (TGMON_INTERVAL): the library's too, gmon.libfoo.so.out.live,
# the last one the exit's file but for its sequence number.
(cd "$d" && rm -f gmon* && TGMON_INTERVAL=0.02 ./usefoo >/dev/null)
tcheck "shared library: its snapshot, the last the exit's file but for its sequence number" sh -c "
    cmp -s -n 16 '$d/gmon.libfoo.so.out' '$d/gmon.libfoo.so.out.live' &&
    cmp -s -i 20 '$d/gmon.libfoo.so.out' '$d/gmon.libfoo.so.out.live' &&
    [ \"\$(od -An -tu4 -j16 -N4 '$d/gmon.libfoo.so.out.live' | tr -d ' ')\" = \"\$(sed -n 's/^seq //p' '$d/gmon.out.live.info')\" ]"

# Two -pg libraries of one file name (plugins from two directories,
# dlopen()ed): a file each (#26.14), the second gmon.libfoo.so~2.out,
# each with its own 100000 calls of foo_leaf.
gcc -pg -O2 -o "$d/dlfoo" "$P/dlfoo.c" -L"$RT" -l:libtgmon.a -pthread -ldl || fatal "cannot build dlfoo.c"
mkdir -p "$d/plugA" "$d/plugB"
cp "$d/libfoo.so" "$d/plugA/libfoo.so" && cp "$d/libfoo.so" "$d/plugB/libfoo.so" || fatal "cannot copy libfoo.so"
(cd "$d" && rm -f gmon* && ./dlfoo "$d/plugA/libfoo.so" "$d/plugB/libfoo.so" >/dev/null 2>"$d/err")
# qcalls FILE LIB FUNC: FUNC's calls in the call graph of FILE (a dlopen()ed library's: no histogram).
qcalls() {
	"$TGPROF" --batch -b -q "$2" "$1" 2>/dev/null | awk -v f="$3" '$1 ~ /^\[/ && $(NF - 1) == f { print $(NF - 2) }'
}
tcheck "two libraries named libfoo.so: gmon.libfoo.so.out and gmon.libfoo.so~2.out, 100000 calls each" sh -c "
    [ \"\$(ls '$d' | grep '^gmon.*libfoo' | tr '\\n' ' ')\" = 'gmon.libfoo.so.out gmon.libfoo.so~2.out ' ] &&
    [ \"$(qcalls "$d/gmon.libfoo.so.out" "$d/libfoo.so" foo_leaf)\" = 100000 ] &&
    [ \"$(qcalls "$d/gmon.libfoo.so~2.out" "$d/libfoo.so" foo_leaf)\" = 100000 ] && [ ! -s '$d/err' ]"

# Many -pg libraries (#26.13): 80 of them dlopen()ed (libfoo.so under 80
# names), on top of the program's own objects: each its file, its 100000
# calls; the module table had room for 64 objects in all.
if want "many libraries"; then
	mkdir -p "$d/many" && rm -f "$d/many"/*
	libs=
	for i in $(seq 80); do
		cp "$d/libfoo.so" "$d/many/libfoo$i.so" || fatal "cannot copy libfoo.so"
		libs="$libs $d/many/libfoo$i.so"
	done
	# shellcheck disable=SC2086
	(cd "$d/many" && ./../dlfoo $libs >/dev/null 2>"$d/many.err")
	got=0
	for i in $(seq 80); do
		[ "$(qcalls "$d/many/gmon.libfoo$i.so.out" "$d/libfoo.so" foo_leaf)" = 100000 ] && got=$((got + 1))
	done
	tcheck "many libraries: 80 dlopen()ed, $got with their file and 100000 calls, nothing said" \
	    sh -c "[ $got -eq 80 ] && [ ! -s '$d/many.err' ]"
	tcheck "many libraries: the stacks file of every object loaded is read (--measured)" \
	    sh -c "cd '$d/many' && '$TGPROF' --batch -b -p --measured ../dlfoo gmon.out >/dev/null"
fi

# LD_PRELOAD into a program built for glibc's runtime.
d=$OUT/preload
mkdir -p "$d"
gcc -pg -O2 -o "$d/threads" "$P/threads.c" -pthread || fatal "cannot build threads.c"
(cd "$d" && rm -f gmon.out && LD_PRELOAD=$RT/libtgmon.so ./threads >/dev/null)
n=$(calls "$d/gmon.out" "$d/threads" leaf_thr)
tcheck "LD_PRELOAD=libtgmon.so: 4000000 calls of leaf_thr ($n)" [ "$n" = 4000000 ]

# Time: the samples account for the CPU time used (the stubs' too, as tgmon_count and
# tgmon_mcount; the flat profile's last cumulative seconds: its rows' are rounded).
d=$OUT/time
mkdir -p "$d"
gcc -pg -O0 -o "$d/busy" "$P/busy.c" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build busy.c"
cpu=$(cd "$d" && rm -f gmon.out && ./busy 37 | awk '{ print $2 }')
sampled=$("$TGPROF" --batch -b -p "$d/busy" "$d/gmon.out" |
    awk 'NR > 5 && $2 ~ /^[0-9.]+$/ { s = $2 } END { print s + 0 }')
tcheck "time: $sampled s sampled of $cpu s of CPU (at least 90%)" \
    awk -v s="$sampled" -v c="$cpu" 'BEGIN { exit !(c > 0 && s >= 0.9 * c) }'
tcheck "time: the runtime's own cost shows (tgmon_count)" \
    sh -c "'$TGPROF' --batch -b -p '$d/busy' '$d/gmon.out' | grep -q ' tgmon_count\$'"
if grep -q 'HAVE_UI 1' "$TOP/config.h"; then
	printf 'resize 200 60\ndump screen\n' >"$d/keys"
	(cd "$d" && TGPROF_SCRIPT=keys "$TGPROF" busy gmon.out)
	tcheck "browser: the runtime's rows are marked [profiling]" \
	    sh -c "grep -q ' tgmon_count  \[profiling\] *|' '$d/screen' &&
	        ! grep ' tgmon_[a-z_]* *|' '$d/screen' | grep -qv '\[profiling\]'"
	tcheck "browser: the top line gives the profiling's share" \
	    grep -q "| the profiler's [0-9.]*% taken out (%)" "$d/screen"
fi

# The same linked with the shared library (-ltgmon), and preloaded into a
# program built for glibc's runtime: the runtime, a shared object, charges
# its time to the function that called it, so that the samples still
# account for the CPU time.
gcc -pg -O0 -o "$d/busy-so" "$P/busy.c" -L"$RT" -ltgmon -Wl,-rpath,"$RT" -pthread &&
    gcc -pg -O0 -o "$d/busy-glibc" "$P/busy.c" || fatal "cannot build busy.c for -ltgmon and glibc"
for mode in so preload; do
	prog=busy-so pre=
	[ $mode = preload ] && prog=busy-glibc pre=$RT/libtgmon.so
	cpu=$(cd "$d" && rm -f gmon.out && LD_PRELOAD=$pre ./$prog 37 | awk '{ print $2 }')
	sampled=$("$TGPROF" --batch -b -p "$d/$prog" "$d/gmon.out" |
	    awk 'NR > 5 && $2 ~ /^[0-9.]+$/ { s = $2 } END { print s + 0 }')
	tcheck "time, libtgmon $mode: $sampled s sampled of $cpu s of CPU (at least 90%)" \
	    awk -v s="$sampled" -v c="$cpu" 'BEGIN { exit !(c > 0 && s >= 0.9 * c) }'
done

# A file that cannot be written: one line, the program's exit status unchanged, nothing left.
(cd "$d" && GMON_OUT_PREFIX=/nonexistent/dir/prof ./busy 20 >/dev/null 2>"$d/err")
tcheck "unwritable: the program still exits 0" [ $? -eq 0 ]
tcheck "unwritable: one line saying so" \
    sh -c "[ \$(wc -l <'$d/err') -eq 1 ] && grep -q '^libtgmon: /nonexistent/dir/prof.[0-9]*: cannot be written: ' '$d/err'"
# Call stacks (gmon.out.stacks), read by tests/tools/test-stacks, which
# checks the file's every promise (gmon_out.h) and names the frames from
# nm.  stackab: main calls a() and c(), both call b(), a for 3 times as
# long.  A CPU-time timer signals at most at the kernel's tick (250 a
# second here), whatever TGMON_HZ asks: the sampling error of a share
# comes from the signals, which the file counts, not from the samples.
d=$OUT/stacks
stk_setup() {	# once, for the first case selected
	[ -x "$d/test-stacks" ] && return 0
	mkdir -p "$d"
	cc -std=c11 -O2 -Wall -I"$TOP/src" -o "$d/test-stacks" "$TOP/tests/tools/test-stacks.c" ||
	    fatal "cannot build tests/tools/test-stacks.c"
	gcc -O2 -fomit-frame-pointer -c -o "$d/clobber.o" "$P/clobber.c" || fatal "cannot build clobber.c"
}

# stk DIR PROG GMON STACKS: test-stacks's output for them in DIR/out (nonzero: the file is bad).
stk() {
	nm "$1/$2" >"$1/$2.nm" 2>/dev/null
	"$d/test-stacks" -n "$1/$2.nm" -g "$1/$3" "$1/$4" >"$1/out" 2>"$1/err"
}
# sums FILE REGEX: the samples of FILE's stacks whose "KIND PATH" matches REGEX (waits, KIND w*, are not samples).
sums() {
	awk -v re="$2" 'NF == 3 && $1 ~ /^[0-9]+$/ && $2 !~ /^w/ && ($2 " " $3) ~ re { n += $1 } END { print n + 0 }' "$1"
}
# head_of FILE WORD: the word after WORD on the lines of FILE that are not stacks.
head_of() {
	awk -v w="$2" '!/^[0-9]/ { for (i = 1; i < NF; i++) if ($i == w) { print $(i + 1); exit } }' "$1"
}
# same_run FILE: test-stacks read FILE's stacks and gmon files (-g), and their run ids are one.
same_run() {
	[ -s "$1" ] && [ "$(head_of "$1" runid)" = "$(sed -n 's/^gmon runid \([0-9a-f]*\) .*/\1/p' "$1")" ]
}
# split3 FILE: whether b's samples from a and from c are 3:1, within 3.5
# standard deviations of the signals that brought them and 1% of bias
# (prints "A:C, S signals").
split3() {
	awk '!/^[0-9]/ { for (i = 1; i < NF; i++) h[$i] = $(i + 1) }
	    NF == 3 && $1 ~ /^[0-9]+$/ && $2 !~ /^w/ && $3 ~ /;main;a;b(;tgmon_[a-z]*)?$/ { a += $1 }
	    NF == 3 && $1 ~ /^[0-9]+$/ && $2 !~ /^w/ && $3 ~ /;main;c;b(;tgmon_[a-z]*)?$/ { c += $1 }
	    END { n = a + c; s = n > 0 && h["samples"] > 0 ? h["signals"] * n / h["samples"] : 0
	        printf "%d:%d, %.0f signals", a, c, s
	        if (s < 50) exit 1
	        e = 3.5 * sqrt(0.75 * 0.25 / s) + 0.01
	        exit !(a / n > 0.75 - e && a / n < 0.75 + e) }' "$1"
}
# share A B MIN: whether A / B >= MIN (and B > 0).
share() {
	awk -v a="$1" -v b="$2" -v m="$3" 'BEGIN { exit !(b > 0 && a / b >= m) }'
}

for cc in $compilers; do
	for flags in "-O0" "-O2" "-mfentry -O2 -fno-omit-frame-pointer"; do
		[ "$cc" = clang ] && [ "$flags" != "${flags#-mfentry}" ] && continue
		tag=stacks\ $cc$(echo "$flags" | sed 's/-fno-omit-frame-pointer//' | tr -d ' -')
		want_any "$tag: " "$tag calls: " || continue
		stk_setup
		e=$d/$(echo "$tag" | tr ' ' _)
		mkdir -p "$e"
		$cc -pg $flags -o "$e/stackab" "$P/stackab.c" "$d/clobber.o" -L"$RT" -l:libtgmon.a -pthread ||
		    fatal "$cc -pg $flags stackab.c does not build"
		(cd "$e" && rm -f gmon.out* && ./stackab "" 4000000 >/dev/null)
		stk "$e" stackab gmon.out gmon.out.stacks
		tcheck "$tag: the file is sound, its run id that of gmon.out $(cat "$e/err")" \
		    same_run "$e/out" || continue
		n=$(head_of "$e/out" samples) r=$(head_of "$e/out" root) h=$(head_of "$e/out" hist)
		i=$(head_of "$e/out" in-program)
		tcheck "$tag: $r of $n samples reached their thread's root (at least 95%)" share "$r" "$n" 0.95
		m=$(sums "$e/out" '(^|;)main(;|$)')
		tcheck "$tag: $m of $n samples have main on their stack (at least 95%)" share "$m" "$n" 0.95
		o=$(head_of "$e/out" outside)
		tcheck "$tag: $i samples in the program with stacks, $h in its histogram (the same within 3, and $o outside it)" \
		    awk -v n="$i" -v h="$h" -v o="$o" 'BEGIN { exit !(n > 0 && n - h <= 3 && h - n <= o + 3) }'
		r=$(split3 "$e/out")
		tcheck "$tag: b's samples from a and from c, $r (3:1)" [ $? -eq 0 ]
		# Calls: samples in the stubs, and at leaf's first and last instructions
		# (which -O2 schedules among others), keep leaf's caller.
		[ "$flags" = -O0 ] && continue
		# Leaf's own samples are few and vary from run to run (4 to 33 seen):
		# a run with too few to judge is made again, three times as long.
		for calls in 10000000 30000000; do
			(cd "$e" && rm -f gmon.out* && ./stackab calls $calls >/dev/null)
			stk "$e" stackab gmon.out gmon.out.stacks && same_run "$e/out" || fail "$tag calls: $(cat "$e/err")"
			[ "$(sums "$e/out" ';leaf$')" -ge 8 ] && break
		done
		stub='(mcount|__fentry__|tgmon_[a-z]*)'
		s1=$(sums "$e/out" "^root .*;main;mid;leaf;$stub\$") s0=$(sums "$e/out" ";$stub\$")
		tcheck "$tag calls: $s1 of $s0 samples in the stubs have main;mid;leaf above (at least 95%)" \
		    sh -c "[ $s0 -ge 40 ] && awk 'BEGIN { exit !($s1 >= 0.95 * $s0) }'"
		l1=$(sums "$e/out" '^root .*;main;mid;leaf$') l0=$(sums "$e/out" ';leaf$')
		tcheck "$tag calls: $l1 of $l0 samples in leaf have main;mid above (at least 95%)" \
		    sh -c "[ $l0 -ge 8 ] && awk 'BEGIN { exit !($l1 >= 0.95 * $l0) }'"
	done
done

# The same split, with more signals (about 2.5 s of CPU): a bound of about 0.07 on a's share.
if want "stacks gccO2 long: b's samples from a and from c"; then
	stk_setup
	e=$d/long
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/stackab" "$P/stackab.c" "$d/clobber.o" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build stackab.c"
	(cd "$e" && rm -f gmon.out* && ./stackab "" 30000000 >/dev/null)
	stk "$e" stackab gmon.out gmon.out.stacks && same_run "$e/out" || fail "stacks long: $(cat "$e/err")"
	r=$(split3 "$e/out")
	check "stacks gccO2 long: b's samples from a and from c, $r (3:1)" [ $? -eq 0 ]
fi

# The ways out, fork, the switch, the prefix: gcc -O2.
e=$d/ways
if want_any "stacks _exit" "stacks fork" "stacks TGMON_STACKS=0" "stacks GMON_OUT_PREFIX" "stacks gprof"; then
	stk_setup
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/stackab" "$P/stackab.c" "$d/clobber.o" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build stackab.c"
fi
if want "stacks _exit: the file, with main on the stacks"; then
	(cd "$e" && rm -f gmon.out* && ./stackab _exit >/dev/null)
	stk "$e" stackab gmon.out gmon.out.stacks && same_run "$e/out"
	check "stacks _exit: the file, with main on the stacks" \
	    share "$(sums "$e/out" ';main;')" "$(head_of "$e/out" samples)" 0.95
fi
if want_any "stacks fork"; then
	pid=$(cd "$e" && rm -f gmon.out* && ./stackab fork)
	stk "$e" stackab gmon.out gmon.out.stacks && same_run "$e/out" && cp "$e/out" "$e/parent"
	tcheck "stacks fork: the parent's file has a;b and c;b" \
	    sh -c "[ $(sums "$e/parent" ';main;a;b$') -gt 0 ] && [ $(sums "$e/parent" ';main;c;b$') -gt 0 ]"
	stk "$e" stackab "gmon.out.$pid" "gmon.out.$pid.stacks" && same_run "$e/out"
	tcheck "stacks fork: the child's own gmon.out.PID.stacks, of its run" [ $? -eq 0 ]
	tcheck "stacks fork: the child's run id is not the parent's" \
	    [ "$(head_of "$e/out" runid)" != "$(head_of "$e/parent" runid)" ]
	tcheck "stacks fork: the child's stacks are c;b, none of the parent's a;b" \
	    sh -c "[ $(sums "$e/out" ';main;c;b$') -gt 0 ] && [ $(sums "$e/out" ';a;') -eq 0 ]"
fi
if want_any "stacks TGMON_STACKS=0" "stacks gprof"; then
	(cd "$e" && rm -f gmon.out* && TGMON_STACKS=0 ./stackab "" 500000 >/dev/null)
	tcheck "stacks TGMON_STACKS=0: no stacks file" test ! -e "$e/gmon.out.stacks"
	# The GNU header ("gmon", version, 12 spare bytes): the spare bytes are
	# bytes 9-20 (from 1), the run id bytes 9-16; nothing else differs from
	# a copy without it.
	od -A n -t x1 -j 8 -N 8 "$e/gmon.out" | tr -d ' \n' >"$e/id"
	tcheck "stacks TGMON_STACKS=0: gmon.out still has a run id ($(cat "$e/id"))" \
	    sh -c "[ -n \"\$(tr -d '0' <'$e/id')\" ]"
	{ head -c 8 "$e/gmon.out"; head -c 12 /dev/zero; tail -c +21 "$e/gmon.out"; } >"$e/gmon.noid"
	tcheck "stacks gprof: gmon.out differs from a copy without the run id in bytes 9-16 only" \
	    sh -c "cmp -l '$e/gmon.out' '$e/gmon.noid' | awk '\$1 < 9 || \$1 > 16 { bad = 1 } END { exit bad || NR == 0 }'"
	if [ -n "$READER" ]; then
		(cd "$e" && "$GPROF" stackab gmon.out >g1 2>&1; "$GPROF" stackab gmon.noid >g2 2>&1)
	fi
	gcheck "stacks gprof: gprof's output is the same with and without the run id" \
	    sh -c "cmp -s '$e/g1' '$e/g2' && grep -q ' b\$' '$e/g1'"
	(cd "$e" && "$TGPROF" --batch stackab gmon.out >t1 2>&1; "$TGPROF" --batch stackab gmon.noid >t2 2>&1)
	tcheck "stacks gprof: tgprof's output is the same with and without the run id" \
	    sh -c "cmp -s '$e/t1' '$e/t2' && grep -q ' b\$' '$e/t1'"
fi
if want "stacks GMON_OUT_PREFIX: PREFIX.PID.stacks beside PREFIX.PID"; then
	pid=$(cd "$e" && rm -f prof.* && GMON_OUT_PREFIX=prof sh -c 'echo $$; exec ./stackab "" 200000' |
	    head -n 1)
	stk "$e" stackab "prof.$pid" "prof.$pid.stacks" && same_run "$e/out"
	check "stacks GMON_OUT_PREFIX: PREFIX.PID.stacks beside PREFIX.PID" [ $? -eq 0 ]
fi

# libtgmon.so preloaded into a program linked for glibc's runtime.
if want "stacks LD_PRELOAD=libtgmon.so: complete stacks"; then
	stk_setup
	e=$d/preload
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/stackab" "$P/stackab.c" "$d/clobber.o" || fatal "cannot build stackab.c"
	(cd "$e" && rm -f gmon.out* && LD_PRELOAD=$RT/libtgmon.so ./stackab >/dev/null)
	stk "$e" stackab gmon.out gmon.out.stacks && same_run "$e/out"
	ok=$?
	check "stacks LD_PRELOAD=libtgmon.so: complete stacks" sh -c "[ $ok = 0 ] &&
	    [ $(sums "$e/out" ';main;a;b$') -gt 0 ] && [ $(sums "$e/out" ';main;c;b$') -gt 0 ] &&
	    awk 'BEGIN { exit !($(head_of "$e/out" root) >= 0.95 * $(head_of "$e/out" samples)) }'"
fi

# Deeper than 256 frames: the innermost 256 kept, marked truncated, never
# root (a sample on the way down, a few calls deep, is a whole stack).
if want "stacks deep: truncated at 256 frames"; then
	stk_setup
	e=$d/deep
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/stackab" "$P/stackab.c" "$d/clobber.o" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build stackab.c"
	(cd "$e" && rm -f gmon.out* && ./stackab deep >/dev/null)
	stk "$e" stackab gmon.out gmon.out.stacks && same_run "$e/out"
	t=$(head_of "$e/out" truncated)
	check "stacks deep: truncated at 256 frames ($t samples)" sh -c "[ ${t:-0} -ge 20 ] &&
	    awk '\$2 == \"trunc\" && (split(\$3, f, \";\") != 256 || f[256] !~ /^(b|rec|mcount|tgmon_[a-z]*)\$/) { exit 1 }' '$e/out' &&
	    [ $(sums "$e/out" '^trunc ') -eq ${t:-0} ] &&
	    awk '\$2 == \"root\" && \$3 ~ /;rec;/ && split(\$3, f, \";\") >= 256 { exit 1 }' '$e/out'"
fi

# A hot loop without frame pointers (clobber.c, -O2 -fomit-frame-pointer)
# with junk in rbp: a number, a stack address of junk, and an address in an
# unreadable page between an alternate signal stack and the thread's.  It
# never crashes.  Its call frame information (gcc's .eh_frame) leads to
# its callers: its samples are complete through them (clobber, or the
# handler on the alternate stack, the signal frame and raise); with
# TGMON_UNWIND=fp (its junk rbp alone), they do not count as complete.
if want_any "stacks clobber"; then
	stk_setup
	e=$d/clobber
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/stackab" "$P/stackab.c" "$d/clobber.o" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build stackab.c"
	for unwind in cfi fp; do
		u=
		[ $unwind = fp ] && u=", TGMON_UNWIND=fp"
		(cd "$e" && rm -f gmon.out* && TGMON_UNWIND=$unwind ./stackab clobber >/dev/null 2>&1)
		tcheck "stacks clobber$u: the program runs to its end" [ $? -eq 0 ]
		stk "$e" stackab gmon.out gmon.out.stacks && same_run "$e/out"
		tcheck "stacks clobber$u: the file is sound $(cat "$e/err")" [ $? -eq 0 ]
		sp=$(sums "$e/out" ';spin_rbp$') all=$(sums "$e/out" '^root .*spin_rbp$')
		ok=$(sums "$e/out" '^root [^;]*;main;clobber;(clobber_altstack;)?(\[libc\.so\.6\];on_usr1;)?spin_rbp$')
		if [ $unwind = cfi ]; then
			tcheck "stacks clobber: spin_rbp's $sp samples complete through its callers ($ok; $((all - ok)) complete otherwise)" \
			    sh -c "[ $sp -ge 40 ] && [ $((ok * 100)) -ge $((sp * 95)) ] && [ $(((all - ok) * 100)) -le $sp ]"
			tcheck "stacks clobber: the other stacks still reach main" \
			    share "$(sums "$e/out" '^root .*;main;[ac];b')" "$(sums "$e/out" ';[ac];b(;tgmon_[a-z]*)?$')" 0.95
		else
			tcheck "stacks clobber$u: spin_rbp's $sp samples are not complete ($all are)" \
			    sh -c "[ $sp -ge 40 ] && [ $((all * 100)) -le $sp ]"
		fi
	done
fi

# Calls counted in the hash table (a call site of sixteen callees), linked
# in and as -ltgmon: the stubs' hash path is walked through like the rest
# (its samples' stacks complete), and as a shared object its time is still
# charged to the callers (at least 90% of the CPU time in the histogram).
if want_any "stacks hash path"; then
	stk_setup
	e=$d/hash
	mkdir -p "$e"
	for link in a so; do
		case $link in
		a) l=-l:libtgmon.a ;;
		so) l="-ltgmon -Wl,-rpath,$RT" ;;
		esac
		gcc -pg -O2 -o "$e/indirect-$link" "$P/indirect.c" -L"$RT" $l -pthread ||
		    fatal "cannot build indirect.c"
		cpu=$(cd "$e" && rm -f gmon.out* && ./indirect-$link | awk '{ print $2 }')
		stk "$e" indirect-$link gmon.out gmon.out.stacks && same_run "$e/out"
		tcheck "stacks hash path, $link: the file is sound $(cat "$e/err")" [ $? -eq 0 ]
		n=$(head_of "$e/out" samples)
		tcheck "stacks hash path, $link: $(head_of "$e/out" root) of $n samples reached the root" \
		    share "$(head_of "$e/out" root)" "$n" 0.95
		h=$(sed -n 's/^gmon runid [0-9a-f]* hist \([0-9]*\)$/\1/p' "$e/out")
		tcheck "stacks hash path, $link: $h samples in the histogram, of $cpu s of CPU" \
		    awk -v h="$h" -v c="$cpu" 'BEGIN { exit !(c > 0 && h / 1000 >= 0.9 * c) }'
	done
fi

# Time in the C library (memset, memcmp: no frame pointers) is the time
# of the program's function that called it, found by its stack: clear's,
# and the samples account for the CPU time.
if want_any "stacks libc time"; then
	stk_setup
	e=$d/libc
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/libctime" "$P/libctime.c" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build libctime.c"
	cpu=$(cd "$e" && rm -f gmon.out* && ./libctime | awk '{ print $2 }')
	"$TGPROF" --batch -b -p "$e/libctime" "$e/gmon.out" >"$e/flat"
	t=$(awk 'NR > 5 && $2 ~ /^[0-9.]+$/ { s = $2 } END { print s + 0 }' "$e/flat")
	c=$(awk '$NF == "clear" { print $3 }' "$e/flat")
	tcheck "stacks libc time: $t s sampled of $cpu s of CPU (at least 90%)" \
	    awk -v s="$t" -v c="$cpu" 'BEGIN { exit !(c > 0 && s >= 0.9 * c) }'
	tcheck "stacks libc time: clear's self time is memset's and memcmp's ($c s of $t)" \
	    awk -v a="$c" -v t="$t" 'BEGIN { exit !(t > 0 && a >= 0.8 * t) }'
fi

# Library time under known callers (libtime.c: memcpy under copy_heavy,
# snprintf under report;format_heavy, 40% of the CPU time each, printed by
# the program; own_work 20%).  The C library has no frame pointers: a
# sample in it is walked on from the frame of the program's function that
# called it, so that its stack reaches the root and the measured times
# (--folded) are the histogram's (gprof's flat profile) and the truth's,
# within 3.5 standard deviations of the signals and 3% of bias.
if want_any "stacks library time"; then
	stk_setup
	e=$d/libtime
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/libtime" "$P/libtime.c" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build libtime.c"
	(cd "$e" && rm -f gmon.out* && ./libtime >phases)
	stk "$e" libtime gmon.out gmon.out.stacks && same_run "$e/out"
	tcheck "stacks library time: the file is sound $(cat "$e/err")" [ $? -eq 0 ]
	"$TGPROF" --batch --folded "$e/libtime" "$e/gmon.out" >"$e/folded"
	"$TGPROF" --batch -b -p "$e/libtime" "$e/gmon.out" >"$e/flat"
	n=$(head_of "$e/out" samples) s=$(head_of "$e/out" signals)
	h=$(sed -n 's/^gmon runid [0-9a-f]* hist \([0-9]*\)$/\1/p' "$e/out")
	r=$(sums "$e/out" '^root .*;main(;|$)')
	tcheck "stacks library time: $r of $n samples reached the root through main (at least 95%)" \
	    share "$r" "$n" 0.95
	# lib_share FUNC PHASE: FUNC's samples in the stacks (m), in the histogram
	# (g) and under it in a library frame (l), and its phase's share of the
	# CPU time (t).
	lib_share() {
		m=$(awk -v f="$1" '{ k = split($1, p, ";"); for (i = 1; i <= k; i++) if (p[i] == f) { n += $2; break } }
		    END { print n + 0 }' "$e/folded")
		l=$(awk -v f="$1" '{ k = split($1, p, ";") } k >= 2 && p[k - 1] == f && p[k] !~ /^(tgmon_.*|_?mcount|__fentry__)$/ { n += $2 }
		    END { print n + 0 }' "$e/folded")
		g=$(awk -v f="$1" -v h="$h" '$NF == f && NF >= 4 { g = $1 * h / 100 } END { printf "%.0f", g }' "$e/flat")
		t=$(awk -v k="$2" '{ for (i = 1; i < NF; i += 2) { c[$i] = $(i + 1); if ($i != "sum") a += $(i + 1) } }
		    END { printf "%.4f", (a > 0 ? c[k] / a : 0) }' "$e/phases")
	}
	# near A B P: whether the shares A / n and B are within 3.5 standard
	# deviations of a share P among s signals, and 3%, of each other.
	near() {
		awk -v a="$1" -v b="$2" -v p="$3" -v n="$n" -v s="$s" 'BEGIN {
		    e = 3.5 * sqrt(p * (1 - p) / (s > 0 ? s : 1)) + 0.03; d = a / n - b
		    exit !(n > 0 && s >= 50 && d < e && -d < e) }'
	}
	agree='' below='' ok_agree=1 ok_below=1
	for f in copy_heavy:copy format_heavy:format; do
		lib_share "${f%:*}" "${f#*:}"
		w=$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.0f", t * n }')
		agree="$agree ${f%:*} $m/$g/$w"
		near "$m" "$(awk -v g="$g" -v n="$n" 'BEGIN { print (n > 0 ? g / n : 0) }')" "$t" &&
		    near "$m" "$t" "$t" && near "$g" "$t" "$t" || ok_agree=0
		below="$below ${f%:*} $l of $w"
		share "$l" "$w" 0.8 || ok_below=0
	done
	tcheck "stacks library time: measured, histogram and truth agree (measured/histogram/truth samples:$agree)" [ $ok_agree = 1 ]
	tcheck "stacks library time: the library frame is under its caller in --folded (${below# })" [ $ok_below = 1 ]
fi

# Library time where a search of the stack goes wrong (libwalk.c: each
# phase in a function of its own, nearly all of it in the C library:
# strtod under parse_heavy, snprintf under format_heavy, qsort and its
# comparator under sort_heavy, realloc by a tail call from alloc_tail
# under alloc_heavy, fprintf of doubles with many digits under
# print_heavy; each phase's CPU time printed).  Before each batch,
# leave_stale() leaves return addresses after calls into the C library,
# and frame pointers linking them, over the stack the library takes.
# The library's frames are walked by their call frame information: each
# phase's measured inclusive time (--folded --raw: the profiler's own
# samples are the phases' too) is the truth's, within 3.5 standard
# deviations of the signals and 3%; the library frame is directly under
# its phase's function (for the tail call, under the caller of the
# function that jumped to realloc); the comparator's samples are under
# qsort's caller; leave_stale's are few; every stack reaches main, and
# none (1 in 200) counts as complete without it (the old search charged
# most of the phases to leave_stale, left realloc's samples without a
# caller and made 2-4% of the stacks, ending at a stale frame, complete).
# With TGMON_UNWIND=fp (no call frame information: the search alone) the
# stacks may go wrong, but none that stops early counts as complete.
if want_any "stacks library walk"; then
	stk_setup
	e=$d/libwalk
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/libwalk" "$P/libwalk.c" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build libwalk.c"
	(cd "$e" && rm -f gmon.out* && ./libwalk >phases)
	stk "$e" libwalk gmon.out gmon.out.stacks && same_run "$e/out"
	tcheck "stacks library walk: the file is sound $(cat "$e/err")" [ $? -eq 0 ]
	"$TGPROF" --batch --folded --raw "$e/libwalk" "$e/gmon.out" >"$e/folded"
	n=$(head_of "$e/out" samples) s=$(head_of "$e/out" signals)
	r=$(sums "$e/out" '^root .*;main(;|$)') f=$(sums "$e/out" '^root ')
	tcheck "stacks library walk: $r of $n samples reached the root through main (at least 95%)" \
	    share "$r" "$n" 0.95
	tcheck "stacks library walk: no stack complete without main ($((f - r)) samples; at most 1 in 200)" \
	    [ $(((f - r) * 200)) -le "$n" ]
	# folded_in FUNC [BELOW]: the samples with FUNC on their stack (BELOW: with
	# FUNC directly above a frame that is neither the profiler's nor the
	# program's, a library's); phase_of NAME: the phase's share of the CPU time.
	folded_in() {
		awk -v f="$1" -v below="${2:-}" -v nm="$e/libwalk.nm" '
		    BEGIN { while ((getline l < nm) > 0) { split(l, a, " "); if (a[2] ~ /^[TtWw]$/) prog[a[3]] = 1 } }
		    !/^#/ { k = split($1, p, ";")
		        for (i = 1; i <= k; i++) if (p[i] == f) break
		        if (i > k) next
		        if (below == "" || (i == k - 1 && !(p[k] in prog) && p[k] !~ /^(tgmon_.*|_?mcount|__fentry__)$/)) n += $2 }
		    END { print n + 0 }' "$e/folded"
	}
	phase_of() {
		awk -v k="$1" '{ for (i = 1; i < NF; i += 2) { c[$i] = $(i + 1); if ($i != "sum") a += $(i + 1) } }
		    END { printf "%.4f", (a > 0 ? c[k] / a : 0) }' "$e/phases"
	}
	# near_share A P: whether A samples of n are within 3.5 standard deviations of a
	# share P among s signals, and 3%.
	near_share() {
		awk -v a="$1" -v p="$2" -v n="$n" -v s="$s" 'BEGIN {
		    e = 3.5 * sqrt(p * (1 - p) / (s > 0 ? s : 1)) + 0.03; d = a / n - p
		    exit !(n > 0 && s >= 50 && d < e && -d < e) }'
	}
	agree='' below='' ok_agree=1 ok_below=1
	for ph in parse_heavy:parse:0.8 format_heavy:format:0.8 sort_heavy:sort: alloc_heavy:alloc:0.6 \
	    print_heavy:print:0.8; do
		fn=${ph%%:*} rest=${ph#*:}
		t=$(phase_of "${rest%:*}") m=$(folded_in "$fn")
		w=$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.0f", t * n }')
		agree="$agree $fn $m/$w"
		near_share "$m" "$t" || ok_agree=0
		[ -n "${rest#*:}" ] || continue
		l=$(folded_in "$fn" below)
		below="$below $fn $l of $m"
		share "$l" "$m" "${rest#*:}" || ok_below=0
	done
	tcheck "stacks library walk: each phase's measured time is the truth's (measured/truth samples:$agree)" \
	    [ $ok_agree = 1 ]
	tcheck "stacks library walk: the library frame is under the phase's function (${below# }; 80%, 60% by the tail call)" \
	    [ $ok_below = 1 ]
	c=$(folded_in cmp_double) cs=$(awk '!/^#/ && $1 ~ /(^|;)main;sort_heavy;.*;cmp_double(;|$)/ { n += $2 } END { print n + 0 }' "$e/folded")
	tcheck "stacks library walk: $cs of cmp_double's $c samples are under main;sort_heavy (95%)" \
	    sh -c "[ $c -ge 20 ] && [ $((cs * 100)) -ge $((c * 95)) ]"
	l=$(folded_in leave_stale)
	tcheck "stacks library walk: leave_stale has $l samples of $n (at most 3%)" [ $((l * 100)) -le $((n * 3)) ]
	(cd "$e" && rm -f gmon.out* && TGMON_UNWIND=fp ./libwalk 0.75 >/dev/null)
	stk "$e" libwalk gmon.out gmon.out.stacks && same_run "$e/out"
	tcheck "stacks library walk, TGMON_UNWIND=fp: the file is sound $(cat "$e/err")" [ $? -eq 0 ]
	r=$(sums "$e/out" '^root .*;main(;|$)') f=$(sums "$e/out" '^root ') n=$(head_of "$e/out" samples)
	tcheck "stacks library walk, TGMON_UNWIND=fp: no stack complete without main ($((f - r)) samples of $n; at most 1 in 200)" \
	    [ $(((f - r) * 200)) -le "$n" ]
fi

# Threads: each thread's own path, complete.
if want_any "stacks threads"; then
	stk_setup
	e=$d/threads
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/stackthr" "$P/stackthr.c" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build stackthr.c"
	(cd "$e" && rm -f gmon.out* && ./stackthr >/dev/null)
	stk "$e" stackthr gmon.out gmon.out.stacks && same_run "$e/out"
	tcheck "stacks threads: the file is sound $(cat "$e/err")" [ $? -eq 0 ]
	n=$(head_of "$e/out" samples)
	tcheck "stacks threads: $(head_of "$e/out" root) of $n samples reached their thread's root" \
	    share "$(head_of "$e/out" root)" "$n" 0.95
	for k in 0 1 2 3; do
		tcheck "stacks threads: thr$k;p$k;spin has its share" \
		    share "$(sums "$e/out" "^root [^;]*;thr$k;p$k;spin(;tgmon_[a-z]*)?\$")" "$n" 0.15
	done
	tcheck "stacks threads: no thread on another's path" \
	    sh -c "! sed -n 's/.*;thr\([0-9]\);p\([0-9]\);.*/\1 \2/p' '$e/out' | awk '\$1 != \$2 { f = 1 } END { exit !f }'"
fi

# Thread records (threadrec.c): each thread's id, its last name, however
# it was set, its CPU time, and its samples; every stack is one thread's.
# A unit is about 0.1 s of CPU time here.
if want_any "thread records"; then
	stk_setup
	e=$d/threadrec
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/threadrec" "$P/threadrec.c" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build threadrec.c"
	(cd "$e" && rm -f gmon.out* && ./threadrec 150000000 >run.out)
	nm "$e/threadrec" >"$e/nm"
	"$d/test-stacks" -T -n "$e/nm" -g "$e/gmon.out" "$e/gmon.out.stacks" >"$e/out" 2>"$e/err"
	rc=$?
	tcheck "thread records: the file is sound $(cat "$e/err")" [ $rc -eq 0 ]
	# thr NAME FIELD: field FIELD of thread NAME's record (2 its number, 3 tid,
	# 4 flags, 5 cpu_ns, 6 samples, 7 signals, 8 start_ns, 9 end_ns).
	thr() { awk -v n="$1" -v f="$2" '$1 == "thread" && $NF == n { print $f }' "$e/out"; }
	own() { awk -v n="$1" -v f="$2" '$1 == "cpu" && $2 == n { print $f }' "$e/run.out"; }
	tcheck "thread records: five threads, the main one first (tid the pid, flag 2)" awk '
	    $1 == "thread" { n++; if ($2 == 0) m = $4 % 4 >= 2 && $NF == "threadrec" }
	    END { exit !(n == 5 && m) }' "$e/out"
	for n in w-self w-other w-final w-alive; do
		tcheck "thread records: $n, named by itself, by main, renamed, or never ended (tid $(own $n 3))" \
		    [ "$(thr $n 3)" = "$(own $n 3)" ]
	done
	tcheck "thread records: a thread renamed keeps its last name (no w-late)" sh -c "! grep -q w-late '$e/out'"
	clk=$(getconf CLK_TCK)
	for n in w-self w-other w-final; do
		tcheck "thread records: $n's CPU time is its clock's at its end ($(thr $n 5) ns, $(own $n 4) at its report)" \
		    awk -v r="$(thr $n 5)" -v o="$(own $n 4)" 'BEGIN { exit !(r >= o && r - o < 20000000) }'
		tcheck "thread records: $n's samples are its CPU time in /proc ($(thr $n 6) samples, $(own $n 5) ticks of 1/$clk s)" \
		    awk -v s="$(thr $n 6)" -v g="$(thr $n 7)" -v t="$(own $n 5)" -v hz="$clk" \
		    'BEGIN { d = s / 1000 - t / hz; if (d < 0) d = -d; exit !(d <= 3.5 * sqrt(g) / 1000 + 2 / hz) }'
		tcheck "thread records: $n ended, after it started" awk -v f="$(thr $n 4)" -v a="$(thr $n 8)" -v b="$(thr $n 9)" \
		    'BEGIN { exit !(f % 2 == 1 && b > a) }'
	done
	tcheck "thread records: w-alive still ran when the file was written (no end, its CPU time then)" \
	    awk -v f="$(thr w-alive 4)" -v b="$(thr w-alive 9)" -v r="$(thr w-alive 5)" -v o="$(own w-alive 4)" \
	    'BEGIN { exit !(f % 2 == 0 && b == 0 && r >= o) }'
	for k in 1 2 3 4; do
		n=$(echo "w-self w-other w-final w-alive" | cut -d' ' -f$k)
		t=t$(thr $n 2)
		tcheck "thread records: work$k's stacks are all $n's ($t), 95% of its samples" awk -v t="$t" -v k="$k" \
		    -v s="$(thr $n 6)" 'NF == 3 && $1 ~ /^[0-9]+$/ && $2 !~ /^w/ && $3 ~ ";work" k ";" { if (index($3, t ";") != 1) bad = 1; n += $1 }
		    END { exit !(!bad && n >= 0.95 * s) }' "$e/out"
	done
fi

# A thread that switches context often loses its perf event (each switch
# costs the event's timer) for its timer; one that computes keeps it.
if want_any "thread switches"; then
	stk_setup
	e=$d/pingpong
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/pingpong" "$P/pingpong.c" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build pingpong.c"
	(cd "$e" && rm -f gmon.out* && ./pingpong >/dev/null)
	"$d/test-stacks" "$e/gmon.out.stacks" >"$e/out" 2>"$e/err"
	tcheck "thread switches: the file is sound $(cat "$e/err")" [ -s "$e/out" ]
	flags() { awk -v n="$1" '$1 == "thread" && $NF == n { print $4 }' "$e/out"; }
	for n in pinger ponger; do
		tcheck "thread switches: $n, 100000 switches each way, sampled by its timer (flags $(flags $n))" \
		    awk -v f="$(flags $n)" 'BEGIN { exit !(int(f / 8) % 2 == 1) }'
	done
	# (Where perf events are allowed: the header's clock has bit 2.)
	if [ $(( $(od -A n -t u4 -j 92 -N 4 "$e/gmon.out.stacks" | tr -d ' ') & 2 )) = 2 ]; then
		tcheck "thread switches: the spinner keeps its perf event (flags $(flags spinner))" \
		    awk -v f="$(flags spinner)" 'BEGIN { exit !(f != "" && int(f / 8) % 2 == 0) }'
		# rate.c wakes every millisecond for 0.3 ms of work: a timer checked at
		# the kernel's tick would miss most of its time (27 samples for 0.63 s).
		gcc -pg -O2 -o "$e/rate" "$P/rate.c" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build rate.c"
		(cd "$e" && rm -f gmon.out* && ./rate 1.5 >/dev/null)
		"$d/test-stacks" "$e/gmon.out.stacks" >"$e/rate.out" 2>&1
		tcheck "thread switches: a thread woken every millisecond keeps its perf event, its samples its CPU time (10%)" \
		    awk '$1 == "thread" && $2 == 0 { f = $4; c = $5 / 1e6; s = $6 }
		    END { exit !(int(f / 8) % 2 == 0 && c > 0 && s >= 0.9 * c && s <= 1.1 * c) }' "$e/rate.out"
	fi
fi

# Waits (waits.c): a thread sleeps 1.0 s, one waits 0.5 s for a mutex,
# one 0.3 s for a pipe; each wait is recorded at its stack, within 5% of
# its length, and the program sees no EINTR and the same errno.
if want_any "waits"; then
	stk_setup
	e=$d/waits
	mkdir -p "$e"
	gcc -pg -O2 -o "$e/waits" "$P/waits.c" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build waits.c"
	(cd "$e" && rm -f gmon.out* && ./waits >run.out)
	rc=$?
	tcheck "waits: no EINTR, errno kept ($(grep -c '^ok' "$e/run.out") of 3 ok, exit $rc)" \
	    sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^ok' '$e/run.out') -eq 3 ]"
	nm "$e/waits" >"$e/nm"
	"$d/test-stacks" -T -n "$e/nm" "$e/gmon.out.stacks" >"$e/out" 2>"$e/err"
	tcheck "waits: the file is sound $(cat "$e/err")" [ -s "$e/out" ]
	wflags=$(awk '$1 == "flags" { print $2 }' "$e/out")
	if [ $(( ${wflags:-0} & 2 )) = 2 ]; then
		pass "waits: the kernel refuses the event (kernel.perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid)): skipped"
	else
		# wait NAME FN: thread NAME's wait nanoseconds at FN, called from its thread function, in a library.
		wait_at() {
			t=t$(awk -v n="$1" '$1 == "thread" && $NF == n { print $2 }' "$e/out")
			awk -v t="$t" -v f="$2" 'NF == 3 && $2 == "wroot" && index($3, t ";") == 1 &&
			    $3 ~ ("_thread;" f ";\\[libc[^;]*\\]$") { n += $1 } END { print n + 0 }' "$e/out"
		}
		for c in "sleeper sleep_one 1.0" "locker lock_wait 0.5" "reader pipe_wait 0.3"; do
			set -- $c
			ns=$(wait_at "$1" "$2")
			tcheck "waits: $1 waited $3 s in $2, recorded $ns ns there (5%)" \
			    awk -v n="$ns" -v s="$3" 'BEGIN { exit !(n >= s * 0.95e9 && n <= s * 1.05e9) }'
		done
		"$TGPROF" --batch --folded --clock=wait "$e/waits" "$e/gmon.out" >"$e/wait.folded" 2>&1
		tcheck "waits: tgprof --clock=wait: sleep_one's second, lock_wait's half, pipe_wait's 0.3 s (ms, 5%)" \
		    awk '/;sleep_one;/ { s += $NF } /;lock_wait;/ { l += $NF } /;pipe_wait;/ { p += $NF }
		    END { exit !(s >= 950 && s <= 1050 && l >= 475 && l <= 525 && p >= 285 && p <= 315) }' "$e/wait.folded"
		# A user without CAP_PERFMON needs kernel.perf_event_paranoid 1 or less:
		# the event samples the thread's stack in the kernel's switch.
		if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
		    setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "test -x '$e/waits'" 2>/dev/null; then
			u=$(mktemp -d) && chmod 777 "$u" && cp "$e/waits" "$u/"
			(cd "$u" && setpriv --reuid=65534 --regid=65534 --clear-groups ./waits >/dev/null)
			"$d/test-stacks" "$u/gmon.out.stacks" >"$e/out.nobody" 2>&1
			"$TGPROF" --batch --folded --clock=wait "$u/waits" "$u/gmon.out" >"$e/nobody.folded" 2>&1
			if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 1 ]; then
				tcheck "waits: as nobody, kernel.perf_event_paranoid above 1: refused, said (flags 2, tgprof names the reason)" \
				    sh -c "grep -q '^flags 2 waits 0 wait_ns 0\$' '$e/out.nobody' &&
				    grep -q 'the kernel refused libtgmon the event that records them (kernel.perf_event_paranoid above 1' '$e/nobody.folded'"
			else
				tcheck "waits: as nobody, kernel.perf_event_paranoid 1 or less: recorded" grep -q '^flags 1 ' "$e/out.nobody"
			fi
			rm -rf "$u"
		fi
		(cd "$e" && rm -f gmon.out* && TGMON_WAITS=0 ./waits >/dev/null)
		"$d/test-stacks" "$e/gmon.out.stacks" >"$e/out0" 2>&1
		tcheck "waits: TGMON_WAITS=0 records none, and says so (flags 4)" \
		    sh -c "grep -q '^flags 4 waits 0 wait_ns 0\$' '$e/out0' && ! grep -q '^[0-9]* w' '$e/out0'"
	fi
fi

# C++: a -pg constructor makes the main thread's first call; main's stacks are still complete.
if want "stacks C++ constructor: main's stacks complete"; then
	stk_setup
	e=$d/cxx
	mkdir -p "$e"
	g++ -pg -O2 -o "$e/ctor" "$P/ctor.cpp" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build ctor.cpp"
	(cd "$e" && rm -f gmon.out* && ./ctor >/dev/null)
	stk "$e" ctor gmon.out gmon.out.stacks && same_run "$e/out"
	w=$(sums "$e/out" ';main;_Z4workv;_Z4burnl(;tgmon_[a-z]*)?$')
	check "stacks C++ constructor: main's stacks complete ($(sums "$e/out" '^root .*;main;_Z4workv;') of $w)" \
	    share "$(sums "$e/out" '^root .*;main;_Z4workv;_Z4burnl')" "$w" 0.95
fi

# Sampling clocks (gmon_out.h, TGSTACKS_HDR_CLOCK): a perf_event task
# clock per thread where the kernel allows, one sample a signal at the
# rate asked whatever the tick; else, and with TGMON_CLOCK=timer, a timer
# on the thread's CPU time, which signals at the tick at most (several
# samples a signal).  hdr FILE OFFSET SIZE: a header field of a stacks
# file, in decimal.
hdr() {
	od -A n -t u"$3" -j "$2" -N "$3" "$1" 2>/dev/null | tr -d ' '
}
c=$OUT/clock
fds_want() {	# fds_want CLOCK: whether T selects a case of fds.c's with CLOCK
	want_any "fds $1:" "fds $1 closeall" "fds $1 dup2" "fds $1 fork"
}
if want_any "clock perf" "clock timer" "clock call_ps" "clock blocked perf" "clock blocked timer" ||
    fds_want perf || fds_want timer || want "fds closeall, a long TGMON_DIR"; then
	mkdir -p "$c"
	for p in busy fds blocked; do
		gcc -pg -O2 -o "$c/$p" "$P/$p.c" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build $p.c"
	done
	gcc -O2 -o "$c/fds-plain" "$P/fds.c" -pthread || fatal "cannot build fds.c without -pg"
	(cd "$c" && rm -f gmon.out* && ./busy 1 >/dev/null)
	perf=$(( $(hdr "$c/gmon.out.stacks" 92 4) & 2 ))
	why="perf_event_open is not allowed here (kernel.perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null), seccomp?)"
fi
if want "clock perf"; then
	if [ "$perf" = 0 ]; then
		pass "clock perf: $why: skipped"
	else
		cpu=$(cd "$c" && rm -f gmon.out* && ./busy 42 | awk '{ print $2 }')
		s=$(hdr "$c/gmon.out.stacks" 80 8) n=$(hdr "$c/gmon.out.stacks" 48 8) k=$(hdr "$c/gmon.out.stacks" 92 4)
		# (A signal late on a loaded machine brings the periods it missed: 3% at most.)
		check "clock perf: $s signals in $cpu s of CPU at 1000 Hz (900 to 1100 a second), $n samples, one a signal" \
		    awk -v s="$s" -v n="$n" -v c="$cpu" -v k="$k" 'BEGIN {
		        exit !(c > 0 && s / c >= 900 && s / c <= 1100 && n >= s && n <= s * 1.03 && (k == 2 || k == 6)) }'
	fi
fi
if want "clock timer"; then
	cpu=$(cd "$c" && rm -f gmon.out* && TGMON_CLOCK=timer ./busy 42 | awk '{ print $2 }')
	s=$(hdr "$c/gmon.out.stacks" 80 8) n=$(hdr "$c/gmon.out.stacks" 48 8)
	check "clock timer: TGMON_CLOCK=timer: $n samples in $cpu s of CPU (at least 900 a second), from $s signals" \
	    awk -v s="$s" -v n="$n" -v c="$cpu" -v k="$(hdr "$c/gmon.out.stacks" 92 4)" 'BEGIN {
	        exit !(c > 0 && n / c >= 900 && s > 0 && s <= n && k == 1) }'
fi
# What -pg adds to a call, measured at exit (call_ps): about a nanosecond on x86-64.
if want "clock call_ps"; then
	ps=$(hdr "$c/gmon.out.stacks" 88 4)
	check "clock call_ps: -pg adds $ps ps to a call (50 to 100000)" \
	    awk -v p="$ps" 'BEGIN { exit !(p >= 50 && p <= 100000) }'
fi
if want "clock call_ps aarch64"; then
	if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && command -v qemu-aarch64 >/dev/null 2>&1 &&
	    make -s -C "$TOP" runtime/aarch64/libtgmon.a >"$c/make.log" 2>&1 &&
	    aarch64-linux-gnu-gcc -O2 -o "$c/callps-a64" "$P/callps.c" -L"$TOP/runtime/aarch64" -l:libtgmon.a -pthread; then
		# (in its directory: libtgmon writes gmon.out where it runs)
		ps=$(cd "$c" && rm -f gmon.out* && QEMU_LD_PREFIX=/usr/aarch64-linux-gnu qemu-aarch64 ./callps-a64)
		check "clock call_ps aarch64: under qemu, -pg adds $ps ps to a call (50 to 1000000)" \
		    awk -v p="$ps" 'BEGIN { exit !(p >= 50 && p <= 1000000) }'
	else
		pass "clock call_ps aarch64: no aarch64-linux-gnu-gcc or qemu-aarch64: skipped"
	fi
fi
# A thread that blocks the signal has one waiting, not a queue (real-time
# signals would queue up to RLIMIT_SIGPENDING, then the kernel sends
# SIGIO, which kills), and the late one counts for the periods it missed.
for clk in perf timer; do
	want "clock blocked $clk" || continue
	out=$(cd "$c" && rm -f gmon.out* && TGMON_CLOCK=$clk ./blocked)
	n=$(hdr "$c/gmon.out.stacks" 48 8)
	check "clock blocked $clk: a second with the signal blocked: $(echo "$out" | awk '{ print $3 - $2 }') signals queued meanwhile (at most 5), $n samples of ${out##* } s" \
	    sh -c "echo '$out' | awk -v n='$n' '\$1 == \"queued\" { exit !(\$3 - \$2 <= 5 && \$5 > 0 && n / \$5 >= 850) }'"
done

# Descriptors (fds.c): libtgmon's are close-on-exec and at 1000 and up (a
# perf event per thread, the starting directory), so that open() gives a
# program the numbers it would get without libtgmon; a program that
# closes them all, or takes one's number, or forks, still works and is
# still sampled.
for clk in perf timer; do
	fds_want $clk || continue
	e=$c/$clk
	mkdir -p "$e"
	plain=$(cd "$e" && ../fds-plain threads | awk '{ print $2, $5 }')
	set -- $(cd "$e" && rm -f gmon.out* && TGMON_CLOCK=$clk ../fds threads)
	tcheck "fds $clk: open() gives the numbers it gives without libtgmon, threads sampled or not (next $2 $3, below 900: $5 $6 open; without: $plain)" \
	    sh -c "[ '$1 $2 $4 $5' = 'next $3 low $6' ] && [ '$2 $5' = '$plain' ]"
	more=0 what=
	[ $clk = perf ] && [ "$perf" != 0 ] && more=4 what=", one a thread's event"
	tcheck "fds $clk: libtgmon's own ($8 at start, $9 with 4 threads, ${10} after) are close-on-exec$what" \
	    sh -c "[ '$7 ${12}' = 'high $9' ] && [ $9 -eq $(($8 + more)) ] && [ ${10} -eq $8 ]"
	tcheck "fds $clk: errno survives a thread's first call (its sampling started)" [ "${13} ${14}" = "errno kept" ]
	out=$(cd "$e" && rm -f gmon.out* && TGMON_CLOCK=$clk ../fds closeall 2>&1)
	rc=$?
	n=$(hdr "$e/gmon.out.stacks" 48 8) k=$(hdr "$e/gmon.out.stacks" 92 4)
	tcheck "fds $clk closeall: every descriptor closed, the program and its child exit 0 ($out)" \
	    sh -c "[ $rc -eq 0 ] && echo '$out' | grep -q '^closeall child 0 cpu '"
	# The watchdog finds a task clock gone within two of its ticks (25 periods each).
	tcheck "fds $clk closeall: the profile is read, $n samples of ${out##* } s (90%, less 50 ms; clock $k)" \
	    sh -c "'$TGPROF' --batch -b -p '$c/fds' '$e/gmon.out' | grep -q ' work\$' &&
	        awk -v n='$n' -v c='${out##* }' 'BEGIN { exit !(c > 0 && n >= 1000 * (0.9 * c - 0.05)) }'"
	if [ $clk = perf ] && [ "$perf" != 0 ]; then
		tcheck "fds perf closeall: the threads' timers took over (clock $k)" [ "$k" = 3 ]
		out=$(cd "$e" && TGMON_CLOCK=$clk ../fds dup2)
		tcheck "fds perf dup2: a thread's descriptor taken by the program stays the program's ($out)" \
		    sh -c "echo '$out' | grep -q '^dup2 [0-9]* kept\$'"
	fi
	set -- $(cd "$e" && rm -f gmon.out* && TGMON_CLOCK=$clk ../fds fork)
	n=$(hdr "$e/gmon.out.$2.stacks" 48 8) k=$(hdr "$e/gmon.out.$2.stacks" 92 4)
	tcheck "fds $clk fork: the child keeps none of the threads' descriptors ($4 in the parent, $5 in the child)" \
	    [ "$5" -eq $(($4 - more)) ]
	tcheck "fds $clk fork: the child samples by its own ($n samples, clock $k), errno kept ($7)" \
	    sh -c "[ '$n' -gt 0 ] && [ '$7' = 77 ] && [ '$k' = \$([ $clk = perf ] && [ $perf != 0 ] && echo 2 || echo 1) ]"
done
# Every descriptor closed, the starting directory is found again by its
# path: a TGMON_DIR of 6,000 bytes (#26.12), opened a directory at a time.
if want "fds closeall, a long TGMON_DIR"; then
	nm=$(printf '%0199d' 0)
	deep=$nm
	for i in $(seq 29); do deep=$deep/$nm; done
	rm -rf "$c/long" && mkdir -p "$c/long/$deep" || fatal "cannot make the long directories"
	out=$(cd "$c" && rm -f gmon.out* && TGMON_DIR=$c/long/$deep ./fds closeall 2>&1)
	tcheck "fds closeall, a long TGMON_DIR: gmon.out there, found again by its path ($out)" sh -c "
	    [ ! -e '$c/gmon.out' ] && echo '$out' | grep -q '^closeall child 0 cpu ' &&
	    (cd '$c/long' && for i in \$(seq 30); do cd -P '$nm'; done && [ -s gmon.out ] && [ -s gmon.out.stacks ])"
	rm -rf "$c/long"	# (as above)
fi

# A directory the program cannot write in (#27): the line says which, and
# how to write elsewhere (as another user than root, by setpriv).
if want "unwritable directory" && [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	u=$OUT/unwritable
	rm -rf "$u" && mkdir -p "$u/ro" &&
	    printf 'int leaf(int i) { return i %% 7; }\nint main(void) { int s = 0; for (int i = 0; i < 100; i++) s += leaf(i); return s == 0; }\n' >"$u/p.c" &&
	    gcc -pg -O1 -o "$u/p" "$u/p.c" -L"$RT" -l:libtgmon.a -pthread && chmod 755 "$u" "$u/p" && chmod 555 "$u/ro" ||
	    fatal "cannot make the unwritable directory"
	if ! setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "cd '$u/ro' && test -x ../p" 2>/dev/null; then
		pass "unwritable directory: skipped: nobody cannot reach the tree"
	else
	out=$(cd "$u/ro" && setpriv --reuid=65534 --regid=65534 --clear-groups ../p 2>&1 >/dev/null)
	tcheck "unwritable directory: one line names it and says how to write elsewhere ($out)" sh -c "
	    [ \$(echo '$out' | grep -c libtgmon) -eq 1 ] &&
	    echo '$out' | grep -q '^libtgmon: gmon.out: cannot be written: Permission denied (in $u/ro: TGMON_DIR=DIR writes it elsewhere, as tgprof record -o FILE does)\$'"
	fi
fi

# tgprof record: a program built for glibc's runtime run under libtgmon
# (LD_PRELOAD), its output and exit status passed on, its profile moved to
# -o FILE with its stacks; one with libtgmon linked in run as it is; one
# not built with -pg refused in one line, its status kept.
if want record; then
	r=$OUT/record
	mkdir -p "$r"
	printf '#include <stdio.h>\n#include <stdlib.h>\nint leaf(int i) { return i %% 7; }\nint main(int c, char **v) {\n\tint s = 0;\n\tfor (int i = 0; i < 3000; i++)\n\t\ts += leaf(i);\n\tprintf("sum %%d\\n", s);\n\treturn c > 1 ? atoi(v[1]) : 0;\n}\n' >"$r/rec.c"
	gcc -pg -O1 -o "$r/glibc" "$r/rec.c" && gcc -pg -O1 -o "$r/static" "$r/rec.c" -L"$RT" -l:libtgmon.a -pthread &&
	    gcc -O1 -o "$r/plain" "$r/rec.c" || fatal "cannot build the record program"
	(cd "$r" && "$TGPROF" record -o out.gmon -- ./glibc 7 >glibc.out 2>glibc.err)
	rc=$?
	tcheck "record (glibc's -pg): the program's status (7) and output pass through" sh -c "
	    [ $rc -eq 7 ] && head -n 1 '$r/glibc.out' | grep -q '^sum 8994\$'"
	tcheck "record: libtgmon preloaded, -o out.gmon with its stacks, leaf's 3000 calls exact" sh -c "
	    [ -f '$r/out.gmon' ] && [ -f '$r/out.gmon.stacks' ] && [ ! -e '$r/gmon.out' ] &&
	    \"$TGPROF\" --batch -b -p '$r/glibc' '$r/out.gmon' | awk '\$NF == \"leaf\" { exit !(\$4 == 3000) }' &&
	    ! ls -a '$r' | grep -q '^\\.tgprof-record'"
	tcheck "record: the report follows the program's output, without a terminal" grep -q '^Flat profile:' "$r/glibc.out"
	(cd "$r" && "$TGPROF" record -- ./static >static.out 2>&1)
	tcheck "record (libtgmon linked in): run as it is, gmon.out" sh -c "
	    [ $? -eq 0 ] && \"$TGPROF\" --batch -b -p '$r/static' '$r/gmon.out' | awk '\$NF == \"leaf\" { exit !(\$4 == 3000) }'"
	(cd "$r" && "$TGPROF" record -- ./plain 5 >plain.out 2>plain.err)
	rc=$?
	tcheck "record (no -pg): one line, the program's status kept" sh -c "
	    [ $rc -eq 5 ] && [ \$(wc -l <'$r/plain.err') -eq 1 ] &&
	    grep -q '^tgprof: ./plain: wrote no profile (was it built with -pg?)' '$r/plain.err'"
fi

# Snapshots (TGMON_INTERVAL): rate.c serves at a known rate (tick 2000
# calls a second, burn 1000) until SIGTERM ends it (TGMON_SIGNALS=1).
# Each snapshot is copied as it comes (its gmon file only if its header
# has the info file's sequence number): the counts only grow, the rate
# between two snapshots a second or more apart is 2000 a second within
# 10% (the slots are made up when late), and the last snapshot is the
# exit's profile byte for byte but for the sequence number.  The
# thread is one more, named, with every signal blocked; without
# TGMON_INTERVAL or TGMON_LIVE there is no thread and no file.
# snap_calls FILE FUNC: FUNC's calls in the snapshot FILE of rate.
snap_calls() {
	"$TGPROF" --batch -b -p "$l/rate" "$1" 2>/dev/null | awk -v f="$2" '$NF == f && NF >= 6 { print $4; n = 1 } END { if (!n) print 0 }'
}
# seq_of FILE: the sequence number in a gmon file's header (bytes 17-20, little-endian).
seq_of() {
	od -An -tu4 -j16 -N4 "$1" | tr -d ' '
}
if want "live:"; then
	l=$OUT/live
	rm -rf "$l"
	mkdir -p "$l/snaps"
	gcc -pg -O2 -o "$l/rate" "$P/rate.c" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build rate.c"
	(cd "$l" && exec env TGMON_INTERVAL=0.25 TGMON_SIGNALS=1 ./rate 0 >/dev/null 2>"$l/rate.err") &
	pid=$!
	last=0 k=0
	while [ $k -lt 100 ]; do	# about 4 seconds, the first table taken a second before the last
		sleep 0.04
		k=$((k + 1))
		s=$(awk '$1 == "seq" { print $2 }' "$l/gmon.out.live.info" 2>/dev/null)
		[ -n "$s" ] && [ "$s" != "$last" ] || continue
		cp "$l/gmon.out.live" "$l/snaps/g.$s" 2>/dev/null && cp "$l/gmon.out.live.info" "$l/snaps/i.$s" &&
		    cp "$l/gmon.out.live.stacks" "$l/snaps/g.$s.stacks" &&
		    [ "$(seq_of "$l/snaps/g.$s")" = "$s" ] || { rm -f "$l/snaps/g.$s" "$l/snaps/i.$s"; continue; }
		last=$s
	done
	tasks=$(ls /proc/$pid/task | wc -l)
	comms=$(cat /proc/$pid/task/*/comm | sort | tr '\n' ' ')
	# (its mask while it writes a snapshot is every signal; in its wait the
	# kernel lifts the request's signal: a few looks, each one or the other)
	blks=$(for _ in 1 2 3 4 5 6 7 8; do for t in /proc/$pid/task/*; do grep -q tgmon-live "$t/comm" &&
	    awk '$1 == "SigBlk:" { print $2 }' "$t/status"; done; sleep 0.02; done | sort -u | tr '\n' ' ')
	# (a snapshot being written has its file open there: the fewest of a few looks)
	fds=$(for _ in 1 2 3 4 5; do for t in /proc/$pid/task/*; do grep -q tgmon-live "$t/comm" && ls "$t/fd" | wc -l; done
	    sleep 0.03; done | sort -n | head -n 1)
	pfds=$(ls /proc/$pid/fd | wc -l)
	presence=/tmp/tgmon-$(id -u)/$pid
	sig=$(sed -n 's/^signal //p' "$presence" 2>/dev/null)
	tcheck "live: a presence file, naming its thread ($(sed -n 's/^tid //p' "$presence" 2>/dev/null))" sh -c "
	    grep -q '^tid [0-9]' '$presence' && grep -q '^snapshot $l/gmon.out.live\$' '$presence'"
	kill -TERM $pid
	wait $pid 2>/dev/null
	tcheck "live: SIGTERM ends it with its profile ($?)" [ -f "$l/gmon.out" ]
	tcheck "live: one thread more, tgmon-live ($comms)" sh -c "[ '$tasks' = 2 ] && [ '$comms' = 'rate tgmon-live ' ]"
	# Blocked: all but SIGKILL, SIGSTOP, the C library's 32 and 33, and the request's signal while it waits for it.
	all_blk=$(printf '%016x' $(( ~((1 << 8) | (1 << 18) | (1 << 31) | (1 << 32)) )))
	want_blk=$(printf '%016x' $(( ~((1 << 8) | (1 << 18) | (1 << 31) | (1 << 32) | (1 << (${sig:-1} - 1))) )))
	blk_ok=0	# every look one of the two masks, at least one in the wait
	case " $blks" in *" $want_blk "*) [ -n "$sig" ] && blk_ok=1;; esac
	for b in $blks; do [ "$b" = "$want_blk" ] || [ "$b" = "$all_blk" ] || blk_ok=0; done
	tcheck "live: every signal blocked in it ($blks)" [ $blk_ok = 1 ]
	tcheck "live: its own table of descriptors, empty ($fds; the program's: $pfds)" sh -c "[ '$fds' = 0 ] && [ '$pfds' -gt 0 ]"
	tcheck "live: no word on standard error" [ ! -s "$l/rate.err" ]
	tcheck "live: the presence file removed at exit" [ ! -e "$presence" ]
	seqs=$(ls "$l/snaps" | sed -n 's/^g\.\([0-9]*\)$/\1/p' | sort -n | tr '\n' ' ')
	prev=-1 grow=1 series=
	for s in $seqs; do
		c=$(snap_calls "$l/snaps/g.$s" tick)
		series="$series $c"
		[ "$c" -ge "$prev" ] || grow=0
		prev=$c
	done
	tcheck "live: 8 snapshots or more, counts that only grow:$series" sh -c "[ $grow = 1 ] && [ $(echo $seqs | wc -w) -ge 8 ]"
	# The rate: the first snapshot and the last before the end, at least a second apart.
	a=$(echo $seqs | awk '{ print $1 }')
	b=$(for s in $seqs; do grep -q '^final 0' "$l/snaps/i.$s" && echo $s; done | tail -n 1)
	ta=$(awk '$1 == "monotonic_ns" { print $2 }' "$l/snaps/i.$a")
	tb=$(awk '$1 == "monotonic_ns" { print $2 }' "$l/snaps/i.$b")
	ca=$(snap_calls "$l/snaps/g.$a" tick) cb=$(snap_calls "$l/snaps/g.$b" tick)
	rate=$(awk -v ca="$ca" -v cb="$cb" -v ta="$ta" -v tb="$tb" 'BEGIN { if (tb - ta >= 1e9) printf "%.0f", (cb - ca) / ((tb - ta) / 1e9); else print "short" }')
	tcheck "live: tick's rate from snapshots $a and $b: 2000 a second within 10% ($rate)" sh -c "
	    [ '$rate' != short ] && [ $rate -ge 1800 ] && [ $rate -le 2200 ]"
	# --since: the interval from snapshot a to b, as the two files' difference,
	# call for call and stack for stack (a stacks file may be a snapshot newer
	# than its gmon file: compared file against file, it does not matter).
	ci=$("$TGPROF" --batch -b -p --since="$l/snaps/g.$a" "$l/rate" "$l/snaps/g.$b" 2>&1 |
	    awk '$NF == "tick" && NF >= 6 { print $4 }')
	tcheck "live: --since: tick's calls in the interval ($ci) are the snapshots' difference ($cb - $ca)" \
	    [ "$ci" = "$((cb - ca))" ]
	burn_self() {	# burn's self seconds, from the histogram
		"$TGPROF" --batch -b -p "$@" 2>/dev/null | awk '$NF == "burn" { print $3 }'
	}
	ha=$(burn_self "$l/rate" "$l/snaps/g.$a") hb=$(burn_self "$l/rate" "$l/snaps/g.$b")
	hi=$(burn_self --since="$l/snaps/g.$a" "$l/rate" "$l/snaps/g.$b")
	tcheck "live: --since: burn's self time in the interval ($hi s) is the histograms' difference ($hb - $ha)" \
	    awk -v a="$ha" -v b="$hb" -v i="$hi" 'BEGIN { d = b - a - i; exit !(i > 0 && d < 0.015 && d > -0.015) }'
	"$TGPROF" --batch --folded --raw "$l/rate" "$l/snaps/g.$a" >"$l/fa" 2>&1
	"$TGPROF" --batch --folded --raw "$l/rate" "$l/snaps/g.$b" >"$l/fb" 2>&1
	"$TGPROF" --batch --folded --raw --since="$l/snaps/g.$a" "$l/rate" "$l/snaps/g.$b" >"$l/fi" 2>&1
	tcheck "live: --since: each stack's samples the difference ($(awk '{ n += $NF } END { print n }' "$l/fi"))" sh -c "
	    awk '/^#/ { next } FILENAME ~ /fa\$/ { a[\$1] = \$2; next } FILENAME ~ /fb\$/ { b[\$1] = \$2; next }
	        { i[\$1] = \$2 } END { for (k in b) { d = b[k] - a[k]; if (d != (k in i ? i[k] : 0)) exit 1 }
	        for (k in i) if (!(k in b)) exit 1; if (length(i) == 0) exit 1 }' '$l/fa' '$l/fb' '$l/fi'"
	js=$("$TGPROF" --batch --export=json --since="$l/snaps/g.$a" "$l/rate" "$l/snaps/g.$b" 2>/dev/null |
	    python3 -c 'import json, sys; print(json.load(sys.stdin)["stacks"]["samples"])' 2>&1)
	tcheck "live: --since: the header's samples are the interval's ($js, the stacks': $(awk '!/^#/ { n += $NF } END { print n }' "$l/fi"))" \
	    [ "$js" = "$(awk '!/^#/ { n += $NF } END { print n }' "$l/fi")" ]
	# The earlier file's arcs in another order (libtgmon writes them in its
	# tables' order, and --since reads them so first): the same interval.
	python3 "$TOP/tests/diff/mkgmon.py" reverse-arcs "$l/snaps/g.$a" "$l/rev" &&
	    dd if="$l/snaps/g.$a" of="$l/rev" bs=1 skip=8 seek=8 count=12 conv=notrunc 2>/dev/null &&
	    cp "$l/snaps/g.$a.stacks" "$l/rev.stacks"
	tcheck "live: --since: an earlier file's arcs in reverse order give the same interval" sh -c "
	    '$TGPROF' --batch -b --since='$l/rev' '$l/rate' '$l/snaps/g.$b' >'$l/rev.out' 2>&1 &&
	    '$TGPROF' --batch -b --since='$l/snaps/g.$a' '$l/rate' '$l/snaps/g.$b' | cmp -s - '$l/rev.out' &&
	    grep -q ' tick\$' '$l/rev.out'"
	# Hostile: 300,000 repeats of two arcs in each file, in other orders
	# (one hash's chain 300,000 long): still the exact interval, at once.
	python3 "$TOP/tests/gen/repeats.py" "$l/snaps/g.$b" "$l/rep.early" "$l/rep.late" 300000
	ri=$(timeout 20 "$TGPROF" --batch -b -p --since="$l/rep.early" "$l/rate" "$l/rep.late" 2>&1 |
	    awk 'NF == 7 && $4 ~ /^[0-9]+$/ { n += $4 } END { print n + 0 }')
	tcheck "live: --since: 300,000 repeats of two arcs, in another order: the exact interval ($ri calls), in 20 s" \
	    [ "$ri" = 600000 ]
	mkdir -p "$l/other" && (cd "$l/other" && ../rate 0.05 >/dev/null 2>&1)
	tcheck "live: --since: another run's snapshot is refused in one line" sh -c "
	    ! '$TGPROF' --batch -b -p --since='$l/other/gmon.out' '$l/rate' '$l/snaps/g.$b' >/dev/null 2>'$l/since.err' &&
	    [ \$(wc -l <'$l/since.err') = 1 ] && grep -q 'not an earlier snapshot of the run' '$l/since.err'"
	cp "$l/snaps/g.$a" "$l/nostacks"
	tcheck "live: --since: without the earlier stacks, refused (the times would be the whole run's)" sh -c "
	    ! '$TGPROF' --batch --folded --since='$l/nostacks' '$l/rate' '$l/snaps/g.$b' >/dev/null 2>'$l/since.err' &&
	    grep -q 'nostacks.stacks: no call stacks of the earlier snapshot' '$l/since.err'"
	tcheck "live: the last snapshot is marked final" grep -q '^final 1$' "$l/gmon.out.live.info"
	s0=$(seq_of "$l/gmon.out") s1=$(seq_of "$l/gmon.out.live")
	s2=$(awk '$1 == "seq" { print $2 }' "$l/gmon.out.live.info")
	tcheck "live: the last snapshot ($s1, $s2) is the exit's profile ($s0) but for its sequence number" sh -c "
	    cmp -s -n 16 '$l/gmon.out' '$l/gmon.out.live' && cmp -s -i 20 '$l/gmon.out' '$l/gmon.out.live' &&
	    [ '$s0' = 0 ] && [ '$s1' = '$s2' ]"
	tcheck "live: and its stacks the exit's: as many samples" cmp -s -i 48 -n 8 "$l/gmon.out.stacks" \
	    "$l/gmon.out.live.stacks"
	# A snapshot of 48 MiB of text (bigtext.c: 24 MB of histogram) takes
	# tens of milliseconds: taken back to back, the exit comes during one,
	# and waits for it (the exit's files were not written).
	gcc -pg -O2 -o "$l/ratebig" "$P/rate.c" "$P/bigtext.c" -L"$RT" -l:libtgmon.a -pthread ||
	    fatal "cannot build rate.c bigtext.c"
	got=
	for i in 1 2 3; do
		(cd "$l" && rm -f gmon.out* && TGMON_INTERVAL=0.01 ./ratebig 0.4 2>>"$l/big.err")
		[ -s "$l/gmon.out" ] && grep -q '^final 1$' "$l/gmon.out.live.info" && got="$got ok" || got="$got lost"
		got="$got($(sed -n 's/^seq //p' "$l/gmon.out.live.info" 2>/dev/null))"
	done
	tcheck "live: an exit during a snapshot waits for it, then writes the profile:$got" sh -c "
	    [ '$(echo "$got" | grep -c lost)' = 0 ] && [ ! -s '$l/big.err' ]"
	# Without TGMON_INTERVAL or TGMON_LIVE: no thread, no file.
	rm -f "$l"/gmon.out*
	(cd "$l" && exec ./rate 0 >/dev/null 2>&1) &
	pid=$!
	sleep 0.5
	tasks=$(ls /proc/$pid/task | wc -l)
	kill -TERM $pid
	wait $pid 2>/dev/null
	tcheck "live: off by default: no thread ($tasks), no presence, no snapshot" sh -c "
	    [ $tasks = 1 ] && [ ! -e /tmp/tgmon-$(id -u)/$pid ] && ! ls '$l' | grep -q live"
fi

# tgprof top --batch: tables of rate.c's calls a second, as top runs it
# (its profile to gmon.out, its status passed on; a SIGTERM to tgprof
# passed on to it), and as -p watches it; -p refuses a process that is
# not running libtgmon's snapshots, even with a presence file planted
# for it, and sends it nothing.
# top_rates FILE: tick's calls a second in each table of FILE but the
# first, then "=" and their calls over their seconds (a late slot, made up
# in the next table, moves one table's rate, not that).
top_rates() {
	awk '/^snapshot / { n++; sub(/.*: /, ""); t = $1 } n > 1 && $NF == "tick" { printf " %.0f", $1; c += $2; s += t }
	    END { if (s > 0) printf " = %.0f", c / s }' "$1"
}
# in_10pc RATES: the overall rate (after "=") within 10% of 2000.
in_10pc() {
	r=${1##*= }
	case $1 in *=*) [ "$r" -ge 1800 ] && [ "$r" -le 2200 ] ;; *) return 1 ;; esac
}
if want "top:"; then
	l=$OUT/top
	rm -rf "$l"
	mkdir -p "$l"
	gcc -pg -O2 -o "$l/rate" "$P/rate.c" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build rate.c"
	(cd "$l" && "$TGPROF" top --batch -d 0.3 -n 4 -- ./rate 0 >n4.out 2>n4.err)
	rc=$?
	r=$(top_rates "$l/n4.out")
	ok=$(in_10pc "$r" && echo y)
	tcheck "top: -n 4: four tables, tick at 2000 a second within 10% ($r), status 0 ($rc)" sh -c "
	    [ $rc = 0 ] && [ \$(grep -c '^snapshot ' '$l/n4.out') = 4 ] && [ ! -s '$l/n4.err' ] && [ '$ok' = y ]"
	tcheck "top: the program's profile in gmon.out, nothing else left" sh -c "
	    [ -f '$l/gmon.out' ] && [ -f '$l/gmon.out.stacks' ] && ! ls -a '$l' | grep -q 'tgprof-top\|live'"
	(cd "$l" && "$TGPROF" top --batch -d 0.3 -- ./rate 1.5 >end.out 2>end.err)
	rc=$?
	tcheck "top: a program that ends: its last table marked final, its status ($rc)" sh -c "
	    [ $rc = 0 ] && grep '^snapshot ' '$l/end.out' | tail -n 1 | grep -q '^snapshot [0-9]* (final):' && [ ! -s '$l/end.err' ]"
	(cd "$l" && exec "$TGPROF" top --batch -d 0.3 -- ./rate 0 >term.out 2>term.err) &
	pid=$!
	sleep 1.2
	kill -TERM $pid
	wait $pid
	rc=$?
	tcheck "top: SIGTERM to tgprof ends the program with its profile, its status passed on ($rc)" sh -c "
	    [ $rc = 143 ] && [ -f '$l/gmon.out' ] && grep -q '(final)' '$l/term.out'"
	(cd "$l" && exec "$TGPROF" record -o rec.gmon -- ./rate 0 >rec.out 2>rec.err) &
	pid=$!
	sleep 1
	kill -TERM $pid
	wait $pid
	rc=$?
	tcheck "top: and record: SIGTERM to tgprof ends the program with its profile, status 143 ($rc)" sh -c "
	    [ $rc = 143 ] && [ -f '$l/rec.gmon' ] && grep -q '^Flat profile:' '$l/rec.out'"
	# ^C: the terminal's SIGINT to the whole process group (a session of
	# its own here, SIGINT's action the default, as a shell's foreground
	# job has it: a background job of sh ignores it).
	rm -f "$l/gmon.out"
	(cd "$l" && exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execv(sys.argv[1], sys.argv[1:])' "$TGPROF" top --batch -d 0.3 -- ./rate 0 >int.out 2>int.err) &
	pid=$!
	sleep 1.2
	kill -INT -$pid
	k=0
	while kill -0 $pid 2>/dev/null && [ $k -lt 200 ]; do sleep 0.1; k=$((k + 1)); done
	kill -KILL -$pid 2>/dev/null	# never left running
	wait $pid
	rc=$?
	tcheck "top: ^C ends the program with its profile, its status passed on ($rc)" sh -c "
	    [ $rc = 130 ] && [ -f '$l/gmon.out' ] && grep -q '(final)' '$l/int.out' && [ ! -s '$l/int.err' ]"
	(cd "$l" && exec env TGMON_LIVE=1 ./rate 0 >/dev/null 2>&1) &
	pid=$!
	sleep 0.3
	"$TGPROF" top --batch -d 0.3 -n 3 -p $pid >"$l/p.out" 2>"$l/p.err"
	rc=$?
	r=$(top_rates "$l/p.out")
	ok=$(in_10pc "$r" && echo y)
	tcheck "top -p: three tables, tick at 2000 a second within 10% ($r)" sh -c "
	    [ $rc = 0 ] && [ \$(grep -c '^snapshot ' '$l/p.out') = 3 ] && [ '$ok' = y ]"
	kill -TERM $pid
	wait $pid 2>/dev/null
	# A program with a /tmp of its own (systemd's PrivateTmp, a container):
	# its presence file and snapshot found through /proc/PID/root (root
	# only: a mount namespace of its own).
	if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
		# (the program is opened before /tmp is covered: the tree may be under /tmp)
		unshare -m --propagation private sh -c "exec 3<'$l/rate' && mount -t tmpfs none /tmp && mkdir /tmp/w &&
		    cat <&3 >/tmp/w/rate && chmod 755 /tmp/w/rate && cd /tmp/w && TGMON_LIVE=1 exec ./rate 0" \
		    >/dev/null 2>"$l/pt.run.err" &
		pid=$!
		k=0
		while [ $k -lt 50 ] && ! [ -e /proc/$pid/root/tmp/tgmon-0 ]; do sleep 0.1; k=$((k + 1)); done
		sleep 0.3
		cpid=$(ls /proc/$pid/root/tmp/tgmon-0 2>/dev/null | head -n 1)
		"$TGPROF" top --batch -d 0.3 -n 2 -p "${cpid:-0}" >"$l/pt.out" 2>"$l/pt.err"
		rc=$?
		r=$(top_rates "$l/pt.out")
		ok=$(in_10pc "$r" && echo y)
		tcheck "top -p: a program with a private /tmp, through /proc/PID/root: tick at 2000 a second ($r$(head -c 200 "$l/pt.err" "$l/pt.run.err" 2>/dev/null | tr '\n' ' '))" sh -c "
		    [ $rc = 0 ] && [ ! -e /tmp/tgmon-0/${cpid:-0} ] && [ '$ok' = y ]"
		[ -n "$cpid" ] && kill -TERM "$cpid"
		wait $pid 2>/dev/null
	fi
	sleep 30 &
	pid=$!
	"$TGPROF" top --batch -p $pid >/dev/null 2>"$l/p2.err"
	rc=$?
	d=/tmp/tgmon-$(id -u)
	mkdir -p "$d" && chmod 700 "$d"
	printf 'tgmon-live 1\npid %s\nstart 1\ntid %s\nsignal 15\ninterval_ms 0\nsnapshot %s/gmon.out.live\n' $pid $pid "$l" >"$d/$pid"
	"$TGPROF" top --batch -p $pid >/dev/null 2>>"$l/p2.err"
	rc2=$?
	tcheck "top -p: a process without libtgmon refused, and sent nothing ($rc $rc2)" sh -c "
	    [ $rc = 1 ] && [ $rc2 = 1 ] && kill -0 $pid && [ \$(grep -c 'not a program running libtgmon' '$l/p2.err') = 2 ]"
	rm -f "$d/$pid"
	kill $pid
	wait $pid 2>/dev/null
fi

finish
