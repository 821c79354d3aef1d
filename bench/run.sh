#!/bin/sh
# bench/run.sh: tgprof --batch against GNU gprof on the same synthetic profiles (make bench).
#
# Profiles come from tests/gen/synth.py: an ELF with N functions and a
# gmon.out with cycles (tests/gen/chain.py: a long call chain).  For each size, tgprof runs
# five times (the fastest counts: this machine's speed varies) and gprof
# once; the script prints wall time, peak memory and the ratio.  gprof on
# 100,000 functions takes about 6 minutes and runs only with BENCH_FULL=1.
# The browser's keys are timed at 100,000 and 1,000,000 functions (the
# first run makes that profile: about 30 s and 500 MB in bench/out).
# BENCH_SCALE=1 adds 10 million arcs and 1 GiB gmon.out files (bench/arcs.c).
# What snapshots (TGMON_INTERVAL, issue #29) cost a program of 100,000
# functions, each called every round (bench/live_gen.py, built once with
# -pg -O1: about a minute).  The writer thread's CPU time per snapshot
# (its /proc schedstat, over some 30 snapshots at 10 a second), what one
# a second is of one CPU (goal: under 1%), the files' size; then the
# program's CPU time (user + system, all threads) with TGMON_INTERVAL=1
# against none, the median of 5 interleaved runs of about 8 s each.
live() {
	d=$OUT/rt-live
	mkdir -p "$d"
	cc -O2 -o "$d/cpu" "$TOP/bench/cpu.c" || exit 1
	if [ ! -f "$d/built" ]; then
		rm -rf "$d/src"
		python3 "$TOP/bench/live_gen.py" 100000 "$d/src" &&
		    (cd "$d/src" && ls *.c | xargs -P 2 -n 3 gcc -pg -O1 -c) && touch "$d/built" || exit 1
	fi
	(cd "$d/src" && gcc -pg -o ../prog *.o -L"$TOP/runtime" -l:libtgmon.a -pthread) || exit 1
	(cd "$d" && rm -f gmon.out* && exec env TGMON_INTERVAL=0.1 ./prog 2000 >/dev/null) &
	pid=$!
	sleep 4
	ns=0
	for t in /proc/$pid/task/*; do
		grep -q tgmon-live "$t/comm" 2>/dev/null && ns=$(cut -d' ' -f1 "$t/schedstat")
	done
	n=$(awk '$1 == "seq" { print $2 }' "$d/gmon.out.live.info" 2>/dev/null)
	size=$(cat "$d/gmon.out.live" "$d/gmon.out.live.stacks" | wc -c)
	wait $pid
	awk -v ns="$ns" -v n="${n:-0}" -v b="$size" 'BEGIN { if (n > 0) printf "snapshots at 100,000 functions:   %.1f ms of CPU each (%d taken, %.1f MB written each): at one a second, %.2f%% of one CPU (goal: under 1%%)\n", ns / n / 1e6, n, b / 1e6, ns / n / 1e7; else print "snapshots at 100,000 functions: none taken" }'
	: >"$d/on"
	: >"$d/off"
	for i in 1 2 3 4 5; do
		for v in $( [ $((i % 2)) = 1 ] && echo "1 0" || echo "0 1"); do
			if [ "$v" = 1 ]; then
				(cd "$d" && TGMON_INTERVAL=1 ./cpu ./prog 3000 >>on) || exit 1
			else
				(cd "$d" && ./cpu ./prog 3000 >>off) || exit 1
			fi
		done
	done
	on=$(sort -n "$d/on" | sed -n 3p) off=$(sort -n "$d/off" | sed -n 3p)
	printf '  the program, CPU time: %.3f s with a snapshot a second, %.3f s without: %+.1f%% (median of 5; this machine varies by a few %%)\n' \
	    "$on" "$off" "$(awk -v a="$on" -v b="$off" 'BEGIN { print 100 * (a - b) / b }')"
	refresh
}

# tgprof top's browser on that program, a snapshot a second: each refresh
# (the new snapshot copied, read with the executable read once, its
# interval made, every pane's rows made again, the screen drawn;
# TGPROF_KEYTIMES' "refresh"), 8 of the last interval's then 4 of the
# whole run's; the medians, the slowest and the peak memory.
refresh() {
	grep -q 'HAVE_UI 1' "$TOP/config.h" || { echo "(top's refresh: built without ncursesw)"; return; }
	d=$OUT/rt-live
	[ -x "$d/prog" ] || { echo "(top's refresh: no program of 100,000 functions: BENCH_ONLY=live makes it)"; return; }
	printf 'tick\ntick\ntick\ntick\ntick\ntick\ntick\ntick\nkey c\ntick\ntick\ntick\ntick\nkey q\n' >"$d/top.keys"
	(cd "$d" && rm -f gmon.out* && TGPROF_KEYTIMES=top.times TGPROF_SCRIPT=top.keys "$PEAK" "$TGPROF" top -d 1 -- \
	    ./prog 100000 | cut -d' ' -f2 >top.kib) || exit 1
	awk -v kib="$(cat "$d/top.kib")" 'NR > 1 && $3 == "refresh" { t[n++] = $1 } $3 == "c" { split_at = n }
	    function med(a, lo, hi,   k, i, j, v, m) { m = 0; for (i = lo; i < hi; i++) v[m++] = a[i]
	        for (i = 1; i < m; i++) for (j = i; j > 0 && v[j - 1] > v[j]; j--) { k = v[j]; v[j] = v[j - 1]; v[j - 1] = k }
	        return m % 2 ? v[(m - 1) / 2] : (v[m / 2 - 1] + v[m / 2]) / 2 }
	    END { s = 0; for (i = 0; i < n; i++) s = t[i] > s ? t[i] : s
	        printf "top'"'"'s browser at 100,000 functions, a refresh: %.0f ms (the last interval, median of %d), %.0f ms (the whole run, median of %d), slowest %.0f ms (goal: under 200 ms); peak memory %d KiB\n",
	        med(t, 0, split_at), split_at, med(t, split_at, n), n - split_at, s, kib }' "$d/top.times"
}

# BENCH_ONLY="runtime stacks_cost" runs only the parts named (functions below);
# BENCH_ONLY=live measures what libtgmon's snapshots cost (TGMON_INTERVAL).
# BENCH_ONLY=truth compares libtgmon's profiles of real programs with perf's
# of the same programs built without -pg (bench/truth.py).
#
# For -l, bench/synth_src.py writes a C program with 20,000 functions in 500
# files, built with gcc -pg -g -O2 (about three minutes, once) and run once
# for its gmon.out; tgprof --batch -l and gprof -l then read the same files,
# and tests/tools/test-lines -t times the per-line data of every function.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$TOP/bench/out
TGPROF=$TOP/tgprof
mkdir -p "$OUT"
SYNTH=$TOP/tests/gen/synth.py
cc -O2 -o "$OUT/peak" "$TOP/bench/peak.c" || exit 1
PEAK=$OUT/peak

profile() {	# n [--cxx]: makes $OUT/sN (C names) or $OUT/cN (C++ names)
	d=$OUT/s$1
	[ $# -gt 1 ] && d=$OUT/c$1
	[ -f "$d/gmon.out" ] || python3 "$SYNTH" "$1" "$d" ${2:+"$2"} >/dev/null || exit 1
}

best() {	# runs: the fastest of N runs of the rest, as "time kib"
	n=$1
	shift
	for _ in $(seq "$n"); do "$PEAK" "$@"; done | sort -n | head -n 1 | cut -d' ' -f1,2
}

median() {	# runs: the median of N runs (N odd) of the rest, as "time kib"
	n=$1
	shift
	for _ in $(seq "$n"); do "$PEAK" "$@"; done | sort -n | sed -n "$(( (n + 1) / 2 ))p" | cut -d' ' -f1,2
}

report() {	# label time kib
	printf '%-44s %8.3f s %9d KiB\n' "$1" "$2" "$3"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'
}

# -l on a program with debugging information (bench/synth_src.py).
lines() {
	d=$OUT/src20000
	if [ ! -f "$d/gmon.out" ]; then
		python3 "$TOP/bench/synth_src.py" 20000 500 "$d" &&
		    sh "$d/build.sh" >"$d/build.log" 2>&1 && (cd "$d" && ./prog >/dev/null) || exit 1
	fi
	set -- $(best 3 "$TGPROF" --batch -l "$d/prog" "$d/gmon.out")
	report "tgprof --batch -l, 20,000 functions" "$1" "$2"
	tl=$1 ml=$2
	set -- $(best 1 gprof -l "$d/prog" "$d/gmon.out")
	report "gprof -l, 20,000 functions" "$1" "$2"
	echo "-l speed-up:                      $(ratio "$1" "$tl")x (goal: at least 10x)"
	echo "-l memory:                        $(ratio "$ml" "$2") of gprof's"
	echo "per-line data (profile_lines, goal: all functions in about 1 s):"
	echo "  $("$TOP/tests/tools/test-lines" -t "$d/prog" "$d/gmon.out")"
}

# --export at 100,000 functions, against the batch report of the same
# profile (the fastest of 3 each): each format should take about as long.
exports() {
	profile 100000
	d=$OUT/s100000
	set -- $(best 3 "$TGPROF" --batch "$d/prog" "$d/gmon.out")
	report "batch report, 100,000 functions" "$1" "$2"
	tb=$1
	for f in callgrind dot json folded pprof; do
		set -- $(best 3 "$TGPROF" --export=$f -o "$OUT/export.$f" "$d/prog" "$d/gmon.out")
		report "--export=$f, 100,000 functions" "$1" "$2"
		echo "  $(ratio "$1" "$tb") of the batch report's time (goal: about 1)"
	done
	# --diff: both profiles loaded (here the same one twice), all 100,000 rows.
	set -- $(best 3 "$TGPROF" --diff "$d/prog" "$d/gmon.out" "$d/gmon.out")
	report "--diff, 100,000 functions" "$1" "$2"
	set -- $(best 3 "$TGPROF" --diff --format=json "$d/prog" "$d/gmon.out" "$d/gmon.out")
	report "--diff --format=json" "$1" "$2"
	if grep -q 'HAVE_UI 1' "$TOP/config.h"; then
		printf 'key Q\n' >"$OUT/quit.keys"
		set -- $(best 3 env TGPROF_SCRIPT="$OUT/quit.keys" "$TGPROF" --diff "$d/prog" "$d/gmon.out" "$d/gmon.out")
		report "--diff in the browser, first screen" "$1" "$2"
	fi
	echo "  (goal: each under 1 s)"
}

# The flame graph on 50,000 distinct stacks (1.28 million frames) over the
# 100,000-function profile (bench/flame_spec.py): F builds the tree and
# lays it out; the keys of bench/flame.keys, the slowest named.
flame() {
	d=$OUT/s100000
	grep -q 'HAVE_UI 1' "$TOP/config.h" || { echo "(flame graph: built without ncursesw)"; return; }
	if [ ! -f "$OUT/flame.gmon.stacks" ]; then
		python3 "$TOP/bench/flame_spec.py" "$d/prog" 50000 >"$OUT/flame.spec" &&
		    python3 "$TOP/tests/gen/stacks.py" "$d/prog" "$d/gmon.out" "$OUT/flame.gmon" \
		    "$OUT/flame.gmon.stacks" 0x77 <"$OUT/flame.spec" || exit 1
	fi
	for _ in 1 2 3; do
		TGPROF_KEYTIMES=$OUT/keytimes TGPROF_SCRIPT=$TOP/bench/flame.keys "$PEAK" \
		    "$TGPROF" "$d/prog" "$OUT/flame.gmon" >/dev/null || exit 1
		echo "$(sed -n '1s/.*slowest \([0-9.]*\) ms.*/\1/p' "$OUT/keytimes") $(sed -n 1p "$OUT/keytimes")"
	done | sort -n | sed -n 2p | cut -d' ' -f2- >"$OUT/flame-keys"
	echo "flame graph, bench/flame.keys:    $(cat "$OUT/flame-keys") (goal: F under 1 s, the rest under 50 ms)"
}

# libtgmon against glibc's runtime, in each way of linking it, on three
# programs built here with -pg -O2: recursive fib(38) (one arc), interp
# (bench/interp_gen.py: a Lua-shaped interpreter, a hot dispatch loop over
# some 3,000 arcs, calls through pointers) and the same interpreter in 4
# threads.  The floor is the same objects linked with an mcount that
# returns at once (bench/mcount-empty.S); the same in a shared object
# gives the cost of reaching an mcount through the GOT, which glibc's
# runtime, -ltgmon and LD_PRELOAD pay and libtgmon.a does not.  For each: the CPU time (user +
# system, bench/cpu.c), the median of 5 runs interleaved with the others';
# the cost of a call above the floor (calls as libtgmon counts them,
# exactly); that cost against glibc's; and the share of the CPU time the
# profile's samples account for (one more run).
rt_build() {	# name source: $d/name.o and its five links
	gcc -O2 -pg -c -o "$d/$1.o" "$2" &&
	    gcc -o "$d/$1-floor" "$d/$1.o" "$d/mcount-empty.o" -pthread &&
	    gcc -o "$d/$1-floorso" "$d/$1.o" -L"$d" -lmcount-empty -Wl,-rpath,"$d" -pthread &&
	    gcc -pg -o "$d/$1-glibc" "$d/$1.o" -pthread &&
	    gcc -pg -o "$d/$1-static" "$d/$1.o" -L"$TOP/runtime" -l:libtgmon.a -pthread &&
	    gcc -pg -o "$d/$1-shared" "$d/$1.o" -L"$TOP/runtime" -ltgmon -Wl,-rpath,"$TOP/runtime" -pthread
}

rt_run() {	# mode name args: runs it in $d, printing its CPU time
	case $1 in
	preload) (cd "$d" && LD_PRELOAD=$TOP/runtime/libtgmon.so "$d/cpu" "./$2-glibc" $3) ;;
	glibc) (cd "$d" && "$d/cpu" "./$2-glibc" $3 2>/dev/null) ;;	# "call graph buffer size limit exceeded"
	*) (cd "$d" && "$d/cpu" "./$2-$1" $3) ;;
	esac
}

rt_accounted() {	# mode name args: the samples' seconds (the flat profile's last cumulative) over the CPU time, in %
	rm -f "$d"/gmon.out*
	cpu=$(rt_run "$@")
	b=$2-$1
	[ "$1" = preload ] && b=$2-glibc
	[ -f "$d/gmon.out" ] || { echo "(no gmon.out)"; return; }
	"$TGPROF" --batch -b -p "$d/$b" "$d/gmon.out" | awk -v c="$cpu" \
	    'NR > 5 && $2 ~ /^[0-9.]+$/ { s = $2 } END { printf("%.0f%%", c > 0 ? 100 * s / c : 0) }'
}

# rt_calls PROG: the calls of every arc in PROG's gmon.out, from the call
# graph's primary lines (N, or N+M with M recursive; a cycle's whole left out).
rt_calls() {
	"$TGPROF" --batch -b -q "$d/$1" "$d/gmon.out" | awk '/^\[[0-9]+\]/ && !/<cycle [0-9]+ as a whole>/ &&
	    $5 ~ /^[0-9]+(\+[0-9]+)?$/ { n = split($5, c, "+"); s += c[1] + (n > 1 ? c[2] : 0) }
	    END { printf("%d\n", s) }'
}

rt_program() {	# name args label goal: one program's table
	rm -f "$d"/gmon.out*
	(cd "$d" && "./$1-static" $2 >/dev/null) || exit 1
	calls=$(rt_calls "$1-static")
	modes="floor floorso glibc static shared preload"
	for m in $modes; do : >"$d/t.$m"; done
	for _ in 1 2 3 4 5; do
		for m in $modes; do rt_run "$m" "$1" "$2" >>"$d/t.$m" || exit 1; done
	done
	floor=$(sort -n "$d/t.floor" | sed -n 3p) fso=$(sort -n "$d/t.floorso" | sed -n 3p)
	got=$(awk -v t="$fso" -v f="$floor" -v c="$calls" 'BEGIN { print (t - f) / c * 1e9 }')
	printf '  %s: %s calls, floor %.3f s; an indirect call to mcount (in a shared object) %.2f ns\n' \
	    "$3" "$calls" "$floor" "$got"
	g= gso=
	for m in glibc static shared preload; do
		t=$(sort -n "$d/t.$m" | sed -n 3p)
		ns=$(awk -v t="$t" -v f="$floor" -v c="$calls" 'BEGIN { print (t - f) / c * 1e9 }')
		rel=
		[ -n "$g" ] && rel=$(awk -v a="$ns" -v b="$g" 'BEGIN { printf("%.2f of glibc\047s", a / b) }')
		g=${g:-$ns}
		printf '    %-8s %7.3f s %6.2f ns a call  %-15s time accounted %s\n' "$m" "$t" "$ns" \
		    "$rel" "$(rt_accounted "$m" "$1" "$2")"
		# glibc's runtime, -ltgmon and LD_PRELOAD are reached through the GOT: above that floor too.
		[ $m = static ] && continue
		ns=$(awk -v t="$t" -v f="$fso" -v c="$calls" 'BEGIN { print (t - f) / c * 1e9 }')
		rel=
		[ -n "$gso" ] && rel=$(awk -v a="$ns" -v b="$gso" 'BEGIN { printf(", %.2f of glibc\047s", a / b) }')
		gso=${gso:-$ns}
		printf '             above the indirect call: %.2f ns%s\n' "$ns" "$rel"
	done
	echo "    (goal: libtgmon linked in at most $4 of glibc's cost a call; at least 90% of the time accounted)"
}

runtime() {
	d=$OUT/rt
	mkdir -p "$d"
	[ "$(uname -m)" = x86_64 ] || { echo "(runtime: x86-64 only)"; return; }
	cc -O2 -o "$d/cpu" "$TOP/bench/cpu.c" && cc -c -o "$d/mcount-empty.o" "$TOP/bench/mcount-empty.S" &&
	    cc -shared -o "$d/libmcount-empty.so" "$d/mcount-empty.o" &&
	    python3 "$TOP/bench/interp_gen.py" "$d/interp.c" &&
	    rt_build fib "$TOP/bench/fib.c" && rt_build interp "$d/interp.c" || exit 1
	echo "libtgmon against glibc's runtime (CPU time, median of 5 interleaved runs; cost a call above an empty mcount's):"
	rt_program fib 38 "fib(38)" 0.25
	rt_program interp 5000 "interp, 5000 rounds" 0.35
	rt_program interp "1500 4" "interp, 4 threads x 1500 rounds" 0.35
	for b in glibc static; do
		gcc -O2 -pg -o "$d/threads-$b" "$TOP/tests/progs/rt/threads.c" -pthread \
		    $( [ $b = static ] && echo "-L$TOP/runtime -l:libtgmon.a") || exit 1
		(cd "$d" && rm -f gmon.out && ./threads-$b >/dev/null)
		c=$(LC_ALL=C gprof -b -p "$d/threads-$b" "$d/gmon.out" | awk '$NF == "leaf_thr" { print $4 }')
		echo "  4 threads x 1,000,000 calls, counted by $b: $c"
	done
}

# The cost of call stacks (gmon.out.stacks): the CPU time (user + system:
# the machine is shared, wall time is not steady) with TGMON_STACKS=1
# against TGMON_STACKS=0, the median of 9 runs of each, interleaved, on the
# call-heavy fib(40) and on a generated program of 2,000 functions
# (bench/synth_src.py, built once, -pg -O2), both linked with libtgmon.a
# and sampled at 1000 Hz.
stacks_cost() {
	d=$OUT/rt-stacks
	mkdir -p "$d"
	[ "$(uname -m)" = x86_64 ] || { echo "(stacks: x86-64 only)"; return; }
	cc -O2 -o "$d/cpu" "$TOP/bench/cpu.c" &&
	    gcc -O2 -pg -o "$d/fib" "$TOP/bench/fib.c" -L"$TOP/runtime" -l:libtgmon.a -pthread || exit 1
	s=$d/synth2000
	if [ ! -f "$s/built" ]; then
		rm -rf "$s"
		python3 "$TOP/bench/synth_src.py" 2000 20 "$s" >/dev/null &&
		    sed 's/r < 5000;/r < 40000;/' "$s/src/main.c" >"$s/main.c" && mv "$s/main.c" "$s/src/main.c" &&
		    (cd "$s" && ls src/main.c src/part*/*.c | xargs -P 2 -n 10 gcc -pg -O2 -c) >"$s/build.log" 2>&1 &&
		    touch "$s/built" || exit 1
	fi
	(cd "$s" && gcc -pg -o prog *.o -L"$TOP/runtime" -l:libtgmon.a -pthread) || exit 1
	echo "call stacks' cost (CPU time, TGMON_STACKS=1 against 0, median of 9 interleaved runs; goal: at most 5%):"
	for prog in "$d/fib 40" "$s/prog"; do
		name=fib\(40\)
		[ "$prog" = "$s/prog" ] && name="2,000 functions"
		: >"$d/on"
		: >"$d/off"
		for i in 1 2 3 4 5 6 7 8 9; do
			for v in $( [ $((i % 2)) = 1 ] && echo "1 0" || echo "0 1"); do
				(cd "$d" && TGMON_STACKS=$v "$d/cpu" $prog >>"$d/$( [ "$v" = 1 ] && echo on || echo off)")
			done
		done
		on=$(sort -n "$d/on" | sed -n 5p) off=$(sort -n "$d/off" | sed -n 5p)
		n=$(cd "$d" && rm -f gmon.out* && TGMON_STACKS=1 $prog >/dev/null &&
		    od -A n -t u8 -j 48 -N 16 gmon.out.stacks | awk '{ printf "%d samples, %.1f%% complete", $1, $1 ? 100 * $2 / $1 : 0 }')
		printf '  %-16s %7.3f s with, %7.3f s without: %+.1f%% (%s)\n' "$name" "$on" "$off" \
		    "$(awk -v a="$on" -v b="$off" 'BEGIN { print 100 * (a - b) / b }')" "$n"
	done
}

# The cost of switches of context (bench/switch.c: two threads passing a
# byte through pipes): CPU time, the median of 7 interleaved runs, of
# the program without -pg, and with libtgmon.a: by default (a thread
# that switches often gives up its perf task clock and its waits), with
# TGMON_WAITS=0, and with TGMON_CLOCK=timer TGMON_WAITS=0 (neither event
# ever opened).  At about 2.5 x 10^5 switches a second (WORK 1500), and
# at about 3,000 (WORK 150000), where the waits are recorded throughout.
switches() {
	d=$OUT/rt-switch
	mkdir -p "$d"
	[ "$(uname -m)" = x86_64 ] || { echo "(switches: x86-64 only)"; return; }
	cc -O2 -o "$d/cpu" "$TOP/bench/cpu.c" && gcc -O2 -o "$d/plain" "$TOP/bench/switch.c" -pthread &&
	    gcc -O2 -pg -o "$d/pg" "$TOP/bench/switch.c" -L"$TOP/runtime" -l:libtgmon.a -pthread || exit 1
	echo "switches of context (CPU time, median of 7 interleaved runs; goal: waits cost at most 2%):"
	for args in "1500 100000" "150000 3000"; do
		for m in plain default nowaits timer; do : >"$d/t.$m"; done
		for _ in 1 2 3 4 5 6 7; do
			(cd "$d" && rm -f gmon.out* && ./cpu ./plain $args >>t.plain &&
			    ./cpu ./pg $args >>t.default &&
			    TGMON_WAITS=0 ./cpu ./pg $args >>t.nowaits &&
			    TGMON_CLOCK=timer TGMON_WAITS=0 ./cpu ./pg $args >>t.timer) || exit 1
		done
		for m in plain default nowaits timer; do eval "t_$m=\$(sort -n \"\$d/t.\$m\" | sed -n 4p)"; done
		(cd "$d" && rm -f gmon.out* && ./pg $args) || exit 1
		n=$(od -A n -t u8 -j 104 -N 8 "$d/gmon.out.stacks" | tr -d ' ')
		printf '  work %s, %s trips: plain %.3f s; libtgmon %.3f s (%.2fx), waits off %.3f s (waits %+.1f%%), timers only %.3f s; %s waits recorded\n' \
		    ${args% *} ${args#* } "$t_plain" "$t_default" "$(awk -v a="$t_default" -v b="$t_plain" 'BEGIN { print a / b }')" \
		    "$t_nowaits" "$(awk -v a="$t_default" -v b="$t_nowaits" 'BEGIN { print 100 * (a - b) / b }')" "$t_timer" "$n"
	done
}

# Against the truth (issue #25): where real programs built without -pg
# spend their time, by perf record (cpu-clock at 4 kHz, DWARF call
# stacks), against tgprof's profile of the same programs built with -pg
# and libtgmon.a, on the same workloads (bench/truth.py, bench/truth/):
# Lua (an interpreter), zstd (a compressor), mawk and Lua's string.format
# (the C library).  Their sources are git directories under BENCH_SRC
# (default /work/.mirror: OWNER+NAME/repo), and BENCH_TRUTH_BUILD names
# the script that builds them into bench/out/truth (neither is in this
# repository: the part is skipped in one line without the script, a
# program whose source is absent likewise, and the whole part when perf
# is missing or refuses).  About a minute and a half (each workload runs
# 5-7 s unprofiled, three times), and a minute more for the first builds.
truth() {
	python3 "$TOP/bench/truth.py" "$TOP" "${BENCH_SRC:-/work/.mirror}" "$OUT/truth" || exit 1
}

# Scale (BENCH_SCALE=1: 2.5 GB of files, a few minutes, 4 GB of memory):
# call arcs among the 100,000 functions, 10 million distinct, then a 1 GiB
# gmon.out of 51 million records, once with 10 million distinct arcs
# (as merged profiles repeat them) and once all distinct.
scale() {
	d=$OUT/s100000
	cc -O2 -o "$OUT/arcs" "$TOP/bench/arcs.c" || exit 1
	r=$(( (1 << 30) / 21 ))
	for spec in "10000000 10000000 10m" "$r 10000000 1g-repeated" "$r $r 1g-distinct"; do
		set -- $spec
		[ -f "$OUT/arcs-$3.out" ] || nm "$d/prog" | "$OUT/arcs" "$1" "$2" "$OUT/arcs-$3.out" || exit 1
		set -- $(best 1 "$TGPROF" --batch -b -q "$d/prog" "$OUT/arcs-$3.out") "$3" "$2"
		report "tgprof -b -q, $3 ($4 arcs)" "$1" "$2"
	done
}

# Issue #30's figures in one run, at 100,000 and 1,000,000 functions
# (tests/gen/synth.py's profiles; the first run makes the larger, about
# 30 s): the floor of reading the inputs (nm of the executable, cat of
# gmon.out), tgprof --batch -b -p, the whole -b (796 MB of text at a
# million, to /dev/null), the browser's first screen (the load, a screen
# drawn, q); each the median of 5 with its peak memory.  Then a million
# against 100,000 (goal: at most 11x), and the same with C++ names.
# GNU gprof takes minutes at 100,000 functions
# (BENCH_FULL=1 above; over 100 s for -b -p alone).
million() {
	printf 'key Q\n' >"$OUT/quit.keys"
	for n in 100000 1000000; do
		profile $n
		p=$OUT/s$n
		set -- $(median 5 sh -c "nm '$p/prog' >/dev/null && cat '$p/gmon.out' >/dev/null")
		eval "floor$n=$1"
		report "nm + cat (the floor), $n" "$1" "$2"
		modes "" "" "$p" $n
	done
	echo "at 1,000,000: -b -p $bp1000000 s (goal: 2 s), -b $b1000000 s (goal: 5 s), first screen ${fs1000000:-?} s (goal: 2 s); 100,000's first screen ${fs100000:-?} s (goal: 0.25 s)"
	echo "growth from 100,000 to 1,000,000: -b -p $(ratio "$bp1000000" "$bp100000")x, -b $(ratio "$b1000000" "$b100000")x, first screen $(ratio "${fs1000000:-0}" "${fs100000:-1}")x (goal: at most 11x; reading the inputs, the floor: $(ratio "$floor1000000" "$floor100000")x)"
	# The same graphs with C++ names (synth.py --cxx: methods of class
	# templates, 60-190 bytes demangled), as large C++ programs have: what
	# demangling and long names cost on top.
	for n in 100000 1000000; do
		profile $n --cxx
		modes c "C++ names: " "$OUT/c$n" $n
	done
	echo "C++ names, growth from 100,000 to 1,000,000: -b -p $(ratio "$cbp1000000" "$cbp100000")x, -b $(ratio "$cb1000000" "$cb100000")x, first screen $(ratio "${cfs1000000:-0}" "${cfs100000:-1}")x"
}

# modes VAR LABEL DIR N: -b -p, -b and the browser's first screen on DIR's
# profile of N functions, each reported (LABEL in front) with its time in
# VARbpN, VARbN and VARfsN.
modes() {
	v=$1 label=$2 p=$3 n=$4
	set -- $(median 5 "$TGPROF" --batch -b -p "$p/prog" "$p/gmon.out")
	eval "${v}bp$n=$1"
	report "${label}tgprof -b -p, $n functions" "$1" "$2"
	set -- $(median 5 "$TGPROF" --batch -b "$p/prog" "$p/gmon.out")
	eval "${v}b$n=$1"
	report "${label}tgprof -b, $n functions" "$1" "$2"
	grep -q 'HAVE_UI 1' "$TOP/config.h" || return 0
	set -- $(median 5 env TGPROF_SCRIPT="$OUT/quit.keys" "$TGPROF" "$p/prog" "$p/gmon.out")
	eval "${v}fs$n=$1"
	report "${label}first screen, $n functions" "$1" "$2"
}

# The browser: the first screen (load included) at 100,000 functions, then
# the keys of bench/browse.keys (every key that can be slow on a large
# profile: x f u / n N \ s S L d Enter Tab g G, paging), each handled and
# redrawn, at 100,000 and 1,000,000 functions.  TGPROF_KEYTIMES gives each
# key's time; of three runs (this machine's speed varies), the one with the
# median slowest key is reported: its slowest key, by name, its mean and
# its three slowest, with the run's peak memory.
keys() {	# n label goal: one line, and the slowest keys
	for r in 1 2 3; do
		TGPROF_KEYTIMES=$OUT/keytimes.$r TGPROF_SCRIPT=$TOP/bench/browse.keys \
		    "$PEAK" "$TGPROF" "$OUT/s$1/prog" "$OUT/s$1/gmon.out" | cut -d' ' -f2 \
		    >"$OUT/keytimes.$r.kib" || exit 1
	done
	# The median run by its slowest key.
	r=$(for r in 1 2 3; do
		echo "$(sed -n '1s/.* slowest \([0-9.]*\) ms.*/\1/p' "$OUT/keytimes.$r") $r"
	done | sort -n | sed -n 2p | cut -d' ' -f2)
	f=$OUT/keytimes.$r
	printf '%-34s %s (goal: each under %s ms)\n' "browser keys, $2:" \
	    "$(sed -n '1s/^[0-9]* keys, //p' "$f")" "$3"
	echo "  slowest: $(tail -n +2 "$f" | sort -rn | head -n 3 | awk '{ t = $1; $1 = ""; $2 = "";
	    sub(/^ +/, ""); printf "%s%s %s ms", (NR > 1 ? ", " : ""), $0, t }'); peak memory" \
	    "$(cat "$f.kib") KiB"
}

browser() {
	grep -q 'HAVE_UI 1' "$TOP/config.h" || { echo "(browser: built without ncursesw)"; return; }
	profile 100000
	printf 'key Q\n' >"$OUT/quit.keys"
	set -- $(best 3 env TGPROF_SCRIPT="$OUT/quit.keys" "$TGPROF" "$OUT/s100000/prog" \
	    "$OUT/s100000/gmon.out")
	report "browser, first screen, 100,000 functions" "$1" "$2"
	echo "  (goal: under 1 s)"
	keys 100000 "100,000 functions" 50
	profile 1000000
	keys 1000000 "1,000,000 functions" 200
}

# The call tree on the 100,000-function profile: t opening it (its roots,
# the first open; the fastest of 3), the keys of bench/tree.keys (open,
# close, E and C, r and b, ...) and a search over it all open
# (bench/tree-search.keys), each key handled and redrawn.
calltree() {
	d=$OUT/s100000
	grep -q 'HAVE_UI 1' "$TOP/config.h" || { echo "(call tree: built without ncursesw)"; return; }
	printf 'key t\n' >"$OUT/tree-open.keys"
	for _ in 1 2 3; do
		TGPROF_KEYTIMES=$OUT/keytimes TGPROF_SCRIPT=$OUT/tree-open.keys \
		    "$TGPROF" "$d/prog" "$d/gmon.out" || exit 1
		sed 's/.*slowest \([0-9.]*\) ms.*/\1/' "$OUT/keytimes"
	done | sort -n | head -n 1 >"$OUT/tree-open"
	echo "call tree, opening it (t):        $(cat "$OUT/tree-open") ms (goal: under 1 s)"
	for k in tree tree-search; do
		TGPROF_KEYTIMES=$OUT/keytimes TGPROF_SCRIPT=$TOP/bench/$k.keys \
		    "$TGPROF" "$d/prog" "$d/gmon.out" || exit 1
		echo "call tree, bench/$k.keys:$(printf '%*s' $((15 - ${#k})) '')$(cat "$OUT/keytimes")" \
		    "(goal: each under 50 ms)"
	done
}

# BENCH_ONLY="runtime stacks_cost": just those parts (the functions above).
if [ -n "${BENCH_ONLY:-}" ]; then
	for part in $BENCH_ONLY; do "$part"; done
	exit 0
fi

{
	echo "tgprof benchmark, $(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -m)"
	for n in 20000 100000; do
		profile $n
		set -- $(best 5 "$TGPROF" --batch "$OUT/s$n/prog" "$OUT/s$n/gmon.out")
		eval "t$n=$1 m$n=$2"
		report "tgprof --batch, $n functions" "$1" "$2"
		if [ $n -eq 20000 ] || [ -n "${BENCH_FULL:-}" ]; then
			set -- $(best 1 gprof "$OUT/s$n/prog" "$OUT/s$n/gmon.out")
			eval "g$n=$1 gm$n=$2"
			report "gprof, $n functions" "$1" "$2"
		fi
	done
	echo "speed-up at 20,000 functions:     $(ratio "$g20000" "$t20000")x (goal: at least 50x)"
	echo "memory at 20,000 functions:       $(ratio "$m20000" "$gm20000") of gprof's (goal: at most 1)"
	echo "100,000 functions:                $t100000 s (goal: under 1 s)"
	echo "growth from 20,000 to 100,000:    $(ratio "$t100000" "$t20000")x (goal: at most 8x)"
	if [ -n "${g100000:-}" ]; then
		echo "speed-up at 100,000 functions:    $(ratio "$g100000" "$t100000")x"
		echo "memory at 100,000 functions:      $(ratio "$m100000" "$gm100000") of gprof's"
	else
		echo "(gprof at 100,000 functions: BENCH_FULL=1; measured 2026-11-22: 377.8 s, 106140 KiB)"
	fi
	lines
	exports
	million
	browser
	calltree
	flame
	runtime
	stacks_cost
	switches
	live
	truth
	[ -n "${BENCH_SCALE:-}" ] && scale
	python3 "$TOP/tests/gen/chain.py" 600000 "$OUT/chain" || exit 1
	set -- $(best 3 "$TGPROF" --batch -S "$OUT/chain/syms" "$OUT/s20000/prog" "$OUT/chain/gmon.out")
	report "tgprof, 600,000-function chain" "$1" "$2"
	echo "(gprof on that chain: SIGSEGV, its recursive search overflows the stack)"
} | tee "$OUT/results.txt"
