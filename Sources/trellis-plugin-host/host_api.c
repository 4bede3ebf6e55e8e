/* host_api.c: the trellis_host_api table of a plugin process, with the same rules as the
 * shell's table (HostAPITable.swift): each call checked, answered at once, and forwarded. */
#include "host.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "text.h"
#include "trellis_json.h"

/** One watch: the plugin's handler and data. `references`: the table's (while it is not
 * unwatched) and one per delivery in progress; the data is released when the last goes. */
typedef struct watch {
    trellis_watch_id id;
    trellis_event_handler handler;
    void *user_data;
    trellis_release release;
    int references;
    struct watch *next;
} watch;

/** One registered service. */
typedef struct service {
    char *name;
    trellis_service_definition definition;
    struct service *next;
} service;

static struct {
    pthread_mutex_t lock;
    char *plugin_id;
    trellis_watch_id next_watch;
    watch *watches;
    service *services;
    int in_entry;
    char *settings;
    size_t settings_length;
} host = { .lock = PTHREAD_MUTEX_INITIALIZER, .in_entry = 1 };

void host_log (int32_t level, const char *text)
{
    char *line = text_repaired (text, strlen (text), HOST_MAXIMUM_LOG);
    if (line) wire_send_text (HOST_SOCKET, WIRE_LOG, level, line, NULL);
    free (line);
}

/* ---- Watches ---- */

static void watch_drop (watch *w)
{
    pthread_mutex_lock (&host.lock);
    int last = --w->references == 0;
    pthread_mutex_unlock (&host.lock);
    if (!last) return;
    if (w->release) w->release (w->user_data);
    free (w);
}

static trellis_watch_id api_watch (void *context, const char *pattern, trellis_event_handler handler, void *user_data,
                                   trellis_release release)
{
    (void) context;
    size_t length = pattern ? strnlen (pattern, HOST_MAXIMUM_NAME + 1) : 0;
    watch *w = NULL;
    if (handler && length > 0 && length <= HOST_MAXIMUM_NAME && text_is_utf8 (pattern, length) && gate_allows (GATE_WATCH, pattern))
        w = calloc (1, sizeof *w);
    if (!w) {
        /* Owns user_data from the call on: released at once when refused. */
        if (release) release (user_data);
        return 0;
    }
    w->handler = handler;
    w->user_data = user_data;
    w->release = release;
    w->references = 1;
    pthread_mutex_lock (&host.lock);
    w->id = ++host.next_watch;
    w->next = host.watches;
    host.watches = w;
    pthread_mutex_unlock (&host.lock);
    trellis_watch_id id = w->id;
    wire_send (HOST_SOCKET, WIRE_WATCH, (int64_t) id, pattern, length, NULL, 0);
    return id;
}

static int32_t api_unwatch (void *context, trellis_watch_id id)
{
    (void) context;
    watch *found = NULL;
    pthread_mutex_lock (&host.lock);
    for (watch **at = &host.watches; *at; at = &(*at)->next) {
        if ((*at)->id == id) {
            found = *at;
            *at = found->next;
            break;
        }
    }
    pthread_mutex_unlock (&host.lock);
    if (!found) return TRELLIS_ERROR_NOT_FOUND;
    wire_send (HOST_SOCKET, WIRE_UNWATCH, (int64_t) id, NULL, 0, NULL, 0);
    watch_drop (found);
    return TRELLIS_OK;
}

/* Calls the handler of watch `id` with an event; nothing when it was unwatched meanwhile. */
static void deliver (trellis_watch_id id, const char *message, const char *json)
{
    watch *found = NULL;
    pthread_mutex_lock (&host.lock);
    for (watch *w = host.watches; w; w = w->next) {
        if (w->id == id) {
            found = w;
            found->references++;
            break;
        }
    }
    pthread_mutex_unlock (&host.lock);
    if (!found) return;
    found->handler (found->user_data, message, json);
    watch_drop (found);
}

/* ---- Calls forwarded: trigger, navigate, handle_request ---- */

/* Logs why the arguments of `function` were refused (PluginCallError's words) and returns
 * TRELLIS_ERROR_INVALID_ARGUMENT. */
static int32_t refuse_call (const char *function, const char *name, const char *format, ...)
    __attribute__ ((format (printf, 3, 4)));

static int32_t refuse_call (const char *function, const char *name, const char *format, ...)
{
    text_buffer line;
    text_init (&line);
    text_printf (&line, "plugin \"%s\": %s", host.plugin_id, function);
    if (name) {
        char *quoted = text_quoted (name, 120);
        text_printf (&line, " %s", quoted ? quoted : "?");
        free (quoted);
    }
    text_printf (&line, ": refused: ");
    char reason[512];
    va_list arguments;
    va_start (arguments, format);
    vsnprintf (reason, sizeof reason, format, arguments);
    va_end (arguments);
    text_printf (&line, "%s", reason);
    if (line.data) host_log (TRELLIS_LOG_ERROR, line.data);
    text_free (&line);
    return TRELLIS_ERROR_INVALID_ARGUMENT;
}

static int32_t forward (wire_op op, const char *function, const char *name, const char *json)
{
    if (!name || !*name) return refuse_call (function, NULL, "the name is empty");
    size_t name_length = strnlen (name, HOST_MAXIMUM_NAME + 1);
    if (name_length > HOST_MAXIMUM_NAME)
        return refuse_call (function, NULL, "a name of more than %d bytes is over the limit", HOST_MAXIMUM_NAME);
    if (!text_is_utf8 (name, name_length)) return refuse_call (function, NULL, "the name is not valid UTF-8");
    size_t json_length = 0;
    static const char null_text[] = "null";
    trellis_json data = { null_text, null_text + 4 };
    if (json) {
        json_length = strnlen (json, TRELLIS_PLUGIN_MAX_JSON_SIZE + 1);
        if (json_length > TRELLIS_PLUGIN_MAX_JSON_SIZE)
            return refuse_call (function, name, "%zu bytes of JSON is over the limit of %d bytes", strlen (json),
                                TRELLIS_PLUGIN_MAX_JSON_SIZE);
        if (!text_is_utf8 (json, json_length)) return refuse_call (function, name, "the JSON is not valid UTF-8");
        trellis_json_error error;
        if (!trellis_json_parse (json, json_length, &data, &error))
            return refuse_call (function, name, "malformed JSON: byte %zu: %s", error.offset + 1, error.reason);
    }
    if (op == WIRE_TRIGGER && strcmp (name, "route:open") == 0) {
        /* route:open is a navigate call, as the shell treats it (PluginGate.navigationMessage). */
        trellis_json path, inner;
        char *route;
        if (!trellis_json_get (data, "path", &path) || !(route = trellis_json_string_dup (path))) return TRELLIS_ERROR_INVALID_ARGUMENT;
        int has_data = trellis_json_get (data, "data", &inner) && trellis_json_type_of (inner) != TRELLIS_JSON_NULL;
        int32_t status = TRELLIS_ERROR_DENIED;
        if (strlen (route) <= HOST_MAXIMUM_NAME && gate_allows_navigation (route)) {
            wire_send (HOST_SOCKET, WIRE_NAVIGATE, 0, route, strlen (route), has_data ? inner.start : NULL,
                       has_data ? (size_t) (inner.end - inner.start) : 0);
            status = TRELLIS_OK;
        }
        free (route);
        return status;
    }
    int permitted = op == WIRE_TRIGGER ? gate_allows (GATE_TRIGGER, name)
                  : op == WIRE_REQUEST ? gate_allows (GATE_REQUEST, name)
                  : gate_allows_navigation (name);
    if (!permitted) return TRELLIS_ERROR_DENIED;
    /* The plugin's JSON text goes to the shell as it is: checked here, decoded there. */
    wire_send (HOST_SOCKET, op, 0, name, name_length, json, json_length);
    return TRELLIS_OK;
}

static int32_t api_trigger (void *context, const char *message, const char *data_json)
{
    (void) context;
    return forward (WIRE_TRIGGER, "trigger", message, data_json);
}

static int32_t api_navigate (void *context, const char *route, const char *data_json)
{
    (void) context;
    return forward (WIRE_NAVIGATE, "navigate", route, data_json);
}

static int32_t api_handle_request (void *context, const char *command, const char *parameters_json)
{
    (void) context;
    return forward (WIRE_REQUEST, "handle_request", command, parameters_json);
}

/* ---- Services ---- */

/* Tells the shell that a registration was refused, with `reason` about service `name`. */
static void refuse_service (const char *name, const char *reason)
{
    text_buffer line;
    text_init (&line);
    text_printf (&line, "service \"%s\": %s", name, reason);
    char *repaired = line.data ? text_repaired (line.data, line.length, HOST_MAXIMUM_LOG) : NULL;
    if (repaired) wire_send_text (HOST_SOCKET, WIRE_REFUSE, 0, repaired, NULL);
    free (repaired);
    text_free (&line);
}

static int32_t api_register_service (void *context, const trellis_service_definition *definition)
{
    (void) context;
    if (!definition) {
        refuse_service ("?", "no definition given");
        return TRELLIS_ERROR_INVALID_ARGUMENT;
    }
    uint32_t size = definition->struct_size;  /* read alone first: a shorter struct must not be read whole */
    if (size < sizeof *definition) {
        char reason[96];
        snprintf (reason, sizeof reason, "definition of %u bytes, expected %zu", size, sizeof *definition);
        refuse_service ("?", reason);
        return TRELLIS_ERROR_INVALID_ARGUMENT;
    }
    trellis_service_definition copy = *definition;
    size_t length = copy.name ? strnlen (copy.name, HOST_MAXIMUM_NAME + 1) : 0;
    if (length == 0 || length > HOST_MAXIMUM_NAME || !copy.start || !copy.stop) {
        if (copy.release) copy.release (copy.service_data);
        char *name = length == 0 ? NULL : text_repaired (copy.name, length, 120);
        refuse_service (name ? name : "?", length == 0 ? "the definition has no name"
                                         : length > HOST_MAXIMUM_NAME ? "the name is over the limit of 65536 bytes"
                                         : "start and stop callbacks are required");
        free (name);
        return TRELLIS_ERROR_INVALID_ARGUMENT;
    }
    service *entry = calloc (1, sizeof *entry);
    char *name = text_repaired (copy.name, length, HOST_MAXIMUM_NAME + 3);
    int accepted = entry && name;
    pthread_mutex_lock (&host.lock);
    if (accepted && !host.in_entry) accepted = 0;
    for (service *s = host.services; accepted && s; s = s->next)
        if (strcmp (s->name, name) == 0) accepted = 0;
    if (accepted) {
        entry->name = name;
        entry->definition = copy;
        entry->next = host.services;
        host.services = entry;
    }
    pthread_mutex_unlock (&host.lock);
    if (!accepted) {
        if (copy.release) copy.release (copy.service_data);
        refuse_service (name ? name : "?", "registered twice, or after the plugin's entry returned");
        free (entry);
        free (name);
        return TRELLIS_ERROR_REFUSED;
    }
    wire_send_text (HOST_SOCKET, WIRE_REGISTER, 0, name, NULL);
    return TRELLIS_OK;
}

static service *find_service (const char *name)
{
    pthread_mutex_lock (&host.lock);
    service *found = host.services;
    while (found && strcmp (found->name, name) != 0) found = found->next;
    pthread_mutex_unlock (&host.lock);
    return found;
}

/* ---- Log and settings ---- */

static void api_log (void *context, int32_t level, const char *message)
{
    (void) context;
    if (message) host_log (level, message);
}

static int64_t api_get_settings (void *context, char *buffer, size_t size)
{
    (void) context;
    pthread_mutex_lock (&host.lock);
    int64_t length = (int64_t) host.settings_length;
    if (!buffer) {
        if (size != 0) length = TRELLIS_ERROR_INVALID_ARGUMENT;
    } else if (host.settings_length < size) {
        memcpy (buffer, host.settings, host.settings_length + 1);
    }
    pthread_mutex_unlock (&host.lock);
    return length;
}

static void set_settings (const char *json, size_t length)
{
    if (length == 0) {
        json = "{}";
        length = 2;
    }
    char *copy = malloc (length + 1);
    if (!copy) return;
    memcpy (copy, json, length);
    copy[length] = 0;
    pthread_mutex_lock (&host.lock);
    char *old = host.settings;
    host.settings = copy;
    host.settings_length = length;
    pthread_mutex_unlock (&host.lock);
    free (old);
}

/* ---- The table, and the shell's calls ---- */

static const trellis_host_api table = {
    .abi_version = TRELLIS_PLUGIN_ABI_VERSION,
    .struct_size = sizeof (trellis_host_api),
    .watch = api_watch,
    .unwatch = api_unwatch,
    .trigger = api_trigger,
    .register_service = api_register_service,
    .navigate = api_navigate,
    .handle_request = api_handle_request,
    .log = api_log,
    .context = NULL,  /* one plugin per process */
    .get_settings = api_get_settings,
};

void host_init (const char *plugin_id, const char *settings_json, size_t settings_length)
{
    host.plugin_id = strdup (plugin_id);
    set_settings (settings_json, settings_length);
}

const trellis_host_api *host_table (void)
{
    return &table;
}

void host_entry_returned (void)
{
    pthread_mutex_lock (&host.lock);
    host.in_entry = 0;
    pthread_mutex_unlock (&host.lock);
}

void host_serve (const wire_message *message)
{
    const char *json = message->json_length ? message->json : "null";
    switch (message->op) {
    case WIRE_EVENT:
        /* Answered `done` whatever happens: the shell's watchdog counts events, not watches. */
        deliver ((trellis_watch_id) message->number, message->name, json);
        wire_send (HOST_SOCKET, WIRE_DONE, 0, NULL, 0, NULL, 0);
        break;
    case WIRE_START: {
        service *s = find_service (message->name);
        trellis_json_writer answer;
        trellis_json_writer_init (&answer);
        trellis_json_begin_object (&answer);
        if (!s) {
            trellis_json_key (&answer, "status");
            trellis_json_int_value (&answer, TRELLIS_ERROR_NOT_FOUND);
            trellis_json_key (&answer, "error");
            trellis_json_string_value (&answer, "no such service in this process");
        } else {
            char error[TRELLIS_PLUGIN_ERROR_SIZE] = { 0 };
            int32_t status = s->definition.start (s->definition.service_data, json, error, sizeof error);
            error[sizeof error - 1] = 0;
            trellis_json_key (&answer, "status");
            trellis_json_int_value (&answer, status);
            trellis_json_key (&answer, "error");
            trellis_json_string_value (&answer, error);
        }
        trellis_json_end_object (&answer);
        wire_send_text (HOST_SOCKET, WIRE_STARTED, message->number, NULL, trellis_json_writer_text (&answer));
        trellis_json_writer_free (&answer);
        break;
    }
    case WIRE_STOP: {
        service *s = find_service (message->name);
        if (s) s->definition.stop (s->definition.service_data, json);
        wire_send (HOST_SOCKET, WIRE_STOPPED, message->number, NULL, 0, NULL, 0);
        break;
    }
    case WIRE_SETTINGS:
        /* Sent before the shell triggers <id>:settings, so the plugin reads the new values. */
        set_settings (message->json, message->json_length);
        break;
    default:
        break;
    }
}
