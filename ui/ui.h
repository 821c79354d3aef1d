/* ui: the browser's shared state, the pane interface and the drawing helpers the panes use. */
#ifndef TGPROF_UI_H
#define TGPROF_UI_H

#include <stddef.h>
#include <stdint.h>

#include "browser.h"
#include "core/profile.h"
#include "model/session.h"
#include "print/report.h"
#include "util/sbuf.h"

struct tui;
struct pane;

/*
 * What one kind of pane does, as tig's views have struct view_ops: each
 * pane file (flat.c, graph.c, source.c, tree.c, icicle.c, versus.c,
 * help.c) has one static const table, and its X_init() points a pane at
 * it.  The list behaviour (moving, scrolling, searching, drawing,
 * writing) is common to all (list.c) and goes through these slots.  The
 * panes read the model through t->s (model/session.h), a const view:
 * what they make of it they make again when its generation changes.
 */
struct pane_ops {
	/* For the bottom line's position and P's file, tgprof-NAME.txt. */
	const char *name;
	/*
	 * (Re)builds the rows when what they show changed (the session, the
	 * selected function, the names, the flat profile's view); else keeps
	 * them.  Sets nrows, and sel and top when the rows are new; drops
	 * what it made of an earlier generation of the session even when it
	 * makes nothing now.  0, or -1 when out of memory.  Called through
	 * list_fill().
	 */
	int (*fill)(struct tui *t, struct pane *pn);
	/* Header lines (0 to 2) into SB, separated by '\n'. */
	void (*header)(struct tui *t, struct pane *pn, struct sbuf *sb);
	/* Row I's text into SB (I < nrows, after fill); *ATTR gets UI_* flags. */
	void (*row)(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb, int *attr);
	/*
	 * Whether row I matches NEEDLE as its text would (list_matches(); a
	 * note never does), found without making the row: 1 or 0, or -1
	 * when the pane cannot tell.  NULL: the row is always made.
	 */
	int (*match)(struct tui *t, struct pane *pn, size_t i, const char *needle);
	/* The function row I stands for (opened by Enter), or PF_NONE. */
	uint32_t (*target)(struct tui *t, struct pane *pn, size_t i);
	/*
	 * The bottom line's note on row I when the row has its own (a
	 * library's row of the flat profile): into SB, 1; 0 (or NULL): the
	 * selected function's time is shown.
	 */
	int (*status)(struct tui *t, struct pane *pn, size_t i, struct sbuf *sb);
	/* Frees pn->data and sets it NULL; the next fill starts afresh. */
	void (*release)(struct pane *pn);
	/*
	 * A pane that is not drawn as a list (the flame graph): draws itself
	 * as list_draw() would, setting height and the box; and the row at
	 * screen (Y, X), or -1, for the mouse.  NULL: list_draw()'s lines.
	 */
	void (*draw)(struct tui *t, struct pane *pn, int y, int x, int h, int w, int focused);
	long (*at)(struct tui *t, struct pane *pn, int y, int x);
	/*
	 * The pane's own meaning of key C (tig's per-view request), asked
	 * before the key table's (keys.c, which holds every key for the help
	 * and the manual): 1 if the pane took it, 0 to leave it to the table.
	 * NULL: none.
	 */
	int (*key)(struct tui *t, struct pane *pn, int c);
	/*
	 * The bottom line's reminder of keys while the pane has the focus:
	 * OWN_HINT, the hint of keys the pane takes itself (or NULL), then
	 * the hints of the key table's bindings of the keys HINTS names (as
	 * the help names them), in that order.
	 */
	const char *own_hint;
	const char *hints[8];
};

/*
 * A pane: a list of text rows with a selection, drawn under a header.
 * Its ops build the rows from the browser's state; it keeps its own
 * position and data.
 */
struct pane {
	const struct pane_ops *ops;
	size_t nrows, sel, top;
	int hscroll;		/* columns of the rows (and column headers) scrolled off to the left */
	int height;		/* rows drawn last time, for paging */
	int box_y, box_x, box_h, box_w, rows_y;	/* where it was drawn: for the mouse */
	unsigned gen;		/* bumped when its rows change in place (a fold, a zoom) */
	void *data;		/* the pane's own, made by ops->fill, freed by ops->release */
};

/* Row attributes. */
enum {
	UI_HOT = 1,		/* much time: heat colour */
	UI_WARM = 2,		/* some time */
	UI_STRONG = 4,		/* the primary line of a call-graph entry, or a cycle's */
	UI_DIM = 8,		/* dimmed: too few samples to trust, or <spontaneous> */
	UI_NOTE = 16,		/* a message rather than data */
	UI_ESTIMATE = 32,	/* numbers gprof estimates (a caller's share, by calls) */
	UI_WAIT = 64		/* time off CPU: a flame graph's waiting frame */
};

/* The panes; the flat profile's place (left, or top) holds FLAT, TREE, FLAME or COMPARE. */
enum { PANE_FLAT, PANE_GRAPH, PANE_SOURCE, PANE_TREE, PANE_FLAME, PANE_COMPARE, NPANES };

#define UI_HISTORY 256
#define UI_LINE 1024		/* a typed line (search, filter, file name) holds less */
#define UI_FEW_SAMPLES 10	/* a function with fewer samples is dimmed */
#define UI_HSCROLL_MAX 16384	/* columns a pane scrolls sideways at most */

/* The functions shown before (Backspace goes back) and after (M-Right forward). */
struct history {
	uint32_t back[UI_HISTORY], fwd[UI_HISTORY];
	size_t nback, nfwd;
};

/* The flat profile's rows (and the comparison's in its place): made again when GEN changes. */
struct flat_view {
	int sort_key;			/* FLAT_BY_* */
	int cmp_sort;			/* CMP_BY_*: the comparison's */
	int sort_rev;			/* S: either reversed */
	char filter[UI_LINE];		/* names must contain it ("" for all) */
	double limit;			/* rows under this percent are hidden */
	int libraries;			/* O: with stacks, library time as rows of its own */
	unsigned gen;
};

/* What the call tree shows (tree.c), and how trees of call stacks are made (tree.c, icicle.c). */
struct tree_view {
	int view;			/* TREE_* */
	uint32_t root;			/* the function or cycle of TREE_ROOTED and TREE_INVERTED */
	int recursion;			/* R: FLAME_RECURSION_* in the trees of call stacks */
	int flame_up;			/* I: the flame graph bottom-up, each frame's callers under it */
};

/* The line typed on the bottom line (prompt.c). */
struct prompt {
	char key;			/* while a line is typed: the key that asks for it, else 0 */
	char text[160];			/* what it asks, shown before the line typed */
	char input[UI_LINE];		/* what has been typed */
	int over;			/* more was typed than input holds: Enter refuses it */
	void (*done)(struct tui *t, const char *line);	/* takes it on Enter */
};

/* The search's matches counted last (tui.c), and what they were counted for. */
struct match_count {
	char needle[UI_LINE];
	int focus;
	uint32_t cur;
	size_t nrows, n;
	unsigned pane_gen, view_gen, gen, names;
};

/*
 * The browser: the model (the session, which main made), and the view's
 * state: what is shown where, the history, the search, the line typed,
 * the overlays.
 */
struct tui {
	const struct session *s;	/* the model, as the panes read it (they never change it) */
	struct session *model;		/* the same, for change.c's operations alone */
	const struct browser_opts *o;
	const struct diag *warn;	/* the analysis's warnings (browser_run()'s diag) */
	unsigned seen;			/* the session's generation the view follows */
	int estimates;			/* m: gprof's estimates shown though times were measured */
	uint32_t cur;			/* the function (or cycle) shown in the graph and source panes */
	struct pane pane[NPANES];
	int slot;			/* the pane in the flat profile's place */
	int under;			/* the pane the flame graph covers (F again shows it) */
	int focus;			/* the focused pane, PANE_* */
	int zoom;			/* the focused pane alone on the screen (z) */
	struct history hist;
	char needle[UI_LINE];		/* the search, or "" */
	struct flat_view view;
	unsigned flat_seen;		/* view.gen when cur last followed the flat pane */
	struct tree_view tree;
	struct match_count count;
	struct prompt prompt;
	int help;			/* the help pane is up */
	struct pane help_pane;
	int threads;			/* the thread view is up (p) */
	struct pane threads_pane;
	int info;			/* the file information overlay is up */
	int paused;			/* Z: a live view not refreshed (watch.c) */
	char message[256];		/* for the bottom line, until the next key */
	int quit;
	int colors;
	struct sbuf sb;			/* scratch for a line */
};

enum { CMP_BY_SELF, CMP_BY_INCL, CMP_BY_CALLS, CMP_BY_NAME, CMP_NSORT };
extern const char *const versus_sort_names[CMP_NSORT];

/* The flat profile's sort keys; FLAT_BY_MEASURED (inclusive, from the stacks) only where there are stacks. */
enum { FLAT_BY_TIME, FLAT_BY_CALLS, FLAT_BY_SELF, FLAT_BY_TOTAL, FLAT_BY_NAME, FLAT_BY_MEASURED, FLAT_NSORT };

/* list.c: the list behaviour shared by the panes. */
/* PN's rows made for the browser's state; out of memory, none and -1. */
int list_fill(struct tui *t, struct pane *pn);
void list_move(struct pane *pn, long delta);
void list_to(struct pane *pn, size_t row);
/*
 * The next row matching NEEDLE from the selection down (DIR 1) or up
 * (-1), round the end, the selection itself first if FROM_SEL; -1 if none.
 */
long list_find(struct tui *t, struct pane *pn, const char *needle, int dir, int from_sel);
size_t list_count(struct tui *t, struct pane *pn, const char *needle);
/* Does TEXT contain NEEDLE (in any case where NEEDLE has no capitals)? */
int list_matches(const char *text, const char *needle);
void list_draw(struct tui *t, struct pane *pn, int y, int x, int h, int w, int focused);
/* PN's header and every row as text into PATH, through a temporary file; 0, or -1 with errno. */
int list_write(struct tui *t, struct pane *pn, const char *path);

/*
 * prompt.c: the keys that ask for a line on the bottom line (/ : \ L P W),
 * and prompt_key(), each key while one is typed: Esc cancels, Enter hands
 * it over, Backspace deletes.
 */
void prompt_search(struct tui *t, int c);
void prompt_index(struct tui *t, int c);
void prompt_filter(struct tui *t, int c);
void prompt_limit(struct tui *t, int c);
void prompt_write(struct tui *t, int c);
void prompt_save(struct tui *t, int c);
void prompt_key(struct tui *t, int c);
/* keys.c: the next (DIR 1) or previous (-1) match of the search in the focused pane, or the selection. */
void keys_search(struct tui *t, int dir, int from_sel);

/* draw.c: UTF-8 text into the screen, cut to a width; the attributes of UI_* flags. */
void draw_text(int y, int x, int w, const char *s, int attr);
/* As draw_text(), S's first SKIP columns left out (scrolled off to the left). */
void draw_text_from(int y, int x, int w, const char *s, int skip, int attr);
/* The columns S takes on the screen, as draw_text() draws it. */
int draw_width(const char *s);
/* The start of S's longest tail that takes W columns at most. */
const char *draw_tail(const char *s, int w);
/* S into SB in W columns at most: when wider, its start and end with an ellipsis between. */
void draw_elide(struct sbuf *sb, const char *s, int w);
/* The newline-ended lines of COLS into SB, the first after FIRST, the others after REST. */
void draw_prefix_lines(struct sbuf *sb, const char *cols, const char *first, const char *rest);
int draw_attr(const struct tui *t, int flags, int selected);

/* The panes: X_init() sets pn->ops; the rest of *PN is the caller's (zeroed). */
void flat_init(struct pane *pn);
void graph_init(struct pane *pn);
void source_init(struct pane *pn);
void help_init(struct pane *pn);
void threadview_init(struct pane *pn);
/* threadview.c: the thread view (p) up, or down; a message when there are no threads. */
void threadview_toggle(struct tui *t);
void tree_init(struct pane *pn);
void icicle_init(struct pane *pn);
void versus_init(struct pane *pn);
/*
 * flat.c: the sort keys' names; the sort key in force (the view's, but
 * by time when the measured times are not shown: m, x, f); selects the
 * row of function ID in the flat pane PN, if any.
 */
extern const char *const flat_sort_names[FLAT_NSORT];
int flat_sort_key(const struct tui *t);
void flat_select(struct pane *pn, uint32_t id);
/* source.c: the file the source pane PN shows (its row k is line k + 1), or NULL. */
const char *source_path(const struct pane *pn);
/* source.c: selects the hottest line (DIR 0), or the next (1) or previous (-1) line with samples. */
void source_hot(struct tui *t, struct pane *pn, int dir);

/* tree.c: what the call tree shows: the whole program, one function and what it calls, or its callers. */
enum { TREE_WHOLE, TREE_ROOTED, TREE_INVERTED };

/*
 * tui.c: whether times measured from call stacks (the session's measure)
 * are shown beside gprof's: there are stacks, m did not hide them, and
 * the profile is not narrowed (the stacks know nothing of -E and -F).
 */
int tui_measured(const struct tui *t);
/*
 * tui.c: the samples a sampling signal brought, on average (the stacks
 * say; 1 without): n samples vary by sqrt(n times it), not sqrt(n).
 */
double tui_per_signal(const struct tui *t);
/* tui.c: the pane that is in the flat profile's place unless the tree or the flame graph is: flat, or compare. */
int tui_home(const struct tui *t);

/* tui.c: makes FN the function shown, remembering the last one for Back. */
void tui_open(struct tui *t, uint32_t fn);
/* tui.c: back (DIR -1) or forward (1) in the history of functions shown. */
void tui_go(struct tui *t, int dir);
/*
 * change.c: the keys that change what the session holds: x and f
 * (function FN analysed away, FOCUS 0, or alone, 1), u (the last undone),
 * d and T (the names as RO says), % (what is taken out of the times as
 * O says), and W (the profile shown exported: LINE is "FORMAT FILE").  A
 * message says what failed, or where W wrote.
 * After each, the view follows the session: the function shown is
 * found again by its address, and the panes' fill make their rows again.
 */
void change_narrow(struct tui *t, uint32_t fn, int focus);
void change_undo(struct tui *t);
void change_names(struct tui *t, const struct report_opts *ro);
void change_truth(struct tui *t, const struct truth_opts *o);
void change_clock(struct tui *t, int c);
void change_export(struct tui *t, const char *line);
/* change.c: the thread view's Enter: every pane narrowed to the threads CHOSEN (session_threads()). */
void change_threads(struct tui *t, const unsigned char *chosen);
/*
 * watch.c: the live view (browser_opts.live; nothing without one).  On
 * a tick (TERM_TICK), a new snapshot replaces the profile shown unless
 * paused (a script's tick first waits for one: watch_wait()); c switches between
 * the last interval and the whole run, Z pauses.  The interval's
 * length in seconds (0: the whole run is shown, or it is not known);
 * the top line's words on it into SB.
 */
int watch_tick(struct tui *t);	/* 1: refreshed */
void watch_wait(struct tui *t);
void watch_interval(struct tui *t, int c);
void watch_pause(struct tui *t, int c);
double watch_interval_secs(const struct tui *t);
void watch_note(const struct tui *t, struct sbuf *sb);

/*
 * A new snapshot of a live program: P and M (taken over) replace the
 * loaded profile (session_replace(): the narrowings made again); the
 * function shown, the history, the tree's root and each pane's place
 * are kept, functions found again by address.
 */
void change_live(struct tui *t, struct profile *p, struct pf_measure *m);

/*
 * keys.c: the browser's keys, one table.  keys_run() runs key C (from
 * term_key()): the focused pane's key hook first, then the table;
 * keys_hints() appends pane PN's reminder of keys for the bottom line;
 * keys_help_row() gives the help pane (help.c) its rows.
 */
void keys_run(struct tui *t, int c);
void keys_hints(const struct pane *pn, struct sbuf *sb);
const char *keys_help_row(size_t i, char *names, size_t size);
/* keys.c: in the flat profile's place the selection is the function shown: PN's selection followed. */
void keys_follow(struct tui *t, struct pane *pn);

/* editor.c: the user's editor on PATH (NULL: none to edit) at LINE, the screen handed over. */
void editor_open(struct tui *t, const char *path, size_t line);

#endif
