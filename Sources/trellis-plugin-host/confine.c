/* confine.c: the order of confinement (confine.h), the processes around the plugin, and the
 * report of what was applied. */
#define _GNU_SOURCE
#include "confine.h"
#include "denial.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host.h"

/* ---- Probing ---- */

/* Writes `text` to the /proc/self file `name`; 0 on failure. */
static int write_proc (const char *name, const char *text)
{
    int fd = open (name, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t length = (ssize_t) strlen (text);
    int ok = write (fd, text, (size_t) length) == length;
    close (fd);
    return ok;
}

/* Enters new namespaces: a user namespace mapping only this user (when allowed; root may do
 * without), PID and IPC ones, and a network one unless `network`. Fills the report. */
static int enter_namespaces (int network, confine_report *report)
{
    int others = CLONE_NEWPID | CLONE_NEWIPC | (network ? 0 : CLONE_NEWNET);
    uid_t uid = geteuid ();
    gid_t gid = getegid ();
    if (unshare (CLONE_NEWUSER | others) == 0) {
        char map[64];
        snprintf (map, sizeof map, "%u %u 1\n", uid, uid);
        int mapped = write_proc ("/proc/self/uid_map", map);
        write_proc ("/proc/self/setgroups", "deny\n");
        snprintf (map, sizeof map, "%u %u 1\n", gid, gid);
        mapped &= write_proc ("/proc/self/gid_map", map);
        if (!mapped) report->namespace_missing = "the user namespace's id maps could not be written";
        report->user_namespace = 1;
    } else if (unshare (others) != 0) {
        report->namespace_missing = errno == EPERM || errno == ENOSPC || errno == EINVAL
            ? "this kernel does not let unprivileged users create namespaces (kernel.unprivileged_userns_clone, user.max_user_namespaces or an LSM)"
            : "unshare failed";
        return 0;
    } else {
        report->namespace_missing = "a user namespace could not be made (the process is privileged: the others were)";
    }
    report->pid_namespace = report->ipc_namespace = 1;
    report->network_namespace = !network;
    return 1;
}

void confine_probe (confine_report *report)
{
    memset (report, 0, sizeof *report);
    report->landlock_abi = landlock_probe ();
    if (report->landlock_abi == 0)
        report->landlock_missing = errno == EOPNOTSUPP ? "Landlock is built in but not enabled (add landlock to the lsm= boot option)"
                                                       : "this kernel has no Landlock (Linux 5.13 or newer, CONFIG_SECURITY_LANDLOCK)";
    report->landlock_files = report->landlock_abi >= 1;
    report->landlock_network = report->landlock_abi >= 4;
    report->landlock_scoped = report->landlock_abi >= 6;
    report->seccomp = prctl (PR_GET_SECCOMP) >= 0;
    report->no_new_privs = prctl (PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) >= 0;
    report->memory_limit = 1;
#ifdef SYS_pidfd_open
    int self = (int) syscall (SYS_pidfd_open, getpid (), 0);
    report->shell_watch = self >= 0;
    if (self >= 0) close (self);
#endif
    /* Namespaces: tried for real, here, as a plugin's process enters them (before any fork:
     * a process with threads, a sanitizer's among them, cannot enter a user namespace). Only
     * --probe calls this, and it exits right after. */
    confine_report tried = { 0 };
    enter_namespaces (0, &tried);
    report->user_namespace = tried.user_namespace;
    report->pid_namespace = report->ipc_namespace = tried.pid_namespace;
    report->network_namespace = tried.network_namespace;
    report->namespace_missing = tried.namespace_missing;
}

int confine_probe_print (FILE *out)
{
    confine_report report;
    confine_probe (&report);
    trellis_json_writer json;
    trellis_json_writer_init (&json);
    confine_report_write (&report, &json);
    fprintf (out, "%s\n", trellis_json_writer_text (&json) ? trellis_json_writer_text (&json) : "{}");
    trellis_json_writer_free (&json);
    return 0;
}

/* ---- The spec the shell sent ---- */

static const char *dup_string (trellis_json value)
{
    return trellis_json_string_dup (value);
}

static void read_paths (trellis_json object, const char *key, const char **paths, int *count)
{
    trellis_json list, item;
    if (!trellis_json_get (object, key, &list)) return;
    trellis_json_iter iter = trellis_json_iterate (list);
    while (*count < CONFINE_MAXIMUM_PATHS && trellis_json_next (&iter, NULL, &item)) {
        const char *path = dup_string (item);
        if (path && path[0] == '/') paths[(*count)++] = path;
    }
}

static void read_spec (trellis_json grants, confine_spec *spec)
{
    memset (spec, 0, sizeof *spec);
    trellis_json value, confinement, network, item;
    int64_t number;
    if (trellis_json_get (grants, "memoryLimit", &value) && trellis_json_int (value, &number) && number > 0)
        spec->memory_limit = (uint64_t) number;
    if (!trellis_json_get (grants, "confinement", &confinement)) return;
    read_paths (confinement, "readOnly", spec->read_only, &spec->read_only_count);
    read_paths (confinement, "readWrite", spec->read_write, &spec->read_write_count);
    read_paths (confinement, "exec", spec->exec, &spec->exec_count);
    if (trellis_json_get (confinement, "network", &network) && trellis_json_type_of (network) == TRELLIS_JSON_OBJECT) {
        spec->network = 1;
        spec->network_any = trellis_json_get (network, "any", &value) && trellis_json_is_true (value);
        if (trellis_json_get (network, "connectPorts", &value)) {
            trellis_json_iter iter = trellis_json_iterate (value);
            while (spec->connect_port_count < CONFINE_MAXIMUM_PATHS && trellis_json_next (&iter, NULL, &item))
                if (trellis_json_int (item, &number) && number > 0 && number < 65536)
                    spec->connect_ports[spec->connect_port_count++] = (uint16_t) number;
        }
    }
}

/* ---- The processes: warden (outside), init (process 1), plugin (process 2) ---- */

static pid_t pidfd_wait_open (pid_t pid)
{
#ifdef SYS_pidfd_open
    return (pid_t) syscall (SYS_pidfd_open, pid, 0);
#else
    (void) pid;
    errno = ENOSYS;
    return -1;
#endif
}

/* Ends this process as `status` (a wait status) says its child ended: the same exit code, or
 * the same signal, so that the shell reports the plugin's end as it happened. */
_Noreturn static void end_as (int status)
{
    if (WIFSIGNALED (status)) {
        int signal_number = WTERMSIG (status);
        struct rlimit none = { 0, 0 };
        setrlimit (RLIMIT_CORE, &none);  /* the plugin's crash was its own; no second core */
        signal (signal_number, SIG_DFL);
        sigset_t set;
        sigemptyset (&set);
        sigaddset (&set, signal_number);
        sigprocmask (SIG_UNBLOCK, &set, NULL);
        raise (signal_number);
        _exit (128 + signal_number);
    }
    _exit (WIFEXITED (status) ? WEXITSTATUS (status) : 1);
}

/* The warden: waits for `child` and for the shell (`shell_fd`, a pidfd, or -1), whichever
 * ends first. The plugin's status comes from `status_fd` when init reports it, else from
 * the child's own end. Never returns. */
_Noreturn static void warden (pid_t child, int shell_fd, int status_fd)
{
    int child_fd = pidfd_wait_open (child);
    struct pollfd watched[2] = { { .fd = child_fd, .events = POLLIN }, { .fd = shell_fd, .events = POLLIN } };
    if (child_fd >= 0) {
        while (poll (watched, shell_fd >= 0 ? 2 : 1, -1) < 0 && errno == EINTR) {}
        if (shell_fd >= 0 && (watched[1].revents & (POLLIN | POLLHUP)) && !(watched[0].revents & POLLIN)) {
            /* The shell is gone: so is the plugin, with everything it started. */
            kill (child, SIGKILL);
        }
    }
    int status = 0;
    while (waitpid (child, &status, 0) < 0 && errno == EINTR) {}
    int reported;
    if (status_fd >= 0 && read (status_fd, &reported, sizeof reported) == sizeof reported) status = reported;
    end_as (status);
}

/* Process 1 of the plugin's PID namespace: starts the plugin as process 2, reaps whatever
 * else ends, and when the plugin ends tells the warden how, then exits (and the kernel ends
 * every process left in the namespace). A signal cannot end process 1 of a namespace from
 * inside, so the plugin must not be it: its own abort() would not end it. Never returns. */
_Noreturn static void init_process (pid_t plugin, int status_fd)
{
    for (;;) {
        int status;
        pid_t ended = waitpid (-1, &status, 0);
        if (ended < 0 && errno == EINTR) continue;
        if (ended == plugin || ended < 0) {
            (void) !write (status_fd, &status, sizeof status);
            _exit (0);
        }
    }
}

/* In a new child: dies with its parent (PR_SET_PDEATHSIG), and exits at once if the parent
 * is gone already (the read end of `alive` then has no writer). */
static void follow_parent (int alive)
{
    prctl (PR_SET_PDEATHSIG, SIGKILL);
    struct pollfd check = { .fd = alive, .events = POLLIN };
    if (poll (&check, 1, 0) > 0 && (check.revents & POLLHUP)) _exit (3);
}

/* The shell: the parent that started this process, named by the shell in
 * TRELLIS_SHELL_PID, so that a shell gone before the check is noticed (the parent is then
 * another process). A pidfd that becomes readable when the shell ends, or -1. */
static int open_shell (void)
{
    const char *named = getenv ("TRELLIS_SHELL_PID");
    pid_t shell = getppid ();
    int fd = pidfd_wait_open (shell);
    if (named && atoi (named) != shell) {
        fprintf (stderr, "trellis-plugin-host: the shell (pid %s) is gone; ending\n", named);
        _exit (3);
    }
    return fd;
}

/* True in a process carrying a sanitizer's runtime, whose shadow memory an address-space
 * limit would count, and which reads /proc and maps memory as it likes. */
static int under_sanitizer (void)
{
    return dlsym (RTLD_DEFAULT, "__tsan_init") != NULL || dlsym (RTLD_DEFAULT, "__asan_init") != NULL;
}

static void warn (confine_report *report, const char *text)
{
    if (report->warning_count < (int) (sizeof report->warnings / sizeof *report->warnings))
        report->warnings[report->warning_count++] = text;
}

int confine_enter (trellis_json grants, const char *library, confine_report *report)
{
    confine_spec spec;
    read_spec (grants, &spec);
    memset (report, 0, sizeof *report);
    int shell_fd = open_shell ();
    report->shell_watch = shell_fd >= 0;

    /* The warden stays outside; everything after the fork is inside the new namespaces. */
    int namespaced = enter_namespaces (spec.network, report);
    int alive[2], status[2];
    if (pipe2 (alive, O_CLOEXEC) != 0 || pipe2 (status, O_CLOEXEC) != 0) return 1;
    pid_t child = fork ();
    if (child < 0) {
        fprintf (stderr, "trellis-plugin-host: fork: %s\n", strerror (errno));
        return 0;
    }
    if (child > 0) {
        close (HOST_SOCKET);
        close (alive[0]);
        close (status[1]);
        warden (child, shell_fd, namespaced ? status[0] : -1);
    }
    if (shell_fd >= 0) close (shell_fd);
    close (status[0]);
    close (alive[1]);
    follow_parent (alive[0]);
    close (alive[0]);
    /* A session of its own: kill (0, …) and the terminal's signals reach the plugin's own
     * processes only, never the shell's process group. */
    setsid ();
    if (namespaced) {
        /* This is process 1; the plugin runs as process 2. */
        int plugin_alive[2];
        if (pipe2 (plugin_alive, O_CLOEXEC) != 0) _exit (3);
        pid_t plugin = fork ();
        if (plugin < 0) _exit (3);
        if (plugin > 0) {
            close (HOST_SOCKET);
            close (plugin_alive[0]);
            init_process (plugin, status[1]);
        }
        close (plugin_alive[1]);
        follow_parent (plugin_alive[0]);
        close (plugin_alive[0]);
    }
    close (status[1]);

    /* From here on, the process that opens the plugin. */
    int sanitized = under_sanitizer ();
    if (spec.memory_limit > 0 && !sanitized) {
        struct rlimit limit = { spec.memory_limit, spec.memory_limit };
        report->memory_limit = setrlimit (RLIMIT_AS, &limit) == 0;
    }
    report->no_new_privs = prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;

    elf_library_folders (library, &spec, NULL);
    /* A granted program needs the libraries it links and its dynamic loader, run too. */
    for (int i = 0, granted = spec.exec_count; i < granted; i++) {
        char *interpreter = NULL;
        elf_library_folders (spec.exec[i], &spec, &interpreter);
        if (interpreter && spec.exec_count < CONFINE_MAXIMUM_PATHS) spec.exec[spec.exec_count++] = interpreter;
    }
    report->landlock_abi = landlock_probe ();
    char error[256];
    if (report->landlock_abi == 0) {
        report->landlock_missing = errno == EOPNOTSUPP ? "Landlock is built in but not enabled (add landlock to the lsm= boot option)"
                                                       : "this kernel has no Landlock (Linux 5.13 or newer)";
    } else if (!landlock_apply (&spec, report->landlock_abi, report, error, sizeof error)) {
        report->landlock_missing = strdup (error);
        fprintf (stderr, "trellis-plugin-host: Landlock: %s\n", error);
    }
    if (spec.network && !spec.network_any && spec.connect_port_count > 0)
        warn (report, report->landlock_network ? "network: the ports granted are enforced, not the hosts (Landlock's rules are by port)"
                                               : "network: granted ports cannot be enforced on this kernel (Landlock ABI 4 needed): every host and port is reachable");
    report->seccomp = seccomp_apply (&spec);
    if (!report->seccomp) fprintf (stderr, "trellis-plugin-host: seccomp: %s\n", strerror (errno));
    denial_explain (&spec, report->landlock_files, spec.network ? report->landlock_network : report->network_namespace,
                    report->seccomp || report->landlock_files);
    return 1;
}

/* ---- The report ---- */

void confine_report_write (const confine_report *report, trellis_json_writer *out)
{
    trellis_json_begin_object (out);
    trellis_json_key (out, "landlock");
    trellis_json_int_value (out, report->landlock_abi);
    trellis_json_key (out, "landlockFiles");
    trellis_json_bool (out, report->landlock_files);
    trellis_json_key (out, "landlockNetwork");
    trellis_json_bool (out, report->landlock_network);
    trellis_json_key (out, "landlockScoped");
    trellis_json_bool (out, report->landlock_scoped);
    trellis_json_key (out, "landlockMissing");
    trellis_json_string_value (out, report->landlock_missing);
    trellis_json_key (out, "seccomp");
    trellis_json_bool (out, report->seccomp);
    trellis_json_key (out, "noNewPrivileges");
    trellis_json_bool (out, report->no_new_privs);
    trellis_json_key (out, "userNamespace");
    trellis_json_bool (out, report->user_namespace);
    trellis_json_key (out, "pidNamespace");
    trellis_json_bool (out, report->pid_namespace);
    trellis_json_key (out, "ipcNamespace");
    trellis_json_bool (out, report->ipc_namespace);
    trellis_json_key (out, "networkNamespace");
    trellis_json_bool (out, report->network_namespace);
    trellis_json_key (out, "namespaceMissing");
    trellis_json_string_value (out, report->namespace_missing);
    trellis_json_key (out, "shellWatch");
    trellis_json_bool (out, report->shell_watch);
    trellis_json_key (out, "memoryLimit");
    trellis_json_bool (out, report->memory_limit);
    trellis_json_key (out, "warnings");
    trellis_json_begin_array (out);
    for (int i = 0; i < report->warning_count; i++) trellis_json_string_value (out, report->warnings[i]);
    trellis_json_end_array (out);
    trellis_json_end_object (out);
}
