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

# check DESC CMD...: passes when CMD succeeds.
check() {
	desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

finish() {
	echo "$T_NAME: $T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" -eq 0 ]
	exit $?
}
