#!/bin/sh
# tests/selftest.sh: the test machinery itself: T, the oracle check and its skip path, the shared programs.
#
# Usage: selftest.sh TGPROF OUT PROGDIR -- PROGDIR as tests/progs.sh made it.
# A fake gprof on PATH that prints another version must make the
# comparisons with gprof skipped, each with one line (the differential
# suite as a whole); T must select cases by name.  Case names: the checks'.
set -u
TGPROF=$1
OUT=$2
PROGDIR=$3
TOP=$(cd "$(dirname "$0")/.." && pwd)
T_NAME=selftest
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
unset GPROF TGPROF_ORACLE ORACLE_OK

# fake DIR VERSION-LINE: DIR/gprof, a gprof that prints VERSION-LINE for --version and fails.
fake() {
	mkdir -p "$OUT/$1"
	printf '#!/bin/sh\n[ "$1" = --version ] && echo "%s" && exit 0\necho "fake gprof: $*" >&2\nexit 1\n' "$2" \
	    >"$OUT/$1/gprof"
	chmod +x "$OUT/$1/gprof"
}
fake v240 "GNU gprof (GNU Binutils for Debian) 2.40"
fake v241 "GNU gprof (GNU Binutils) 2.41"
fake v24050 "GNU gprof (GNU Binutils) 2.40.50.20230801"
fake bsd "gprof 4.4BSD"

# why DIR [GPROF]: what tests/lib.sh's oracle says with DIR first on PATH ("ok" if it is the oracle).
why() {
	(PATH=$OUT/$1:$PATH GPROF=${2:-gprof} && . "$TOP/tests/lib.sh" && oracle && echo ok || echo "$ORACLE_WHY")
}
tcheck "oracle: GNU gprof 2.40 is the oracle" test "$(why v240)" = ok
tcheck "oracle: 2.41 is not" test "$(why v241)" = "gprof is 2.41, the oracle is 2.40"
tcheck "oracle: nor a 2.40.50 snapshot" test "$(why v24050)" = "gprof is 2.40.50.20230801, the oracle is 2.40"
tcheck "oracle: nor another gprof" test "$(why bsd)" = "gprof is not GNU gprof, the oracle is GNU gprof 2.40"
tcheck "oracle: nor a missing one" \
    test "$(why v240 "$OUT/nosuch/gprof")" = "gprof is not installed, the oracle is GNU gprof 2.40"
tcheck "oracle: GPROF names the gprof to use" test "$(why v241 "$OUT/v240/gprof")" = ok

# The differential suite: one line and status 0, at once; an error where the oracle is required.
if want "diff with gprof 2.41: skipped in one line"; then
	PATH=$OUT/v241:$PATH sh "$TOP/tests/diff/run.sh" "$TGPROF" "$OUT/diff" "$PROGDIR" >"$OUT/diff.log" 2>&1
	check "diff with gprof 2.41: skipped in one line (status $?)" sh -c "[ $? -eq 0 ] &&
	    printf 'diff: skipped: gprof is 2.41, the oracle is 2.40\n' | cmp -s - '$OUT/diff.log'"
fi
if want "diff with gprof 2.41, TGPROF_ORACLE=required: an error"; then
	PATH=$OUT/v241:$PATH TGPROF_ORACLE=required sh "$TOP/tests/diff/run.sh" "$TGPROF" "$OUT/diff" \
	    "$PROGDIR" >"$OUT/diff.log" 2>&1
	check "diff with gprof 2.41, TGPROF_ORACLE=required: an error (status $?)" sh -c "[ $? -eq 2 ] &&
	    grep -q '^Bail out! gprof is 2.41, the oracle is 2.40 (TGPROF_ORACLE=required)\$' '$OUT/diff.log'"
fi

# Another suite skips just its comparisons with gprof (T selects one, with a check of its own).
if want "damaged with gprof 2.41: only its comparison skipped"; then
	VERBOSE= PATH=$OUT/v241:$PATH T="another program's profile" sh "$TOP/tests/damaged.sh" "$TGPROF" "$OUT/damaged" \
	    "$PROGDIR/cycles_O0" >"$OUT/damaged.log" 2>&1
	check "damaged with gprof 2.41: only its comparison skipped" sh -c "[ $? -eq 0 ] &&
	    grep -qx \"# skipped: another program's profile: status 0, gprof's report: gprof is 2.41, the oracle is 2.40\" \
	    '$OUT/damaged.log' && grep -qx 'damaged: 1 passed, 0 failed' '$OUT/damaged.log' &&
	    [ \$(wc -l <'$OUT/damaged.log') -eq 2 ]"
fi

# T: a pattern over the case names; no case selected is no failure.
if want "T selects unit cases by name"; then
	n=$(ls "$TOP"/tests/unit/cg/*.t | wc -l)
	VERBOSE= T=cg/ sh "$TOP/tests/unit.sh" "$OUT/unit" >"$OUT/unit.log" 2>&1
	check "T selects unit cases by name (cg/: $n)" grep -qx "unit: $n passed, 0 failed" "$OUT/unit.log"
	VERBOSE= T='gmon: *--be' sh "$TOP/tests/unit.sh" "$OUT/unit" >"$OUT/unit.log" 2>&1
	check "T selects unit cases by name (a pattern)" \
	    sh -c "grep -q '^unit: [1-9][0-9]* passed, 0 failed\$' '$OUT/unit.log'"
	VERBOSE= T=nosuchcase sh "$TOP/tests/unit.sh" "$OUT/unit" >"$OUT/unit.log" 2>&1
	check "T selects unit cases by name (none: status $?)" grep -qx "unit: 0 passed, 0 failed" "$OUT/unit.log"
fi

# The shared programs: what the suites and tests/ui.sh read.
if want "shared programs"; then
	for f in prog gmon.out arcs.out hist.out gmon.1 gmon.2 gmon.3; do
		[ -s "$PROGDIR/cycles_O0/$f" ] || fail "shared programs: no cycles_O0/$f"
	done
	for p in $(cat "$PROGDIR/PROGRAMS") multidir_O0 multidir_O2 objs elf-cycles; do
		[ -s "$PROGDIR/$p/prog" ] && [ -s "$PROGDIR/$p/gmon.out" ] || fail "shared programs: no $p"
	done
	check "shared programs: $(wc -w <"$PROGDIR/PROGRAMS") for the cases, and the others" \
	    sh -c "[ -s '$PROGDIR/objs/all.nm' ] && [ -s '$PROGDIR/objs/map.nm' ] && [ -s '$PROGDIR/MANIFEST' ]"
fi
finish
