/* denial.c: the C library's file, network and exec functions, defined again so that a
 * refusal by the kernel names the grant to add (denial.h). */
#define _GNU_SOURCE
#include "denial.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"
#include "text.h"

#if defined(__has_feature)
#  if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#    define DENIAL_UNDER_SANITIZER 1
#  endif
#endif

/* The most refusals explained; each kind and path (or port, or program) once. */
#define DENIAL_MAXIMUM 32

static struct {
    pthread_mutex_t lock;
    int active;
    confine_spec spec;
    int files, network, exec;
    char *said[DENIAL_MAXIMUM];
    int said_count, said_over;
} denial = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Set while this thread explains a refusal: the explanation's own calls are not explained. */
static __thread int explaining;

void denial_explain (const confine_spec *spec, int files, int network, int exec)
{
    pthread_mutex_lock (&denial.lock);
    denial.spec = *spec;
    denial.files = files;
    denial.network = network;
    denial.exec = exec;
    denial.active = 1;
    pthread_mutex_unlock (&denial.lock);
}

/* Whether `path` is `folder` or inside it. */
static int is_inside (const char *path, const char *folder)
{
    size_t length = strlen (folder);
    while (length > 1 && folder[length - 1] == '/') length--;
    return strncmp (path, folder, length) == 0 && (path[length] == '\0' || path[length] == '/' || length == 1);
}

static int covered (const char *path, const char *const *folders, int count)
{
    for (int i = 0; i < count; i++)
        if (is_inside (path, folders[i])) return 1;
    return 0;
}

/* Logs `text` once per `key`; after DENIAL_MAXIMUM keys, says once that no more are explained. */
static void say_once (const char *key, const char *text)
{
    pthread_mutex_lock (&denial.lock);
    int seen = 0;
    for (int i = 0; i < denial.said_count && !seen; i++) seen = strcmp (denial.said[i], key) == 0;
    int over = !seen && denial.said_count == DENIAL_MAXIMUM;
    int first_over = over && !denial.said_over;
    if (over) denial.said_over = 1;
    if (!seen && !over) denial.said[denial.said_count++] = strdup (key);
    pthread_mutex_unlock (&denial.lock);
    if (seen || (over && !first_over)) return;
    host_log (TRELLIS_LOG_WARNING, over ? "the kernel refused more; only the first refusals are explained" : text);
}

/* `path` made absolute against the working folder (a path relative to another folder's
 * descriptor is shown as given). */
static char *absolute (int folder, const char *path)
{
    if (path[0] == '/' || folder != AT_FDCWD) return strdup (path);
    char *cwd = getcwd (NULL, 0);
    text_buffer text;
    text_init (&text);
    text_printf (&text, "%s/%s", cwd ? cwd : ".", path);
    free (cwd);
    return text.data;
}

/* After a file call on `path` failed with `error`: explains it when no granted folder
 * allows what was asked (`writing`: to write, create or remove). */
static void file_refused (int folder, const char *path, int writing, const char *doing, int error)
{
    if (!denial.active || explaining || !path || (error != EACCES && error != EPERM) || !denial.files) return;
    explaining = 1;
    char *where = absolute (folder, path);
    int allowed = where && (covered (where, denial.spec.read_write, denial.spec.read_write_count)
                            || (!writing && covered (where, denial.spec.read_only, denial.spec.read_only_count)));
    if (where && !allowed) {
        int readable = covered (where, denial.spec.read_only, denial.spec.read_only_count);
        char *quoted = text_quoted (where, 512);
        text_buffer text, key;
        text_init (&text);
        text_init (&key);
        text_printf (&key, "files %d %s", writing, where);
        text_printf (&text, "the kernel refused %s %s (%s): %s; to ask for it, add to plugin.json: "
                     "\"permissions\": {\"files\": {%s: \"%s\"}}",
                     doing, quoted ? quoted : "?", strerror (error),
                     readable ? "its \"files\" grants allow reading it, not writing" : "no \"files\" grant covers it",
                     quoted ? quoted : "?", writing ? "read-write" : "read");
        if (text.data && key.data) say_once (key.data, text.data);
        text_free (&text);
        text_free (&key);
        free (quoted);
    }
    free (where);
    explaining = 0;
}

/* After connect or bind to `address` failed with `error`: explains it when no grant covers its port. */
static void network_refused (const struct sockaddr *address, socklen_t length, const char *doing, int error)
{
    if (!denial.active || explaining || !address || !denial.network || denial.spec.network_any) return;
    if (error != EACCES && error != EPERM && error != ENETUNREACH) return;
    char host[INET6_ADDRSTRLEN] = "?";
    unsigned port;
    if (address->sa_family == AF_INET && length >= (socklen_t) sizeof (struct sockaddr_in)) {
        const struct sockaddr_in *ip = (const struct sockaddr_in *) address;
        inet_ntop (AF_INET, &ip->sin_addr, host, sizeof host);
        port = ntohs (ip->sin_port);
    } else if (address->sa_family == AF_INET6 && length >= (socklen_t) sizeof (struct sockaddr_in6)) {
        const struct sockaddr_in6 *ip = (const struct sockaddr_in6 *) address;
        inet_ntop (AF_INET6, &ip->sin6_addr, host, sizeof host);
        port = ntohs (ip->sin6_port);
    } else {
        return;
    }
    explaining = 1;
    text_buffer text, key;
    text_init (&text);
    text_init (&key);
    text_printf (&key, "network %s %u", doing, port);
    text_printf (&text, "the kernel refused %s %s port %u (%s): %s; to ask for it, add to plugin.json: "
                 "\"permissions\": {\"network\": [\"HOST:%u\"]} (HOST: the name the plugin connects to)",
                 doing, host, port, strerror (error),
                 denial.spec.network ? "no \"network\" grant covers this port" : "the plugin has no \"network\" grant",
                 port);
    if (text.data && key.data) say_once (key.data, text.data);
    text_free (&text);
    text_free (&key);
    explaining = 0;
}

/* After socket (`family`) failed with `error`: seccomp refuses Internet sockets without a
 * network grant, and Unix-domain sockets always (none reaches the session's buses). */
static void socket_refused (int family, int error)
{
    if (!denial.active || explaining || (error != EACCES && error != EPERM)) return;
    if (family != AF_INET && family != AF_INET6 && family != AF_UNIX) return;
    explaining = 1;
    if (family == AF_UNIX) {
        say_once ("socket unix", "the kernel refused a Unix-domain socket (Permission denied): no plugin may have one "
                                 "(it would reach the session's buses and the display); socketpair is allowed");
    } else {
        say_once ("socket internet", "the kernel refused an Internet socket (Permission denied): the plugin has no \"network\" "
                                     "grant; to ask for it, add to plugin.json: \"permissions\": {\"network\": [\"HOST:PORT\"]}");
    }
    explaining = 0;
}

/* After running `program` failed with `error`: explains it when no grant lets it run. */
static void exec_refused (const char *program, int error)
{
    if (!denial.active || explaining || !program || !denial.exec || (error != EPERM && error != EACCES)) return;
    if (covered (program, denial.spec.exec, denial.spec.exec_count)) return;
    explaining = 1;
    char *quoted = text_quoted (program, 512);
    text_buffer text, key;
    text_init (&text);
    text_init (&key);
    text_printf (&key, "exec %s", program);
    text_printf (&text, "the kernel refused to run %s (%s): no \"exec\" grant names it; to ask for it, add to "
                 "plugin.json: \"permissions\": {\"exec\": [%s]}",
                 quoted ? quoted : "?", strerror (error), quoted ? quoted : "?");
    if (text.data && key.data) say_once (key.data, text.data);
    text_free (&text);
    text_free (&key);
    free (quoted);
    explaining = 0;
}

#ifndef DENIAL_UNDER_SANITIZER

/* The C library's own function `name` (the next definition after this executable's), looked
 * up once; threads that race to look it up store the same address. */
#define REAL(type, name)                                                  \
    typedef __typeof__ (type) real_function;                              \
    static real_function cached;                                          \
    real_function real = __atomic_load_n (&cached, __ATOMIC_ACQUIRE);     \
    if (!real) {                                                          \
        *(void **) &real = dlsym (RTLD_NEXT, name);                       \
        __atomic_store_n (&cached, real, __ATOMIC_RELEASE);               \
    }

static int writes (int flags)
{
    return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)) != 0;
}

static const char *opening (int flags)
{
    return writes (flags) ? "opening for writing" : "opening for reading";
}

/* open and open64 (the same on 64-bit systems), openat, openat64: the mode is read only when
 * the flags create a file, as the C library does. */
#define DEFINE_OPEN(name)                                                                    \
    int name (const char *path, int flags, ...)                                              \
    {                                                                                        \
        mode_t mode = 0;                                                                     \
        if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {                       \
            va_list arguments;                                                               \
            va_start (arguments, flags);                                                     \
            mode = (mode_t) va_arg (arguments, int);                                         \
            va_end (arguments);                                                              \
        }                                                                                    \
        REAL (int (*) (const char *, int, ...), #name);                                      \
        if (!real) { errno = ENOSYS; return -1; }                                            \
        int result = real (path, flags, mode);                                               \
        if (result < 0) { int error = errno; file_refused (AT_FDCWD, path, writes (flags), opening (flags), error); errno = error; } \
        return result;                                                                       \
    }
DEFINE_OPEN (open)
DEFINE_OPEN (open64)

#define DEFINE_OPENAT(name)                                                                  \
    int name (int folder, const char *path, int flags, ...)                                  \
    {                                                                                        \
        mode_t mode = 0;                                                                     \
        if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {                       \
            va_list arguments;                                                               \
            va_start (arguments, flags);                                                     \
            mode = (mode_t) va_arg (arguments, int);                                         \
            va_end (arguments);                                                              \
        }                                                                                    \
        REAL (int (*) (int, const char *, int, ...), #name);                                 \
        if (!real) { errno = ENOSYS; return -1; }                                            \
        int result = real (folder, path, flags, mode);                                       \
        if (result < 0) { int error = errno; file_refused (folder, path, writes (flags), opening (flags), error); errno = error; } \
        return result;                                                                       \
    }
DEFINE_OPENAT (openat)
DEFINE_OPENAT (openat64)

int creat (const char *path, mode_t mode)
{
    REAL (int (*) (const char *, mode_t), "creat");
    if (!real) { errno = ENOSYS; return -1; }
    int result = real (path, mode);
    if (result < 0) { int error = errno; file_refused (AT_FDCWD, path, 1, "creating", error); errno = error; }
    return result;
}

#define DEFINE_FOPEN(name)                                                                   \
    FILE *name (const char *path, const char *how)                                           \
    {                                                                                        \
        REAL (FILE *(*) (const char *, const char *), #name);                                \
        if (!real) { errno = ENOSYS; return NULL; }                                          \
        FILE *result = real (path, how);                                                     \
        int writing = how && (strchr (how, 'w') || strchr (how, 'a') || strchr (how, '+'));  \
        if (!result) { int error = errno; file_refused (AT_FDCWD, path, writing, writing ? "opening for writing" : "opening for reading", error); errno = error; } \
        return result;                                                                       \
    }
DEFINE_FOPEN (fopen)
DEFINE_FOPEN (fopen64)

DIR *opendir (const char *path)
{
    REAL (DIR *(*) (const char *), "opendir");
    if (!real) { errno = ENOSYS; return NULL; }
    DIR *result = real (path);
    if (!result) { int error = errno; file_refused (AT_FDCWD, path, 0, "listing", error); errno = error; }
    return result;
}

int mkdir (const char *path, mode_t mode)
{
    REAL (int (*) (const char *, mode_t), "mkdir");
    if (!real) { errno = ENOSYS; return -1; }
    int result = real (path, mode);
    if (result < 0) { int error = errno; file_refused (AT_FDCWD, path, 1, "creating the folder", error); errno = error; }
    return result;
}

int socket (int family, int type, int protocol)
{
    REAL (int (*) (int, int, int), "socket");
    if (!real) { errno = ENOSYS; return -1; }
    int result = real (family, type, protocol);
    if (result < 0) { int error = errno; socket_refused (family, error); errno = error; }
    return result;
}

/* connect and bind: `doing` names the call in the explanation. */
#define DEFINE_ADDRESSED(name, doing)                                                        \
    int name (int socket, const struct sockaddr *address, socklen_t length)                  \
    {                                                                                        \
        REAL (int (*) (int, const struct sockaddr *, socklen_t), #name);                     \
        if (!real) { errno = ENOSYS; return -1; }                                            \
        int result = real (socket, address, length);                                         \
        if (result < 0) { int error = errno; network_refused (address, length, doing, error); errno = error; } \
        return result;                                                                       \
    }
DEFINE_ADDRESSED (connect, "connecting to")
DEFINE_ADDRESSED (bind, "listening on")

int execve (const char *program, char *const arguments[], char *const environment[])
{
    REAL (int (*) (const char *, char *const[], char *const[]), "execve");
    if (!real) { errno = ENOSYS; return -1; }
    int result = real (program, arguments, environment);
    int error = errno;
    exec_refused (program, error);
    errno = error;
    return result;
}

int execv (const char *program, char *const arguments[])
{
    return execve (program, arguments, environ);
}

int execvp (const char *program, char *const arguments[])
{
    REAL (int (*) (const char *, char *const[]), "execvp");
    if (!real) { errno = ENOSYS; return -1; }
    int result = real (program, arguments);
    int error = errno;
    exec_refused (program, error);
    errno = error;
    return result;
}

#endif
