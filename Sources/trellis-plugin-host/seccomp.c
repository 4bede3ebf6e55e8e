/* seccomp.c: the system calls no plugin needs, refused with EPERM (Flatpak's and Chrome's
 * filters are the model). A classic BPF program over seccomp_data: the architecture first
 * (a call made through another architecture's numbers ends the process), then one
 * comparison per refused call, then the calls refused only with some arguments. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>

#include "confine.h"

#if defined(__x86_64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_AARCH64
#else
#error "trellis-plugin-host: the seccomp filter knows x86-64 and AArch64"
#endif

/** Refused for every plugin: debugging and reading other processes, kernel keys and BPF,
 * mounts and namespaces, io_uring (which bypasses this filter), user-space page faults,
 * modules, the kernel log, and what only an administrator does. */
static const int refused[] = {
    SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev, SYS_kcmp, SYS_bpf, SYS_perf_event_open,
    SYS_keyctl, SYS_add_key, SYS_request_key, SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot,
    SYS_unshare, SYS_setns, SYS_userfaultfd, SYS_kexec_load, SYS_init_module, SYS_finit_module,
    SYS_delete_module, SYS_acct, SYS_swapon, SYS_swapoff, SYS_reboot, SYS_syslog, SYS_quotactl,
    SYS_open_by_handle_at, SYS_name_to_handle_at, SYS_vhangup,
#ifdef SYS_io_uring_setup
    SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
#endif
#ifdef SYS_kexec_file_load
    SYS_kexec_file_load,
#endif
#ifdef SYS_open_tree
    SYS_open_tree, SYS_move_mount, SYS_fsopen, SYS_fsconfig, SYS_fsmount, SYS_fspick,
#endif
#ifdef SYS_mount_setattr
    SYS_mount_setattr,
#endif
#ifdef SYS_pidfd_getfd
    SYS_pidfd_getfd,
#endif
#ifdef SYS_process_madvise
    SYS_process_madvise,
#endif
#ifdef SYS_quotactl_fd
    SYS_quotactl_fd,
#endif
#ifdef SYS_uselib
    SYS_uselib,
#endif
#ifdef SYS_iopl
    SYS_iopl, SYS_ioperm,
#endif
};

#define LOAD(field) BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, field))
#define LOAD_ARG_LOW(n) BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, args) + 8 * (n))
#define RETURN(value) BPF_STMT (BPF_RET | BPF_K, (value))
#define DENY RETURN (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define ALLOW RETURN (SECCOMP_RET_ALLOW)

int seccomp_apply (const confine_spec *spec)
{
    struct sock_filter program[256];
    int n = 0;
#define EMIT(...) (program[n++] = (struct sock_filter) __VA_ARGS__)
    EMIT (LOAD (arch));
    EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_HERE, 1, 0));
    EMIT (RETURN (SECCOMP_RET_KILL_PROCESS));
    EMIT (LOAD (nr));
#if defined(__x86_64__)
    /* x32 numbers (the same calls under other numbers) are refused whole. */
    EMIT (BPF_JUMP (BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));
    EMIT (DENY);
#endif
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (unsigned) refused[i], 0, 1));
        EMIT (DENY);
    }
    if (spec->exec_count == 0) {
        /* No program is granted: nothing may be executed. */
        EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_execve, 0, 1));
        EMIT (DENY);
        EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 0, 1));
        EMIT (DENY);
    }
    /* clone3 passes its flags in memory a filter cannot read: ENOSYS makes the C library
     * fall back to clone, whose flags are checked below. */
#ifdef SYS_clone3
    EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1));
    EMIT (RETURN (SECCOMP_RET_ERRNO | ENOSYS));
#endif
    /* clone: threads and processes, never new namespaces. */
    EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4));
    EMIT (LOAD_ARG_LOW (0));
    EMIT (BPF_JUMP (BPF_JMP | BPF_JSET | BPF_K,
                    CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP, 0, 1));
    EMIT (DENY);
    EMIT (ALLOW);
    /* ioctl: no typing into the terminal (TIOCSTI) or the console (TIOCLINUX). */
    EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 5));
    EMIT (LOAD_ARG_LOW (1));
    EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 2, 0));
    EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 1, 0));
    EMIT (ALLOW);
    EMIT (DENY);
    /* socket: Internet and netlink sockets with a network grant only; no Unix-domain socket
     * (the X server's, the session bus's) at all. socketpair stays allowed. */
    EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 6));
    if (spec->network) {
        EMIT (LOAD_ARG_LOW (0));
        EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 3, 0));
        EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 2, 0));
        EMIT (BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 1, 0));
    } else {
        for (int pad = 0; pad < 4; pad++) EMIT (BPF_JUMP (BPF_JMP | BPF_JA, 0, 0, 0));
    }
    EMIT (RETURN (SECCOMP_RET_ERRNO | EACCES));
    EMIT (ALLOW);
    EMIT (ALLOW);
#undef EMIT
    struct sock_fprog filter = { .len = (unsigned short) n, .filter = program };
    return prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) == 0;
}
