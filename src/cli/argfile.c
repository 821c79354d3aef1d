/* argfile: @FILE arguments (response files) expanded as GNU gprof expands them, with bounds. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "argfile.h"
#include "util/mem.h"

/* libiberty's ISSPACE. */
static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static const char *
skip_space(const char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

/* Where buildargv() is in an argument: quotes open, a backslash before. */
struct quoting {
	int squote, dquote, bsquote;
};

/*
 * One step of buildargv()'s rules as gprof 2.40 and libiberty 20230104
 * apply them: a backslash takes the next character literally, even inside
 * quotes; quotes are removed.  Returns 1 if C belongs to the argument.
 */
static int
literal(struct quoting *q, char c)
{
	if (q->bsquote) {
		q->bsquote = 0;
		return 1;
	}
	if (c == '\\')
		return q->bsquote = 1, 0;
	if (q->squote)
		return c == '\'' ? (q->squote = 0) : 1;
	if (q->dquote)
		return c == '"' ? (q->dquote = 0) : 1;
	if (c == '\'')
		return q->squote = 1, 0;
	if (c == '"')
		return q->dquote = 1, 0;
	return 1;
}

/* An argument ends at whitespace outside quotes; writing never overtakes reading. */
size_t
argfile_split(char *text)
{
	const char *r = skip_space(text);
	struct quoting q = { 0, 0, 0 };
	char *w = text;
	size_t n = 0;

	if (*r == '\0')
		return 0;
	do {
		for (; *r != '\0' && !(is_space(*r) && !q.squote && !q.dquote && !q.bsquote); r++)
			if (literal(&q, *r))
				*w++ = *r;
		r = skip_space(r);	/* past the separator before it is overwritten */
		*w++ = '\0';
		n++;
	} while (*r != '\0');
	return n;
}

static int
too_large(const char *name, struct diag *d)
{
	diag_add(d, DIAG_ERROR, "%s: @-files larger than %zu MiB in all", name, ARGFILE_MAX_BYTES >> 20);
	return -1;
}

/*
 * Whether FD (a FIFO, a pipe, a device) has something to read, or its
 * writer has gone, within *WAIT_MS, which it takes from: 1, or 0 when
 * the time is up.
 */
static int
ready(int fd, int *wait_ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	struct timespec t0, t1;
	int n;

	do {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		n = poll(&p, 1, *wait_ms > 0 ? *wait_ms : 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		*wait_ms -= (int)((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
	} while (n < 0 && errno == EINTR && *wait_ms > 0);
	return n > 0;
}

/*
 * Reads FD whole into *TEXT (NUL-ended; a NUL byte ends it early, as in
 * libiberty) if it fits in *BUDGET bytes, which it then takes from.
 */
static int
read_text(int fd, const char *name, char **text, size_t *budget, struct diag *d)
{
	struct stat st;
	size_t len = 0, cap;
	int wait_ms = ARGFILE_WAIT_MS;
	char *buf;
	ssize_t got;

	if (fstat(fd, &st) != 0)
		return diag_add(d, DIAG_ERROR, "%s: %s", name, strerror(errno)), -1;
	if (S_ISDIR(st.st_mode))
		return diag_add(d, DIAG_ERROR, "%s: @-file is a directory", name), -1;
	/* A regular file's size is known: one block, read to the end. */
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 2 : 4096;
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size >= *budget)
		return too_large(name, d);
	if ((buf = malloc(cap)) == NULL)
		return diag_oom(d);
	for (;;) {
		if (len + 1 == cap && mem_reserve(&buf, &cap, cap + 1, 1) != 0)
			return free(buf), diag_oom(d);
		if (!S_ISREG(st.st_mode) && ready(fd, &wait_ms) == 0) {
			diag_add(d, DIAG_ERROR, "%s: nothing came from it in %d s", name, ARGFILE_WAIT_MS / 1000);
			return free(buf), -1;
		}
		if ((got = read(fd, buf + len, cap - len - 1)) < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got < 0) {
			diag_add(d, DIAG_ERROR, "%s: %s", name, strerror(errno));
			return free(buf), -1;
		}
		len += (size_t)got;
		/* A NUL byte ends the text, as in libiberty (/dev/zero is empty). */
		if (got == 0 || memchr(buf + len - (size_t)got, '\0', (size_t)got) != NULL ||
		    len >= *budget)
			break;
	}
	if (len >= *budget)
		return free(buf), too_large(name, d);
	buf[len] = '\0';
	*budget -= len;
	*text = buf;
	return 0;
}

/* Arguments still to look at: the command line's, or an @-file's (owned). */
struct source {
	char **arg;
	size_t n, next;
	int owned;
};

/* NAME opened to read, or -1: without waiting for a FIFO's writer (read_text() waits, with a bound). */
static int
open_text(const char *name)
{
	return open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

/*
 * The @-file NAME as a new source in *SRC: 1, or 0 when it cannot be
 * opened (gprof then keeps "@NAME" as an argument), or -1.
 */
static int
open_source(struct argfile *af, const char *name, size_t *budget, struct source *src,
    struct diag *d)
{
	int fd = open_text(name);
	char *text = NULL, *p;
	size_t i;
	int rc;

	if (fd < 0)
		return 0;
	rc = read_text(fd, name, &text, budget, d);
	close(fd);
	if (rc != 0)
		return -1;
	if (mem_reserve(&af->text, &af->textcap, af->ntext + 1, sizeof *af->text) != 0)
		return free(text), diag_oom(d);
	af->text[af->ntext++] = text;
	src->n = argfile_split(text);
	src->next = 0;
	src->owned = 1;
	if ((src->arg = mem_array(src->n + 1, sizeof *src->arg)) == NULL)
		return diag_oom(d);
	for (i = 0, p = text; i < src->n; i++, p += strlen(p) + 1)
		src->arg[i] = p;
	return 1;
}

/* Appends A to AF's arguments. */
static int
append(struct argfile *af, size_t *cap, char *a, struct diag *d)
{
	if ((size_t)af->argc + 1 >= *cap &&
	    mem_reserve(&af->argv, cap, (size_t)af->argc + 2, sizeof *af->argv) != 0)
		return diag_oom(d);
	af->argv[af->argc++] = a;
	af->argv[af->argc] = NULL;
	return 0;
}

/* Depth first, as expandargv() goes: an @-file's arguments are looked at in its place. */
int
argfile_expand(struct argfile *af, int argc, char **argv, struct diag *d)
{
	struct source *stack = NULL;
	size_t depth = 0, stackcap = 0, cap = 0, budget = ARGFILE_MAX_BYTES;
	int files = 0, r = 0;

	memset(af, 0, sizeof *af);
	if (argc < 1 || append(af, &cap, argv[0], d) != 0 ||
	    mem_reserve(&stack, &stackcap, 1, sizeof *stack) != 0)
		r = -1;
	else
		stack[depth++] = (struct source){ argv + 1, (size_t)argc - 1, 0, 0 };
	while (r == 0 && depth > 0) {
		struct source *s = &stack[depth - 1];
		char *a;

		if (s->next == s->n) {
			if (s->owned)
				free(s->arg);
			depth--;
			continue;
		}
		a = s->arg[s->next++];
		if (a[0] != '@')
			r = append(af, &cap, a, d);
		else if (++files == ARGFILE_MAX_FILES)
			r = -1, diag_add(d, DIAG_ERROR, "%s: more than %d @-files (one that names itself?)",
			    a + 1, ARGFILE_MAX_FILES - 1);
		else if (mem_reserve(&stack, &stackcap, depth + 1, sizeof *stack) != 0)
			r = diag_oom(d);
		else if ((r = open_source(af, a + 1, &budget, &stack[depth], d)) > 0)
			depth++, r = 0;
		else if (r == 0)
			r = append(af, &cap, a, d);
	}
	while (depth > 0)
		if (stack[--depth].owned)
			free(stack[depth].arg);
	free(stack);
	if (r != 0)
		argfile_release(af);
	return r;
}

void
argfile_release(struct argfile *af)
{
	size_t i;

	for (i = 0; i < af->ntext; i++)
		free(af->text[i]);
	free(af->text);
	free(af->argv);
	memset(af, 0, sizeof *af);
}
