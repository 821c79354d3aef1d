/* diag: the list of warnings and errors the engine returns to its caller. */
#ifndef TGPROF_DIAG_H
#define TGPROF_DIAG_H

#include <stddef.h>

enum diag_level {
	DIAG_WARN,	/* the analysis goes on with what is sound */
	DIAG_ERROR	/* the analysis stopped */
};

struct diag_msg {
	enum diag_level level;
	char *text;	/* "FILE: what is wrong", without program name or newline */
};

/* Owns its messages; the engine appends, main prints them. */
struct diag {
	struct diag_msg *msg;
	size_t n, cap;
	int lost;	/* messages dropped because memory ran out */
};

void diag_init(struct diag *d);
void diag_release(struct diag *d);

/* Appends a formatted message; never fails (counts a lost one instead). */
void diag_add(struct diag *d, enum diag_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Convenience for the most common failure; returns -1. */
int diag_oom(struct diag *d);

/* Number of messages at DIAG_ERROR. */
size_t diag_errors(const struct diag *d);

#endif
