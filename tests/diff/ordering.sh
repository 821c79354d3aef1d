# tests/diff/ordering.sh: -R file ordering with maps made by nm, and odd maps (sourced by run.sh).

d=$OUT/objs
rm -rf "$d" && mkdir -p "$d"
for f in multi_a multi_b; do
	gcc -pg -g -O1 -c -o "$d/$f.o" "$TOP/tests/progs/$f.c" || fatal "cannot compile $f.c"
done
gcc -pg -g -O1 -I"$TOP/tests/progs/multidir/include" -c -o "$d/util.o" \
    "$TOP/tests/progs/multidir/lib/util.c" || fatal "cannot compile util.c"
gcc -pg -g -O1 -I"$TOP/tests/progs/multidir/include" -c -o "$d/deep.o" \
    "$TOP/tests/progs/multidir/lib/deep/deep.c" || fatal "cannot compile deep.c"
(cd "$d" && gcc -pg -o prog multi_a.o multi_b.o && ./prog 1000 >/dev/null) || fatal "cannot run objs"
(cd "$d" && nm --extern-only --defined-only -v --print-file-name multi_a.o multi_b.o util.o deep.o \
    >map.nm) || fatal "nm failed"
(cd "$d" && nm --defined-only -v --print-file-name multi_a.o multi_b.o >all.nm)
printf 'No symbols in empty.o\nmulti_b.o:0000000000000000 T b_entry\n\nmulti_a.o:0000000000000000 T main\nx.o:0 Tnospace\n' >"$d/odd.nm"
printf 'nocolon\n' >"$d/bad.nm"
printf 'multi_a.o:0000000000000000 Tmain\n' >"$d/nospace.nm"
# all.nm lists locals and data first: known.sh (gprof reads uninitialised flags there).
for m in map.nm odd.nm bad.nm; do
	diff_case "$d" -R "$m" prog gmon.out
	diff_case "$d" -b -R "$m" -p prog gmon.out
done
diff_case "$d" -R nosuch.nm prog gmon.out
diff_case "$d" -r -R map.nm prog gmon.out
