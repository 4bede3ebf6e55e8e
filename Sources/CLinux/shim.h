#ifndef TRELLIS_CLINUX_SHIM_H
#define TRELLIS_CLINUX_SHIM_H
/* Linux interfaces Swift's Glibc module leaves out, all in libc (nothing to link):
 * <sys/pidfd.h> (glibc 2.36), a descriptor that becomes readable when a child process ends, so
 * that the shell learns of a plugin process's end from its event loop instead of a thread
 * blocked in waitpid or a poll; <sys/eventfd.h>, with which a plugin connection's event loop is
 * woken; and prctl, through the wrapper below. */
#include <sys/eventfd.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

/* Makes this process not dumpable (PR_SET_DUMPABLE 0): no process of the same user may ptrace
 * it or read its memory through /proc, and it leaves no core dump. prctl is variadic, which
 * Swift cannot call. 0 on success. */
static inline int trellis_forbid_dumps (void)
{
    return prctl (PR_SET_DUMPABLE, 0, 0, 0, 0);
}
#endif
