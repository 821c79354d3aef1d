#!/bin/sh
# tests/srcmap.sh: srcmap gives libbfd's answer to every question gprof asks (tests/tools/test-srcmap).
#
# Usage: srcmap.sh OUT PROGDIR -- PROGDIR holds the programs tests/progs.sh built.
# test-srcmap asks libbfd and a srcmap each function symbol's address and
# every text byte twice, in gprof's order, and compares all answers.  Besides
# those programs, it builds variants that exercise other DWARF forms.  Case
# names: the programs' ("cycles_O2", "elf-be64", "inl_lto"); T selects.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$1
PROGDIR=$2
T_NAME=srcmap
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
TOOL=$TOP/tests/tools/test-srcmap
P=$TOP/tests/progs

same() {	# name prog: srcmap must exist and agree everywhere
	if "$TOOL" "$2" >"$OUT/$1.log" 2>&1; then
		pass "$1"
	else
		fail "$1"
		sed 's/^/#   /' "$OUT/$1.log" | head -n 12
	fi
}

none() {	# name prog reason: libbfd must be asked instead
	if "$TOOL" -n "$2" >"$OUT/$1.log" 2>&1; then
		pass "$1 ($3)"
	else
		fail "$1: expected no srcmap ($3)"
		sed 's/^/#   /' "$OUT/$1.log" | head -n 12
	fi
}

build() {	# name compiler args...: builds OUT/name, or skips the case (or T does)
	want "$1" || return 1
	n=$1
	shift
	if "$@" -o "$OUT/$n" >"$OUT/$n.build" 2>&1; then
		return 0
	fi
	echo "# skipped $n: cannot build ($(head -n 1 "$OUT/$n.build"))"
	return 1
}

# Between functions of equal ranges libbfd keeps the one whose record is
# at the higher address (srcspan.c: allocation order, as glibc's malloc
# hands out libbfd's chunks); the sanitizers' allocator does not, so with
# them libbfd's own answers for a program of several chunks (stl_O2)
# follow the heap: it is compared in the plain build.
SAN=0
grep -q '^CFLAGS = .*-fsanitize' "$TOP/Makefile" && SAN=1
for d in "$PROGDIR"/*/; do
	n=$(basename "$d")
	[ -f "$d/prog" ] && want "$n" || continue
	case $n in
	elf-*) none "$n" "$d/prog" "no DWARF" ;;
	stl_O2) if [ $SAN -eq 1 ]; then
			pass "$n: skipped under the sanitizers (libbfd's ties follow its heap)"
		else
			same "$n" "$d/prog"
		fi ;;
	*) same "$n" "$d/prog" ;;
	esac
done

for v in 2 3 4; do
	build "cycles_dwarf$v" gcc -pg -g -gdwarf-$v -O2 "$P/cycles.c" && same "cycles_dwarf$v" "$OUT/cycles_dwarf$v"
done
build cycles_gz gcc -pg -g -gz -O2 "$P/cycles.c" && same "cycles_gz (compressed sections)" "$OUT/cycles_gz"
build inl_O2 g++ -pg -g -O2 "$P/inl.cpp" && same inl_O2 "$OUT/inl_O2"
build inl_O3 g++ -pg -g -O3 "$P/inl.cpp" && same inl_O3 "$OUT/inl_O3"
build inl_lto g++ -pg -g -O2 -flto "$P/inl.cpp" && same inl_lto "$OUT/inl_lto"
build multi_lto gcc -pg -g -O2 -flto "$P/multi_a.c" "$P/multi_b.c" && same multi_lto "$OUT/multi_lto"
if [ "$(uname -m)" = x86_64 ]; then
	build asm gcc -pg -g -O2 "$P/asm_main.c" "$P/asm_x86.S" && same "asm (lines without DWARF functions)" "$OUT/asm"
fi
# libbfd 2.40's address trie loses the last byte of each 256-byte node
# that more than 16 ranges reach (src/dwarf/bfdtrie.h): 20 units that
# share std::variant's code (tests/progs/variant) have 26 such nodes.
if want variant_tu; then
	V=$OUT/variant_tu
	mkdir -p "$V"
	for n in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
		g++ -pg -g -O0 -DTU=$n -c -o "$V/tu$n.o" "$P/variant/tu.cpp" || fatal "cannot build variant/tu.cpp"
	done
	g++ -pg -g -O0 -o "$V/prog" "$P/variant/main.cpp" "$V"/tu*.o && (cd "$V" && ./prog) ||
	    fatal "cannot build or run tests/progs/variant"
	same variant_tu "$V/prog"
	LC_ALL=C "$TOP/tgprof" --batch -b -l -z -p "$V/prog" "$V/gmon.out" >"$V/tgprof.txt" 2>&1
	gcheck "variant_tu: -b -l -z -p as gprof prints it" sh -c \
	    "LC_ALL=C '$GPROF' -b -l -z -p '$V/prog' '$V/gmon.out' 2>&1 | cmp -s - '$V/tgprof.txt'"
fi
if command -v clang++ >/dev/null 2>&1; then
	build clang_dwarf4 clang++ -pg -g -gdwarf-4 -O2 "$P/inl.cpp" && same clang_dwarf4 "$OUT/clang_dwarf4"
	# clang's DWARF 5 names strings and addresses by index (DW_FORM_strx,
	# DW_FORM_addrx), which libbfd 2.40 reads only in part: not emulated.
	build clang_dwarf5 clang++ -pg -g -gdwarf-5 -O2 "$P/inl.cpp" && none clang_dwarf5 "$OUT/clang_dwarf5" "indexed forms"
fi
finish
