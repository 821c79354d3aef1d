# tests/hostile-ui.sh: the browser's cases of tests/hostile.sh (sourced there: P is the program's directory).
#
# A source file whose name the debugging information makes an editor
# option, $EDITOR with arguments, the editor's Ctrl-C and Ctrl-Z, P's file
# mode and an over-long typed path, standard input that is not the
# terminal, a 20 kB paste, TERM unset or dumb.

E=$OUT/editor
mkdir -p "$E"
# The editor: records its arguments one a line, in [brackets].
printf '#!/bin/sh\nfor a in "$@"; do echo "[$a]"; done >"%s/args"\n' "$E" >"$E/editor"
chmod +x "$E/editor"

# 1. A relative source name that starts with '-' (DWARF 4, empty
# DW_AT_comp_dir: "-c!sh pwn.c" in the current directory) reached the
# editor as an option: vim -c!sh runs a command.
printf 'int work(int i) { return i * 3; }\nint main(void) { int s = 0; for (int i = 0; i < 1000; i++) s += work(i); return s & 1; }\n' \
    >"$E/Xc!sh pwn.c"
(cd "$E" && gcc -pg -g -gdwarf-4 -O0 -fdebug-prefix-map="$E"= -o prog.x 'Xc!sh pwn.c' && ./prog.x &&
    python3 -c "d = open('prog.x', 'rb').read(); open('prog', 'wb').write(d.replace(b'Xc!sh pwn.c', b'-c!sh pwn.c'))" &&
    chmod +x prog && cp 'Xc!sh pwn.c' './-c!sh pwn.c') || fatal "cannot build the -c!sh program"
printf 'key a\nkey o\n' >"$E/keys"
if want "o: a source named -c!sh pwn.c reaches the editor as ./-c!sh pwn.c"; then
	rm -f "$E/args"
	(cd "$E" && EDITOR="$E/editor" TGPROF_SCRIPT=keys "$TGPROF" prog gmon.out)
	check "o: a source named -c!sh pwn.c reaches the editor as ./-c!sh pwn.c" \
	    sh -c "[ \"\$(cat '$E/args' 2>/dev/null | tr '\\n' ' ')\" = '[+1] [./-c!sh pwn.c] ' ]"
fi

# 2. EDITOR="prog args" was run as one program name; VISUAL comes first.
if want "o: EDITOR with arguments is split as a shell would"; then
	rm -f "$E/args"
	(cd "$E" && EDITOR="'$E/editor' -u NONE 'two words' \\\"q\\\"" TGPROF_SCRIPT=keys "$TGPROF" prog gmon.out)
	check "o: EDITOR with arguments is split as a shell would" sh -c \
	    "[ \"\$(tr '\\n' ' ' <'$E/args')\" = '[-u] [NONE] [two words] [\"q\"] [+1] [./-c!sh pwn.c] ' ]"
	rm -f "$E/args"
	(cd "$E" && VISUAL="$E/editor -v" EDITOR=false TGPROF_SCRIPT=keys "$TGPROF" prog gmon.out)
	check "o: VISUAL before EDITOR" grep -qx '\[-v\]' "$E/args"
fi

# 3. P: the umask's mode, and a path longer than the prompt holds refused.
if want "P: the file gets the umask's mode"; then
	printf 'key P\ntype %s/pane.txt\nkey Enter\n' "$E" >"$E/write.keys"
	rm -f "$E/pane.txt"
	(cd "$E" && umask 022 && TGPROF_SCRIPT=write.keys "$TGPROF" prog gmon.out)
	check "P: the file gets the umask's mode (0644 under 022)" [ "$(stat -c %a "$E/pane.txt")" = 644 ]
	# 1201 characters, typed 400 at a time (a script's line holds less)
	{ echo 'key P'; python3 -c 'p = "d/" * 600 + "x"
for i in range(0, len(p), 400): print("type " + p[i:i + 400])'
	  printf 'key Enter\ndump %s/long.screen\n' "$E"; } >"$E/long.keys"
	(cd "$E" && TGPROF_SCRIPT=long.keys "$TGPROF" prog gmon.out)
	check "P: a path longer than the prompt holds is refused, not cut" \
	    grep -q 'too long: at most 1023 characters; nothing done' "$E/long.screen"
fi

# 9. TERM unset or dumb: one line, then the report (on a pseudo-terminal, by script(1)).
for term in unset dumb; do
	want "TERM $term: one line, then the report" || continue
	command -v script >/dev/null 2>&1 || { echo "# skipped: TERM $term: no script(1)"; continue; }
	if [ $term = unset ]; then set -- env -u TERM; else set -- env TERM=dumb; fi
	timeout 20 script -qec "$* '$TGPROF' '$P/prog' '$P/gmon.out'" /dev/null >"$E/term.$term" 2>&1
	check "TERM $term: one line, then the report" sh -c \
	    "grep -q 'printing the report instead (--batch)' '$E/term.$term' &&
	     grep -q 'Flat profile:' '$E/term.$term' && ! grep -q 'Error opening terminal' '$E/term.$term'"
done

command -v tmux >/dev/null 2>&1 || { echo "# skipped: the browser's terminal cases: no tmux"; return 0; }
S=tgprof-hostile-$$
TM="tmux -L $S"
WAITFOR=10	# waitfor (tests/lib.sh): seconds at most
# cpu PID: its CPU time so far, in clock ticks.
cpu() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# 7. Standard input not the terminal: keys come from /dev/tty; no spinning.
if want "stdin from /dev/null: the browser takes keys from the terminal"; then
	$TM kill-server 2>/dev/null
	tm_new -s "$S" -x 100 -y 30 \
	    "cd '$P' && '$TGPROF' prog gmon.out </dev/null; echo EXIT=\$?; sleep 30" || fatal "tmux cannot start"
	waitfor "Flat profile:"
	pid=$(pgrep -f "^$TGPROF prog gmon.out\$" | head -n 1)
	c0=$(cpu "$pid")
	sleep 1
	c1=$(cpu "$pid")
	check "stdin from /dev/null: idle, not spinning ($((c1 - c0)) ticks in 1 s)" [ $((c1 - c0)) -le 10 ]
	$TM send-keys -t "$S" q
	check "stdin from /dev/null: the browser takes keys from the terminal" waitfor "EXIT=0"
	$TM kill-server 2>/dev/null
fi

# 8. A 20 kB paste into the search prompt redrew the screen for each key
# (4 s on 20,000 functions here, 10 s on a real program).
if want "a 20 kB paste into / takes under 2 s"; then
	python3 "$TOP/tests/gen/synth.py" 20000 "$E/big" >/dev/null || fatal "tests/gen/synth.py failed"
	$TM kill-server 2>/dev/null
	tm_new -s "$S" -x 100 -y 30 \
	    "cd '$E/big' && '$TGPROF' prog gmon.out; echo EXIT=\$?; sleep 30" || fatal "tmux cannot start"
	waitfor "Flat profile:"
	python3 -c 'print("x" * 20000, end="")' >"$E/paste"
	$TM load-buffer "$E/paste"
	$TM send-keys -t "$S" /
	start=$(date +%s)
	$TM paste-buffer -t "$S"
	$TM send-keys -t "$S" Enter q
	waitfor "EXIT=0"
	end=$(date +%s)
	check "a 20 kB paste into / takes under 2 s ($((end - start)) s)" [ $((end - start)) -lt 2 ]
	$TM kill-server 2>/dev/null
fi

# 2. The editor's Ctrl-C is the editor's; Ctrl-Z then fg does not draw the browser over it.
printf '#!/bin/sh\necho EDITOR-SCREEN\nsleep "${1:-3}"\n' >"$E/slow"
chmod +x "$E/slow"
if want "Ctrl-C in the editor: the browser survives"; then
	$TM kill-server 2>/dev/null
	tm_new -s "$S" -x 100 -y 30 \
	    "cd '$E' && EDITOR='$E/slow 20' '$TGPROF' prog gmon.out; echo EXIT=\$?; sleep 30" ||
	    fatal "tmux cannot start"
	waitfor "Flat profile:"
	$TM send-keys -t "$S" a o
	waitfor "EDITOR-SCREEN"
	$TM send-keys -t "$S" C-c
	check "Ctrl-C in the editor: the browser survives" waitfor "Source: -c!sh pwn.c"
	$TM send-keys -t "$S" q
	check "Ctrl-C in the editor: the browser quits normally afterwards" waitfor "EXIT=0"
	$TM kill-server 2>/dev/null
fi
if want "Ctrl-Z in the editor, then fg: the editor's screen stays"; then
	$TM kill-server 2>/dev/null
	tm_new -s "$S" -x 100 -y 30 "sh -i" || fatal "tmux cannot start"
	$TM send-keys -t "$S" "cd '$E' && EDITOR='$E/slow 3' '$TGPROF' prog gmon.out" Enter
	waitfor "Flat profile:"
	$TM send-keys -t "$S" a o
	waitfor "EDITOR-SCREEN"
	$TM send-keys -t "$S" C-z
	sleep 0.3
	$TM send-keys -t "$S" fg Enter
	sleep 0.5
	$TM capture-pane -p -t "$S" >"$E/after-fg"
	check "Ctrl-Z in the editor, then fg: the editor's screen stays" \
	    sh -c "grep -q EDITOR-SCREEN '$E/after-fg' && ! grep -q 'Source: ' '$E/after-fg'"
	check "Ctrl-Z in the editor, then fg: the browser is back when the editor ends" \
	    waitfor "Source: -c!sh pwn.c"
	$TM send-keys -t "$S" q
	i=0
	while pgrep -f "^$TGPROF prog gmon.out\$" >/dev/null && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	check "Ctrl-Z in the editor, then fg: q still quits the browser" [ $i -lt 100 ]
	$TM kill-server 2>/dev/null
fi
