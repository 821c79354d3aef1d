/* live: libtgmon's snapshots of a running program (TGMON_INTERVAL, and on request), by a thread of its own. */
#ifndef TGMON_LIVE_H
#define TGMON_LIVE_H

#include "tgmon.h"

/*
 * The snapshot files (beside gmon.out, named as it is with these
 * suffixes): NAME.live and NAME.live.stacks, the executable's profile and
 * the stacks file as the exit writes them but for the gmon header's last
 * four spare bytes (the sequence number, little-endian; 0 at exit), then
 * NAME.live.info (text, written last: the sequence number and the
 * times).  Each is replaced whole by a rename.  The presence file,
 * TGMON_LIVE_DIR_FMT's directory then the pid, names the thread that
 * takes requests and the signal to send it with tgkill() (it blocks that
 * signal: no other thread of the program ever sees it).
 */
#define TGMON_LIVE_SUFFIX ".live"
#define TGMON_LIVE_DIR_FMT "/tmp/tgmon-%lu"	/* the effective user id; mode 0700 */
#define TGMON_LIVE_COMM "tgmon-live"		/* the thread's name, /proc/PID/task/TID/comm */

/*
 * At start (tgmon_start, once, in normal context): reads TGMON_INTERVAL
 * and TGMON_LIVE and, if either asks for snapshots, starts the thread.
 */
TGMON_HIDDEN void tgmon_live_start(void);
/*
 * In the exiting thread, once the exit files are written and with the
 * writer's lock held (start.c: tgmon_dump): the last snapshot (marked
 * final, the same counts when no other thread still runs), and the
 * presence file removed.  Nothing in a forked child.
 */
TGMON_HIDDEN void tgmon_live_final(void);
/*
 * PARK 1: before a sandbox for every thread (seccomp's TSYNC), the
 * thread is stopped for good in a wait of the kernel's, no snapshot
 * meanwhile (its next system call would be the sandbox's to refuse);
 * returns once it is there.  PARK 0: the sandbox was refused, it goes on.
 */
TGMON_HIDDEN void tgmon_live_park(int park);
/* A forked child: no thread there, no snapshots, and the parent's presence file is not its own. */
TGMON_HIDDEN void tgmon_live_in_child(void);

#endif
