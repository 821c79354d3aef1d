#!/bin/sh
# fuzz/run.sh SECONDS: each libFuzzer harness for SECONDS from its seeds (make fuzz).
#
# The corpus grows in fuzz/out/corpus-NAME; a crash stops that harness and
# is left as fuzz/out/crash-* (make it a test in tests/damaged.sh, then fix).
# Prints the executions each harness ran.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_EACH=${1:-60}
status=0
export FUZZ_PROG=$TOP/fuzz/prog FUZZ_GMON=$TOP/fuzz/gmon.out
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
for h in gmon batch symfile args; do
	c=$TOP/fuzz/out/corpus-$h
	mkdir -p "$c"
	(cd "$TOP/fuzz/out" && "$TOP/fuzz/fuzz-$h" -max_total_time="$SECONDS_EACH" -max_len=65536 \
	    -rss_limit_mb=2048 -timeout=10 -close_fd_mask=3 -print_final_stats=1 "$c" "$TOP/fuzz/seeds-$h" \
	    >"$TOP/fuzz/out/$h.log" 2>&1) || status=1
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TOP/fuzz/out/$h.log")
	echo "fuzz-$h: ${runs:-?} executions in $SECONDS_EACH s$( [ $status -ne 0 ] && echo ', FAILED: see fuzz/out/'$h'.log')"
done
exit $status
