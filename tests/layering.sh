#!/bin/sh
# tests/layering.sh: the folders' include rules and what only src/cli may do (README "Architecture").
#
# The engine's layers, each including only itself and the layers before it:
#   src/util    generic helpers: memory, diagnostics, buffers, sorts, maps
#   src/input   what files hold: the executable (libbfd), gmon.out, -R maps
#   src/dwarf   the DWARF reader; outside it, only dwarf/srcmap.h is used
#   src/core    the analysis, building the immutable struct profile;
#               core/core.h is its private state, for src/core only
#   src/print   gprof's text from a profile, through core's public headers
#   src/model   what the browser shows (the session, the call tree), through
#               the public headers of core and print
#   src/cli     the command line: may use any layer but the internals above
# Around them:
#   ui/         only the public headers (PUBLIC below) and its own
#   runtime/    nothing from src/ but src/input/gmon_out.h
#   public headers include only public headers (README "Architecture" lists
#   them: PUBLIC is read from there)
# README's table of modules lists each module of each folder, and no other;
# no two modules share a name.
# And: nothing in src/ but src/cli prints to stdout or stderr or exits (a
# line that must name them anyway says "layering: allowed" and why),
# and every file starts with one line "/* NAME: what it is for. */".
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
T_NAME=layering
. "$TOP/tests/lib.sh"

README=$TOP/README.md

# The backquoted words of README's paragraph that starts "Public headers".
PUBLIC=$(awk '/^Public headers/ { on = 1 } on && /^$/ { exit } on' "$README" | grep -o '`[^`]*\.h`' | tr -d '`' | tr '\n' ' ')
[ -n "$PUBLIC" ] || fail "README.md has no paragraph \"Public headers ...\" naming them"

includes() {	# file: its quoted includes
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"
}

is_public() {	# header (as included from outside its folder)
	case " $PUBLIC " in *" $1 "*) return 0 ;; esac
	return 1
}

# The folder (relative to src/, or ui) a quoted include of FILE names; a
# bare name is FILE's own folder, as the compiler looks there first.
folder_of() {	# file header
	case $2 in
	*/*) dirname "$2" ;;
	*) basename "$(dirname "$1")" ;;
	esac
}

allowed() {	# layer header-folder header: may LAYER include it?
	case $1:$2 in
	util:util | input:util | input:input) return 0 ;;
	dwarf:util | dwarf:input | dwarf:dwarf) return 0 ;;
	core:util | core:input | core:core) return 0 ;;
	core:dwarf) [ "$3" = dwarf/srcmap.h ] ;;
	print:util | print:input | print:print) return 0 ;;
	print:core) is_public "$3" ;;
	model:util | model:input | model:model) return 0 ;;
	model:core | model:print) is_public "$3" ;;
	cli:util | cli:input | cli:print | cli:cli) return 0 ;;
	cli:core | cli:ui | cli:model) is_public "$3" ;;
	*) return 1 ;;
	esac
}

for f in "$TOP"/src/*/*.[ch]; do
	layer=$(basename "$(dirname "$f")")
	for h in $(includes "$f"); do
		[ "$h" = config.h ] && continue
		d=$(folder_of "$f" "$h")
		[ -f "$TOP/src/$h" ] || [ -f "$(dirname "$f")/$h" ] || [ -f "$TOP/$h" ] ||
			{ fail "$f includes $h, which does not exist"; continue; }
		allowed "$layer" "$d" "$h" || fail "src/$layer/$(basename "$f") includes $h"
	done
done
for f in "$TOP"/ui/*.[ch]; do
	for h in $(includes "$f"); do
		case $h in
		config.h) ;;
		*/*) is_public "$h" || fail "$f includes $h: ui/ may use only the public headers" ;;
		*) [ -f "$TOP/ui/$h" ] || fail "$f includes $h, which is not in ui/" ;;
		esac
	done
done
for f in "$TOP"/runtime/*.[chS]; do
	for h in $(includes "$f"); do
		case $h in
		../src/input/gmon_out.h) ;;
		*/*) fail "$f includes $h: runtime/ shares only src/input/gmon_out.h" ;;
		*) [ -f "$TOP/runtime/$h" ] || fail "$f includes $h, which is not in runtime/" ;;
		esac
	done
done
for p in $PUBLIC; do
	f=$TOP/src/$p
	[ -f "$f" ] || f=$TOP/$p
	for h in $(includes "$f"); do
		case $h in */*) ;; *) h=$(dirname "$p")/$h ;; esac
		is_public "$h" || fail "public header $p includes $h, which is not public"
	done
done

# Only the command line talks to the user or ends the process.
for f in "$TOP"/src/*/*.c; do
	case $f in */src/cli/*) continue ;; esac
	sed -e '/layering: allowed/d' -e 's|/\*.*\*/||g' -e '/^[[:space:]]*\*/d' -e '/^[[:space:]]*\/\*/d' "$f" |
	    grep -nE '\b(stdout|stderr)\b|\b(_?exit|abort|printf|puts|putchar|perror|err|errx)[[:space:]]*\(' |
	    sed "s|^|$f: |" >"${TMPDIR:-/tmp}/layering.$$"
	if [ -s "${TMPDIR:-/tmp}/layering.$$" ]; then
		fail "$(head -n 1 "${TMPDIR:-/tmp}/layering.$$"): only src/cli prints or exits"
	fi
done
rm -f "${TMPDIR:-/tmp}/layering.$$"

for f in "$TOP"/src/*/*.[ch] "$TOP"/ui/*.[ch] "$TOP"/runtime/*.[ch]; do
	n=$(basename "$f")
	n=${n%.*}
	head -n 1 "$f" | grep -q "^/\* $n: .*\*/\$" || fail "$f does not start with \"/* $n: what it is for. */\""
done
# README's table of modules against the tree: a row "| `FOLDER/` | what |
# modules |" names each module of FOLDER in backquotes (a header without a
# .c by its .h).
modules() {	# folder: its modules in the tree, a line each
	for f in "$TOP/$1"/*.c "$TOP/$1"/*.h "$TOP/$1"/*.S; do
		[ -f "$f" ] || continue
		n=$(basename "$f")
		echo "${n%.*}"
	done | sort -u
}
listed() {	# folder: the modules README's row names, a line each
	grep "^| \`$1/\` |" "$README" | sed 's/^|[^|]*|[^|]*|//' | grep -o '`[^`]*`' | tr -d '`' |
	    sed 's/\.h$//' | sort -u
}
TMP=${TMPDIR:-/tmp}/layering.$$
: >"$TMP.all"
for d in src/util src/input src/dwarf src/core src/print src/model src/cli ui runtime; do
	modules "$d" >"$TMP.tree"
	listed "$d" >"$TMP.readme"
	[ -s "$TMP.readme" ] || fail "README.md's table of modules has no row for \`$d/\`"
	for m in $(comm -23 "$TMP.tree" "$TMP.readme"); do
		fail "$d/$m: a module README.md's table does not list"
	done
	for m in $(comm -13 "$TMP.tree" "$TMP.readme"); do
		fail "README.md's table lists $d/$m, which is not in the tree"
	done
	sed "s|^|$d |" "$TMP.tree" >>"$TMP.all"
done
awk '{ n[$2]++; where[$2] = where[$2] " " $1 } END { for (m in n) if (n[m] > 1) print m ":" where[m] }' \
    "$TMP.all" >"$TMP.dup"
while read -r line; do
	fail "two modules share a name: $line"
done <"$TMP.dup"
rm -f "$TMP.tree" "$TMP.readme" "$TMP.all" "$TMP.dup"

[ "$T_FAIL" -eq 0 ] && pass "include rules hold"
finish
