/* jumphook: jump.c's mmap(), built without -pg: once armed, the next call (libtgmon's) raises SIGUSR1 first. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

volatile sig_atomic_t jump_armed;

/*
 * The program's own mmap(), which libtgmon (linked statically) calls for
 * a thread's table or a chunk of call-site slots: inside its slow path.
 * The C library's own calls do not come here.
 */
void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (jump_armed) {
		jump_armed = 0;
		raise(SIGUSR1);
	}
	return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}
