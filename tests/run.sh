#!/bin/sh
# tests/run.sh: the whole test suite (make check): unit tests, layering, CLI, the differential suite.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$TOP/tests/out
TGPROF=$TOP/tgprof
rm -rf "$OUT"
mkdir -p "$OUT"
# Under the sanitizers (./configure --enable-sanitizers): libbfd keeps an
# allocation or two until exit, which is not ours to fix.
export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0

run() {
	echo "--- $1"
	shift
	"$@" || status=1
}

run "unit tests" sh "$TOP/tests/unit.sh" "$OUT/unit"
run "layering" sh "$TOP/tests/layering.sh"
run "differential suite against GNU gprof" sh "$TOP/tests/diff/run.sh" "$TGPROF" "$OUT/diff"
run "srcmap against libbfd" sh "$TOP/tests/srcmap.sh" "$OUT/srcmap" "$OUT/diff"
run "per-line data" sh "$TOP/tests/lines.sh" "$OUT/lines" "$OUT/diff"
run "clones" sh "$TOP/tests/clones.sh" "$TGPROF" "$OUT/clones" "$OUT/diff"
run "damaged input" sh "$TOP/tests/damaged.sh" "$TGPROF" "$OUT/damaged" "$OUT/diff/cycles_O0"
run "browser" sh "$TOP/tests/ui.sh" "$TGPROF" "$OUT/ui" "$OUT/diff"
run "runtime (libtgmon)" sh "$TOP/tests/runtime.sh" "$TGPROF" "$OUT/runtime"
run "command line" sh "$TOP/tests/cli.sh" "$TGPROF" "$OUT/cli" "$OUT/diff/cycles_O0"
run "gprof's known defects" sh "$TOP/tests/known.sh" "$TGPROF" "$OUT/known" "$OUT/diff/cycles_O0"
if command -v mandoc >/dev/null 2>&1; then
	run "manual pages" sh -c "mandoc -T lint -W warning '$TOP/man/tgprof.1' '$TOP/man/libtgmon.3'"
fi
[ $status -eq 0 ] && echo "ALL TESTS PASSED" || echo "SOME TESTS FAILED"
exit $status
