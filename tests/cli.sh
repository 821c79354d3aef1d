#!/bin/sh
# tests/cli.sh: tgprof's own command-line behaviour (what is not gprof's): -v, -h, modes, errors.
#
# Usage: cli.sh TGPROF OUT PROGDIR -- PROGDIR holds prog and gmon.out (cycles_O0
# from tests/progs.sh), copied to OUT as the checks write there.  Case names:
# the checks' ("-v exits 0"); T selects.
set -u
TGPROF=$1
OUT=$2
TOP=$(cd "$(dirname "$0")/.." && pwd)
T_NAME=cli
. "$TOP/tests/lib.sh"
mkdir -p "$OUT"
PROG=$OUT/cycles_O0
rm -rf "$PROG"
cp -pR "$3" "$PROG" || fatal "cannot copy $3"

"$TGPROF" -v >"$OUT/v" 2>&1
tcheck "-v exits 0" test $? -eq 0
tcheck "-v names tgprof and its version" grep -q '^tgprof [0-9][0-9.]*$' "$OUT/v"
tcheck "--version is -v" sh -c "'$TGPROF' --version | cmp -s - '$OUT/v'"

"$TGPROF" -h >"$OUT/h" 2>&1
tcheck "-h exits 0" test $? -eq 0
# Every long option gprof and tgprof accept is in the help.
if want "-h lists every long option"; then
	for opt in line no-static ignore-non-functions external-symbol-table annotated-source \
	    no-annotated-source flat-profile no-flat-profile graph no-graph exec-counts \
	    no-exec-counts function-ordering file-ordering file-info sum all-lines demangle \
	    no-demangle directory-path display-unused-functions inline-file-names min-count \
	    print-path separate-files static-call-graph table-length time no-time width brief \
	    debug help file-format traditional version batch no-mouse clones tabstop stacks no-stacks folded measured \
	    thread threads thread-frames; do
		grep -q -- "--$opt" "$OUT/h" || fail "-h does not mention --$opt"
	done
	pass "-h lists every long option"
fi

"$TGPROF" --nosuch >/dev/null 2>"$OUT/e"
tcheck "an unknown option exits 1" test $? -eq 1
tcheck "an unknown option is named" grep -q "unrecognized option\|invalid option" "$OUT/e"

# --tabstop: 1 to 64, else one line.
for v in 0 65 x 4x ''; do
	"$TGPROF" --batch --tabstop="$v" >/dev/null 2>"$OUT/e"
	rc=$?
	tcheck "--tabstop=$v exits 1 with one line" \
	    sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$OUT/e') -eq 1 ] && grep -q '^tgprof: --tabstop: ' '$OUT/e'"
done

# --clones: gprof's way by default; a bad mode is refused in one line.
(cd "$PROG" && "$TGPROF" --batch --clones=gprof prog gmon.out >"$OUT/a" 2>&1 &&
    "$TGPROF" --batch prog gmon.out >"$OUT/b" 2>&1)
tcheck "--clones=gprof is the default" cmp -s "$OUT/a" "$OUT/b"
"$TGPROF" --clones=inline >/dev/null 2>"$OUT/e"
tcheck "--clones=inline exits 1" test $? -eq 1
tcheck "--clones=inline: one line" sh -c "test \$(wc -l <'$OUT/e') -eq 1 && grep -q '^tgprof: --clones: ' '$OUT/e'"

# Without a terminal on stdout, tgprof prints the batch report.
(cd "$PROG" && "$TGPROF" -b prog gmon.out >"$OUT/a" 2>&1 && "$TGPROF" --batch -b prog gmon.out >"$OUT/b" 2>&1)
tcheck "no terminal: the batch report" cmp -s "$OUT/a" "$OUT/b"

# Refusals are one line: "tgprof: FILE: what is wrong", exit 1.
(cd "$PROG" && "$TGPROF" --batch prog nosuch.out >/dev/null 2>"$OUT/e")
tcheck "a missing gmon file exits 1" test $? -eq 1
tcheck "a missing gmon file: one line naming it" \
    sh -c "test \$(wc -l <'$OUT/e') -eq 1 && grep -q '^tgprof: nosuch.out: ' '$OUT/e'"
(cd "$PROG" && "$TGPROF" --batch gmon.out gmon.out >/dev/null 2>"$OUT/e")
tcheck "not an executable: gprof's message" grep -q "^tgprof: gmon.out: not in executable format" "$OUT/e"

# -s writes gmon.sum through a temporary file: never a partial file.
(cd "$PROG" && rm -f gmon.sum && chmod a-w . && "$TGPROF" --batch -s prog gmon.out >/dev/null 2>"$OUT/e"; rc=$?; chmod u+w .; exit $rc)
rc=$?
if ! want "-s into a read-only directory"; then
	:
elif [ "$(id -u)" -eq 0 ]; then
	pass "-s into a read-only directory (skipped as root)"
else
	tcheck "-s into a read-only directory fails" test "$rc" -eq 1
	tcheck "-s leaves no partial file" sh -c "! ls '$PROG'/gmon.sum* 2>/dev/null"
fi
# The usual first mistakes, each refused in one line that says what to do:
# the program and its profile the other way round, no program and no
# a.out, no gmon.out yet (and a program built without -pg), a script given
# as the profile, tgprof record without -- before the program.
if want "first mistakes"; then
	F=$OUT/first
	rm -rf "$F" && mkdir -p "$F/empty" && cp "$PROG/prog" "$PROG/gmon.out" "$F/"
	first() {	# DESC PATTERN DIR ARGS...: status 1, one line matching PATTERN
		desc=$1 pat=$2 dir=$3
		shift 3
		(cd "$dir" && "$TGPROF" "$@" >/dev/null 2>"$F/err")
		rc=$?
		tcheck "first mistakes: $desc" sh -c "
		    [ $rc -eq 1 ] && [ \$(wc -l <'$F/err') -eq 1 ] && grep -q '$pat' '$F/err'"
	}
	first "swapped" '^tgprof: gmon.out: a profile where the program was expected: tgprof prog gmon.out (the program first)$' \
	    "$F" --batch gmon.out prog
	first "no a.out" '^tgprof: a.out: no such program here: give one, tgprof PROG \[gmon.out\] (tgprof -h says more)$' \
	    "$F/empty" --batch
	cp "$F/prog" "$F/empty/prog"
	first "no gmon.out yet" '^tgprof: gmon.out: no profile yet: run prog, built with -pg, to write it; or tgprof record -- prog ARGS$' \
	    "$F/empty" --batch prog
	first "record without --" '^tgprof: record: the program goes after --: tgprof record \[-o FILE\] -- PROG ARGS$' \
	    "$F/empty" record ./prog
	printf 'int main(void) { return 0; }\n' >"$F/plain.c" && cc -o "$F/empty/plain" "$F/plain.c" ||
	    fatal "cannot build a program without -pg"
	first "no gmon.out, built without -pg" '^tgprof: gmon.out: no profile yet, and plain was built without -pg (no call to mcount in it): rebuild it with cc -pg, run it, then tgprof plain$' \
	    "$F/empty" --batch plain
	printf 'print("a script")\n' >"$F/script.lua"
	first "a script as the profile" '^tgprof: script.lua: a text file (a script?), not a profile: profile the program that runs it, tgprof record -- INTERPRETER script.lua$' \
	    "$F" --batch prog script.lua
fi
# A gmon.out older than the program beside it: built again after the run,
# said in one warning; not for a fresh run, nor for a profile elsewhere
# (copied there: its time says nothing).
if want "stale"; then
	S=$OUT/stale
	rm -rf "$S" && mkdir -p "$S/elsewhere" && cp "$PROG/prog" "$S/" && (cd "$S" && ./prog >/dev/null) ||
	    fatal "cannot run the program for stale"
	"$TGPROF" --batch -b -p "$S/prog" "$S/gmon.out" >/dev/null 2>"$S/fresh.err"
	touch -d "@$(($(date +%s) + 60))" "$S/prog"
	"$TGPROF" --batch -b -p "$S/prog" "$S/gmon.out" >/dev/null 2>"$S/stale.err"
	cp "$S/gmon.out" "$S/elsewhere/" && touch -d "@$(($(date +%s) - 60))" "$S/elsewhere/gmon.out"
	"$TGPROF" --batch -b -p "$S/prog" "$S/elsewhere/gmon.out" >/dev/null 2>"$S/elsewhere.err"
	check "stale: a gmon.out older than the program beside it is said, once" sh -c "
	    [ \$(wc -l <'$S/stale.err') -eq 1 ] &&
	    grep -q '^tgprof: $S/gmon.out: warning: older than $S/prog: was it built again after the run that wrote it? Run it again for a profile of this build\$' '$S/stale.err'"
	check "stale: not for a fresh run, nor for a profile in another directory" \
	    sh -c "[ ! -s '$S/fresh.err' ] && [ ! -s '$S/elsewhere.err' ]"
fi
# A load's progress: on a terminal's standard error (script(1) gives one),
# a line for each step once it has taken TGPROF_PROGRESS_AFTER seconds,
# erased at the end; nothing without a terminal.
if want "progress" && command -v script >/dev/null 2>&1; then
	G=$OUT/progress
	rm -rf "$G" && mkdir -p "$G"
	TGPROF_PROGRESS_AFTER=0 script -qec "'$TGPROF' --batch -b -p '$PROG/prog' '$PROG/gmon.out' >/dev/null" \
	    "$G/typescript" >/dev/null 2>&1
	TGPROF_PROGRESS_AFTER=0 "$TGPROF" --batch -b -p "$PROG/prog" "$PROG/gmon.out" >/dev/null 2>"$G/err"
	tr '\r' '\n' <"$G/typescript" >"$G/lines"
	check "progress: each step said on a terminal, the line erased at the end" sh -c "
	    grep -q '^tgprof: $PROG/gmon.out: reading the symbols (2%)' '$G/lines' &&
	    grep -q '^tgprof: $PROG/gmon.out: sorting (77%)' '$G/lines' &&
	    grep -qF \"\$(printf 'sorting (77%%)\\033[K\\r\\033[K')\" '$G/typescript'"
	check "progress: nothing said without a terminal" [ ! -s "$G/err" ]
fi
# tgprof record on a program stopped by a signal it does not catch (^C,
# kill): libtgmon writes its profile as it ends, the report follows, and
# the status is the program's (128 + the signal).
if want "record stopped"; then
	K=$OUT/kill
	rm -rf "$K" && mkdir -p "$K"
	printf '%s\n' 'static volatile unsigned long sink;' \
	    '__attribute__((noinline)) void spin(void) { for (unsigned long i = 0; i < 1000000; i++) sink += i; }' \
	    'int main(void) { for (;;) spin(); }' >"$K/loop.c"
	gcc -pg -O1 -o "$K/loop" "$K/loop.c" || fatal "cannot build loop.c"
	(cd "$K" && exec "$TGPROF" record -- ./loop >out 2>err) &
	rec=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		sleep 0.5
		child=$(pgrep -P "$rec" -x loop) && break
	done
	[ -n "${child:-}" ] && sleep 0.5 && kill -TERM "$child"
	wait "$rec"
	rc=$?
	tcheck "record stopped by SIGTERM: its profile written and shown, status 143" sh -c "
	    [ $rc -eq 143 ] && [ -s '$K/gmon.out' ] && grep -q ' spin\$' '$K/out' && ! grep -q 'wrote no profile' '$K/err'"
fi
# tgprof record of a program that dlopen()s two -pg libraries of one file
# name (plugins from two directories): each has its profile, and the
# second is named by its path (from the stacks file) with how to read it.
if want "record two libraries"; then
	L=$OUT/twolib
	RTP=$TOP/tests/progs/rt
	rm -rf "$L" && mkdir -p "$L/a" "$L/b" "$L/rec"
	gcc -pg -O2 -fPIC -shared -o "$L/a/libfoo.so" "$RTP/libfoo.c" && cp "$L/a/libfoo.so" "$L/b/libfoo.so" &&
	    gcc -pg -O2 -o "$L/dlfoo" "$RTP/dlfoo.c" -L"$TOP/runtime" -l:libtgmon.a -pthread -ldl ||
	    fatal "cannot build libfoo.so and dlfoo"
	(cd "$L" && "$TGPROF" record -o rec/gmon.out -- ./dlfoo "$L/a/libfoo.so" "$L/b/libfoo.so" >/dev/null 2>rec/err)
	tcheck "record two libraries named libfoo.so: each profile, each said with how to read it" sh -c "
	    grep -q '^tgprof: record: rec/gmon.libfoo.so.out: the profile of the -pg library libfoo.so, apart from the program.s: tgprof libfoo.so rec/gmon.libfoo.so.out\$' '$L/rec/err' &&
	    grep -q '^tgprof: record: rec/gmon.libfoo.so~2.out: the profile of the -pg library $L/b/libfoo.so (number 2 of that name), apart from the program.s: tgprof $L/b/libfoo.so rec/gmon.libfoo.so~2.out\$' '$L/rec/err' &&
	    [ -s '$L/rec/gmon.libfoo.so.out' ] && [ -s '$L/rec/gmon.libfoo.so~2.out' ]"
fi
# tgprof record -o FILE where FILE is not a regular file (#26.16b): written
# through, never replaced, as tgprof's other outputs (afile): a FIFO with a
# reader gets the profile and stays a FIFO; a character device (a null
# device made here as root; /dev/null, as a user who cannot write in /dev)
# stays one, and the report is shown from the run's own copy.
if want_any "record -o a FIFO" "record -o a device" "record -o /dev/null"; then
	W=$OUT/through
	rm -rf "$W" && mkdir -p "$W"
	printf '%s\n' 'int leaf(int i) { return i % 7; }' \
	    'int main(void) { int s = 0; for (int i = 0; i < 3000; i++) s += leaf(i); return s == 8994 ? 0 : 1; }' >"$W/p.c"
	gcc -pg -O1 -o "$W/p" "$W/p.c" -L"$TOP/runtime" -l:libtgmon.a -pthread || fatal "cannot build p.c"
	mkfifo "$W/fifo"
	timeout 10 cat "$W/fifo" >"$W/got" &
	reader=$!
	(cd "$W" && "$TGPROF" record -o fifo -- ./p >out 2>err)
	rc=$?
	wait "$reader"
	tcheck "record -o a FIFO: written through (a gmon file read from it), still a FIFO, the report shown" sh -c "
	    [ $rc -eq 0 ] && [ -p '$W/fifo' ] && [ \"\$(head -c 4 '$W/got')\" = gmon ] &&
	    grep -q '^Flat profile:' '$W/out' && ! ls -a '$W' | grep -q tgprof-record"
	if [ "$(id -u)" = 0 ] && mknod "$W/null" c 1 3; then
		(cd "$W" && "$TGPROF" record -o null -- ./p >out 2>err)
		rc=$?
		tcheck "record -o a device (root): still the device, the report shown" sh -c "
		    [ $rc -eq 0 ] && [ -c '$W/null' ] && grep -q '^Flat profile:' '$W/out'"
	fi
	# /dev/null itself only as another user than root (nobody, by setpriv, when run
	# as root): a tgprof that replaced it would break every process on the machine.
	asuser=
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
	    asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
	if [ -n "$asuser" ] && ! $asuser sh -c "cd '$W' && test -x '$TGPROF'" 2>/dev/null; then
		pass "record -o /dev/null (not root): skipped: nobody cannot reach the tree"
	elif [ "$(id -u)" != 0 ] || [ -n "$asuser" ]; then
		chmod 777 "$W"
		(cd "$W" && TMPDIR=/tmp $asuser "$TGPROF" record -o /dev/null -- ./p >out 2>err)
		rc=$?
		tcheck "record -o /dev/null (not root): status 0, the report shown, /dev/null still a device" sh -c "
		    [ $rc -eq 0 ] && [ -c /dev/null ] && grep -q '^Flat profile:' '$W/out' && [ ! -s '$W/err' ]"
	fi
fi
# @FILE response files: gprof's splitting and nesting (gprof as the oracle);
# what libiberty does badly (exits naming argv[0], or ignores a pipe) is
# refused in one line or read.
A=$OUT/at
mkdir -p "$A/dir"
printf -- "-b 'prog'\n@%s\n" "$A/inner" >"$A/outer"
printf -- '"-p" gm\\on.out\n' >"$A/inner"
(cd "$PROG" && LC_ALL=C "$GPROF" @"$A/outer" >"$A/want" 2>&1; "$TGPROF" --batch @"$A/outer" >"$A/got" 2>&1)
gcheck "nested @-files: the report gprof prints" cmp -s "$A/want" "$A/got"
tcheck "nested @-files: a flat profile" grep -q '^Flat profile:' "$A/got"
rm -f "$A/fifo" && mkfifo "$A/fifo"
echo gmon.out >"$A/fifo" &
(cd "$PROG" && "$TGPROF" --batch -b -p @/dev/null prog @"$A/fifo" >"$A/got" 2>&1)
wait
gcheck "@-file from a pipe (gprof takes it for a file name)" cmp -s "$A/want" "$A/got"
# An @-file naming a FIFO that nobody writes: refused after 5 s (gprof waits for ever).
if want "@-file: a FIFO nobody writes"; then
	rm -f "$A/silent" && mkfifo "$A/silent" && printf '@%s\n' "$A/silent" >"$A/names-silent"
	(cd "$PROG" && timeout 30 "$TGPROF" --batch -b -p prog gmon.out @"$A/names-silent" >/dev/null 2>"$A/silent.err")
	rc=$?
	tcheck "@-file: a FIFO nobody writes: refused in 5 s, status 1, one line" sh -c "
	    [ $rc -eq 1 ] && [ \$(wc -l <'$A/silent.err') -eq 1 ] &&
	    grep -q '^tgprof: $A/silent: nothing came from it in 5 s\$' '$A/silent.err'"
fi
refused() {	# DESC WANT ARGS...: one line WANT on stderr, status 1
	desc=$1 want=$2
	shift 2
	want_any "$desc: status 1" "$desc: one line" || return 0
	(cd "$A" && "$TGPROF" --batch "$@" >/dev/null 2>"$A/e")
	rc=$?
	tcheck "$desc: status 1" test "$rc" -eq 1
	tcheck "$desc: one line" sh -c "printf '%s\n' '$want' | cmp -s - '$A/e'"
}
refused "@-file that is a directory" "tgprof: dir: @-file is a directory" @dir
printf '@self\n' >"$A/self"
refused "@-file naming itself" "tgprof: self: more than 1999 @-files (one that names itself?)" @self
head -c 70000000 /dev/zero | tr '\0' x >"$A/big"
refused "@-file of 70 MB" "tgprof: big: @-files larger than 64 MiB in all" @big
rm -f "$A/big"
refused "@-file that is missing: a file name, as in gprof" "tgprof: @nosuch: No such file or directory" \
    "$PROG/prog" @nosuch
# make install with a prefix and DESTDIR puts the program and the manual in place.
rm -rf "$OUT/inst"
want "make install" && (cd "$TOP" && make install prefix=/opt/tg DESTDIR="$OUT/inst" >/dev/null 2>&1)
tcheck "make install: the program" test -x "$OUT/inst/opt/tg/bin/tgprof"
tcheck "make install: the manual page" test -f "$OUT/inst/opt/tg/share/man/man1/tgprof.1"
tcheck "make install: libtgmon, its manual and pkg-config file" sh -c \
    "ls '$OUT'/inst/opt/tg/lib*/libtgmon.a '$OUT'/inst/opt/tg/lib*/libtgmon.so \
    '$OUT'/inst/opt/tg/lib*/pkgconfig/tgmon.pc '$OUT/inst/opt/tg/share/man/man3/libtgmon.3' >/dev/null &&
    grep -q '^libdir=/opt/tg/lib' '$OUT'/inst/opt/tg/lib*/pkgconfig/tgmon.pc"
finish
