/* term: the terminal under the browser: set up, always restored, keys from it or from a script. */
#ifndef TGPROF_TERM_H
#define TGPROF_TERM_H

#include "browser.h"

/* Key codes beyond curses' own. */
enum {
	TERM_ALT_RIGHT = 0x10000, TERM_ALT_LEFT,
	TERM_END,		/* no more keys: the script ended, or the terminal is gone */
	TERM_TICK		/* term_key_wait(): no key in the time given; a script's "tick" */
};

/*
 * Whether the browser can run on this terminal: TERM names a type that
 * can move the cursor, and /dev/tty gives keys (standard input need not
 * be the terminal).  1, or 0 with the reason in WHY (SIZE bytes).
 */
int term_usable(char *why, size_t size);

/*
 * Starts curses on the terminal (keys from /dev/tty), or on a virtual
 * screen for a script.
 * Restoring the terminal is registered with atexit() and for SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT and the crash signals (SEGV, BUS, FPE, ABRT);
 * a live view (O->live) ends on SIGINT and SIGTERM as on q instead.
 * 0, or -1 with the reason in D.
 */
int term_start(const struct browser_opts *o, struct diag *d);
/* Gives the terminal back and closes the script; nothing if it is not started. */
void term_stop(void);

/*
 * The next key, after DRAW(CTX) painted the screen: from the terminal,
 * or the script's next "key", "type", "mouse" or "resize" command,
 * running its "dump" commands on the way (each first asks DRAW to paint
 * the screen).  At the script's end, or when the terminal gives no more
 * input (it was hung up), TERM_END, again and again.  Keys that are
 * already waiting (a paste) come without a drawing before each.
 */
int term_key(void (*draw)(void *), void *ctx);

/*
 * term_key(), but TERM_TICK when no key came within MS milliseconds (the
 * live view's refresh); a script's "tick" command gives TERM_TICK at
 * once, and no key is ever waited for in a script.  TERM_END once
 * SIGINT or SIGTERM came (a live view's: term_start()).
 */
int term_key_wait(void (*draw)(void *), void *ctx, int ms);

/* A live view's: the signal (SIGINT, SIGTERM) that ended it as q would (TERM_END), or 0. */
int term_stop_signal(void);

/*
 * Why the script ended before its end ("FILE:LINE: what is wrong: the
 * line"), or NULL: it ran to its end, or there is none.
 */
const char *term_script_error(void);

/*
 * After KEY_MOUSE: where and what.  *BUTTON is 1 (click), 2 (double
 * click), 4 (wheel up) or 5 (wheel down); 0 if the event is none of those.
 */
void term_mouse(int *y, int *x, int *button);

#endif
