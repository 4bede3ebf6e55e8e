import Foundation
import TrellisPlugins
import TrellisCore

/// A plugin written to do harm, in C from the plugin header and trellis_json.h alone, as an
/// attacker would write it: on `<id>:attack` with `{"attack": NAME, …}` it tries that attack
/// and answers `<id>:result` with `{"attack": NAME, "ok": true|false, "errno": N, "text": …}`
/// (`ok`: the attack did what it meant to). Arguments: `path` (a file), `pid` (the shell's),
/// `port` (a loopback TCP port), `program`, `variable`, `bytes`. Three queries are no attack:
/// `signals` answers the signals its process has blocked, `ignored` those it ignores, and
/// `brokenpipe` whether a write to a pipe nobody reads fails with EPIPE.
enum AttackPlugin {
    static let source = #"""
        #define _GNU_SOURCE
        #include <errno.h>
        #include <fcntl.h>
        #include <signal.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/mman.h>
        #include <sys/ptrace.h>
        #include <sys/socket.h>
        #include <sys/un.h>
        #include <sys/wait.h>
        #include <netinet/in.h>
        #include <arpa/inet.h>
        #include <unistd.h>
        #include "trellis_plugin.h"
        #include "trellis_json.h"

        extern char **environ;
        static const trellis_host_api *api;
        static char id[64];

        static void answer (const char *attack, int ok, int error, const char *text)
        {
            trellis_json_writer out;
            trellis_json_writer_init (&out);
            trellis_json_begin_object (&out);
            trellis_json_key (&out, "attack"); trellis_json_string_value (&out, attack);
            trellis_json_key (&out, "ok"); trellis_json_bool (&out, ok);
            trellis_json_key (&out, "errno"); trellis_json_int_value (&out, ok ? 0 : error);
            trellis_json_key (&out, "text"); trellis_json_string_value (&out, text ? text : "");
            trellis_json_end_object (&out);
            char message[96];
            snprintf (message, sizeof message, "%s:result", id);
            api->trigger (api->context, message, trellis_json_writer_text (&out));
            trellis_json_writer_free (&out);
        }

        /* Whether signal `number` is blocked in this thread, or ignored in this process. */
        static int is_blocked (int number)
        {
            sigset_t blocked;
            sigprocmask (SIG_BLOCK, NULL, &blocked);
            return sigismember (&blocked, number) == 1;
        }

        static int is_ignored (int number)
        {
            struct sigaction current;
            return sigaction (number, NULL, &current) == 0 && current.sa_handler == SIG_IGN;
        }

        /* The signals for which `included` holds, by number ("" for none), into `text`. */
        static void list_signals (char *text, size_t size, int (*included) (int))
        {
            size_t used = 0;
            text[0] = 0;
            for (int number = 1; number < 65 && used + 8 < size; number++)
                if (included (number)) used += (size_t) snprintf (text + used, size - used, used ? " %d" : "%d", number);
        }

        static void attack (void *user_data, const char *message, const char *data_json)
        {
            (void) user_data; (void) message;
            trellis_json data, value;
            if (!trellis_json_parse (data_json, strlen (data_json), &data, NULL)) return;
            char name[64] = "", path[1024] = "", program[1024] = "", variable[128] = "";
            int64_t pid = 0, port = 0, bytes = 0;
            if (trellis_json_get (data, "attack", &value)) trellis_json_string (value, name, sizeof name);
            if (trellis_json_get (data, "path", &value)) trellis_json_string (value, path, sizeof path);
            if (trellis_json_get (data, "program", &value)) trellis_json_string (value, program, sizeof program);
            if (trellis_json_get (data, "variable", &value)) trellis_json_string (value, variable, sizeof variable);
            if (trellis_json_get (data, "pid", &value)) trellis_json_int (value, &pid);
            if (trellis_json_get (data, "port", &value)) trellis_json_int (value, &port);
            if (trellis_json_get (data, "bytes", &value)) trellis_json_int (value, &bytes);
            char text[4096] = "";
            if (strcmp (name, "read") == 0) {
                int fd = open (path, O_RDONLY);
                ssize_t got = fd >= 0 ? read (fd, text, sizeof text - 1) : -1;
                int error = errno;
                if (fd >= 0) close (fd);
                if (got >= 0) text[got] = 0;
                answer (name, got >= 0, error, text);
            } else if (strcmp (name, "write") == 0) {
                int fd = open (path, O_WRONLY);
                int ok = fd >= 0 && write (fd, "overwritten by a plugin", 23) == 23;
                int error = errno;
                if (fd >= 0) close (fd);
                answer (name, ok, error, NULL);
            } else if (strcmp (name, "connect") == 0 || strcmp (name, "listen") == 0) {
                int fd = socket (AF_INET, SOCK_STREAM, 0);
                struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons ((uint16_t) port) };
                address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
                int ok = fd >= 0 && (strcmp (name, "connect") == 0
                    ? connect (fd, (struct sockaddr *) &address, sizeof address) == 0 && write (fd, "hello", 5) == 5
                    : bind (fd, (struct sockaddr *) &address, sizeof address) == 0 && listen (fd, 1) == 0);
                int error = errno;
                if (fd >= 0) close (fd);
                answer (name, ok, error, NULL);
            } else if (strcmp (name, "unix") == 0) {
                int fd = socket (AF_UNIX, SOCK_STREAM, 0);
                struct sockaddr_un address = { .sun_family = AF_UNIX };
                strncpy (address.sun_path, path, sizeof address.sun_path - 1);
                int ok = fd >= 0 && connect (fd, (struct sockaddr *) &address, sizeof address) == 0;
                int error = errno;
                if (fd >= 0) close (fd);
                answer (name, ok, error, NULL);
            } else if (strcmp (name, "kill") == 0 || strcmp (name, "stop") == 0) {
                int ok = kill ((pid_t) pid, strcmp (name, "kill") == 0 ? SIGKILL : SIGSTOP) == 0;
                answer (name, ok, errno, NULL);
            } else if (strcmp (name, "ptrace") == 0) {
                int ok = ptrace (PTRACE_SEIZE, (pid_t) pid, 0, 0) == 0;
                answer (name, ok, errno, NULL);
            } else if (strcmp (name, "memory") == 0) {
                char file[64];
                snprintf (file, sizeof file, "/proc/%d/mem", (int) pid);
                int fd = open (file, O_RDONLY);
                int error = errno;
                ssize_t got = -1;
                if (fd >= 0) {
                    char buffer[64];
                    /* Somewhere mapped in any x86-64 or AArch64 process: its own stack's page. */
                    got = pread (fd, buffer, sizeof buffer, (off_t) (uintptr_t) &fd & ~(off_t) 4095);
                    error = errno;
                    close (fd);
                }
                answer (name, got > 0, error, NULL);
            } else if (strcmp (name, "exec") == 0) {
                pid_t child = fork ();
                if (child == 0) {
                    char *arguments[] = { program, "-c", "exit 0", NULL };
                    execve (program, arguments, environ);
                    _exit (100 + errno);
                }
                int status = 0;
                waitpid (child, &status, 0);
                int code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
                answer (name, code == 0, code >= 100 ? code - 100 : 0, NULL);
            } else if (strcmp (name, "orphan") == 0) {
                /* A grandchild in a session of its own, which the plugin's end should not end. */
                pid_t child = fork ();
                if (child == 0) {
                    if (fork () == 0) {
                        setsid ();
                        for (;;) pause ();
                    }
                    _exit (0);
                }
                waitpid (child, NULL, 0);
                answer (name, 1, 0, NULL);
            } else if (strcmp (name, "map") == 0) {
                void *memory = mmap (NULL, (size_t) bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
                int error = errno;
                int ok = memory != MAP_FAILED;
                if (ok) {
                    for (int64_t at = 0; at < bytes; at += 1 << 20) ((volatile char *) memory)[at] = 1;
                    munmap (memory, (size_t) bytes);
                }
                answer (name, ok, error, NULL);
            } else if (strcmp (name, "environment") == 0) {
                trellis_json_writer out;
                trellis_json_writer_init (&out);
                trellis_json_begin_array (&out);
                for (char **entry = environ; *entry; entry++) trellis_json_string_value (&out, *entry);
                trellis_json_end_array (&out);
                answer (name, 1, 0, trellis_json_writer_text (&out));
                trellis_json_writer_free (&out);
            } else if (strcmp (name, "signals") == 0) {
                /* Not an attack: which signals this process has blocked. */
                list_signals (text, sizeof text, is_blocked);
                answer (name, 1, 0, text);
            } else if (strcmp (name, "ignored") == 0) {
                /* Not an attack: which signals this process ignores (a program it runs starts
                 * with these ignored too). */
                list_signals (text, sizeof text, is_ignored);
                answer (name, 1, 0, text);
            } else if (strcmp (name, "brokenpipe") == 0) {
                /* Not an attack: a write to a pipe nobody reads; ok if it fails with EPIPE and
                 * the process lives on to answer. */
                int ends[2];
                if (pipe (ends) != 0) { answer (name, 0, errno, "pipe"); return; }
                close (ends[0]);
                ssize_t written = write (ends[1], "x", 1);
                int error = errno;
                close (ends[1]);
                answer (name, written < 0 && error == EPIPE, written < 0 ? error : 0, "");
            } else if (strcmp (name, "name") == 0) {
                char *huge = malloc ((size_t) bytes + 1);
                memset (huge, 'x', (size_t) bytes);
                huge[bytes] = 0;
                int32_t status = api->trigger (api->context, huge, NULL);
                free (huge);
                snprintf (text, sizeof text, "%d", status);
                answer (name, status == TRELLIS_OK, 0, text);
            } else {
                answer (name, 0, 0, "unknown attack");
            }
        }

        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };

        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host)
        {
            api = host;
            snprintf (id, sizeof id, "%s", PLUGIN_ID);
            char pattern[96];
            snprintf (pattern, sizeof pattern, "%s:attack", id);
            host->watch (host->context, pattern, attack, NULL, NULL);
            return &info;
        }
        """#
}

extension PluginSandbox {
    /// Installs attacking plugin `id` with `permissions` (the manifest's, JSON text) into the
    /// search path's `folder` (this sandbox's root by default).
    @discardableResult
    func installAttacker(_ id: String, permissions: String = "{}", in folder: URL? = nil) throws -> URL {
        let target = (folder ?? root).appendingPathComponent(id)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("""
            {"id": "\(id)", "name": "Attacker \(id)", "version": "1.0", "abiVersion": 2, "library": "lib\(id).so",
             "permissions": \(permissions)}
            """.utf8).write(to: target.appendingPathComponent("plugin.json"))
        try CCompiler.build(AttackPlugin.source, definitions: ["-DPLUGIN_ID=\"\(id)\"", "-Wall", "-Werror"],
                            to: target.appendingPathComponent("lib\(id).so"))
        return target
    }
}
