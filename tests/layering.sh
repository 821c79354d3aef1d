#!/bin/sh
# tests/layering.sh: the include rules between src/, ui/ and runtime/ (see README "Architecture").
#   ui/       may include only the engine's public headers: profile.h, report.h, sbuf.h,
#             diag.h, srclines.h, browser.h, gmon.h (through profile.h), and its own headers;
#   runtime/  may include nothing from src/ but gmon_out.h;
#   src/      never includes ui/ or runtime/ headers.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
T_NAME=layering
. "$TOP/tests/lib.sh"

includes() {	# file: the quoted includes
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"
}

for f in "$TOP"/ui/*.[ch]; do
	[ -f "$f" ] || continue
	for h in $(includes "$f"); do
		case $h in
		profile.h | report.h | sbuf.h | diag.h | gmon.h | srclines.h | browser.h | config.h) ;;
		*) [ -f "$TOP/ui/$h" ] || fail "$f includes $h: ui/ may use only the engine's public headers" ;;
		esac
	done
done
for f in "$TOP"/runtime/*.[ch] "$TOP"/runtime/*/*.[chS]; do
	[ -f "$f" ] || continue
	for h in $(includes "$f"); do
		case $h in
		gmon_out.h | ../src/gmon_out.h | ../../src/gmon_out.h) ;;
		*src/* | ../*) fail "$f includes $h: runtime/ shares only gmon_out.h with src/" ;;
		*) [ -f "$(dirname "$f")/$h" ] || fail "$f includes $h, which is not in runtime/" ;;
		esac
	done
done
for f in "$TOP"/src/*.[ch]; do
	for h in $(includes "$f"); do
		[ -f "$TOP/src/$h" ] || [ "$h" = config.h ] || fail "$f includes $h from outside src/"
	done
done
# The public headers themselves must not pull in engine internals.
for h in profile.h report.h sbuf.h diag.h gmon.h srclines.h browser.h; do
	for i in $(includes "$TOP/src/$h"); do
		case $i in
		profile.h | report.h | sbuf.h | diag.h | gmon.h | srclines.h | browser.h) ;;
		*) fail "public header $h includes internal $i" ;;
		esac
	done
done
[ "$T_FAIL" -eq 0 ] && pass "include rules hold"
finish
