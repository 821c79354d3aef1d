#!/bin/sh
# tests/run.sh: the test suites (make check runs them all, make check-NAME one).
#
# Usage: run.sh [SUITE...] -- SUITEs from the list below, all by default.
# Each suite writes in tests/out/SUITE, emptied first.  Those that read the
# -pg programs read them from tests/out/progs (tests/progs.sh, made by
# make progs, or here when missing) and never change them, which is checked
# at the end.  T=PATTERN selects the cases whose names contain it, and
# VERBOSE=1 prints every case passed (tests/README.md).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$TOP/tests/out
PROGS=$OUT/progs
TGPROF=$TOP/tgprof
SUITES="unit layering selftest diff srcmap lines clones narrow session damaged hostile ui runtime aarch64 cli stacks export compare known threads man"
. "$TOP/tests/lib.sh"
# Under the sanitizers (./configure --enable-sanitizers): libbfd keeps an
# allocation or two until exit, which is not ours to fix.
export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
[ $# -gt 0 ] || set -- $SUITES
status=0
used_progs=
used_gprof=

run() {
	echo "--- $1"
	shift
	"$@" || status=1
}

progs() {	# the shared programs, made if missing
	used_progs=1
	[ -f "$PROGS/MANIFEST" ] && return 0
	echo "--- the -pg test programs (tests/progs.sh)"
	sh "$TOP/tests/progs.sh" "$PROGS" || { echo "SOME TESTS FAILED"; exit 1; }
}

for s in "$@"; do
	case " $SUITES " in
	*" $s "*) ;;
	*) echo "run.sh: no suite $s (the suites: $SUITES)"; exit 2 ;;
	esac
done
[ -n "${T:-}" ] && echo "(T=$T: only the cases whose names contain it)"
mkdir -p "$OUT"
for s in "$@"; do
	rm -rf "${OUT:?}/$s"
	case $s in
	unit) run "unit tests" sh "$TOP/tests/unit.sh" "$OUT/unit" ;;
	layering) run "layering" sh "$TOP/tests/layering.sh" ;;
	selftest) progs; run "the test machinery" sh "$TOP/tests/selftest.sh" "$TGPROF" "$OUT/selftest" "$PROGS" ;;
	diff)
		progs
		used_gprof=1
		run "differential suite against GNU gprof" sh "$TOP/tests/diff/run.sh" "$TGPROF" "$OUT/diff" "$PROGS" ;;
	srcmap) progs; run "srcmap against libbfd" sh "$TOP/tests/srcmap.sh" "$OUT/srcmap" "$PROGS" ;;
	lines) progs; run "per-line data" sh "$TOP/tests/lines.sh" "$OUT/lines" "$PROGS" ;;
	clones)
		progs
		used_gprof=1
		run "clones" sh "$TOP/tests/clones.sh" "$TGPROF" "$OUT/clones" "$PROGS" ;;
	narrow) progs; run "narrowed profiles" sh "$TOP/tests/narrow.sh" "$TGPROF" "$OUT/narrow" "$PROGS" ;;
	session) progs; run "the browser's model" sh "$TOP/tests/session.sh" "$TGPROF" "$OUT/session" "$PROGS" ;;
	damaged)
		progs
		used_gprof=1
		run "damaged input" sh "$TOP/tests/damaged.sh" "$TGPROF" "$OUT/damaged" "$PROGS/cycles_O0" ;;
	hostile) run "hostile files and programs" sh "$TOP/tests/hostile.sh" "$TGPROF" "$OUT/hostile" ;;
	ui) progs; run "browser" sh "$TOP/tests/ui.sh" "$TGPROF" "$OUT/ui" "$PROGS" ;;
	runtime) used_gprof=1; run "runtime (libtgmon)" sh "$TOP/tests/runtime.sh" "$TGPROF" "$OUT/runtime" ;;
	aarch64) run "libtgmon on aarch64 (qemu-user)" sh "$TOP/tests/aarch64.sh" "$TGPROF" "$OUT/aarch64" ;;
	cli)
		progs
		used_gprof=1
		run "command line" sh "$TOP/tests/cli.sh" "$TGPROF" "$OUT/cli" "$PROGS/cycles_O0" ;;
	stacks) progs; run "call stacks" sh "$TOP/tests/stacks.sh" "$TGPROF" "$OUT/stacks" "$PROGS" ;;
	compare) run "comparisons" sh "$TOP/tests/compare.sh" "$TGPROF" "$OUT/compare" ;;
	export) progs; run "exports" sh "$TOP/tests/export.sh" "$TGPROF" "$OUT/export" "$PROGS" ;;
	known) progs; run "gprof's known defects" sh "$TOP/tests/known.sh" "$TGPROF" "$OUT/known" "$PROGS/cycles_O0" ;;
	threads) progs; run "the load's threads under ThreadSanitizer" sh "$TOP/tests/threads.sh" "$TGPROF" "$OUT/threads" "$PROGS" ;;
	man)
		if command -v mandoc >/dev/null 2>&1; then
			# (and no quotes garbled by nesting: the JSON field lists read '"executable", "gmon"')
			run "manual pages" sh -c "mandoc -T lint -W warning '$TOP/man/tgprof.1' '$TOP/man/libtgmon.3' &&
			    mandoc -T ascii -O width=1000 '$TOP/man/tgprof.1' '$TOP/man/libtgmon.3' | col -b >'$OUT/man.txt' &&
			    ! grep -q '\"\"' '$OUT/man.txt' && grep -q '(\"executable\", \"gmon\", \"seconds\")' '$OUT/man.txt'"
		else
			echo "--- manual pages"
			echo "man: skipped: mandoc is not installed"
		fi ;;
	esac
done

# No suite may change the shared programs (a suite that writes next to one copies it).
if [ -n "$used_progs" ] &&
    ! (cd "$PROGS" && find . -type f ! -name MANIFEST | LC_ALL=C sort | xargs cksum | cmp -s - MANIFEST); then
	echo "--- tests/out/progs was changed by a suite (copy what a suite changes); remade next time:"
	(cd "$PROGS" && find . -type f ! -name MANIFEST | LC_ALL=C sort | xargs cksum | diff MANIFEST - | sed 's/^/#   /')
	rm -f "$PROGS/MANIFEST"
	status=1
fi
[ -n "$used_gprof" ] && (TGPROF_ORACLE= && oracle || echo "NOTE: the comparisons with gprof were skipped: $ORACLE_WHY")
[ $status -eq 0 ] && echo "ALL TESTS PASSED" || echo "SOME TESTS FAILED"
exit $status
