/* landlock.c: the plugin's file-system and network rules (the kernel's
 * Documentation/userspace-api/landlock.rst and samples/landlock/sandboxer.c are the model).
 * The system's <linux/landlock.h> may be older than the kernel (Debian 12's describes ABI 2):
 * the later constants and fields are defined here, with the ABI version that brought them,
 * and a right is asked for only when the running kernel's ABI has it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine.h"

#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)  /* ABI 5 */
#endif
#define NET_BIND_TCP (1ULL << 0)                     /* ABI 4 */
#define NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)       /* ABI 6 */
#define SCOPE_SIGNAL (1ULL << 1)
#define RULE_NET_PORT 2

/* struct landlock_ruleset_attr as of ABI 6; the kernel reads what it knows of it and wants
 * the rest zero. */
struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct net_port_attr {
    uint64_t allowed_access;
    uint64_t port;
};

#define FS_FILE (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE \
                 | LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define FS_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define FS_WRITE (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE \
                  | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK \
                  | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER \
                  | LANDLOCK_ACCESS_FS_TRUNCATE)

/** Read-only places every plugin needs: the system's libraries and data, and files of /etc
 * that hold no secret (the dynamic loader's cache, time zone, name service, certificates). */
static const char *const system_read_only[] = {
    "/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/localtime", "/etc/timezone",
    "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/host.conf", "/etc/resolv.conf",
    "/etc/gai.conf", "/etc/services", "/etc/protocols", "/etc/ssl/certs", "/etc/ssl/openssl.cnf",
    "/etc/ca-certificates", "/sys/devices/system/cpu", "/proc/self", "/dev/urandom", "/dev/random",
};
/** Devices a plugin may write: what is written there goes nowhere. */
static const char *const system_read_write[] = { "/dev/null", "/dev/zero", "/dev/full" };

int landlock_probe (void)
{
    long abi = syscall (SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int) abi;
}

/* The file-system rights the kernel of ABI `abi` knows. */
static uint64_t fs_rights (int abi)
{
    uint64_t rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  /* ABI 1: bits 0 to 12 */
    if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5) rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return rights;
}

/* Allows `rights` beneath `path` (fewer on a file, which has no directory rights); a path that
 * does not exist is skipped. Returns 0 only when the kernel refused a rule. */
static int allow_path (int ruleset, const char *path, uint64_t rights, uint64_t handled)
{
    int fd = open (path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 1;
    struct stat info;
    if (fstat (fd, &info) == 0 && !S_ISDIR (info.st_mode)) rights &= FS_FILE;
    struct landlock_path_beneath_attr rule = { .allowed_access = rights & handled, .parent_fd = fd };
    int ok = rule.allowed_access == 0 || syscall (SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) == 0;
    close (fd);
    return ok;
}

int landlock_apply (const confine_spec *spec, int abi, confine_report *report, char *error, size_t error_size)
{
    struct ruleset_attr attr = { .handled_access_fs = fs_rights (abi) };
    int tcp = abi >= 4 && !spec->network_any;
    if (tcp) attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
    if (abi >= 6) attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
    int ruleset = (int) syscall (SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) return snprintf (error, error_size, "landlock_create_ruleset: %s", strerror (errno)), 0;
    uint64_t handled = attr.handled_access_fs;
    int ok = 1;
    for (size_t i = 0; i < sizeof system_read_only / sizeof *system_read_only; i++)
        ok &= allow_path (ruleset, system_read_only[i], FS_READ, handled);
    for (size_t i = 0; i < sizeof system_read_write / sizeof *system_read_write; i++)
        ok &= allow_path (ruleset, system_read_write[i], FS_READ | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE, handled);
    for (int i = 0; i < spec->read_only_count; i++) ok &= allow_path (ruleset, spec->read_only[i], FS_READ, handled);
    for (int i = 0; i < spec->read_write_count; i++) ok &= allow_path (ruleset, spec->read_write[i], FS_READ | FS_WRITE, handled);
    /* A granted program, and the interpreter that runs it, may be executed. */
    for (int i = 0; i < spec->exec_count; i++)
        ok &= allow_path (ruleset, spec->exec[i], LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE, handled);
    for (int i = 0; tcp && i < spec->connect_port_count; i++) {
        struct net_port_attr port = { .allowed_access = NET_CONNECT_TCP, .port = spec->connect_ports[i] };
        ok &= syscall (SYS_landlock_add_rule, ruleset, RULE_NET_PORT, &port, 0) == 0;
    }
    if (!ok) {
        snprintf (error, error_size, "landlock_add_rule: %s", strerror (errno));
        close (ruleset);
        return 0;
    }
    if (syscall (SYS_landlock_restrict_self, ruleset, 0) != 0) {
        snprintf (error, error_size, "landlock_restrict_self: %s", strerror (errno));
        close (ruleset);
        return 0;
    }
    close (ruleset);
    report->landlock_files = 1;
    report->landlock_network = tcp;
    report->landlock_scoped = abi >= 6;
    return 1;
}
