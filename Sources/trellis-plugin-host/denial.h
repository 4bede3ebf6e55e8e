/* denial.h: when the kernel refuses what the plugin tried, the plugin's log says which grant
 * of its manifest would allow it.
 *
 * Landlock and seccomp answer a refused call with an error number only (EACCES, EPERM,
 * ENETUNREACH), which tells the plugin's author nothing of the manifest. The plugin host
 * defines the C library's open, openat, fopen, opendir, mkdir, creat, socket, connect, bind, execve,
 * execv and execvp itself: a plugin's library, and every library it links, finds them here
 * first (the executable comes first in the dynamic linker's lookup), each calls the C
 * library's own, and when that fails where the confinement refuses (outside every granted
 * path, port or program) says once, at warning, what to add to plugin.json:
 *
 *   the kernel refused opening /home/ada/.ssh/id_rsa for reading (Permission denied): no
 *   "files" grant covers it; to ask for it, add to plugin.json: "permissions": {"files":
 *   {"/home/ada/.ssh/id_rsa": "read"}}
 *
 * The plugin still gets the error, unchanged (errno too). Calls made by system call directly
 * (syscall (2), inline assembly) are refused all the same, without the explanation; so are
 * those of builds with a sanitizer, whose runtime defines these functions itself.
 */
#ifndef TRELLIS_HOST_DENIAL_H
#define TRELLIS_HOST_DENIAL_H

#include "confine.h"

/** From now on, explains refusals of what `spec` does not grant, in the plugin's log
 * (host_log); `files`, `network`, `exec`: whether the kernel enforces each (Landlock's file
 * rules; no network namespace or TCP rules; seccomp's execve filter or Landlock's execute
 * right). */
void denial_explain (const confine_spec *spec, int files, int network, int exec);

#endif
