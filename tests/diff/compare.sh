# tests/diff/compare.sh: run GNU gprof and tgprof --batch on the same files and compare (sourced).
# Needs TGPROF and OUT (a scratch directory), and tests/lib.sh's pass/fail.

# One case: compare "gprof ARGS" with "tgprof --batch ARGS" in directory DIR.
diff_case() {	# dir args...
	dir=$1
	shift
	(cd "$dir" && LC_ALL=C gprof "$@" >"$OUT/g.out" 2>"$OUT/g.err"; echo $? >"$OUT/g.rc")
	(cd "$dir" && LC_ALL=C "$TGPROF" --batch "$@" >"$OUT/t.out" 2>"$OUT/t.err"; echo $? >"$OUT/t.rc")
	if ! cmp -s "$OUT/g.rc" "$OUT/t.rc"; then
		fail "$dir: $*: exit $(cat "$OUT/t.rc"), gprof $(cat "$OUT/g.rc")"
		sed 's/^/#   tgprof: /' "$OUT/t.err" | head -n 3
		sed 's/^/#   gprof:  /' "$OUT/g.err" | head -n 3
	elif ! cmp -s "$OUT/g.out" "$OUT/t.out"; then
		fail "$dir: $*: output differs"
		diff "$OUT/g.out" "$OUT/t.out" | head -n 12 | sed 's/^/#   /'
	elif [ -s "$OUT/g.err" ] && [ ! -s "$OUT/t.err" ]; then
		fail "$dir: $*: gprof warned, tgprof did not: $(head -n 1 "$OUT/g.err")"
	elif [ ! -s "$OUT/g.err" ] && [ -s "$OUT/t.err" ]; then
		fail "$dir: $*: tgprof warned, gprof did not: $(head -n 1 "$OUT/t.err")"
	else
		pass "$dir: $*"
	fi
}

# -s: gmon.sum must be byte-identical, and both tools must read it back alike.
# Known gprof defect: on some programs libbfd answers gprof's two walks over
# the text differently and gprof aborts ("somebody miscounted") without
# writing gmon.sum.  tgprof must still write one; gprof and tgprof must
# read it alike, and it must hold the report of the files it sums (the
# same lines; arcs of equal weight may change places, as their order is
# their order in the file).  With --lossy the sum overflows gmon.sum's
# 16-bit bins or 32-bit counts on purpose, so only the first holds.
sum_case() {	# [--lossy] dir args...
	lossy=
	[ "$1" = --lossy ] && { lossy=1; shift; }
	dir=$1
	shift
	(cd "$dir" && rm -f gmon.sum g.sum t.sum &&
	    LC_ALL=C gprof -s "$@" >/dev/null 2>"$OUT/gs.err"; [ -f gmon.sum ] && mv gmon.sum g.sum)
	(cd "$dir" && LC_ALL=C "$TGPROF" --batch -s "$@" >/dev/null 2>&1; [ -f gmon.sum ] && mv gmon.sum t.sum)
	if [ ! -f "$dir/t.sum" ]; then
		fail "$dir: -s $*: tgprof wrote no gmon.sum"
	elif [ ! -f "$dir/g.sum" ] && grep -q "somebody miscounted" "$OUT/gs.err"; then
		diff_case "$dir" -b prog t.sum
		(cd "$dir" && LC_ALL=C "$TGPROF" --batch -b "$@" | sort >"$OUT/sum.in" &&
		    LC_ALL=C "$TGPROF" --batch -b prog t.sum | sort >"$OUT/sum.back")
		[ -n "$lossy" ] || check "$dir: -s $* (gprof aborts: somebody miscounted)" \
		    cmp -s "$OUT/sum.in" "$OUT/sum.back"
	elif [ ! -f "$dir/g.sum" ]; then
		fail "$dir: -s $*: gprof wrote no gmon.sum: $(head -n 1 "$OUT/gs.err")"
	elif cmp -s "$dir/g.sum" "$dir/t.sum"; then
		pass "$dir: -s $*"
		diff_case "$dir" -b prog t.sum
	else
		fail "$dir: -s $*: gmon.sum differs"
	fi
	rm -f "$dir/g.sum" "$dir/t.sum"
}
