/* confine.h: what a plugin process may do, decided before the plugin's library is opened and
 * enforced by the kernel. Every mechanism is probed, never assumed; what this kernel lacks is
 * said in the report the shell shows (`trellis plugins`, the Plugins page), with the reason.
 *
 * - PR_SET_NO_NEW_PRIVS: nothing the plugin runs gains privileges (set-user-id programs).
 * - New user, PID, IPC and (unless the manifest grants network) network namespaces: the
 *   shell and every other process are invisible; the plugin is process 2 under a tiny init
 *   (process 1), and when the plugin ends, the kernel ends every process it started.
 * - A warden process outside the namespaces (the one the shell started) waits for the plugin
 *   and ends it when the shell ends, however the shell ends (a pidfd; no timer), and ends as
 *   the plugin did (the same exit status or signal), so the shell reports a crash as before.
 * - Landlock (landlock.c): read-only the plugin's folder, its library and the libraries it
 *   links, the system's libraries and a few files of /etc; read-write its data folder and a
 *   private temporary folder; the manifest's "files" grants; nothing else. Where the kernel
 *   has them: TCP connect/bind only to granted ports, and no signal or abstract Unix socket
 *   outside the plugin's own processes.
 * - seccomp (seccomp.c): the system calls no plugin needs fail with EPERM.
 * - RLIMIT_AS: the memory limit counts every mapping, shared ones too.
 */
#ifndef TRELLIS_HOST_CONFINE_H
#define TRELLIS_HOST_CONFINE_H

#include <stdint.h>
#include <stdio.h>

#include "trellis_json.h"

/** The most paths of each kind a confinement takes. */
#define CONFINE_MAXIMUM_PATHS 64

/** What the shell asks for (the "confinement" object of the grants message). */
typedef struct confine_spec {
    const char *read_only[CONFINE_MAXIMUM_PATHS];
    int read_only_count;
    const char *read_write[CONFINE_MAXIMUM_PATHS];
    int read_write_count;
    const char *exec[CONFINE_MAXIMUM_PATHS];
    int exec_count;
    /** Whether network is granted at all; `any`: every host and port. */
    int network;
    int network_any;
    uint16_t connect_ports[CONFINE_MAXIMUM_PATHS];
    int connect_port_count;
    /** Bytes of address space, 0 for no limit. */
    uint64_t memory_limit;
    /** The newest Landlock ABI to use, 0 for the kernel's: a lower one confines as an older
     * kernel would (the shell's tests of what Debian 12's Linux 6.1, ABI 2, enforces). */
    int landlock_abi_limit;
} confine_spec;

/** What this kernel offers (confine_probe) and what was applied. */
typedef struct confine_report {
    int landlock_abi;          /* 0: none */
    const char *landlock_missing;  /* why none, or NULL */
    int landlock_files;
    int landlock_network;      /* TCP rules applied */
    int landlock_scoped;       /* signals and abstract Unix sockets */
    int seccomp;
    int no_new_privs;
    int user_namespace, pid_namespace, ipc_namespace, network_namespace;
    const char *namespace_missing;
    int shell_watch;           /* the warden follows the shell through a pidfd */
    int memory_limit;          /* RLIMIT_AS applied */
    /** Grants this kernel cannot enforce as asked, in words (NULL-terminated). */
    const char *warnings[8];
    int warning_count;
} confine_report;

/** What the kernel offers, probing each mechanism (a child process tries the namespaces). */
void confine_probe (confine_report *report);

/** Prints confine_probe's answer for people (`--probe`); returns the exit status. */
int confine_probe_print (FILE *out);

/**
 * Confines this process as `grants` (the shell's grants message) asks, for the plugin
 * library `library`: forks the warden and the namespaces' init, and returns in the process
 * that will open the plugin, with `report` filled. Returns 0 (after saying why on stderr)
 * only when confinement could not be applied at all and the shell asked for it.
 */
int confine_enter (trellis_json grants, const char *library, confine_report *report);

/** `report` as a JSON object (the `confinement` of the entry message). */
void confine_report_write (const confine_report *report, trellis_json_writer *out);

/* Within confine.c: */
int landlock_probe (void);
/** Applies the Landlock ruleset for `spec` at `abi`; fills the report's landlock fields. */
int landlock_apply (const confine_spec *spec, int abi, confine_report *report, char *error, size_t error_size);
/** Installs the seccomp filter for `spec`; 0 with errno when the kernel refused it. */
int seccomp_apply (const confine_spec *spec);
/** Adds the folders of the libraries `library` links through its RUNPATH, its own folder,
 * and its program interpreter when `interpreter` is not NULL (filled, malloc'd). */
void elf_library_folders (const char *library, confine_spec *spec, char **interpreter);

#endif
