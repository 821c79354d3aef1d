/* busguard: a mapped file that shrinks under its reader turned from SIGBUS into an error. */
#include "busguard.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

/* Where this thread's innermost guard resumes, or NULL outside guards. */
static _Thread_local sigjmp_buf *guard;
/* The action ours replaced: a SIGBUS outside guards is its (under LOCK but read by the handler). */
static struct sigaction before;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void
on_bus(int sig, siginfo_t *si, void *uc)
{
	if (guard != NULL)
		siglongjmp(*guard, 1);
	if ((before.sa_flags & SA_SIGINFO) && before.sa_sigaction != NULL) {
		before.sa_sigaction(sig, si, uc);
	} else if (!(before.sa_flags & SA_SIGINFO) && before.sa_handler != SIG_DFL &&
	    before.sa_handler != SIG_IGN) {
		before.sa_handler(sig);
	} else {
		signal(SIGBUS, SIG_DFL);	/* returning runs the access again: the default action */
	}
}

/* Ours made SIGBUS's handler unless it is: another part of the program may have set its own since. */
static void
install(void)
{
	struct sigaction now, ours;

	pthread_mutex_lock(&lock);
	if (sigaction(SIGBUS, NULL, &now) == 0 &&
	    !((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_bus)) {
		memset(&ours, 0, sizeof ours);
		ours.sa_sigaction = on_bus;
		ours.sa_flags = SA_SIGINFO;
		sigemptyset(&ours.sa_mask);
		before = now;
		sigaction(SIGBUS, &ours, NULL);
	}
	pthread_mutex_unlock(&lock);
}

int
busguard_run(int (*fn)(void *), void *arg)
{
	sigjmp_buf here, *outer = guard;
	int rc;

	install();
	if (sigsetjmp(here, 1) != 0) {
		guard = outer;
		return BUSGUARD_SHRANK;
	}
	guard = &here;
	rc = fn(arg);
	guard = outer;
	return rc;
}
