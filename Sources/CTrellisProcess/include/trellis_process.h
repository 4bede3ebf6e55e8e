/* trellis_process.h: the process controls the shell needs that Swift cannot call (prctl is
 * variadic). */
#ifndef TRELLIS_PROCESS_H
#define TRELLIS_PROCESS_H

/** Makes this process not dumpable (PR_SET_DUMPABLE 0): no process of the same user may
 * ptrace it or read its memory through /proc, and it leaves no core dump. 0 on success. */
int trellis_process_forbid_dumps (void);

#endif
