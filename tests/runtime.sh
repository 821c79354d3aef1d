#!/bin/sh
# tests/runtime.sh: libtgmon on live programs, read back with GNU gprof and tgprof.
#
# Usage: runtime.sh TGPROF OUT
# Each program of tests/progs/rt is built with gcc (and clang when there is
# one) as -pg -O0, -pg -O2 and -pg -mfentry -O2 and linked with libtgmon.a;
# the counts it makes are known exactly.  Also: LD_PRELOAD of libtgmon.so
# into a program linked for glibc's runtime, the time accounted (a ratio of
# CPU time, not seconds), and an output path that cannot be written.
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

# LD_PRELOAD into a program built for glibc's runtime.
d=$OUT/preload
mkdir -p "$d"
gcc -pg -O2 -o "$d/threads" "$P/threads.c" -pthread || fatal "cannot build threads.c"
(cd "$d" && rm -f gmon.out && LD_PRELOAD=$RT/libtgmon.so ./threads >/dev/null)
n=$(calls "$d/gmon.out" "$d/threads" leaf_thr)
tcheck "LD_PRELOAD=libtgmon.so: 4000000 calls of leaf_thr ($n)" [ "$n" = 4000000 ]

# Time: the samples account for most of the CPU time used (the stubs' too, as tgmon_count).
d=$OUT/time
mkdir -p "$d"
gcc -pg -O0 -o "$d/busy" "$P/busy.c" -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build busy.c"
cpu=$(cd "$d" && rm -f gmon.out && ./busy 37 | awk '{ print $2 }')
sampled=$("$TGPROF" --batch -b -p "$d/busy" "$d/gmon.out" |
    awk 'NR > 5 && $3 ~ /^[0-9.]+$/ { s += $3 } END { print s + 0 }')
tcheck "time: $sampled s sampled of $cpu s of CPU (at least 85%)" \
    awk -v s="$sampled" -v c="$cpu" 'BEGIN { exit !(c > 0 && s >= 0.85 * c) }'
tcheck "time: the runtime's own cost shows (tgmon_count)" \
    sh -c "'$TGPROF' --batch -b -p '$d/busy' '$d/gmon.out' | grep -q ' tgmon_count\$'"
if grep -q 'HAVE_UI 1' "$TOP/config.h"; then
	printf 'resize 200 60\ndump screen\n' >"$d/keys"
	(cd "$d" && TGPROF_SCRIPT=keys "$TGPROF" busy gmon.out)
	tcheck "browser: the runtime's rows are marked [profiling]" \
	    sh -c "grep -q ' tgmon_count  \[profiling\] *|' '$d/screen' &&
	        ! grep ' tgmon_[a-z_]* *|' '$d/screen' | grep -qv '\[profiling\]'"
	tcheck "browser: the top line gives the profiling's share" \
	    grep -q '| profiling [0-9.]*% (\[profiling\] rows)' "$d/screen"
fi

# A file that cannot be written: one line, the program's exit status unchanged, nothing left.
(cd "$d" && GMON_OUT_PREFIX=/nonexistent/dir/prof ./busy 20 >/dev/null 2>"$d/err")
tcheck "unwritable: the program still exits 0" [ $? -eq 0 ]
tcheck "unwritable: one line saying so" \
    sh -c "[ \$(wc -l <'$d/err') -eq 1 ] && grep -q '^libtgmon: /nonexistent/dir/prof.[0-9]*: cannot be written: ' '$d/err'"
finish
