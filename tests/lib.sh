# tests/lib.sh: pass/fail bookkeeping shared by the test scripts (sourced, POSIX sh).

T_PASS=0
T_FAIL=0
T_NAME=${T_NAME:-$(basename "$0" .sh)}

pass() {
	T_PASS=$((T_PASS + 1))
	[ -n "${VERBOSE:-}" ] && echo "ok - $*"
	return 0
}

fail() {
	T_FAIL=$((T_FAIL + 1))
	echo "not ok - $*"
	return 0
}

fatal() {
	echo "Bail out! $*"
	exit 2
}

# want NAME: whether the case NAME is selected: T (make check-NAME T=pattern)
# unset or empty selects every case, else NAME must contain T (a shell pattern).
want() {
	[ -z "${T:-}" ] && return 0
	# shellcheck disable=SC2254
	case $1 in *$T*) return 0 ;; esac
	return 1
}

# want_any NAME...: whether T selects any of the cases NAME (for a setup they share).
want_any() {
	for _want in "$@"; do
		want "$_want" && return 0
	done
	return 1
}

# check DESC CMD...: passes when CMD succeeds.
check() {
	desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# tcheck DESC CMD...: check, if T selects the case DESC (else neither run nor counted).
tcheck() {
	want "$1" || return 0
	check "$@"
}

# The oracle: GNU gprof 2.40, which tgprof --batch must equal byte for byte.
# GPROF names the gprof to run (default: gprof on PATH).  oracle says
# whether it is that version; if not, ORACLE_WHY says why, and the
# comparisons with gprof are skipped (skip_gprof), unless
# TGPROF_ORACLE=required (CI), which makes that an error.
ORACLE_VERSION=2.40
GPROF=${GPROF:-gprof}
oracle() {
	if [ -z "${ORACLE_OK:-}" ]; then
		ORACLE_OK=0
		if ! command -v "$GPROF" >/dev/null 2>&1; then
			ORACLE_WHY="gprof is not installed, the oracle is GNU gprof $ORACLE_VERSION"
		else
			# "GNU gprof (GNU Binutils for Debian) 2.40": the last word of the first line.
			_v=$(LC_ALL=C "$GPROF" --version 2>/dev/null | sed -n '1s/^GNU gprof .* \([0-9][0-9.]*\)[^ ]*$/\1/p')
			case $_v in
			"$ORACLE_VERSION" | "$ORACLE_VERSION".[0-9]) ORACLE_OK=1 ;;
			'') ORACLE_WHY="$GPROF is not GNU gprof, the oracle is GNU gprof $ORACLE_VERSION" ;;
			*) ORACLE_WHY="gprof is $_v, the oracle is $ORACLE_VERSION" ;;
			esac
		fi
		if [ $ORACLE_OK = 0 ] && [ "${TGPROF_ORACLE:-}" = required ]; then
			fatal "$ORACLE_WHY (TGPROF_ORACLE=required)"
		fi
	fi
	[ $ORACLE_OK = 1 ]
}

# gcheck DESC CMD...: tcheck for a comparison with gprof: skipped, with one
# line saying so, where the installed gprof is not the oracle.
gcheck() {
	want "$1" || return 0
	if oracle; then
		check "$@"
	else
		echo "# skipped: $1: $ORACLE_WHY"
	fi
}

# waitfor TEXT [SECONDS]: until the tmux pane $S (server command $TM) shows
# TEXT, for SECONDS at most ($WAITFOR, else 5): tmux checks wait for a
# screen, never a fixed time.
waitfor() {
	_i=0
	while [ $_i -lt $((${2:-${WAITFOR:-5}} * 20)) ]; do
		$TM capture-pane -p -t "$S" 2>/dev/null | grep -q -- "$1" && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

finish() {
	echo "$T_NAME: $T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" -eq 0 ]
	exit $?
}

# tm_new ARGS: tmux's new-session -d ARGS on the server $TM names, tried up
# to 5 times: a server just killed may still hold its socket for a moment.
tm_new() {
	for _try in 1 2 3 4 5; do
		$TM new-session -d "$@" 2>/dev/null && return 0
		sleep 0.3
	done
	return 1
}
