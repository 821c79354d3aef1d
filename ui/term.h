/* term: the terminal under the browser: set up, always restored, keys from it or from a script. */
#ifndef TGPROF_TERM_H
#define TGPROF_TERM_H

#include "browser.h"

/* Key codes beyond curses' own. */
enum { TERM_ALT_RIGHT = 0x10000, TERM_ALT_LEFT, TERM_END_OF_SCRIPT };

/*
 * Starts curses on the terminal, or on a virtual screen for a script.
 * Restoring the terminal is registered with atexit() and for SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT and the crash signals (SEGV, BUS, FPE, ABRT).
 * 0, or -1 with the reason in D.
 */
int term_start(const struct browser_opts *o, struct diag *d);
/* Gives the terminal back and closes the script; nothing if it is not started. */
void term_stop(void);

/*
 * The next key, after DRAW(CTX) painted the screen: from the terminal,
 * or the script's next "key", "type", "mouse" or "resize" command,
 * running its "dump" commands on the way (each first asks DRAW to paint
 * the screen).  At the script's end, TERM_END_OF_SCRIPT, again and again.
 */
int term_key(void (*draw)(void *), void *ctx);

/*
 * After KEY_MOUSE: where and what.  *BUTTON is 1 (click), 2 (double
 * click), 4 (wheel up) or 5 (wheel down); 0 if the event is none of those.
 */
void term_mouse(int *y, int *x, int *button);

#endif
