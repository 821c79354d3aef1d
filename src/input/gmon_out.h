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

#endif
