# tests/diff/compare.sh: run GNU gprof and tgprof --batch on the same files and compare (sourced).
# Needs TGPROF and OUT (a scratch directory), and tests/lib.sh's pass/fail/want and GPROF.
# A case is named by its directory's name and its arguments, "cycles_O0 -b -z prog gmon.out"
# (sum_case: "cycles_O0 -s prog gmon.out"); T selects cases by name (tests/lib.sh want).

# want_dir NAME: whether T may select a case in the directory NAME (for a
# setup the cases there share): not if T names another of the directories
# of $OUT (a case's arguments never name one) and not NAME.
want_dir() {
	[ -z "${T:-}" ] && return 0
	case $T in *"$1"*) return 0 ;; esac
	for _wd in "$OUT"/*/; do
		_wd=${_wd%/}
		case $T in *"${_wd##*/}"*) return 1 ;; esac
	done
	return 0
}

# One case: compare "gprof ARGS" with "tgprof --batch ARGS" in directory DIR.
diff_case() {	# dir args...
	dir=$1
	shift
	_dc_name="${dir##*/} $*"
	[ -n "${_in_sum:-}" ] || want "$_dc_name" || return 0
	(cd "$dir" && LC_ALL=C "$GPROF" "$@" >"$OUT/g.out" 2>"$OUT/g.err"; echo $? >"$OUT/g.rc")
	(cd "$dir" && LC_ALL=C "$TGPROF" --batch "$@" >"$OUT/t.out" 2>"$OUT/t.err"; echo $? >"$OUT/t.rc")
	if ! cmp -s "$OUT/g.rc" "$OUT/t.rc"; then
		fail "$_dc_name: exit $(cat "$OUT/t.rc"), gprof $(cat "$OUT/g.rc")"
		sed 's/^/#   tgprof: /' "$OUT/t.err" | head -n 3
		sed 's/^/#   gprof:  /' "$OUT/g.err" | head -n 3
	elif ! cmp -s "$OUT/g.out" "$OUT/t.out"; then
		fail "$_dc_name: output differs"
		diff "$OUT/g.out" "$OUT/t.out" | head -n 12 | sed 's/^/#   /'
	elif [ -s "$OUT/g.err" ] && [ ! -s "$OUT/t.err" ]; then
		fail "$_dc_name: gprof warned, tgprof did not: $(head -n 1 "$OUT/g.err")"
	elif [ ! -s "$OUT/g.err" ] && [ -s "$OUT/t.err" ]; then
		fail "$_dc_name: tgprof warned, gprof did not: $(head -n 1 "$OUT/t.err")"
	else
		pass "$_dc_name"
	fi
}

# -s: gmon.sum must be byte-identical, and both tools must read it back alike
# (that diff_case runs with its sum_case, whatever T).
# Known gprof defect: on some programs libbfd answers gprof's two walks over
# the text differently and gprof aborts ("somebody miscounted") without
# writing gmon.sum.  tgprof must still write one; gprof and tgprof must
# read it alike, and it must hold the report of the files it sums (the
# same lines; arcs of equal weight may change places, as their order is
# their order in the file).  With --lossy the sum overflows gmon.sum's
# 16-bit bins or 32-bit counts on purpose, so only the first holds.
sum_case() {	# [--lossy] dir args...
	_lossy=
	[ "$1" = --lossy ] && { _lossy=1; shift; }
	dir=$1
	shift
	_sc_name="${dir##*/} -s $*"
	want "$_sc_name" || return 0
	_in_sum=1
	(cd "$dir" && rm -f gmon.sum g.sum t.sum &&
	    LC_ALL=C "$GPROF" -s "$@" >/dev/null 2>"$OUT/gs.err"; [ -f gmon.sum ] && mv gmon.sum g.sum)
	(cd "$dir" && LC_ALL=C "$TGPROF" --batch -s "$@" >/dev/null 2>&1; [ -f gmon.sum ] && mv gmon.sum t.sum)
	if [ ! -f "$dir/t.sum" ]; then
		fail "$_sc_name: tgprof wrote no gmon.sum"
	elif [ ! -f "$dir/g.sum" ] && grep -q "somebody miscounted" "$OUT/gs.err"; then
		diff_case "$dir" -b prog t.sum
		(cd "$dir" && LC_ALL=C "$TGPROF" --batch -b "$@" | sort >"$OUT/sum.in" &&
		    LC_ALL=C "$TGPROF" --batch -b prog t.sum | sort >"$OUT/sum.back")
		[ -n "$_lossy" ] || check "$_sc_name (gprof aborts: somebody miscounted)" \
		    cmp -s "$OUT/sum.in" "$OUT/sum.back"
	elif [ ! -f "$dir/g.sum" ]; then
		fail "$_sc_name: gprof wrote no gmon.sum: $(head -n 1 "$OUT/gs.err")"
	elif cmp -s "$dir/g.sum" "$dir/t.sum"; then
		pass "$_sc_name"
		diff_case "$dir" -b prog t.sum
	else
		fail "$_sc_name: gmon.sum differs"
	fi
	rm -f "$dir/g.sum" "$dir/t.sum"
	_in_sum=
}
