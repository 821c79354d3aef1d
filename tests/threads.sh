#!/bin/sh
# tests/threads.sh: the load's helper threads, and the browser's, under ThreadSanitizer: no data race.
#
# Usage: threads.sh TGPROF OUT PROGDIR -- PROGDIR: tests/progs.sh's programs.
# A load runs a dozen jobs beside its own thread (names sorted, records
# judged ahead, call sites, the flat order, the narrowing plan, the
# callees' order, memory faulted in ahead, the depth-first search's scout,
# which tsan/ sends from 1,000 functions) and the batch output formats
# on two: each writes its own arrays while the others read the profile.
# This suite builds tgprof again with -fsanitize=thread (make tsan/tgprof)
# and runs it where the threads meet: a 20,000-function profile (its arc
# records judged ahead) in -b, -b -p and -l, the browser on it through
# bench/browse.keys (x and f narrow it on threads of their own), and -c
# on the test programs; each output is TGPROF's own, and ThreadSanitizer
# says nothing.  Skipped in the sanitizer build (ASan is there; TSan does
# not mix with it).  Case names: "threads: ..."; T selects.
set -u
TGPROF=$1
OUT=$2
PROGS=$3
TOP=$(cd "$(dirname "$0")/.." && pwd)
T_NAME=threads
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
export LC_ALL=C

if grep -q '^CFLAGS = .*-fsanitize' "$TOP/Makefile"; then
	pass "threads: skipped in the sanitizer build"
	finish
fi
make -s -C "$TOP" tsan/tgprof >"$OUT/build.log" 2>&1 ||
    fatal "make tsan/tgprof failed: $(grep -m 1 -i 'error' "$OUT/build.log")"
TSAN=$TOP/tsan/tgprof
# Some kernels lay out memory where ThreadSanitizer cannot run (it says
# "unexpected memory mapping"): then without address randomisation.
RUN=
"$TSAN" --version >/dev/null 2>&1 || RUN="setarch $(uname -m) -R"
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 report_signal_unsafe=0"
# shellcheck disable=SC2086
$RUN "$TSAN" --version >/dev/null 2>"$OUT/err" || fatal "tsan/tgprof does not run: $(head -c 200 "$OUT/err")"

# race DESC EXPECTED ARGS...: tsan/tgprof ARGS writes EXPECTED's bytes
# (a file, or - for none to compare) and ThreadSanitizer reports nothing.
race() {
	desc=$1 want_out=$2
	shift 2
	want "$desc" || return 0
	# shellcheck disable=SC2086
	$RUN "$TSAN" "$@" >"$OUT/out" 2>"$OUT/err"
	rc=$?
	if grep -q 'WARNING: ThreadSanitizer' "$OUT/err"; then
		fail "$desc: $(grep -m 3 '^SUMMARY: ThreadSanitizer' "$OUT/err" | tr '\n' ' ')"
	elif [ $rc -ne 0 ]; then
		fail "$desc: status $rc ($(head -c 200 "$OUT/err"))"
	elif [ "$want_out" != - ] && ! cmp -s "$OUT/out" "$want_out"; then
		fail "$desc: not what tgprof writes"
	else
		pass "$desc"
	fi
}

S=$OUT/s
python3 "$TOP/tests/gen/synth.py" 20000 "$S" >/dev/null || fatal "synth.py 20000 failed"
for o in "-b" "-b -p" "-b -l"; do
	# shellcheck disable=SC2086
	"$TGPROF" --batch $o "$S/prog" "$S/gmon.out" >"$OUT/want" 2>/dev/null ||
	    fatal "tgprof --batch $o failed"
	# shellcheck disable=SC2086
	race "threads: --batch $o at 20,000 functions" "$OUT/want" --batch $o "$S/prog" "$S/gmon.out"
	mv "$OUT/want" "$OUT/want.$(echo "$o" | tr -d ' -')"
done
export TGPROF_SCRIPT="$TOP/bench/browse.keys"
race "threads: the browser at 20,000 functions, bench/browse.keys" - "$S/prog" "$S/gmon.out"
unset TGPROF_SCRIPT
n=0
for d in cycles_O2 cxx_O2 multi_O2 clones_O2; do
	[ -f "$PROGS/$d/gmon.out" ] || continue
	p=$(cd "$PROGS/$d" && for f in *; do [ -x "$f" ] && [ -f "$f" ] && echo "$f" && break; done)
	"$TGPROF" --batch -c -b "$PROGS/$d/$p" "$PROGS/$d/gmon.out" >"$OUT/want" 2>/dev/null || continue
	race "threads: --batch -c -b on $d" "$OUT/want" --batch -c -b "$PROGS/$d/$p" "$PROGS/$d/gmon.out"
	n=$((n + 1))
done
[ $n -gt 0 ] || fail "threads: no test program to run -c on"
finish
