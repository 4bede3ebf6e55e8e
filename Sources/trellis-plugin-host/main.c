/* trellis-plugin-host LIBRARY PLUGIN-ID: runs one plugin in a process of its own, for the
 * shell that started it with a socket on file descriptor 3 (host.h says what they tell each
 * other). First it reads the plugin's grants, then confines itself (confine.h: namespaces,
 * Landlock, seccomp, limits) and only then opens the plugin's library. No GTK, no store, no
 * Swift runtime: a plugin that crashes or hangs here takes only this process down.
 *
 * trellis-plugin-host --probe: says what this kernel offers to confine plugins, loading none.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine.h"
#include "gate.h"
#include "host.h"
#include "text.h"
#include "trellis_json.h"

/* Descriptors the shell had open without CLOEXEC are not the plugin's: a server's listening
 * socket kept open here would go on accepting connections nobody answers. */
static void close_inherited (void)
{
#ifdef SYS_close_range
    if (syscall (SYS_close_range, HOST_SOCKET + 1, ~0U, 0) == 0) return;
#endif
    DIR *folder = opendir ("/proc/self/fd");
    if (!folder) return;
    int mine = dirfd (folder);
    for (struct dirent *entry; (entry = readdir (folder));) {
        int fd = atoi (entry->d_name);
        if (fd > HOST_SOCKET && fd != mine) close (fd);
    }
    closedir (folder);
}

static void log_warning (const char *text)
{
    host_log (TRELLIS_LOG_WARNING, text);
}

/* Tells the shell that the library could not be opened (PluginFailure.wireValue's shapes). */
static void send_failure (const char *kind, const char *path, const char *detail_key, const char *detail, const char *text)
{
    trellis_json_writer out;
    trellis_json_writer_init (&out);
    trellis_json_begin_object (&out);
    trellis_json_key (&out, "failure");
    trellis_json_begin_object (&out);
    trellis_json_key (&out, kind);
    trellis_json_begin_object (&out);
    trellis_json_key (&out, "path");
    trellis_json_string_value (&out, path);
    trellis_json_key (&out, detail_key);
    trellis_json_string_value (&out, detail);
    trellis_json_end_object (&out);
    trellis_json_key (&out, "text");
    trellis_json_string_value (&out, text);
    trellis_json_end_object (&out);
    trellis_json_end_object (&out);
    wire_send_text (HOST_SOCKET, WIRE_ENTRY, 0, NULL, trellis_json_writer_text (&out));
    trellis_json_writer_free (&out);
}

/* Opens the library and runs the plugin's entry; tells the shell what it returned. 0 when
 * the library could not be opened (the shell was told why). */
static int enter (const char *library, const confine_report *report)
{
    void *handle = dlopen (library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *error = dlerror ();
        text_buffer text;
        text_init (&text);
        text_printf (&text, "%s: cannot load the library: %s", library, error ? error : "unknown dlopen error");
        send_failure ("libraryUnloadable", library, "reason", error ? error : "unknown dlopen error", text.data);
        text_free (&text);
        return 0;
    }
    dlerror ();
    /* The handle is never closed: a Swift image cannot be unloaded. */
    trellis_plugin_entry_fn entry = (trellis_plugin_entry_fn) dlsym (handle, TRELLIS_PLUGIN_ENTRY_SYMBOL);
    if (!entry) {
        text_buffer text;
        text_init (&text);
        text_printf (&text, "%s: entry symbol %s not found", library, TRELLIS_PLUGIN_ENTRY_SYMBOL);
        send_failure ("entryMissing", library, "symbol", TRELLIS_PLUGIN_ENTRY_SYMBOL, text.data);
        text_free (&text);
        return 0;
    }
    const trellis_plugin_info *info = entry (host_table ());
    host_entry_returned ();
    trellis_json_writer out;
    trellis_json_writer_init (&out);
    trellis_json_begin_object (&out);
    if (info) {
        trellis_json_key (&out, "info");
        trellis_json_begin_object (&out);
        trellis_json_key (&out, "abiVersion");
        trellis_json_int_value (&out, info->abi_version);
        trellis_json_key (&out, "size");
        trellis_json_int_value (&out, info->struct_size);
        trellis_json_key (&out, "refusal");
        trellis_json_string_value (&out, info->struct_size >= sizeof *info ? info->refusal : NULL);
        trellis_json_end_object (&out);
    }
    trellis_json_key (&out, "confinement");
    confine_report_write (report, &out);
    trellis_json_end_object (&out);
    wire_send_text (HOST_SOCKET, WIRE_ENTRY, 0, NULL, trellis_json_writer_text (&out));
    trellis_json_writer_free (&out);
    return 1;
}

/* What the plugin's thread serves. */
struct served {
    const char *library;
    const confine_report *report;
    wire_reader *reader;
};

/* Opens the plugin and serves the shell's messages until the shell closes the socket: the
 * plugin's thread (see main). Its result is the process's exit status. */
static void *serve (void *argument)
{
    const struct served *served = argument;
    if (!enter (served->library, served->report)) return (void *) 1;
    wire_message message;
    char buffer[256];
    const char *reason = NULL;
    for (;;) {
        wire_status status = wire_read (served->reader, &message, buffer, sizeof buffer, &reason);
        if (status == WIRE_END) return (void *) 0;
        if (status == WIRE_MALFORMED) {
            fprintf (stderr, "trellis-plugin-host: the shell sent a malformed message: %s\n", reason);
            return (void *) 1;
        }
        host_serve (&message);
        wire_message_free (&message);
    }
}

/* SIGPIPE's handler: nothing to do (the write that raised it fails with EPIPE). */
static void on_broken_pipe (int number)
{
    (void) number;
}

int main (int argc, char **argv)
{
    /* Caught, not ignored: a write to a closed pipe or socket fails with EPIPE instead of
     * ending the plugin, and a program the plugin runs starts with SIGPIPE at its default, as
     * exec resets a caught signal (an ignored one would stay ignored, and `yes | head` in a
     * script the plugin runs would print "Broken pipe" errors instead of ending quietly). */
    struct sigaction broken_pipe = { .sa_handler = on_broken_pipe, .sa_flags = SA_RESTART };
    sigemptyset (&broken_pipe.sa_mask);
    sigaction (SIGPIPE, &broken_pipe, NULL);
    if (argc == 2 && strcmp (argv[1], "--probe") == 0) return confine_probe_print (stdout);
    close_inherited ();
    if (argc != 3 || fcntl (HOST_SOCKET, F_GETFD) == -1) {
        fprintf (stderr, "usage: trellis-plugin-host LIBRARY PLUGIN-ID, started by the Trellis shell with its socket on fd 3\n"
                         "       trellis-plugin-host --probe   (what this kernel offers to confine plugins)\n");
        return 2;
    }
    const char *library = argv[1], *plugin_id = argv[2];
    /* The shell's first message: the plugin's grants, read before any plugin code runs. */
    static wire_reader reader;
    wire_reader_init (&reader, HOST_SOCKET);
    wire_message message;
    char buffer[256];
    const char *reason = "the first message was not \"grants\"";
    trellis_json grants;
    trellis_json_error error;
    wire_status status = wire_read (&reader, &message, buffer, sizeof buffer, &reason);
    if (status != WIRE_MESSAGE || message.op != WIRE_GRANTS
        || !trellis_json_parse (message.json, message.json_length, &grants, &error)
        || trellis_json_type_of (grants) != TRELLIS_JSON_OBJECT
        || !gate_init (plugin_id, grants, log_warning, buffer, sizeof buffer)) {
        if (status == WIRE_MESSAGE && message.op == WIRE_GRANTS) reason = buffer;
        fprintf (stderr, "trellis-plugin-host: the shell sent no valid grants: %s\n", reason);
        return 2;
    }
    static const char empty[] = "{}";
    trellis_json settings = { empty, empty + 2 }, value;
    if (trellis_json_get (grants, "settings", &value) && trellis_json_type_of (value) == TRELLIS_JSON_OBJECT) settings = value;
    host_init (plugin_id, settings.start, (size_t) (settings.end - settings.start));
    trellis_json limits, limit;
    if (trellis_json_get (grants, "limits", &limits) && trellis_json_type_of (limits) == TRELLIS_JSON_OBJECT) {
        int64_t name_bytes = 0, watches = 0;
        if (trellis_json_get (limits, "nameBytes", &limit)) trellis_json_int (limit, &name_bytes);
        if (trellis_json_get (limits, "watches", &limit)) trellis_json_int (limit, &watches);
        host_set_limits (name_bytes > 0 ? (size_t) name_bytes : 0, watches > 0 ? (size_t) watches : 0);
    }

    static confine_report report;
    if (!confine_enter (grants, library, &report)) return 3;

    /* The plugin runs on a thread made here, after confine_enter's forks, never on this one.
     * The Swift runtime keeps each thread's id in the thread's own storage from the first time
     * the thread takes one of its locks, and its locks are owned by thread id (futex PI). Where
     * the runtime was loaded before the forks (debug builds link it), this thread may keep the
     * id it had before them, another process's (in the new PID namespace, no thread's at all):
     * then the first lock two threads want at once is never given back (the location plugin's
     * main and timer threads both waited in swift_once for ever). A new thread's id is its own. */
    static struct served served;
    served = (struct served) { library, &report, &reader };
    pthread_t thread;
    int failed = pthread_create (&thread, NULL, serve, &served);
    if (failed) {
        fprintf (stderr, "trellis-plugin-host: cannot start the plugin's thread: %s\n", strerror (failed));
        return 1;
    }
    void *result = NULL;
    pthread_join (thread, &result);
    return (int) (intptr_t) result;
}
