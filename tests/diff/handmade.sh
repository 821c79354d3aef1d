# tests/diff/handmade.sh: gmon files and executables the toolchain no longer writes (sourced by run.sh).
#
# Variants of real gmon.out files (BSD formats, zero rate, arcs only, ...)
# and hand-made executables (big-endian, 32-bit, tricky symbol tables),
# each compared with GNU gprof like the real programs.

MKGMON="python3 $TOP/tests/diff/mkgmon.py"

# Variants of one real profile, each with a few option sets.
variant() {	# dir name mkgmon-command [args]
	dir=$1 name=$2 cmd=$3
	shift 3
	$MKGMON "$cmd" "$dir/gmon.out" "$dir/$name" "$@" ||
		{ fail "mkgmon $cmd $* failed"; return; }
	for opts in "" "-b" "-T -b" "-b -i" "-b -z -q" "-b -p" "-b -c"; do
		# shellcheck disable=SC2086
		diff_case "$dir" $opts prog "$name"
	done
}

for p in cycles_O0 cxx_O2 clones_O0; do
	want_dir "$p" || continue
	d=$OUT/$p
	variant "$d" bsd.out bsd
	variant "$d" bsd44.out bsd44
	variant "$d" bsd44r.out bsd44 1000
	variant "$d" rate0.out rate 0
	variant "$d" rate1000.out rate 1000
	variant "$d" arcs.out arcs-only
	variant "$d" hist.out hist-only
	variant "$d" nobins.out nobins
	variant "$d" dup.out dup-hist
	variant "$d" split.out split-hist
	variant "$d" overlap.out overlap-hist
	variant "$d" scale.out scale-hist
	variant "$d" dimen.out dimen-hist
	variant "$d" bb.out bb
	variant "$d" bigcount.out bigcount
	variant "$d" bigbins.out bigbins
	variant "$d" badtag.out badtag
	variant "$d" v0.out version 0
	variant "$d" v2.out version 2
	variant "$d" rev.out reverse-arcs
	for n in 3 19 20 21 30 45 60 2000; do
		variant "$d" "trunc$n.out" truncate "$n"
	done
	diff_case "$d" -b prog bsd.out bsd.out
	diff_case "$d" -b prog bsd44.out bsd44r.out
	diff_case "$d" -b prog gmon.out bsd.out
	diff_case "$d" -b prog bsd.out gmon.out
	diff_case "$d" -b prog gmon.out arcs.out hist.out
	diff_case "$d" -b prog arcs.out gmon.out
	diff_case "$d" -b -Obsd prog bsd.out
	diff_case "$d" -b -O4.4bsd prog bsd44.out
	diff_case "$d" -b -O4.4bsd prog bsd.out
	diff_case "$d" -b -Omagic prog bsd.out
	sum_case --lossy "$d" prog bigcount.out bigcount.out
	sum_case --lossy "$d" prog bigbins.out bigbins.out
	sum_case "$d" prog split.out
	sum_case "$d" prog dup.out
	sum_case "$d" prog hist.out
	sum_case "$d" prog rate0.out
	sum_case "$d" prog bsd.out
	sum_case "$d" -Obsd prog bsd.out
	sum_case "$d" -O4.4bsd prog bsd44r.out
	sum_case "$d" -Obsd prog bsd44.out
done

# Hand-made executables: tests/progs.sh made each spec in tests/diff/elf/ an elf-NAME with prog + gmon.out.
for spec in "$TOP"/tests/diff/elf/*.spec; do
	name=$(basename "$spec" .spec)
	d=$OUT/elf-$name
	[ -f "$d/prog" ] || { fail "elf-$name: not made by tests/progs.sh"; continue; }
	for opts in "" "-b -z" "-T" "-b -i" "-b -a" "-b -D" "-b -c" "-b -c -z" "-b --no-demangle"; do
		# shellcheck disable=SC2086
		diff_case "$d" $opts prog gmon.out
	done
	sum_case "$d" prog gmon.out
done

# Byte order and address size of the gmon file follow the executable.
for name in be64 le32; do
	d=$OUT/elf-$name
	[ -f "$d/gmon.out" ] && want_dir "elf-$name" || continue
	flags=$([ "$name" = be64 ] && echo --be || echo --32)
	variant "$d" bsd.out bsd "$flags"
	variant "$d" bsd44.out bsd44 500 "$flags"
	variant "$d" rate0.out rate 0 "$flags"
	variant "$d" bb.out bb "$flags"
	sum_case "$d" -Obsd prog bsd.out
	sum_case "$d" prog gmon.out gmon.out
done

# -S: symbols from an nm-style listing instead of the executable.
d=$OUT/cycles_O0
nm "$d/prog" >"$d/syms.nm"
nm --defined-only "$d/prog" | grep -i ' t ' | sort -r >"$d/syms.rev"
# An address that does not parse reuses the previous one (gprof's stale
# variable); on a first line it would be stack garbage, so none is tested.
{ grep ' T main$' "$d/syms.nm"; printf 'zzz T nothing\n0 X weird\n'; grep ' T top$' "$d/syms.nm"; } >"$d/syms.bad"
for opts in "-b" "-b -z" "-T" "-b -pburn" "-b -E mid"; do
	# shellcheck disable=SC2086
	diff_case "$d" $opts -S syms.nm prog gmon.out
	# shellcheck disable=SC2086
	diff_case "$d" $opts --external-symbol-table=syms.rev prog gmon.out
done
diff_case "$d" -b -S syms.bad prog gmon.out
diff_case "$d" -b -S nosuch.nm prog gmon.out

# Files that are not what they claim to be.
diff_case "$d" -b gmon.out gmon.out
diff_case "$d" -b prog nosuch.out
diff_case "$d" -b nosuch prog
diff_case "$d" -b "$TOP/tests/progs/cycles.c" gmon.out
