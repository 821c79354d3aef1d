#!/bin/sh
# tests/hostile.sh: what an attacker's files, or a program hard on its profiler, do to tgprof and libtgmon.
#
# Usage: hostile.sh TGPROF OUT
# Each case reproduces a fault tgprof or libtgmon had (issue 12): a hang
# is caught with timeout(1), a file in the wrong place or mode by looking.
# It builds its own programs from tests/progs (cycles.c, rt/hostile.c,
# rt/bigtext.c, rt/threads.c, rt/libfoo.c, rt/dlfoo.c); the browser's
# cases are in tests/hostile-ui.sh.  T selects cases.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TGPROF=$1
OUT=$2
T_NAME=hostile
. "$TOP/tests/lib.sh"
rm -rf "$OUT"
mkdir -p "$OUT"
export LC_ALL=C
RT=$TOP/runtime
rc=0

# A program with DWARF and its profile: the base of the executable cases.
P=$OUT/exe
mkdir -p "$P"
(cd "$P" && gcc -pg -g -O1 -o prog "$TOP/tests/progs/cycles.c" && ./prog 100 >/dev/null) ||
	fatal "cannot build cycles.c"

# elf_set PROG SECTION FIELD VALUE OUT: PROG with one section header field
# (size) changed, as a damaged or hostile file can have it.
elf_set() {
	python3 - "$@" <<'EOF'
import struct, sys
prog, section, field, value, out = sys.argv[1:]
d = bytearray(open(prog, 'rb').read())
shoff = struct.unpack_from('<Q', d, 0x28)[0]
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
stroff = struct.unpack_from('<Q', d, shoff + shstrndx * shentsize + 0x18)[0]
for i in range(shnum):
    o = shoff + i * shentsize
    n = struct.unpack_from('<I', d, o)[0]
    if d[stroff + n:d.index(0, stroff + n)].decode() == section:
        struct.pack_into('<Q', d, o + {'size': 0x20}[field], int(value, 0))
open(out, 'wb').write(d)
EOF
}

# debuglink NAME SECTION PROG OUT: PROG with a SECTION (.gnu_debuglink or .gnu_debugaltlink) naming NAME.
debuglink() {
	python3 -c '
import struct, sys
name = sys.argv[1].encode() + b"\0"
if sys.argv[2] == ".gnu_debuglink":
    name += b"\0" * ((4 - len(name) % 4) % 4)
    name += struct.pack("<I", 0x12345678)
else:
    name += b"\x01" * 20
open(sys.argv[3], "wb").write(name)' "$1" "$2" "$OUT/link.bin" &&
	objcopy --add-section "$2=$OUT/link.bin" "$3" "$4"
}

# finishes DESC SECONDS CMD...: CMD ends (any status but a timeout's) within SECONDS.
finishes() {
	desc=$1 secs=$2
	shift 2
	want "$desc" || return 0
	timeout "$secs" "$@" >"$OUT/stdout" 2>"$OUT/stderr" </dev/null
	rc=$?
	if [ $rc -ne 124 ] && [ $rc -lt 128 ]; then pass "$desc"; else fail "$desc (status $rc)"; fi
}

# 4. Debug links to a device or a FIFO: libbfd read /dev/zero for ever, or blocked opening the FIFO.
strip -g -o "$P/prog.nodebug" "$P/prog"
debuglink ../../../../../../../../../../dev/zero .gnu_debuglink "$P/prog.nodebug" "$P/prog.zero"
finishes "a .gnu_debuglink to /dev/zero does not hang --batch" 20 \
    "$TGPROF" --batch -b "$P/prog.zero" "$P/gmon.out"
tcheck "a .gnu_debuglink to /dev/zero: a warning says it is not followed" \
    grep -q "^tgprof: $P/prog.zero: warning: not following its debug link: .*dev/zero is not a regular file\$" \
    "$OUT/stderr"
mkfifo "$P/fifo"
debuglink fifo .gnu_debuglink "$P/prog.nodebug" "$P/prog.fifo"
finishes "a .gnu_debuglink to a FIFO does not block -l" 20 \
    "$TGPROF" --batch -b -l "$P/prog.fifo" "$P/gmon.out"
debuglink fifo .gnu_debugaltlink "$P/prog" "$P/prog.alt"
finishes "a .gnu_debugaltlink to a FIFO does not block -l" 20 \
    "$TGPROF" --batch -b -l "$P/prog.alt" "$P/gmon.out"

# 5. Section sizes beyond the file: -c allocated (and touched) 4 GiB; with
# DWARF left to libbfd (an alt link), -l asked about each of 2^40 bytes.
elf_set "$P/prog" .text size 0x100000000 "$P/prog.4g"
# (AddressSanitizer needs more address space than that for its shadow)
limit=2000000
grep -q '^CFLAGS = .*-fsanitize' "$TOP/Makefile" && limit=unlimited
finishes "a .text of 4 GiB in a small file: -c under a 2 GiB address space" 20 \
    sh -c 'ulimit -v "$0"; exec "$@"' "$limit" "$TGPROF" --batch -b -c "$P/prog.4g" "$P/gmon.out"
if want "a .text of 4 GiB: -c reads only what the file holds"; then
	check "a .text of 4 GiB: -c reads only what the file holds" \
	    sh -c "! grep -q 'ran out room' '$OUT/stderr'"
fi
# libbfd's messages name the file and section (its own %pB and %pA), not
# raw pointers ("0x55...B(0x55...A) is too large").
elf_set "$P/prog" .debug_line size 0x7fffffff "$P/prog.bigline"
if want "libbfd's %pB(%pA): the file and section named"; then
	"$TGPROF" --batch -b -p -l "$P/prog.bigline" "$P/gmon.out" >/dev/null 2>"$OUT/bigline.err"
	check "libbfd's %pB(%pA): the file and section named" sh -c "
	    grep -q 'prog.bigline(.debug_line) is too large (0x7fffffff bytes)' '$OUT/bigline.err' &&
	    ! grep -q '0x[0-9a-f]*B(0x[0-9a-f]*A)' '$OUT/bigline.err'"
fi
if want "libbfd's own warning comes as tgprof's line, not 'BFD: ...'"; then
	"$TGPROF" --batch -b "$P/prog.4g" "$P/gmon.out" >/dev/null 2>"$OUT/stderr"
	check "libbfd's own warning comes as tgprof's line, not 'BFD: ...'" \
	    sh -c "grep -q '^tgprof: $P/prog.4g: warning: .*section extending past end of file' '$OUT/stderr' &&
	        ! grep -q '^BFD:' '$OUT/stderr'"
fi
elf_set "$P/prog.alt" .text size 0x10000000000 "$P/prog.1t"
finishes "a .text of 1 TiB with DWARF left to libbfd: -l ends" 20 \
    "$TGPROF" --batch -b -l "$P/prog.1t" "$P/gmon.out"

# 6. A gmon.out that is a device was read until memory ran out.
ln -sf /dev/zero "$P/zero.out"
finishes "a gmon.out linked to /dev/zero is refused" 20 "$TGPROF" --batch -b "$P/prog" "$P/zero.out"
tcheck "a gmon.out linked to /dev/zero: one line, status 1" \
    sh -c "[ $rc -eq 1 ] && [ \"\$(cat '$OUT/stderr')\" = 'tgprof: $P/zero.out: not a regular file' ]"
want "standard input from /dev/zero is refused" &&
    check "standard input from /dev/zero is refused" sh -c \
    "timeout 20 '$TGPROF' --batch -b '$P/prog' - </dev/zero 2>&1 >/dev/null |
        grep -qx 'tgprof: -: standard input is not a file or a pipe'"
"$TGPROF" --batch -b "$P/prog" "$P/gmon.out" >"$OUT/want" 2>&1
want "a pipe on standard input is read" && check "a pipe on standard input is read" sh -c \
    "cat '$P/gmon.out' | '$TGPROF' --batch -b '$P/prog' - 2>&1 | cmp -s - '$OUT/want'"
if want "a FIFO is read"; then
	mkfifo "$P/gmon.fifo"
	(cat "$P/gmon.out" >"$P/gmon.fifo" &)
	check "a FIFO is read" sh -c \
	    "timeout 20 '$TGPROF' --batch -b '$P/prog' '$P/gmon.fifo' 2>&1 | cmp -s - '$OUT/want'"
fi

# 3. Files tgprof creates get the umask's mode, as fopen() gives them.
if want "-A -y under umask 077: FILE-ann is 0600"; then
	mkdir -p "$OUT/ann"
	(cd "$OUT/ann" && umask 077 && "$TGPROF" --batch -A -y "$P/prog" "$P/gmon.out" 2>/dev/null)
	check "-A -y under umask 077: FILE-ann is 0600" \
	    [ "$(stat -c %a "$OUT/ann/cycles.c-ann" 2>/dev/null)" = 600 ]
fi
if want "-s under umask 027: gmon.sum is 0640"; then
	mkdir -p "$OUT/sum"
	(cd "$OUT/sum" && umask 027 && "$TGPROF" --batch -s "$P/prog" "$P/gmon.out")
	check "-s under umask 027: gmon.sum is 0640" [ "$(stat -c %a "$OUT/sum/gmon.sum")" = 640 ]
fi

# The browser (issue 12, items 1-3 and 7-9), when built with ncursesw.
if grep -q 'HAVE_UI 1' "$TOP/config.h"; then
	. "$TOP/tests/hostile-ui.sh"
fi

# libtgmon (x86-64 only).
[ "$(uname -m)" = x86_64 ] || finish
R=$OUT/rt
mkdir -p "$R"
gcc -pg -O2 -o "$R/hostile" "$TOP/tests/progs/rt/hostile.c" "$TOP/tests/progs/rt/bigtext.c" \
    -L"$RT" -l:libtgmon.a -pthread || fatal "cannot build rt/hostile.c"

# calls FILE PROG FUNC: FUNC's calls in tgprof's flat profile of FILE (0 if none).
calls() {
	"$TGPROF" --batch -b -p "$2" "$1" 2>/dev/null | awk -v f="$3" '$NF == f && NF >= 6 { n = $4 } END { print n + 0 }'
}
leftovers() {	# DIR: temporary files libtgmon left there
	ls -a "$1" | grep -c 'tmp\|tgmon-'
}

# 10. A FIFO planted where the temporary file used to go (NAME.tmpPID) blocked the program at exit.
if want "a FIFO at gmon.out.tmpPID does not block the exit"; then
	rm -f "$R"/gmon.out*
	(cd "$R" && timeout 20 sh -c 'mkfifo gmon.out.tmp$$ && exec ./hostile')
	check "a FIFO at gmon.out.tmpPID does not block the exit" [ $? -eq 0 ]
	check "a FIFO at gmon.out.tmpPID: gmon.out has the 3000 calls" \
	    [ "$(calls "$R/gmon.out" "$R/hostile" work)" = 3000 ]
fi

# 11. A program that closes its descriptors and opens others.
for how in closefds closedir; do
	want "$how: the profile where the program started" || continue
	rm -f "$R"/gmon.out* /gmon.out.hostile-test
	(cd "$R" && ./hostile $how 2>"$OUT/err")
	n=$(calls "$R/gmon.out" "$R/hostile" work)
	check "$how: the profile where the program started" sh -c "[ $n = 3000 ] && [ ! -s '$OUT/err' ]"
done

# 12. SIGTERM while the exit-time file is written (24 MiB of histogram).
if want "SIGTERM during the write, TGMON_SIGNALS=1: the whole file"; then
	rm -f "$R"/gmon.out*
	# (in a shell of its own, whose "Terminated" goes to /dev/null)
	sh -c "cd '$R' && TGMON_SIGNALS=1 ./hostile termexit" 2>/dev/null
	check "SIGTERM during the write, TGMON_SIGNALS=1: the whole file" \
	    [ "$(calls "$R/gmon.out" "$R/hostile" work)" = 3000 ]
	check "SIGTERM during the write, TGMON_SIGNALS=1: no temporary file left" \
	    [ "$(leftovers "$R")" = 0 ]
	rm -f "$R"/gmon.out*
	sh -c "cd '$R' && ./hostile termexit" 2>/dev/null
	check "SIGTERM during the write: no temporary file left" [ "$(leftovers "$R")" = 0 ]
fi

# 13. Preloaded into processes without profiled code, libtgmon wrote their empty gmon.out last.
if want "LD_PRELOAD: only the profiled process writes"; then
	gcc -pg -O2 -o "$R/threads" "$TOP/tests/progs/rt/threads.c" -pthread ||
	    fatal "cannot build threads.c"
	rm -f "$R"/gmon.out*
	(cd "$R" && LD_PRELOAD=$RT/libtgmon.so sh -c './threads >/dev/null; true')
	check "LD_PRELOAD: only the profiled process writes" \
	    [ "$(calls "$R/gmon.out" "$R/threads" leaf_thr)" = 4000000 ]
	rm -f "$R"/gmon.out*
	(cd "$R" && LD_PRELOAD=$RT/libtgmon.so /bin/true)
	check "LD_PRELOAD into /bin/true: no gmon.out" test ! -e "$R/gmon.out"
fi

# 14. A -pg library opened with dlopen(): its calls were dropped.
if want "dlopen: the library's file and its 100000 calls"; then
	gcc -pg -O2 -fPIC -shared -o "$R/libfoo.so" "$TOP/tests/progs/rt/libfoo.c" &&
	    gcc -pg -O2 -o "$R/dlfoo" "$TOP/tests/progs/rt/dlfoo.c" -L"$RT" -l:libtgmon.a -pthread -ldl ||
	    fatal "cannot build dlfoo.c"
	rm -f "$R"/gmon*.out*
	(cd "$R" && ./dlfoo "$R/libfoo.so" >/dev/null)
	n=$("$TGPROF" --batch -b -q "$R/libfoo.so" "$R/gmon.libfoo.so.out" 2>/dev/null |
	    awk '$NF == "[1]" && $(NF-1) == "foo_leaf" { print $(NF-2) }')
	check "dlopen: the library's file and its 100000 calls ($n)" [ "$n" = 100000 ]
	"$TGPROF" --batch -b "$R/dlfoo" "$R/gmon.out" 2>"$OUT/err" >/dev/null
	check "dlopen: the program's file is not taken for another program's" \
	    sh -c "! grep -q 'is this its profile' '$OUT/err'"
fi

# 16. A demangler bomb: a function whose 326-byte mangled name (each
# parameter a pointer to a function of two of the one before) demangles to
# gigabytes.  It is shown mangled, at once, within a small memory limit.
if want "a demangler bomb"; then
	B=$OUT/bomb
	mkdir -p "$B"
	name=$(python3 -c "
d = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
def b36(n):
    s = ''
    while True:
        s, n = d[n % 36] + s, n // 36
        if n == 0:
            return s
seq = lambda i: 'S_' if i == 0 else 'S%s_' % b36(i - 1)
n = '_Z1fPi'
for k in range(1, 31):
    p = 0 if k == 1 else 2 * k - 2
    n += 'PFv%s%sE' % (seq(p), seq(p))
print(n)")
	printf '%s\n' "void bomb(int *p) __asm__(\"$name\");" '__attribute__((noinline)) void bomb(int *p) { *p += 1; }' \
	    'int main(void) { int x = 0; for (int i = 0; i < 1000; i++) bomb(&x); return x != 1000; }' >"$B/bomb.c"
	gcc -pg -O1 -o "$B/bomb" "$B/bomb.c" && (cd "$B" && ./bomb) || fatal "cannot build or run the demangler bomb"
	(cd "$B" && TGPROF_MAX_MEMORY=300M timeout 60 "$TGPROF" --batch -b -p bomb gmon.out >flat 2>err)
	rc=$?
	check "a demangler bomb: --batch ends at once within 300 MB, the name shown mangled" sh -c "
	    [ $rc -eq 0 ] && grep -q ' 1000 .* _Z1fPiPFvS_S_EPFvS1_S1_E' '$B/flat'"
fi

# 15. A program with its own SIGPROF handler and ITIMER_PROF.
if want "a program's own SIGPROF"; then
	rm -f "$R"/gmon.out*
	got=$(cd "$R" && ./hostile ownprof | awk '/^signals/ { print $2 " " $3 }')
	# ITIMER_PROF's count is coarse on a busy machine: only the excess
	# (libtgmon's own timers hitting the program's handler) is checked.
	check "a program's own SIGPROF: no more signals than it asked for ($got)" \
	    awk -v g="${got% *}" -v w="${got#* }" 'BEGIN { exit !(g > 0 && g <= w * 1.5) }'
	s=$("$TGPROF" --batch -b -p "$R/hostile" "$R/gmon.out" | awk '$NF == "burn" { print $3 }')
	check "a program's own SIGPROF: libtgmon's samples are there too (burn: $s s)" \
	    awk -v s="${s:-0}" 'BEGIN { exit !(s >= 0.3) }'
fi

# Issue 26: libtgmon inside real programs' habits (tests/progs/rt/spawn.c and others).
# rt NAME SRC...: builds $R/NAME from SRC (in tests/progs/rt) with libtgmon.a, once.
rt() {
	_n=$1
	shift
	[ -x "$R/$_n" ] && return 0
	(cd "$TOP/tests/progs/rt" && gcc -pg -O2 -o "$R/$_n" "$@" -L"$RT" -l:libtgmon.a -pthread) ||
	    fatal "cannot build $R/$_n"
}

# 26.1. A spawned child (every signal reset to SIG_DFL, the descriptors
# closed, 30 ms of work, exec) was ended by the sampling signal (41): its
# clock ran from the fork.  It now starts at the child's first profiled
# call, and the program's SIG_DFL or SIG_IGN for libtgmon's signal is kept
# while the handler is libtgmon's (a child that resets signals in a
# profiled function, then execs a program that unblocks them).
for how in spawn helper execself; do
	want "spawn $how: no child ended by the sampling signal" || continue
	rt spawn spawn.c
	out=$(cd "$R" && rm -f gmon.out* && ./spawn $how 20 | tail -n 1)
	check "spawn $how: no child ended by the sampling signal ($out)" [ "$out" = "spawned 20 killed 0" ]
	check "spawn $how: the parent's profile, its 3000 calls" [ "$(calls "$R/gmon.out" "$R/spawn" work)" = 3000 ]
done
# The program sees the disposition it set, and a signal of that number
# sent by anyone else does what it asked for: ignored, then the end.
if want "the sampling signal's disposition is the program's"; then
	rt spawn spawn.c
	# (in a shell of its own, whose word on the signal goes to /dev/null)
	sh -c "cd '$R' && ./spawn own >'$OUT/own'" 2>/dev/null
	rc=$?
	check "the sampling signal's disposition is the program's (status $rc: $(tr '\n' ' ' <"$OUT/own"))" \
	    sh -c "[ $rc = $((128 + 41)) ] && [ \"\$(cat '$OUT/own')\" = \"\$(printf 'start dfl\nignored\nwas ign')\" ]"
fi

# 26.2. A worker in a seccomp sandbox (strict mode, or an allow-list that
# kills on anything else) was ended by the sample handler's system calls
# (the stack walk's probes, the event's refresh): a thread entering a
# sandbox (prctl, or the seccomp system call as libseccomp makes it) is
# sampled by its timer, its handler makes no system call and its program
# counter alone goes into the histogram; its calls are still counted.
# The worker spends 300 ms, main 100 ms; sandbox.c prints what it did.
if want_any "seccomp"; then
	rt sandbox sandbox.c
	gcc -O2 -o "$R/sandbox-plain" "$TOP/tests/progs/rt/sandbox.c" -pthread || fatal "cannot build sandbox.c"
	seccomp_ok=$("$R/sandbox-plain" strict-thread 2>&1 | grep -c '^worker ok$')
fi
for how in strict-thread strict-fork filter-thread filter-fork seccomp-thread seccomp-fork tsync-fork tsync-thread; do
	want "seccomp $how: " || continue
	if [ "$seccomp_ok" != 1 ]; then
		pass "seccomp $how: seccomp's strict mode does not work here: skipped"
		continue
	fi
	out=$(cd "$R" && rm -f gmon.out* && timeout 20 ./sandbox $how 2>&1)
	rc=$?
	check "seccomp $how: the worker and the program run to their end (status $rc: $(echo $out))" \
	    sh -c "[ $rc = 0 ] && echo '$out' | grep -q '^worker ok\$' && echo '$out' | grep -q '^main ok\$'"
	[ $how = tsync-thread ] && continue	# the whole process in the sandbox: no file
	set -- $(echo "$out" | grep '^rounds')
	t=$("$TGPROF" --batch -b -p "$R/sandbox" "$R/gmon.out" 2>/dev/null | awk 'NR > 5 && $2 ~ /^[0-9.]+$/ { s = $2 } END { print s + 0 }')
	check "seccomp $how: every call counted (leaf0: $(calls "$R/gmon.out" "$R/sandbox" leaf0) of ${2:-?}), $t s sampled of ${4:-?} s" \
	    sh -c "[ '$(calls "$R/gmon.out" "$R/sandbox" leaf0)' = '${2:-x}' ] &&
	        awk -v t='$t' -v c='${4:-0}' 'BEGIN { exit !(c > 0 && t >= 0.7 * c - 0.02) }'"
done

# 26.2b. With snapshots (TGMON_INTERVAL), libtgmon's thread of its own:
# before a sandbox for every thread (TSYNC), it is stopped in a wait of
# the kernel's (its next system call would have ended the process); a
# forked child has no such thread and writes no snapshot.
if want "snapshots: seccomp tsync-thread"; then
	rt sandbox sandbox.c
	if [ -z "${seccomp_ok:-}" ]; then
		gcc -O2 -o "$R/sandbox-plain" "$TOP/tests/progs/rt/sandbox.c" -pthread || fatal "cannot build sandbox.c"
		seccomp_ok=$("$R/sandbox-plain" strict-thread 2>&1 | grep -c '^worker ok$')
	fi
	if [ "$seccomp_ok" = 1 ]; then
		out=$(cd "$R" && rm -f gmon.out* && TGMON_INTERVAL=0.02 timeout 20 ./sandbox tsync-thread 2>&1)
		rc=$?
		check "snapshots: seccomp tsync-thread: the program runs to its end (status $rc: $(echo $out))" \
		    sh -c "[ $rc = 0 ] && echo '$out' | grep -q '^main ok\$'"
	else
		pass "snapshots: seccomp tsync-thread: seccomp's strict mode does not work here: skipped"
	fi
fi
if want "snapshots: fork"; then
	rt exits exits.c
	cpid=$(cd "$R" && rm -f gmon.out* && TGMON_INTERVAL=0.01 ./exits fork 2>"$R/exits.err")
	check "snapshots: fork: the child's profile, no snapshot of the child's, the parent's final" sh -c "
	    [ -f '$R/gmon.out.$cpid' ] && ! ls '$R' | grep -q 'gmon.out.$cpid.*live' &&
	    grep -q '^final 1\$' '$R/gmon.out.live.info' && [ ! -s '$R/exits.err' ]"
fi

# 26.3. A program that blocks every signal and waits for any (sigwait,
# sigwaitinfo, sigtimedwait, a signalfd) got libtgmon's (41), pending since
# its clock last ran out, instead of the SIGUSR1 it sent itself; the same
# signal sent by the program is still its own.
for how in sigwait sigwaitinfo sigtimedwait signalfd sigwait-sent; do
	want "$how: the signal the program sent itself" || continue
	rt sigs sigs.c
	want=10
	[ $how = sigwait-sent ] && want=41
	for clock in perf timer; do
		out=$(cd "$R" && rm -f gmon.out* && TGMON_CLOCK=$clock timeout 20 ./sigs $how 2>&1)
		check "$how: the signal the program sent itself ($clock: $out)" [ "$out" = "got $want" ]
	done
done

# 26.4. A stack overflow's SIGSEGV handler, on a 7 KiB alternate stack,
# calls _exit(3): libtgmon's writer ran on that stack and overflowed it
# (status 139).  It runs on a stack of its own, and a sample taken on a
# small alternate stack walks no stack.  The floor: the smallest stack
# (of 4 to 8 KiB) on which the program without libtgmon gets to _exit.
if want_any "overflow on a small alternate stack"; then
	rt sigs sigs.c
	gcc -O2 -o "$R/sigs-plain" "$TOP/tests/progs/rt/sigs.c" -pthread || fatal "cannot build sigs.c"
	floor=
	for sz in 4096 5120 6144 7168 8192; do
		sh -c "ulimit -s 2048 && exec '$R/sigs-plain' overflow $sz" 2>/dev/null
		[ $? = 3 ] && floor=$sz && break
	done
fi
for clock in perf timer; do
	want "overflow on a small alternate stack ($clock)" || continue
	for sz in ${floor:-7168} 7168; do
		# (At the floor a sample that lands while the handler runs needs a signal
		# frame on that stack too, as glibc's SIGPROF would: one try more.)
		for _try in 1 2; do
			rm -f "$R"/gmon.out*
			sh -c "cd '$R' && ulimit -s 2048 && TGMON_CLOCK=$clock exec ./sigs overflow $sz" 2>/dev/null
			rc=$?
			[ $rc = 3 ] && break
		done
		check "overflow on a small alternate stack ($clock): _exit(3) from a handler on $sz bytes (the floor: ${floor:-none}): status $rc, the profile written" \
		    sh -c "[ $rc = 3 ] && [ $(calls "$R/gmon.out" "$R/sigs" work) = 3000 ]"
	done
done

# 26.5. TGMON_SIGNAL=32 or 33, glibc's own signals, whose handler it
# refuses: a misleading line ("the program's text is not found"), then the
# clocks armed anyway, which ended the program (status 160, 161).  Refused
# in one line; the default signal samples.
for v in 32 33; do
	want "TGMON_SIGNAL=$v: refused" || continue
	rt busy busy.c
	(cd "$R" && rm -f gmon.out* && TGMON_SIGNAL=$v ./busy 32 >/dev/null 2>"$OUT/err")
	rc=$?
	t=$("$TGPROF" --batch -b -p "$R/busy" "$R/gmon.out" 2>/dev/null | awk 'NR > 5 && $2 ~ /^[0-9.]+$/ { s = $2 } END { print s + 0 }')
	check "TGMON_SIGNAL=$v: refused in one line, the default signal samples (status $rc, $t s sampled: $(cat "$OUT/err"))" \
	    sh -c "[ $rc = 0 ] && [ \$(wc -l <'$OUT/err') = 1 ] &&
	        grep -q '^libtgmon: TGMON_SIGNAL=$v: not a signal to sample with (.*): signal [0-9]* instead\$' '$OUT/err' &&
	        awk 'BEGIN { exit !($t > 0) }'"
done

# 26.6. Each thread's table reserved 10 bytes of address space a byte of
# text, never given back: with 16 MiB of text and 8 threads, the
# program's own 300 MiB malloc failed under ulimit -v 1600000, which is
# enough without libtgmon.  A table grows with the text it is called from.
if want "address space: 16 MiB of text, 8 threads, then 300 MiB"; then
	rt addrspace addrspace.c
	out=$(cd "$R" && rm -f gmon.out* && ulimit -v 1600000 && ./addrspace 8 2>&1)
	rc=$?
	check "address space: 16 MiB of text, 8 threads, then 300 MiB under ulimit -v 1600000 (status $rc: $out; leaf: $(calls "$R/gmon.out" "$R/addrspace" leaf) calls)" \
	    sh -c "[ $rc = 0 ] && [ '$out' = 'malloc ok' ] && [ $(calls "$R/gmon.out" "$R/addrspace" leaf) = 9000 ]"
fi

# 26.7. A program that lowers RLIMIT_FSIZE to 1 KiB was ended by SIGXFSZ
# in libtgmon's write at exit (status 153), before stdio flushed its
# output; one with a SIGXFSZ handler of its own had it called.  The
# writer's SIGXFSZ is taken back, the program's status and output are
# its own, and one line says the profile was cut.
for how in exit handler _exit; do
	want "file size limit ($how): " || continue
	rt fsize fsize.c
	out=$(cd "$R" && rm -f gmon.out* && ./fsize $how 2>"$OUT/err")
	rc=$?
	check "file size limit ($how): status 0, the output whole, one line (status $rc: $(echo $out | cut -c1-30)... $(cat "$OUT/err"))" \
	    sh -c "[ $rc = 0 ] && [ \"\$(echo '$out' | tr '\n' ' ')\" = \"\$(seq -f 'out %g' 20 | tr '\n' ' ')\" ] &&
	        [ \$(wc -l <'$OUT/err') = 1 ] &&
	        grep -qx 'libtgmon: gmon.out: cut at 1024 bytes by the file size limit (ulimit -f): not written' '$OUT/err'"
done
# A standard error already past the limit: the line is not said (its
# write is cut too), and the program still ends as it would have.
if want "file size limit (standard error past it): "; then
	rt fsize fsize.c
	head -c 2048 /dev/zero >"$OUT/err"
	out=$(cd "$R" && rm -f gmon.out* && ./fsize exit 2>>"$OUT/err")
	rc=$?
	check "file size limit (standard error past it): status 0, the output whole (status $rc)" \
	    sh -c "[ $rc = 0 ] && [ \"\$(echo '$out' | tr '\n' ' ')\" = \"\$(seq -f 'out %g' 20 | tr '\n' ' ')\" ]"
fi

# 26.8. A vfork child whose exec failed called _exit(127), which wrote no
# file (the memory is the parent's) but set the parent's "written at
# exit": the parent wrote no profile.  clone(CLONE_VM) did the same.  A
# child that shares the parent's memory now neither writes nor marks.
for how in vfork clone; do
	want "$how: the parent's profile" || continue
	rt spawn spawn.c
	out=$(cd "$R" && rm -f gmon.out* && ./spawn $how)
	check "$how: the parent's profile, its 3000 calls ($out; $(calls "$R/gmon.out" "$R/spawn" work) calls)" \
	    sh -c "echo '$out' | grep -qx '$how [0-9]*' && [ $(calls "$R/gmon.out" "$R/spawn" work) = 3000 ]"
done

# 26.9. A signal handler that interrupted libtgmon's slow path (here in
# the mmap() it asks for a chunk of slots: jumphook.c's, which raises
# SIGUSR1) and siglongjmps out left the thread's table busy for good:
# every new arc after that was dropped ("N calls were not counted").  A
# slow path left for good is seen and taken over; only the handler's own
# calls (on_usr1, in_handler), made while it ran, are not counted.
for how in main deep onstack; do
	want "siglongjmp out of the slow path ($how): " || continue
	if [ ! -x "$R/jump" ]; then
		(cd "$TOP/tests/progs/rt" && gcc -O2 -c -o "$R/jumphook.o" jumphook.c &&
		    gcc -pg -O2 -o "$R/jump" jump.c "$R/jumphook.o" -L"$RT" -l:libtgmon.a -pthread) ||
		    fatal "cannot build $R/jump"
	fi
	out=$(cd "$R" && rm -f gmon.out* && TGMON_HZ=1 ./jump $how 2>"$OUT/err")
	got="after $(calls "$R/gmon.out" "$R/jump" after) leaf $(calls "$R/gmon.out" "$R/jump" leaf) far $(calls "$R/gmon.out" "$R/jump" far)"
	check "siglongjmp out of the slow path ($how): every call after it counted ($out: $got; $(cat "$OUT/err"))" \
	    sh -c "[ '$out' = jumped ] && [ '$got' = 'after 1000 leaf 1000 far 1001' ] &&
	        [ \"\$(cat '$OUT/err')\" = 'libtgmon: 2 calls were not counted (out of memory, or in a signal handler)' ]"
done

# Review of #26: a forked child counted the parent's threads' calls to the
# kernel as its own, and its TSYNC sandbox waited for them (190 ms each);
# sigaltstack() with a bad address for its answer died of SIGSEGV where
# the C library gives EFAULT.
if want "forked children in TSYNC: no wait"; then
	rt forktsync forktsync.c
	out=$(cd "$R" && rm -f gmon.out* && timeout 60 ./forktsync 50)
	check "forked children in TSYNC: no wait ($out)" [ "$out" = "0 of 50 forked children waited over 50 ms in seccomp(TSYNC)" ]
fi
# A line libtgmon says at start (TGMON_SIGNAL=bogus) on a standard error
# already past the file size limit ended the program (SIGXFSZ, 153) before
# main: its SIGXFSZ is taken back too, as the writer's.
if want "a start-time line past the file size limit"; then
	rt altbad altbad.c
	head -c 4096 /dev/zero >"$R/big.err"
	out=$(cd "$R" && sh -c 'ulimit -f 2; TGMON_SIGNAL=bogus ./altbad 2>>big.err; echo "status $?"')
	check "a start-time line past the file size limit: the program runs, status 0 ($out)" \
	    [ "$out" = "$(printf 'bad old: -1 errno 14\nstatus 0')" ]
fi
if want "sigaltstack: a bad address gives EFAULT"; then
	rt altbad altbad.c
	a=$(cd "$R" && ./altbad 2>&1) b=$(cd "$R" && TGMON_SIGNALS=1 ./altbad 2>&1)
	check "sigaltstack: a bad address gives EFAULT, TGMON_SIGNALS or not ($a; $b)" \
	    [ "$a|$b" = "bad old: -1 errno 14|bad old: -1 errno 14" ]
fi

# 26.11. A stack overflow under TGMON_SIGNALS=1 left no profile: the
# fatal signals' handler had no alternate stack to run on.  It runs on
# the program's (never replaced), or on one of libtgmon's for a thread
# that has none (in the main thread, or one started later), which the
# program is told it does not have; then SIGSEGV ends the program.
for how in dfl own thread; do
	want "overflow-$how, TGMON_SIGNALS=1: " || continue
	rt sigs sigs.c
	want=none
	[ $how = own ] && want=own
	rm -f "$R"/gmon.out*
	# (in a shell of its own, whose word on the signal goes to /dev/null)
	sh -c "cd '$R' && ulimit -s 2048 && TGMON_SIGNALS=1 exec ./sigs overflow-$how >'$OUT/out'" 2>/dev/null
	rc=$?
	out=$(cat "$OUT/out")
	check "overflow-$how, TGMON_SIGNALS=1: the profile written, then SIGSEGV (status $rc, $out, $(calls "$R/gmon.out" "$R/sigs" work) calls)" \
	    sh -c "[ $rc = 139 ] && [ '$out' = 'alt $want' ] && [ $(calls "$R/gmon.out" "$R/sigs" work) = 3000 ]"
done

# 26.15. Children that ran no profiled code wrote a full-size empty
# profile each (a program with 100 such children wrote 826 MB): nothing now.
for n in 100 -100; do
	want "idle children ($n): no files" || continue
	rt spawn spawn.c
	out=$(cd "$R" && rm -f gmon.out* && ./spawn idle $n | tail -n 1)
	check "idle children ($n): no files ($out; $(ls "$R" | grep -c '^gmon\.out\.[0-9]') written)" \
	    sh -c "[ '$out' = 'idle 100 killed 0' ] && ! ls '$R' | grep -q '^gmon\.out\.[0-9]' &&
	        [ $(calls "$R/gmon.out" "$R/spawn" work) = 3000 ]"
done
finish
