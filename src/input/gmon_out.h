/* gmon_out: the on-disk gmon.out formats, shared by the analyser (src/) and libtgmon (runtime/). */
#ifndef TGPROF_GMON_OUT_H
#define TGPROF_GMON_OUT_H

/*
 * Only constants live here: both readers and the runtime encode fields
 * byte by byte in the executable's byte order, so no struct layout is
 * shared.  All integers are in the byte order of the profiled executable;
 * an address ("vma") is 4 or 8 bytes as the executable's pointers are.
 *
 * GNU "magic" format (what glibc and libtgmon write):
 *   header   "gmon", u32 version (1; 0 is accepted), 12 spare bytes
 *   records  until end of file, each a one-byte tag:
 *     0 histogram   vma lowpc, vma highpc, u32 num_bins, u32 prof_rate,
 *                   char dimen[15], char dimen_abbrev, num_bins x u16 counts
 *     1 call arc    vma from_pc, vma self_pc, u32 count
 *     2 basic block u32 count, then count x (vma addr, vma count)
 *
 * Old BSD format:  vma lowpc, vma highpc, u32 ncnt (header + histogram
 *   bytes), u16 counts, then arcs
 *   (vma from_pc, vma self_pc, count) to end of file; count is u32 for
 *   32-bit and u64 for 64-bit executables.
 * 4.4BSD format:   as old BSD, but the header continues with
 *   u32 version (GMON_BSD44_VERSION), u32 prof_rate, 12 spare bytes.
 */

#define GMON_MAGIC		"gmon"
#define GMON_MAGIC_LEN		4
#define GMON_VERSION		1
#define GMON_HDR_SIZE		20	/* cookie, version, spare */

#define GMON_TAG_TIME_HIST	0
#define GMON_TAG_CG_ARC		1
#define GMON_TAG_BB_COUNT	2

#define GMON_DIMEN_LEN		15	/* histogram dimension name, not NUL-terminated */

#define GMON_BSD44_VERSION	0x00051879u
#define GMON_HDRSIZE_OLDBSD_32	(4 + 4 + 4)
#define GMON_HDRSIZE_OLDBSD_64	(8 + 8 + 4)
#define GMON_HDRSIZE_BSD44_32	(4 + 4 + 4 + 4 + 4 + (3 * 4))
#define GMON_HDRSIZE_BSD44_64	(8 + 8 + 4 + 4 + 4 + (3 * 4))

/*
 * The run identifier (libtgmon): 64 random bits, new in each process
 * (a forked child gets its own), in the GNU header's spare bytes of every
 * gmon file the process writes and in its stacks file, so that a reader
 * can refuse a stacks file of another run.  gprof and older readers
 * ignore the spare bytes.  Bytes 0-7 of the spare bytes: the identifier,
 * little-endian; 8-11: zero, but in a snapshot
 * (gmon.out.live), its sequence number, little-endian (man/libtgmon.3).  An identifier of 0 means none (glibc's
 * files, tgprof's gmon.sum).
 */
#define GMON_RUNID_OFFSET	8	/* in the file: after "gmon" and the version */
#define GMON_RUNID_LEN		8

/*
 * The stacks file (libtgmon): the call stack of every sample, written
 * beside the process's gmon file: gmon.out.stacks beside gmon.out,
 * gmon.out.PID.stacks beside a forked child's gmon.out.PID, PREFIX.PID.stacks
 * beside GMON_OUT_PREFIX's PREFIX.PID.  One file for the whole process:
 * addresses are absolute (as they were in the process), and the module
 * table says where each loaded object was.
 *
 * Every integer is little-endian, of the size given; there is no
 * padding and no alignment.  The file is, in this order:
 *
 *   header   TGSTACKS_HDR_SIZE bytes, at the offsets TGSTACKS_HDR_* below
 *   modules  nmodules records:
 *              u64 base     the load address (what ELF addresses are relative to)
 *              u64 lowpc    the start of its executable segments ...
 *              u64 highpc   ... and their end (exclusive), 4-byte aligned outwards
 *              u32 namelen  then namelen bytes of name, not NUL-terminated:
 *                           "" (namelen 0) for the executable, module 0;
 *                           else the path as the dynamic linker gives it
 *                           ("linux-vdso.so.1" has none)
 *   threads  nthreads records (version 3; none before), thread I the
 *            I-th, in the order the threads first called a profiled
 *            function:
 *              u32 tid      the kernel's thread id (gettid)
 *              u32 flags    TGSTACKS_THREAD_* (other bits: 0)
 *              u64 cpu_ns   its CPU time (user and system), from its start
 *                           to its end or to the file's writing; 0: unknown
 *              u64 samples  samples taken in it (the histogram's; its
 *                           stack records count those whose stacks were
 *                           recorded)
 *              u64 signals  the signals that brought them
 *              u64 start_ns when it first called a profiled function ...
 *              u64 end_ns   ... and when it ended or the file was written
 *                           (0: still running), both in nanoseconds of
 *                           CLOCK_MONOTONIC from the runtime's start
 *              u32 namelen  then namelen (at most TGSTACKS_MAX_THREAD_NAME)
 *                           bytes of its name (its comm, as
 *                           pthread_setname_np or PR_SET_NAME set it, last
 *                           seen), not NUL-terminated; untrusted bytes
 *   stacks   nstacks records, to the end of the file:
 *              u64 count    samples with this stack (1 or more; a signal
 *                           that came late counts for the ticks it missed)
 *              u32 depth    1 to max_depth
 *              u32 flags    TGSTACKS_ROOT, TGSTACKS_TRUNCATED (other bits: 0)
 *              u32 thread   (version 3) the thread record whose samples
 *                           these are, below nthreads; or
 *                           TGSTACKS_NO_THREAD (threads past the records'
 *                           limit, all together)
 *              depth x u64  addresses, innermost first: the sampled program
 *                           counter, then return addresses, each the
 *                           instruction after a call (look up address - 1
 *                           to find the calling function)
 *
 * The same stack may appear in several records (one per thread that
 * sampled it, and per table): a reader adds their counts.  The header's
 * sums are exactly those of the records.  A stack without TGSTACKS_ROOT
 * stopped early (a frame without a frame pointer, a return address
 * outside loaded code); its outermost frames are missing.
 *
 * Sampling error: a CPU-time timer signals at most at the kernel's tick
 * (often 250 a second); at a higher rate one signal counts for several
 * samples.  A perf_event task clock signals at the rate asked, one sample
 * a signal.  The independent observations are the signals, not the
 * samples: a share p of the samples is known to about
 * sqrt(p (1 - p) / signals), and the rate obtained, in observations a
 * second of CPU time, is rate * signals / samples.
 *
 * Versions: 1 had a header of 88 bytes, without call_ps and clock (a
 * reader takes both as 0); 2 adds them (96 bytes); 3 adds the header's
 * flags, wait_ns and waits (112 bytes), the thread records (their number
 * at TGSTACKS_HDR_NTHREADS, 0 before), a stack record's thread
 * (TGSTACKS_STACK_FIXED_V3) and the wait records (TGSTACKS_WAIT).
 * Everything else is the same.
 */
#define TGSTACKS_MAGIC		"tgstacks"
#define TGSTACKS_MAGIC_LEN	8
#define TGSTACKS_VERSION	3	/* what libtgmon writes */
#define TGSTACKS_VERSION_THREADS 3	/* the first with thread records */
#define TGSTACKS_HDR_SIZE_V1	88

#define TGSTACKS_HDR_MAGIC	0	/* char[8]: TGSTACKS_MAGIC */
#define TGSTACKS_HDR_VERSION	8	/* u32: TGSTACKS_VERSION */
#define TGSTACKS_HDR_FLAGS	12	/* u32: TGSTACKS_FLAG_* (version 3; 0 before) */
#define TGSTACKS_HDR_RUNID	16	/* u64: the run identifier, as in the gmon files */
#define TGSTACKS_HDR_RATE	24	/* u32: samples a second of each thread's CPU time */
#define TGSTACKS_HDR_NMODULES	28	/* u32: module records (at most TGSTACKS_MAX_MODULES) */
#define TGSTACKS_HDR_MAXDEPTH	32	/* u32: the depth limit (TGSTACKS_MAX_DEPTH) */
#define TGSTACKS_HDR_NTHREADS	36	/* u32: thread records (version 3; 0 before) */
#define TGSTACKS_HDR_NSTACKS	40	/* u64: stack records */
#define TGSTACKS_HDR_SAMPLES	48	/* u64: samples recorded: the sum of the records' counts */
#define TGSTACKS_HDR_ROOT	56	/* u64: of them, in records with TGSTACKS_ROOT */
#define TGSTACKS_HDR_TRUNCATED	64	/* u64: of them, in records with TGSTACKS_TRUNCATED */
#define TGSTACKS_HDR_LOST	72	/* u64: samples taken but not recorded (a table full) */
#define TGSTACKS_HDR_SIGNALS	80	/* u64: the signals that brought the samples recorded */
#define TGSTACKS_HDR_CALL_PS	88	/* u32: what -pg adds to a call, in ps; 0: not measured */
#define TGSTACKS_HDR_CLOCK	92	/* u32: how the samples were taken: TGSTACKS_CLOCK_* bits */
#define TGSTACKS_HDR_SIZE_V2	96
#define TGSTACKS_HDR_WAIT_NS	96	/* u64: (version 3) nanoseconds off CPU recorded: the TGSTACKS_WAIT records' counts */
#define TGSTACKS_HDR_WAITS	104	/* u64: (version 3) the waits (switches out and back in) they are */
#define TGSTACKS_HDR_SIZE	112

#define TGSTACKS_MOD_FIXED	28	/* base, lowpc, highpc, namelen; the name follows */
#define TGSTACKS_STACK_FIXED	16	/* count, depth, flags; the addresses follow (versions 1, 2) */
#define TGSTACKS_STACK_FIXED_V3	20	/* count, depth, flags, thread; the addresses follow */
#define TGSTACKS_THREAD_FIXED	52	/* tid, flags, cpu_ns, samples, signals, start_ns, end_ns, namelen */

#define TGSTACKS_MAX_DEPTH	256	/* frames kept of a deeper stack: the innermost */
#define TGSTACKS_MAX_MODULES	65536	/* libtgmon's table of loaded objects holds as many */
#define TGSTACKS_MAX_NAME	4096	/* namelen is less */
#define TGSTACKS_MAX_THREADS	65536	/* thread records at most; later threads: TGSTACKS_NO_THREAD */
#define TGSTACKS_MAX_THREAD_NAME 64	/* a thread's namelen is at most this (Linux's comm: 15) */
#define TGSTACKS_NO_THREAD	0xffffffffu

/*
 * A thread's flags.  TGSTACKS_THREAD_ENDED: it had ended when the file
 * was written.  TGSTACKS_THREAD_MAIN: the process's main thread (tid ==
 * pid).  TGSTACKS_THREAD_CPU: cpu_ns was measured (else 0, unknown).
 * TGSTACKS_THREAD_TIMER: some of its samples came from a timer (the
 * kernel's tick: several samples a signal), not a perf event: none could
 * be had, or it was given up because the thread switched context often.
 * TGSTACKS_THREAD_WAITS: its waits were recorded (TGSTACKS_WAIT records).
 * TGSTACKS_THREAD_WAITS_LOST: some were not: the kernel's ring was full,
 * or recording was given up because the thread switched context often.
 */
#define TGSTACKS_THREAD_ENDED	0x1u
#define TGSTACKS_THREAD_MAIN	0x2u
#define TGSTACKS_THREAD_CPU	0x4u
#define TGSTACKS_THREAD_TIMER	0x8u
#define TGSTACKS_THREAD_WAITS	0x10u
#define TGSTACKS_THREAD_WAITS_LOST 0x20u

/*
 * A stack's flags.  TGSTACKS_ROOT: the walk reached the thread's root,
 * so the stack is complete: it ended at a frame whose saved frame
 * pointer is 0 (where the C library starts threads), or (main thread)
 * points above the stack's end, or at or above the thread's root frame:
 * main()'s in the main thread, else the outermost frame reached from the
 * thread's first call of a profiled function.  TGSTACKS_TRUNCATED: the stack was
 * deeper than max_depth; its innermost max_depth frames are kept.
 */
#define TGSTACKS_ROOT		0x1u
#define TGSTACKS_TRUNCATED	0x2u
/*
 * TGSTACKS_WAIT (version 3): the record is not of samples but of time
 * off CPU, its count in nanoseconds: the stack a thread was switched out
 * at, then in again that long after.  Only the records without it add up
 * to the header's samples, root and truncated; those with it, to
 * wait_ns.  A wait's stack comes from the kernel's call chain (frame
 * pointers) and the stack's top: TGSTACKS_ROOT when that chain ended
 * outside the program (in its start code), below its 64 frames
 * (TGSTACKS_TRUNCATED at 64).
 */
#define TGSTACKS_WAIT		0x4u

/*
 * The header's flags (version 3): TGSTACKS_FLAG_WAITS, some thread's
 * waits were recorded; TGSTACKS_FLAG_WAITS_DENIED, the kernel refused
 * the event that records them (kernel.perf_event_paranoid above 1, a
 * seccomp filter); TGSTACKS_FLAG_WAITS_OFF, TGMON_WAITS=0 asked for none.
 */
#define TGSTACKS_FLAG_WAITS		0x1u
#define TGSTACKS_FLAG_WAITS_DENIED	0x2u
#define TGSTACKS_FLAG_WAITS_OFF		0x4u

/*
 * call_ps: the time -pg adds to each call of a profiled function, in the
 * function itself (its frame, and the call to mcount and back), not in
 * the runtime's own functions: libtgmon times a function shaped as -pg
 * makes them (mcount-ARCH.S) against one that only returns, on the
 * machine the program ran on, when it writes the file.  A reader must
 * treat it as a claim: calls x call_ps may exceed a function's time.
 *
 * clock: how the threads' samples were taken, one bit for each way some
 * thread used (0: unknown, version 1).  TGSTACKS_CLOCK_TIMER: a timer on
 * the thread's CPU time (timer_create), which signals at the kernel's
 * tick at most, several samples a signal.  TGSTACKS_CLOCK_PERF: a
 * perf_event task clock (perf_event_open), a signal for every sample at
 * the rate asked.  TGSTACKS_CLOCK_USER, with TGSTACKS_CLOCK_PERF: some
 * of those events counted user time only (kernel.perf_event_paranoid),
 * so that time in the kernel was not sampled.  Other bits: 0.
 */
#define TGSTACKS_CLOCK_TIMER	0x1u
#define TGSTACKS_CLOCK_PERF	0x2u
#define TGSTACKS_CLOCK_USER	0x4u

#endif
