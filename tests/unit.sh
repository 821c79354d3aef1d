#!/bin/sh
# tests/unit.sh: unit tests of the engine through the drivers in tests/tools (text in, text out).
#
# Usage: unit.sh OUT.  Case names: a .t file's path under tests/unit
# ("cg/cycle2.t", "shorten/names.t"), "gmon: ARGS" for each block of tests/unit/gmon/cases.t,
# "argfile" and "fmt"; T selects cases by name.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$1
T_NAME=unit
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"

# A .t file: a comment, the input, a line "----", the expected output.
run_t() {	# tool file
	want "${2#"$TOP/tests/unit/"}" || return 0
	sed '/^----$/,$d' "$2" | "$1" >"$OUT/got" 2>&1
	sed '1,/^----$/d' "$2" >"$OUT/want"
	if cmp -s "$OUT/got" "$OUT/want"; then
		pass "${2#"$TOP/tests/unit/"}"
	else
		fail "${2#"$TOP/tests/unit/"}"
		diff "$OUT/want" "$OUT/got" | head -n 10 | sed 's/^/#   /'
	fi
}

for t in "$TOP"/tests/unit/cg/*.t; do
	run_t "$TOP/tests/tools/test-cg" "$t"
done
# The call graph's order in linear time against gprof's own sort, on graphs all ties.
cg_random() {
	for seed in $(seq 1 60); do
		"$TOP/tests/tools/test-cg" --random "$((seed * 37))" "$seed" || return 1
	done
}
tcheck "cg: order_cg() as gprof's sort on 60 random graphs of ties" cg_random
for t in "$TOP"/tests/unit/shorten/*.t; do
	run_t "$TOP/tests/tools/test-shorten" "$t"
done
for t in "$TOP"/tests/unit/flame/*.t; do
	run_t "$TOP/tests/tools/test-flame" "$t"
done
for t in "$TOP"/tests/unit/symtab/*.t; do
	run_t "$TOP/tests/tools/test-symtab" "$t"
done

# The gmon reader: "== ARGS" blocks, each followed by what test-gmon prints.
mkdir -p "$OUT/gmon"
python3 "$TOP/tests/unit/gmon/make.py" "$OUT/gmon" || fatal "cannot make gmon files"
awk -v out="$OUT/gmon" '/^== /{n++; f=out "/case" n; print substr($0, 4) > (f ".args"); next}
	n {print > (f ".want")}' "$TOP/tests/unit/gmon/cases.t"
for a in "$OUT"/gmon/case*.args; do
	c=${a%.args}
	want "gmon: $(cat "$a")" || continue
	# shellcheck disable=SC2046
	(cd "$OUT/gmon" && "$TOP/tests/tools/test-gmon" $(cat "$a") >"$c.got" 2>&1)
	touch "$c.want"
	if cmp -s "$c.want" "$c.got"; then
		pass "gmon: $(cat "$a")"
	else
		fail "gmon: $(cat "$a")"
		diff "$c.want" "$c.got" | head -n 10 | sed 's/^/#   /'
	fi
done

mkdir -p "$OUT/argfile"
tcheck "argfile: @-files split and expanded as libiberty does" "$TOP/tests/tools/test-argfile" 200000 "$OUT/argfile"
tcheck "fmt: number formatting equals printf" "$TOP/tests/tools/test-fmt" 300000
tcheck "names: names_sort() as a stable strcmp() sort (shared prefixes, equal names)" \
    "$TOP/tests/tools/test-names" 100000 7
tcheck "callsite: callsite_resolve() on made cases and as the rule spelled out, in generated code" \
    "$TOP/tests/tools/test-callsite" 400000 11
tcheck "demangle: demangle_into() as libbfd's bfd_demangle() (C++, Rust, dots, @plt, changed names), bounded" \
    "$TOP/tests/tools/test-demangle" 100000 3
tcheck "mem: arrays laid out by cache line start on one, and stay on one as they grow" \
    "$TOP/tests/tools/test-mem"
tcheck "busguard: a mapped file cut short read under the guard (threads, nested), a SIGBUS outside it to the program's handler" \
    "$TOP/tests/tools/test-busguard" "$OUT"
tcheck "bfdfmt: libbfd's messages as libbfd formats them (%pA, %pB; the rest as printf)" \
    "$TOP/tests/tools/test-bfdfmt" "$TOP/tgprof"
finish
