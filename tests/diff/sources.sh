# tests/diff/sources.sh: -A and its options on sources in several directories (sourced by run.sh).
# The sources move during the test: these programs are built here, not by tests/progs.sh.

for opt in O0 O2; do
	want_dir "multidir_$opt" || continue
	d=$OUT/multidir_$opt
	rm -rf "$d" "$OUT/src_$opt" "$OUT/moved_$opt"
	mkdir -p "$d" "$OUT/src_$opt"
	cp -r "$TOP/tests/progs/multidir" "$OUT/src_$opt/"
	(cd "$OUT/src_$opt" && gcc -pg -g "-$opt" -Imultidir/include -o "$d/prog" multidir/main.c \
	    multidir/lib/util.c multidir/lib/deep/deep.c) || fatal "cannot build multidir_$opt"
	run_prog "multidir_$opt" 20000
	for opts in "-A" "-A -b" "-A -l" "-A -x -l" "-A -z" "-A -t2" "-A -m40000" "-A -Autil.c" \
	    "-A -Adeep.c:deep_work" "-Jmain.c" "-A -L" "-A -C -l" "-A -l --inline-file-names -p"; do
		# shellcheck disable=SC2086
		diff_case "$d" $opts prog gmon.out
	done
	# The sources move away: annotation says it cannot find them...
	mv "$OUT/src_$opt" "$OUT/moved_$opt"
	diff_case "$d" -A prog gmon.out
	diff_case "$d" -A -b -p prog gmon.out
	# ... until -I or GPROF_PATH names their directories (basenames are tried too).
	m=$OUT/moved_$opt/multidir
	diff_case "$d" -A -I "$m:$m/lib" -I "$m/lib/deep" prog gmon.out
	diff_case "$d" -A -I "$m/lib" prog gmon.out
	diff_case "$d" -A "--directory-path=$m/lib/deep:/nonexistent" prog gmon.out
	GPROF_PATH="$m:$m/lib/deep" diff_case "$d" -A -I "$m/lib" prog gmon.out
	# -y: one FILE-ann per source, in the current directory.
	want "multidir_$opt -A -y" || continue
	for tool in g t; do
		rm -rf "$d/ann-$tool" && mkdir -p "$d/ann-$tool"
		if [ $tool = g ]; then
			(cd "$d/ann-$tool" && LC_ALL=C "$GPROF" -A -y -I "$m:$m/lib:$m/lib/deep" ../prog ../gmon.out)
		else
			(cd "$d/ann-$tool" && LC_ALL=C "$TGPROF" --batch -A -y -I "$m:$m/lib:$m/lib/deep" ../prog ../gmon.out)
		fi >"$d/ann-$tool.out" 2>/dev/null
	done
	check "multidir_$opt -A -y: writes gprof's files" diff -r "$d/ann-g" "$d/ann-t"
	check "multidir_$opt -A -y: nothing on stdout either" cmp -s "$d/ann-g.out" "$d/ann-t.out"
	check "multidir_$opt -A -y: files were written" test -f "$d/ann-t/util.c-ann"
done
