/* record: tgprof record [-o FILE] -- PROG ARGS, a -pg program run under libtgmon. */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input/bin.h"
#include "util/afile.h"
#include "input/stacks.h"

int
record_wanted(int argc, char **argv)
{
	int k;

	if (argc < 4 || strcmp(argv[1], "record") != 0)
		return 0;
	for (k = 2; k + 1 < argc; k++)
		if (strcmp(argv[k], "--") == 0)
			return 1;
	return 0;
}

/* NAME as execvp() finds it (in $PATH when it has no '/') into OUT; 0, or -1. */
static int
find_program(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;

	if (strchr(name, '/') != NULL)
		return snprintf(out, size, "%s", name) < (int)size && stat(out, &st) == 0 &&
		    S_ISREG(st.st_mode) && access(out, X_OK) == 0 ? 0 : -1;
	for (p = path != NULL ? path : "/usr/bin:/bin"; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchr(p, ':') != NULL ? strchr(p, ':') : p + strlen(p);
		if (snprintf(out, size, "%.*s/%s", (int)(end - p) > 0 ? (int)(end - p) : 1,
		    end > p ? p : ".", name) < (int)size && stat(out, &st) == 0 &&
		    S_ISREG(st.st_mode) && access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* Whether the executable IMAGE has libtgmon linked in (it defines tgmon_start). */
static int
has_libtgmon(const char *image)
{
	struct bin *b;
	struct bin_fsym *s;
	struct diag quiet;
	size_t n, k;
	int found = 0;

	diag_init(&quiet);
	if (bin_open(&b, image, &quiet) == 0) {
		if (bin_function_syms(b, &s, &n) == 0) {
			for (k = 0; k < n && !found; k++)
				found = strcmp(s[k].name, "tgmon_start") == 0;
			free(s);
		}
		bin_close(b);
	}
	diag_release(&quiet);
	return found;
}

/* libtgmon.so: $TGMON_LIBRARY, beside tgprof's build (runtime/), or its installation's lib; 0 or -1. */
static int
find_library(char *out, size_t size)
{
	const char *env = getenv("TGMON_LIBRARY");
	static const char *const rel[] = { "runtime/libtgmon.so", "../lib/libtgmon.so" };
	char self[4096], *dir;
	ssize_t n;
	size_t k;

	if (env != NULL && *env != '\0')
		return snprintf(out, size, "%s", env) < (int)size && access(out, R_OK) == 0 ? 0 : -1;
	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) <= 0)
		return -1;
	self[n] = '\0';
	dir = dirname(self);
	for (k = 0; k < sizeof rel / sizeof *rel; k++)
		if (snprintf(out, size, "%s/%s", dir, rel[k]) < (int)size && access(out, R_OK) == 0)
			return 0;
	return -1;
}

/*
 * The child: ARGV run with libtgmon's files in DIR, LIB preloaded (unless
 * NULL), snapshots every INTERVAL seconds (unless NULL); never returns.
 */
static void
child(char *const *argv, const char *image, const char *dir, const char *lib, const char *interval)
{
	const char *old = getenv("LD_PRELOAD");
	char preload[8192];

	setenv("TGMON_DIR", dir, 1);
	unsetenv("GMON_OUT_PREFIX");	/* gmon.out, the name looked for */
	setenv("TGMON_SIGNALS", "1", 0);	/* ^C or a kill ends it with its profile written */
	if (interval != NULL)
		setenv("TGMON_INTERVAL", interval, 1);
	if (lib != NULL) {
		snprintf(preload, sizeof preload, "%s%s%s", lib, old != NULL && *old ? ":" : "",
		    old != NULL ? old : "");
		setenv("LD_PRELOAD", preload, 1);
	}
	execv(image, argv);
	fprintf(stderr, "tgprof: %s: %s\n", image, strerror(errno));
	_exit(127);
}

/*
 * While a child runs: tgprof's SIGINT and SIGQUIT ignored (as system():
 * the terminal sends them to the child too), its SIGTERM passed on to
 * the child (a supervisor's, which the child would not see), and what
 * they were before, put back by record_reap().
 */
static volatile pid_t running;
static struct sigaction old_int, old_quit, old_term;

static void
pass_term(int sig)
{
	if (running > 0)
		kill(running, sig);
}

pid_t
record_start(char *const *argv, const char *image, const char *dir, const char *lib, const char *interval)
{
	struct sigaction ign, term;
	pid_t pid;

	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	memset(&term, 0, sizeof term);
	term.sa_handler = pass_term;
	term.sa_flags = SA_RESTART;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	fflush(NULL);
	if ((pid = fork()) == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		child(argv, image, dir, lib, interval);
	}
	running = pid;
	sigaction(SIGTERM, &term, &old_term);
	if (pid < 0)
		record_reap(pid, 0);
	return pid;
}

int
record_reap(pid_t pid, int nohang)
{
	int st = 0;
	pid_t r = 0;

	while (pid > 0 && (r = waitpid(pid, &st, nohang ? WNOHANG : 0)) < 0 && errno == EINTR)
		;
	if (pid > 0 && r == 0)
		return -2;
	running = 0;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (pid < 0 || r < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
}

/*
 * The path of library number RANK (1: the first) of the file name LIB
 * (LEN bytes) among the modules of the stacks file SF, as the run loaded
 * them; NULL if SF is NULL or has no such library.
 */
static const char *
library_path(const struct stacks_file *sf, const char *lib, size_t len, long rank)
{
	uint32_t k;

	for (k = 1; sf != NULL && k < sf->nmod; k++) {
		const char *slash = strrchr(sf->mod[k].name, '/');
		const char *base = slash != NULL ? slash + 1 : sf->mod[k].name;

		if (strlen(base) == len && memcmp(base, lib, len) == 0 && --rank == 0)
			return sf->mod[k].name;
	}
	return NULL;
}

/*
 * The rank N of a library's profile named gmon.LIB~N.out (libtgmon's
 * name for the Nth library of one file name, N > 1), with *LEN cut from
 * LIB~N's to LIB's; 1 for any other.
 */
static long
library_rank(const char *lib, size_t *len)
{
	const char *tilde = memrchr(lib, '~', *len), *p;

	if (tilde == NULL || tilde + 1 == lib + *len)
		return 1;
	for (p = tilde + 1; p < lib + *len; p++)
		if (*p < '0' || *p > '9')
			return 1;
	if (strtol(tilde + 1, NULL, 10) < 2)
		return 1;
	*len = (size_t)(tilde - lib);
	return strtol(tilde + 1, NULL, 10);
}

/*
 * A -pg library's profile beside the program's, NAME: gmon.LIB.out, or
 * gmon.LIB~N.out for the Nth library of that file name, which is named
 * by its path from the stacks file SF when there is one.
 */
static void
say_library(const char *name, const char *where, const struct stacks_file *sf, struct diag *d)
{
	size_t len = strlen(name) - 9;
	long rank = library_rank(name + 5, &len);
	const char *path = rank > 1 ? library_path(sf, name + 5, len, rank) : NULL;

	if (rank == 1)
		diag_add(d, DIAG_WARN, "record: %s/%s: the profile of the -pg library %.*s, apart from the "
		    "program's: tgprof %.*s %s/%s", where, name, (int)len, name + 5, (int)len, name + 5,
		    where, name);
	else if (path != NULL)
		diag_add(d, DIAG_WARN, "record: %s/%s: the profile of the -pg library %s (number %ld of that "
		    "name), apart from the program's: tgprof %s %s/%s", where, name, path, rank, path, where,
		    name);
	else
		diag_add(d, DIAG_WARN, "record: %s/%s: the profile of another -pg library named %.*s (number "
		    "%ld of that name), apart from the program's: tgprof ITS-PATH %s/%s", where, name,
		    (int)len, name + 5, rank, where, name);
}

/*
 * A profile the run wrote beside the program's, NAME (a -pg library's,
 * say_library; gmon.out.PID: a child's), said in D with how to read it.
 */
static void
say_other(const char *name, const char *where, const struct stacks_file *sf, struct diag *d)
{
	size_t n = strlen(name);

	if (strncmp(name, "gmon.", 5) == 0 && n > 9 && strcmp(name + n - 4, ".out") == 0 &&
	    strcmp(name, "gmon.out") != 0)
		say_library(name, where, sf, d);
	else if (strncmp(name, "gmon.out.", 9) == 0 && strcmp(name, "gmon.out.stacks") != 0 &&
	    strstr(name, ".stacks") == NULL)
		diag_add(d, DIAG_WARN, "record: %s/%s: another process's profile (a child's)", where, name);
}

/*
 * The files the run wrote in DIR moved beside OUT: gmon.out to OUT,
 * gmon.out.stacks to OUT.stacks, the others (a forked child's, a
 * library's) by their names, each said in D; DIR removed.  THROUGH (OUT
 * is not a regular file): gmon.out and its stacks stay in DIR, for
 * write_through() and the report, and the others go to the current
 * directory.  Whether gmon.out was there.
 */
static int
move_files(const char *dir, const char *out, int through, struct diag *d)
{
	char from[8192], to[8192], base[4096];
	struct stacks_file sf, *sfp = NULL;
	struct diag quiet;
	struct dirent *e;
	DIR *dp;
	int found = 0;

	snprintf(base, sizeof base, "%s", out);
	if ((dp = opendir(dir)) == NULL)
		return 0;
	diag_init(&quiet);
	snprintf(from, sizeof from, "%s/gmon.out.stacks", dir);	/* the libraries' paths, for say_other() */
	if (access(from, F_OK) == 0 && stacks_read(from, &sf, &quiet) == 0)
		sfp = &sf;
	diag_release(&quiet);
	while ((e = readdir(dp)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		found |= strcmp(e->d_name, "gmon.out") == 0;
		if (through && (strcmp(e->d_name, "gmon.out") == 0 || strcmp(e->d_name, "gmon.out.stacks") == 0))
			continue;
		snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
		if (strcmp(e->d_name, "gmon.out") == 0)
			snprintf(to, sizeof to, "%s", out);
		else if (strcmp(e->d_name, "gmon.out.stacks") == 0)
			snprintf(to, sizeof to, "%s.stacks", out);
		else {
			const char *where = through ? "." : dirname(base);

			snprintf(to, sizeof to, "%s/%s", where, e->d_name);
			say_other(e->d_name, where, sfp, d);
		}
		if (rename(from, to) != 0)
			unlink(from);
		snprintf(base, sizeof base, "%s", out);	/* dirname() wrote into it */
	}
	closedir(dp);
	if (sfp != NULL)
		stacks_free(sfp);
	if (!through)
		rmdir(dir);
	return found;
}

/*
 * The run's profile FROM written to OUT, which is not a regular file (a
 * device, a FIFO, a terminal, /dev/stdout), through afile: written
 * through, never replaced.  0, or -1 with the reason in D.
 */
static int
write_through(const char *from, const char *out, struct diag *d)
{
	FILE *in = fopen(from, "rb");
	struct afile af;
	char buf[65536];
	size_t n;
	int bad = 0;

	if (in == NULL || afile_open(&af, out) != 0) {
		diag_add(d, DIAG_ERROR, "record: %s: %s", in == NULL ? from : out, strerror(errno));
		if (in != NULL)
			fclose(in);
		return -1;
	}
	while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0)
		bad = fwrite(buf, 1, n, af.f) != n;
	bad |= ferror(in) != 0;
	fclose(in);
	if (bad)
		afile_abort(&af);
	if (bad || afile_commit(&af) != 0) {
		diag_add(d, DIAG_ERROR, "record: %s: %s", out, strerror(errno != 0 ? errno : EIO));
		return -1;
	}
	return 0;
}

/*
 * Where the run's files go: a new directory beside OUT (a regular file,
 * or none yet: its files are then renamed into place), or, if OUT is not
 * a regular file (*THROUGH), one in $TMPDIR or /tmp (a device's
 * directory, /dev, is no place for them).  0, or -1 with the reason in D.
 */
static int
make_run_dir(const char *out, char *dir, size_t size, int *through, struct diag *d)
{
	const char *tmpdir = getenv("TMPDIR");
	char tmp[4096];
	struct stat st;

	*through = stat(out, &st) == 0 && !S_ISREG(st.st_mode);
	if (*through && S_ISDIR(st.st_mode)) {
		diag_add(d, DIAG_ERROR, "record: %s: %s", out, strerror(EISDIR));
		return -1;
	}
	snprintf(tmp, sizeof tmp, "%s", out);
	if (*through)
		snprintf(dir, size, "%s/tgprof-record-XXXXXX", tmpdir != NULL && *tmpdir == '/' ? tmpdir : "/tmp");
	else
		snprintf(dir, size, "%s/.tgprof-record-XXXXXX", dirname(tmp));
	if (mkdtemp(dir) == NULL) {
		diag_add(d, DIAG_ERROR, "record: %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

int
record_prepare(const char *prog, const char *cmd, struct recording *r, char *lib, size_t size, struct diag *d)
{
	if (prog == NULL || find_program(prog, r->image, sizeof r->image) != 0) {
		diag_add(d, DIAG_ERROR, "%s: %s: no such program", cmd, prog != NULL ? prog : "--");
		return -1;
	}
	lib[0] = '\0';
	if (!has_libtgmon(r->image) && find_library(lib, size) != 0) {
		diag_add(d, DIAG_ERROR, "%s: libtgmon.so not found (TGMON_LIBRARY names it)", cmd);
		return -1;
	}
	return 0;
}

int
record_collect(const char *dir, const char *out, struct diag *d)
{
	return move_files(dir, out, 0, d);
}

int
record_run(int argc, char **argv, struct recording *r, struct diag *d)
{
	const char *out = "gmon.out";
	char lib[4096], dir[4096 + 32];
	int k = 2, through;

	memset(r, 0, sizeof *r);
	for (; k < argc && strcmp(argv[k], "--") != 0; k++) {
		if (strcmp(argv[k], "-o") == 0 && k + 1 < argc && strcmp(argv[k + 1], "--") != 0) {
			out = argv[++k];
		} else {
			diag_add(d, DIAG_ERROR, "record: %s: not an option of record "
			    "(tgprof record [-o FILE] -- PROG ARGS)", argv[k]);
			return -1;
		}
	}
	if (record_prepare(k + 1 < argc ? argv[k + 1] : NULL, "record", r, lib, sizeof lib, d) != 0 ||
	    make_run_dir(out, dir, sizeof dir, &through, d) != 0)
		return -1;
	r->status = record_reap(record_start(argv + k + 1, r->image, dir, lib[0] != '\0' ? lib : NULL, NULL), 0);
	snprintf(r->gmon, sizeof r->gmon, "%s", out);
	if (through) {	/* the report reads the run's copy */
		snprintf(r->rundir, sizeof r->rundir, "%s", dir);
		snprintf(r->gmon, sizeof r->gmon, "%.*s/gmon.out", (int)sizeof r->gmon - 10, dir);
	}
	if (!move_files(dir, out, through, d)) {
		if (r->status > 128)
			diag_add(d, DIAG_ERROR, "%s: ended by signal %d before it wrote a profile", r->image,
			    r->status - 128);
		else
			diag_add(d, DIAG_ERROR, "%s: wrote no profile (was it built with -pg?)", r->image);
	} else if (!through || write_through(r->gmon, out, d) == 0) {
		return 0;
	}
	record_finish(r);
	return -1;
}

void
record_finish(struct recording *r)
{
	char path[sizeof r->rundir + 32];

	if (r->rundir[0] == '\0')
		return;
	snprintf(path, sizeof path, "%s/gmon.out", r->rundir);
	unlink(path);
	snprintf(path, sizeof path, "%s/gmon.out.stacks", r->rundir);
	unlink(path);
	rmdir(r->rundir);
	r->rundir[0] = '\0';
}
