/* ui: the browser's shared state, the pane interface and the drawing helpers the panes use. */
#ifndef TGPROF_UI_H
#define TGPROF_UI_H

#include <stddef.h>
#include <stdint.h>

#include "browser.h"
#include "core/profile.h"
#include "print/report.h"
#include "util/sbuf.h"

struct tui;
struct pane;

/*
 * What one kind of pane does, as tig's views have struct view_ops: each
 * pane file (flat.c, graph.c, source.c, tree.c, flame.c, help.c) has one static const
 * table, and its X_init() points a pane at it.  The list behaviour
 * (moving, scrolling, searching, drawing, writing) is common to all
 * (list.c) and goes through these slots.
 */
struct pane_ops {
	/* For the bottom line's position and P's file, tgprof-NAME.txt. */
	const char *name;
	/*
	 * (Re)builds the rows when what they show changed (the selected
	 * function, the names, the flat profile's view); else keeps them.
	 * Sets nrows, and sel and top when the rows are new.  0, or -1 when
	 * out of memory.  Called through list_fill().
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
	/* Frees pn->data and sets it NULL; the next fill starts afresh. */
	void (*release)(struct pane *pn);
	/*
	 * A pane that is not drawn as a list (the flame graph): draws itself
	 * as list_draw() would, setting height and the box; and the row at
	 * screen (Y, X), or -1, for the mouse.  NULL: list_draw()'s lines.
	 */
	void (*draw)(struct tui *t, struct pane *pn, int y, int x, int h, int w, int focused);
	long (*at)(struct tui *t, struct pane *pn, int y, int x);
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
	void *data;		/* the pane's own, made by ops->fill, freed by ops->release */
};

/* Row attributes. */
enum {
	UI_HOT = 1,		/* much time: heat colour */
	UI_WARM = 2,		/* some time */
	UI_STRONG = 4,		/* the primary line of a call-graph entry, or a cycle's */
	UI_DIM = 8,		/* dimmed: too few samples to trust, or <spontaneous> */
	UI_NOTE = 16,		/* a message rather than data */
	UI_ESTIMATE = 32	/* numbers gprof estimates (a caller's share, by calls) */
};

/* The tree, the flame graph and the comparison: in flat's place. */
enum { PANE_FLAT, PANE_GRAPH, PANE_SOURCE, PANE_TREE, PANE_FLAME, PANE_COMPARE, NPANES };

#define UI_HISTORY 256
#define UI_LINE 1024		/* a typed line (search, filter, file name) holds less */
#define UI_FEW_SAMPLES 10	/* a function with fewer samples is dimmed */
#define UI_NARROW 32		/* excluded and focused functions at most */
#define UI_HSCROLL_MAX 16384	/* columns a pane scrolls sideways at most */

struct tui {
	const struct profile *p;
	const struct browser_opts *o;
	const struct diag_msg *warn;	/* the analysis's warnings (browser_run()'s diag) */
	size_t nwarn;
	uint32_t nfolded;		/* GCC clones folded into their functions (--clones=fold) */
	int estimates;			/* m: gprof's estimates shown though times were measured */
	int own_counted;		/* own holds the count */
	double own;			/* samples in the profiler's own functions */
	struct report_opts ro;
	struct report *r;
	uint32_t cur;			/* the function (or cycle) shown in the graph and source panes */
	struct pane pane[NPANES];
	int focus;			/* the focused pane, PANE_* */
	int zoom;			/* the focused pane alone on the screen (z) */
	uint32_t back[UI_HISTORY], fwd[UI_HISTORY];
	size_t nback, nfwd;
	char needle[UI_LINE];		/* the search, or "" */
	/* The flat pane's view: its rows are made again when flat_gen changes. */
	int sort_key;			/* FLAT_BY_* */
	int sort_rev;
	char filter[UI_LINE];		/* names must contain it ("" for all) */
	double limit;			/* rows under this percent are hidden */
	unsigned flat_gen;
	struct {			/* the matches counted last, while nothing changes */
		char needle[UI_LINE];
		int focus, demangle;
		uint32_t cur;
		size_t nrows, n;
		unsigned tree_gen;
	} count;
	char prompt;			/* while a line is typed: the key that asks for it, else 0 */
	char prompt_text[160];		/* what it asks, shown before the line typed */
	char input[UI_LINE];		/* what has been typed */
	int input_over;			/* more was typed than input holds: Enter refuses it */
	void (*prompt_done)(struct tui *t, const char *line);	/* takes it on Enter */
	int help;			/* the help pane is up */
	struct pane help_pane;
	int info;			/* the file information overlay is up */
	char message[256];		/* for the bottom line, until the next key */
	int quit;
	struct sbuf sb;
	int colors;
	unsigned flat_seen;		/* flat_gen when cur last followed the flat pane */
	/* x and f: symspecs added to the command line's, newest last (narrow.c). */
	struct pf_spec spec[2 * UI_NARROW];
	char *spec_name[UI_NARROW];
	size_t nnarrow;
	struct profile *owned;		/* the profile analysed with them, or NULL */
	/* t: the call tree (tree.c) is shown in the flat profile's place. */
	int tree;
	int tree_view;			/* TREE_*: what it shows */
	uint32_t tree_root;		/* the function or cycle of TREE_ROOTED and TREE_INVERTED */
	unsigned tree_gen;		/* changes whenever its rows do */
	const struct profile *base;	/* while owned: the one analysed without them */
	int flame;			/* F: the flame graph (flame.c) in the flat profile's place */
	/* tgprof --diff: the comparison (compare.c) in the flat profile's place. */
	int compare;
	const struct pf_diff *diff;	/* the comparison shown: o->diff, or own_diff while narrowed */
	struct pf_diff *own_diff;	/* of the narrowed profiles (x, f): own_old against p */
	struct profile *own_old;
	int cmp_sort;			/* CMP_BY_*: its rows' order (s, S reverses) */
	uint32_t *old_of;		/* per function: the old profile's of the same name, or PF_NONE */
};

enum { CMP_BY_SELF, CMP_BY_INCL, CMP_BY_CALLS, CMP_BY_NAME, CMP_NSORT };
extern const char *const compare_sort_names[CMP_NSORT];
/* compare.c: the old profile's function matched with the new profile's ID, or PF_NONE. */
uint32_t compare_old_id(const struct tui *t, uint32_t id);

enum { FLAT_BY_TIME, FLAT_BY_CALLS, FLAT_BY_SELF, FLAT_BY_TOTAL, FLAT_BY_NAME, FLAT_NSORT };

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

/* save.c: W's line, "FORMAT FILE": the profile shown exported (a message says how it went). */
void save_line(struct tui *t, const char *line);

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
void tree_init(struct pane *pn);
void flame_init(struct pane *pn);
void compare_init(struct pane *pn);
/* flat.c: the sort keys' names; selects the row of function ID in the flat pane PN, if any. */
extern const char *const flat_sort_names[FLAT_NSORT];
void flat_select(struct pane *pn, uint32_t id);
/*
 * flat.c: keeps the rows of the flat pane PN for another analysis of the
 * same profile (narrow.c: x, f, u), as of flat_gen; 0, or -1 when they
 * depend on the analysis (sorted by total per call) and must be made again.
 */
int flat_keep(struct tui *t, struct pane *pn);
/* source.c: the file the source pane PN shows (its row k is line k + 1), or NULL. */
const char *source_path(const struct pane *pn);
/* source.c: selects the hottest line (DIR 0), or the next (1) or previous (-1) line with samples. */
void source_hot(struct tui *t, struct pane *pn, int dir);

/*
 * tree.c: the call tree shows the whole program from its roots, or one
 * function and what it calls, or one function and its callers up to the
 * roots (bottom-up).  tree_fold() opens or closes the selected node of
 * the tree pane PN: HOW is TREE_TOGGLE (its children), TREE_SUBTREE (all
 * below it), TREE_CLOSE (or, closed, selects its parent), TREE_OPEN_ALL,
 * TREE_CLOSE_ALL.
 */
enum { TREE_WHOLE, TREE_ROOTED, TREE_INVERTED };
enum { TREE_TOGGLE, TREE_SUBTREE, TREE_CLOSE, TREE_OPEN_ALL, TREE_CLOSE_ALL };
void tree_fold(struct tui *t, struct pane *pn, int how);

/*
 * flame.c: the flame graph's moves: to the parent frame, the widest
 * child, the frame left or right at the same level; zoom into the
 * selected frame, or back out.
 */
enum { FLAME_UP, FLAME_DOWN, FLAME_LEFT, FLAME_RIGHT, FLAME_IN, FLAME_OUT };
void flame_key(struct tui *t, struct pane *pn, int move);

/*
 * tui.c: whether times measured from call stacks (browser_opts.measure)
 * are shown beside gprof's: there are stacks, m did not hide them, and
 * the profile is not narrowed (the stacks know nothing of -E and -F).
 */
int tui_measured(struct tui *t);

/* tui.c: makes FN the function shown, remembering the last one for Back. */
void tui_open(struct tui *t, uint32_t fn);
/* tui.c: back (DIR -1) or forward (1) in the history of functions shown. */
void tui_go(struct tui *t, int dir);

/*
 * keys.c: the browser's keys, one table.  keys_run() runs key C (from
 * term_key()); keys_hints() appends the focused pane's reminder of keys
 * for the bottom line; keys_help_row() gives the help pane (help.c) its
 * rows.
 */
void keys_run(struct tui *t, int c);
void keys_hints(int focus, struct sbuf *sb);
const char *keys_help_row(size_t i, char *names, size_t size);

/* editor.c: the user's editor on PATH (NULL: none to edit) at LINE, the screen handed over. */
void editor_open(struct tui *t, const char *path, size_t line);

/*
 * narrow.c: function FN analysed away (-E, FOCUS 0) or alone (-F, FOCUS
 * 1), stacked; narrow_pop() undoes the last; narrow_free() at the end.
 */
void narrow_push(struct tui *t, uint32_t fn, int focus);
void narrow_pop(struct tui *t);
void narrow_free(struct tui *t);

#endif
