/* editor: the o key: the user's editor on a source file at a line, the terminal handed over and taken back. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ui.h"

#define MAX_WORDS 32

/*
 * Splits CMD into words as a shell would, without expanding anything:
 * blanks separate words, 'single quotes' keep everything, "double quotes"
 * keep all but \\ \" \$ \` (backslash-escaped), a backslash elsewhere
 * keeps the next character.  The words are written into BUF (as long as
 * CMD) and pointed to by WORD; their number, or -1 (an open quote, or
 * more than MAX_WORDS - 3).
 */
static int
split_words(const char *cmd, char *buf, char **word)
{
	int n = 0, in = 0;
	char q = 0, *out = buf;

	for (; *cmd != '\0'; cmd++) {
		char c = *cmd;

		if (q == 0 && (c == ' ' || c == '\t' || c == '\n')) {
			if (in)
				*out++ = '\0';
			in = 0;
			continue;
		}
		if (!in) {
			if (n == MAX_WORDS - 3)
				return -1;
			word[n++] = out;
			in = 1;
		}
		if (q == 0 && (c == '\'' || c == '"'))
			q = c;
		else if (c == q)
			q = 0;
		else if (c == '\\' && q != '\'' && cmd[1] != '\0' &&
		    (q == 0 || strchr("\\\"$`", cmd[1]) != NULL))
			*out++ = *++cmd;
		else
			*out++ = c;
	}
	if (in)
		*out = '\0';
	return q != 0 ? -1 : n;
}

/* In the child: the signals as a shell would leave them for the editor, then the editor. */
static void
run_editor(char **argv)
{
	sigset_t none;

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTSTP, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvp(argv[0], argv);
	_exit(127);
}

/*
 * Waits for the editor.  Meanwhile Ctrl-C and Ctrl-\ are the editor's
 * (tgprof ignores them), and Ctrl-Z stops tgprof without its curses
 * handler, which would draw the browser over the editor on fg.
 */
static int
wait_editor(pid_t pid)
{
	struct sigaction ign, dfl, old_int, old_quit, old_tstp;
	int status = -1;

	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	dfl = ign;
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	sigaction(SIGTSTP, &dfl, &old_tstp);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTSTP, &old_tstp, NULL);
	return status;
}

/*
 * $VISUAL, else $EDITOR, else vi, split into words; then +LINE and PATH.
 * PATH comes from the executable's debugging information: a relative one
 * that starts with '-' or '+' gets "./" first, so that no editor takes
 * it for an option or a command.
 */
void
editor_open(struct tui *t, const char *path, size_t line)
{
	const char *cmd = getenv("VISUAL");
	char *word[MAX_WORDS], *buf, at[32], *file;
	int n, status;
	pid_t pid;

	if (path == NULL) {
		snprintf(t->message, sizeof t->message, "no source to edit");
		return;
	}
	if (cmd == NULL || cmd[strspn(cmd, " \t")] == '\0')
		cmd = getenv("EDITOR");
	if (cmd == NULL || cmd[strspn(cmd, " \t")] == '\0')
		cmd = "vi";
	buf = malloc(strlen(cmd) + 1);
	file = malloc(strlen(path) + 3);
	if (buf == NULL || file == NULL || (n = split_words(cmd, buf, word)) <= 0) {
		snprintf(t->message, sizeof t->message, "%s", buf == NULL || file == NULL ?
		    "out of memory" : "the editor's command has an open quote or too many words");
		free(buf);
		free(file);
		return;
	}
	snprintf(at, sizeof at, "+%zu", line);
	sprintf(file, "%s%s", path[0] == '-' || path[0] == '+' ? "./" : "", path);
	word[n] = at;
	word[n + 1] = file;
	word[n + 2] = NULL;
	def_prog_mode();
	endwin();
	if ((pid = fork()) == 0)
		run_editor(word);
	status = pid < 0 ? -1 : wait_editor(pid);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 127)
		snprintf(t->message, sizeof t->message, "%.60s %s %.100s: failed", word[0], at, file);
	reset_prog_mode();
	clearok(curscr, TRUE);
	free(buf);
	free(file);
}
