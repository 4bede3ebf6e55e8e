#ifndef TRELLIS_CLINUX_SHIM_H
#define TRELLIS_CLINUX_SHIM_H
/* Linux interfaces Swift's Glibc module leaves out, all in libc (nothing to link):
 * <sys/pidfd.h> (glibc 2.36), a descriptor that becomes readable when a child process ends, so
 * that the shell learns of a plugin process's end from its event loop instead of a thread
 * blocked in waitpid or a poll. */
#include <sys/pidfd.h>
#include <sys/wait.h>
#endif
