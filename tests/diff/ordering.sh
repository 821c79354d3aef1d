# tests/diff/ordering.sh: -R file ordering with maps made by nm, and odd maps (sourced by run.sh).

# tests/progs.sh built objs (its objects, prog, gmon.out, map.nm and all.nm); here, its copy.
d=$OUT/objs
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
