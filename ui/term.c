/* term: the terminal under the browser: set up, always restored, keys from it or from a script. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include "term.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#undef lines		/* term.h's capability names, not ours */
#undef columns
#include <unistd.h>
#include <wchar.h>

/*
 * A script (TGPROF_SCRIPT) is a file of commands, one a line (the help
 * and the manual name keys the same way):
 *   key NAME      one key: a character, Enter, Tab, BTab, Esc, Space,
 *                 Backspace, Up, Down, Left, Right, PgUp, PgDn, Home, End,
 *                 F1, C-d, C-u, M-Right, M-Left, Resize
 *   type TEXT     each character of TEXT as a key
 *   paste TEXT    the same, but as keys already waiting, as a paste on a
 *                 terminal brings them: no drawing before each but the first
 *   resize W H    the screen becomes W columns by H lines
 *   dump FILE     the screen as text into FILE, each line marked '>' where
 *                 it shows the selection (reverse video), else ' '
 *   mouse B X Y   a mouse event at column X, line Y (from 0): B is click,
 *                 double, up or down (the wheel)
 * Blank lines and lines starting with # are skipped.  At its end, the
 * browser quits; so it does at a line it does not understand (a key it
 * has no name for, a command it does not know), and term_script_error()
 * then says which: a script that names a key wrongly must not pass
 * while checking nothing.
 */
static FILE *script;
static SCREEN *screen;
static FILE *null_out, *null_in;
static FILE *tty_in;		/* the terminal's keys (/dev/tty) */
static int started;
static char pending[512];	/* the rest of a "type" command */
static int mouse_y, mouse_x, mouse_button;	/* a script's last mouse event */
static size_t npending, ipending;
static int pasting;		/* the pending keys are a paste's */
static const char *script_path;
static unsigned long script_line;	/* lines of the script read */
static char script_error[640];		/* why it stopped early, or "" */

void
term_stop(void)
{
	if (!started)
		return;
	started = 0;
	endwin();
	if (screen != NULL)
		delscreen(screen);
	screen = NULL;
	if (script != NULL)
		fclose(script);
	if (null_out != NULL)
		fclose(null_out);
	if (null_in != NULL)
		fclose(null_in);
	if (tty_in != NULL)
		fclose(tty_in);
	script = null_out = null_in = tty_in = NULL;
}

static void
on_signal(int sig)
{
	if (started)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A live view's SIGINT or SIGTERM, which ends the browser as q would (term_key_wait()). */
static volatile sig_atomic_t stop_signal;

static void
on_stop(int sig)
{
	stop_signal = sig;
}

/*
 * Whatever ends the browser, the terminal is given back first; a live
 * view (LIVE) ends on SIGINT and SIGTERM as on q, so that what runs it
 * goes on (tgprof top: the program stopped, its profile collected).
 */
static void
give_back_always(int live)
{
	struct sigaction sa;

	atexit(term_stop);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = live ? on_stop : on_signal;	/* (no SA_RESTART: a wait for a key ends) */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGHUP, on_signal);
	signal(SIGQUIT, on_signal);
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	signal(SIGABRT, on_signal);
}

static void
colours(void)
{
	if (getenv("NO_COLOR") != NULL || !has_colors() || start_color() == ERR)
		return;
	use_default_colors();
	init_pair(1, COLOR_RED, -1);
	init_pair(2, COLOR_GREEN, -1);
	init_pair(3, COLOR_BLACK, COLOR_CYAN);
	init_pair(4, COLOR_BLUE, -1);
	init_pair(5, COLOR_CYAN, -1);
}

static int
start_script(const struct browser_opts *o, struct diag *d)
{
	script_path = o->script;
	script_line = 0;
	script_error[0] = '\0';
	if ((script = fopen(o->script, "r")) == NULL) {
		diag_add(d, DIAG_ERROR, "%s: cannot open the script", o->script);
		return -1;
	}
	null_out = fopen("/dev/null", "w");
	null_in = fopen("/dev/null", "r");
	if (null_out == NULL || null_in == NULL ||
	    (screen = newterm("xterm", null_out, null_in)) == NULL) {
		diag_add(d, DIAG_ERROR, "cannot start a virtual screen for the script");
		return -1;
	}
	resizeterm(o->lines > 0 ? o->lines : 24, o->cols > 0 ? o->cols : 80);
	return 0;
}

int
term_usable(char *why, size_t size)
{
	const char *term = getenv("TERM");
	char *cup;
	int err = 0, fd;

	if (term == NULL || term[0] == '\0') {
		snprintf(why, size, "TERM is not set");
		return 0;
	}
	if ((fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)) < 0) {
		snprintf(why, size, "no terminal to read keys from (/dev/tty: %s)", strerror(errno));
		return 0;
	}
	close(fd);
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(why, size, "TERM=%.64s is a terminal type this system does not know", term);
		return 0;
	}
	cup = tigetstr("cup");
	del_curterm(cur_term);
	if (cup == NULL || cup == (char *)-1) {
		snprintf(why, size, "TERM=%.64s cannot move the cursor", term);
		return 0;
	}
	return 1;
}

/* Curses on the terminal, its keys from /dev/tty; 0 or -1. */
static int
start_terminal(struct diag *d)
{
	if ((tty_in = fopen("/dev/tty", "re")) == NULL ||
	    (screen = newterm(NULL, stdout, tty_in)) == NULL) {
		diag_add(d, DIAG_ERROR, "cannot start the terminal (TERM=%.64s)",
		    getenv("TERM") != NULL ? getenv("TERM") : "");
		return -1;
	}
	return 0;
}

int
term_start(const struct browser_opts *o, struct diag *d)
{
	if (o->script != NULL ? start_script(o, d) != 0 : start_terminal(d) != 0) {
		term_stop();
		return -1;
	}
	started = 1;
	give_back_always(o->live != NULL);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (o->mouse && o->script == NULL)
		mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED |
		    BUTTON5_PRESSED, NULL);
	colours();
	return 0;
}

static const struct {
	const char *name;
	int key;
} names[] = {
	{ "Enter", '\r' }, { "Tab", '\t' }, { "BTab", KEY_BTAB }, { "Esc", 27 },
	{ "Space", ' ' }, { "Backspace", KEY_BACKSPACE }, { "Up", KEY_UP },
	{ "Down", KEY_DOWN }, { "Left", KEY_LEFT }, { "Right", KEY_RIGHT },
	{ "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE }, { "Home", KEY_HOME },
	{ "End", KEY_END }, { "F1", KEY_F(1) }, { "C-d", 4 }, { "C-u", 21 },
	{ "M-Right", TERM_ALT_RIGHT }, { "M-Left", TERM_ALT_LEFT }, { "Resize", KEY_RESIZE },
};

/* The code of the key named S in a script, or -1. */
static int
key_named(const char *s)
{
	size_t k;

	for (k = 0; k < sizeof names / sizeof *names; k++)
		if (strcmp(s, names[k].name) == 0)
			return names[k].key;
	return s[0] != '\0' && s[1] == '\0' ? (unsigned char)s[0] : -1;
}

/* The screen as text, a line per row, into PATH. */
static void
dump(const char *path)
{
	FILE *f = fopen(path, "w");
	int y, x;

	if (f == NULL)
		return;
	for (y = 0; y < LINES; y++) {
		char out[8 * 1024];
		size_t n = 0;
		int marked = 0;

		for (x = 0; x < COLS && n + MB_LEN_MAX < sizeof out; x++) {
			cchar_t c;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t a;
			short pair;

			if (mvin_wch(y, x, &c) == ERR || getcchar(&c, wc, &a, &pair, NULL) == ERR)
				continue;
			marked |= (a & A_REVERSE) != 0;
			if ((a & A_ALTCHARSET) && wc[0] == L'x')
				wc[0] = L'|';	/* ACS_VLINE */
			if (wc[0] != L'\0' && wcwidth(wc[0]) >= 0) {
				int k = wctomb(out + n, wc[0]);

				n += k > 0 ? (size_t)k : 0;
				if (wcwidth(wc[0]) == 2)
					x++;	/* its second column holds it again */
			}
		}
		while (n > 0 && out[n - 1] == ' ')
			n--;
		fprintf(f, "%c%.*s\n", marked ? '>' : ' ', (int)n, out);
	}
	fclose(f);
}

/* "mouse B X Y" (its arguments in ARG) kept for term_mouse(): 1 if it is one. */
static int
script_mouse(const char *arg)
{
	static const char *const kinds[] = { "", "click", "double", "", "up", "down" };
	char kind[16];
	int k;

	if (sscanf(arg, "%15s %d %d", kind, &mouse_x, &mouse_y) != 3)
		return 0;
	for (k = 1; k < 6; k++)
		if (kinds[k][0] != '\0' && strcmp(kind, kinds[k]) == 0) {
			mouse_button = k;
			return 1;
		}
	return 0;
}

/* The script stops at the line just read: WHAT is wrong with it (LINE). */
static int
refuse(const char *what, const char *line)
{
	snprintf(script_error, sizeof script_error, "%s:%lu: %s: %.256s", script_path, script_line,
	    what, line);
	return TERM_END;
}

const char *
term_script_error(void)
{
	return script_error[0] != '\0' ? script_error : NULL;
}

void
term_mouse(int *y, int *x, int *button)
{
	MEVENT ev;

	if (script != NULL) {
		*y = mouse_y, *x = mouse_x, *button = mouse_button;
		return;
	}
	*button = 0;
	if (getmouse(&ev) != OK)
		return;
	*y = ev.y, *x = ev.x;
	if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
		*button = 2;
	else if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
		*button = 1;
	else if (ev.bstate & BUTTON4_PRESSED)
		*button = 4;
	else if (ev.bstate & BUTTON5_PRESSED)
		*button = 5;
}

/* The script's next key, running the commands before it; TERM_END at its end or a line it refuses. */
static int
script_key(void (*draw)(void *), void *ctx)
{
	char line[512], *arg;
	int w, h, k;

	if (pasting && ipending < npending && script_error[0] == '\0')
		return (unsigned char)pending[ipending++];	/* waiting already: no drawing */
	pasting = 0;
	draw(ctx);	/* as on a terminal: the screen is up to date before each key */
	while (script_error[0] == '\0' && ipending >= npending && fgets(line, sizeof line, script) != NULL) {
		script_line++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		arg = strchr(line, ' ');
		arg = arg != NULL ? arg + 1 : line + strlen(line);
		if (strncmp(line, "key ", 4) == 0) {
			return (k = key_named(arg)) >= 0 ? k : refuse("no key has that name", arg);
		} else if (strncmp(line, "type ", 5) == 0 || strncmp(line, "paste ", 6) == 0) {
			if (arg[0] == '\0')
				return refuse("nothing to type", line);
			npending = strlen(arg);
			memcpy(pending, arg, npending);
			ipending = 0;
			pasting = line[0] == 'p';
		} else if (strncmp(line, "dump ", 5) == 0 && arg[0] != '\0') {
			draw(ctx);
			dump(arg);
		} else if (strncmp(line, "mouse ", 6) == 0) {
			return script_mouse(arg) ? KEY_MOUSE : refuse("not mouse click|double|up|down X Y", line);
		} else if (strcmp(line, "tick") == 0) {
			return TERM_TICK;
		} else if (sscanf(line, "resize %d %d", &w, &h) == 2 && w > 0 && h > 0) {
			resizeterm(h, w);
			return KEY_RESIZE;
		} else {
			return refuse("not a command (key, type, paste, dump, mouse, resize, tick)", line);
		}
	}
	if (script_error[0] == '\0' && ipending < npending)
		return (unsigned char)pending[ipending++];
	return TERM_END;
}

/* Key C as read, made one of ours where curses gives Alt-arrows in pieces. */
static int
term_key_read(int c)
{
	if (c == TERM_TICK || c == TERM_END)
		return c;
	if (c > KEY_MAX && keyname(c) != NULL) {	/* xterm's Alt-arrows: kRIT3, kLFT3 */
		if (strcmp(keyname(c), "kRIT3") == 0)
			return TERM_ALT_RIGHT;
		if (strcmp(keyname(c), "kLFT3") == 0)
			return TERM_ALT_LEFT;
	}
	if (c == 27) {		/* Alt-Right and Alt-Left come as Esc then the arrow */
		int next;

		nodelay(stdscr, TRUE);
		next = getch();
		nodelay(stdscr, FALSE);
		if (next == KEY_RIGHT)
			return TERM_ALT_RIGHT;
		if (next == KEY_LEFT)
			return TERM_ALT_LEFT;
		if (next != ERR)
			ungetch(next);
	}
	return c;
}

/* The next key from the terminal within MS milliseconds (-1: however long), TERM_TICK if none came. */
static int
read_key(void (*draw)(void *), void *ctx, int ms)
{
	int c, errors = 0;

	nodelay(stdscr, TRUE);		/* a key already waiting: no drawing before it */
	c = getch();
	nodelay(stdscr, FALSE);
	if (c == ERR)
		draw(ctx);
	if (c == ERR && ms >= 0) {
		timeout(ms);
		c = getch();
		timeout(-1);
		if (c == ERR)
			return TERM_TICK;	/* (a terminal gone gives ERR at once: the caller's next read sees it) */
	}
	/* A blocking getch() fails only when the input is gone (end of file, a hang-up). */
	while (c == ERR && (c = getch()) == ERR)
		if (++errors == 100)
			return TERM_END;
	return c;
}

int
term_key_wait(void (*draw)(void *), void *ctx, int ms)
{
	int c;

	if (script != NULL)
		return stop_signal != 0 ? TERM_END : script_key(draw, ctx);
	c = stop_signal != 0 ? TERM_END : term_key_read(read_key(draw, ctx, ms));
	return stop_signal != 0 ? TERM_END : c;
}

int
term_stop_signal(void)
{
	return stop_signal;
}

int
term_key(void (*draw)(void *), void *ctx)
{
	if (script != NULL)
		return script_key(draw, ctx);
	return term_key_read(read_key(draw, ctx, -1));
}

