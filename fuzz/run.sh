#!/bin/sh
# fuzz/run.sh SECONDS [NAME...]: each libFuzzer harness (or those named) for SECONDS from its seeds (make fuzz).
#
# The corpus grows in fuzz/out/corpus-NAME; a crash stops that harness and
# is left as fuzz/out/crash-* (make it a test in tests/damaged.sh, then fix).
# Prints the executions each harness ran.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_EACH=${1:-60}
[ $# -gt 0 ] && shift
HARNESSES=${*:-gmon batch symfile args elf dwarf stacks}
status=0
export FUZZ_PROG=$TOP/fuzz/prog FUZZ_GMON=$TOP/fuzz/gmon.out
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
# libbfd leaks on some damaged files (in find_nearest_line): not ours to fix.
export LSAN_OPTIONS=suppressions=$TOP/tests/lsan.supp:print_suppressions=0
# Seeds made from fuzz/prog: the executable itself, stripped of its DWARF,
# and its DWARF sections for fuzz-dwarf.
mkdir -p "$TOP/fuzz/out/corpus-elf" "$TOP/fuzz/out/corpus-dwarf"
{ printf '\021'; cat "$TOP/fuzz/prog"; } >"$TOP/fuzz/out/corpus-elf/prog"
strip -g -o "$TOP/fuzz/out/prog.s" "$TOP/fuzz/prog" &&
    { printf '\000'; cat "$TOP/fuzz/out/prog.s"; } >"$TOP/fuzz/out/corpus-elf/prog-stripped"
python3 "$TOP/fuzz/seed-dwarf.py" "$TOP/fuzz/prog" "$TOP/fuzz/out/corpus-dwarf/prog" || status=1
for h in $HARNESSES; do
	c=$TOP/fuzz/out/corpus-$h
	mkdir -p "$c" "$TOP/fuzz/seeds-$h"
	failed=
	(cd "$TOP/fuzz/out" && "$TOP/fuzz/fuzz-$h" -max_total_time="$SECONDS_EACH" -max_len=65536 \
	    -rss_limit_mb=2048 -timeout=10 -close_fd_mask=3 -print_final_stats=1 "$c" "$TOP/fuzz/seeds-$h" \
	    >"$TOP/fuzz/out/$h.log" 2>&1) || { status=1; failed=", FAILED: see fuzz/out/$h.log"; }
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TOP/fuzz/out/$h.log")
	echo "fuzz-$h: ${runs:-?} executions in $SECONDS_EACH s$failed"
done
exit $status
