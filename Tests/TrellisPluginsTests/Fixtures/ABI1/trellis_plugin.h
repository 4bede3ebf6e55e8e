/* trellis_plugin.h: the Trellis plugin ABI (version 1).
 *
 * A Trellis plugin is a shared library plus a manifest (plugin.json) beside it. The library
 * exports one C symbol, `trellis_plugin_entry`. The host opens the library with
 * dlopen(RTLD_NOW | RTLD_LOCAL), never unloads it, and calls the entry once with a table of
 * host functions; the plugin registers its services through that table and returns a
 * description of itself. Everything that crosses the boundary is plain C: integers, function
 * pointers, opaque pointers, and UTF-8 JSON text for every payload (event data, service
 * options, route data, request parameters). A plugin can therefore be written in C, in Swift
 * (through TrellisPluginSDK) or in any language that can export a C function, and it does not
 * depend on the compiler that built the host.
 *
 * Version negotiation
 * -------------------
 * - TRELLIS_PLUGIN_ABI_VERSION is the version this header describes. A host built from this
 *   header loads plugins whose version lies in [TRELLIS_PLUGIN_ABI_OLDEST,
 *   TRELLIS_PLUGIN_ABI_VERSION].
 * - The host first reads `abiVersion` from the manifest, without opening the library. A
 *   plugin newer than the host ("too new": update Trellis) or older than
 *   TRELLIS_PLUGIN_ABI_OLDEST ("too old": rebuild the plugin against a current SDK) is refused
 *   with that reason and its code never runs.
 * - The host passes its table with `abi_version` set to its own version and `struct_size` to
 *   sizeof(trellis_host_api) as it was compiled. Later versions only append members, so a
 *   plugin may call a member only when TRELLIS_HOST_HAS(host, member) holds. A plugin that
 *   needs a newer host refuses by returning an info whose `refusal` says so.
 * - The info returned by the entry must carry the same `abi_version` as the manifest and a
 *   `struct_size` of at least the version-1 size; otherwise the host refuses the plugin.
 * - A change that is not an append (a member removed, retyped or reordered) makes a new
 *   version and raises TRELLIS_PLUGIN_ABI_OLDEST.
 *
 * Memory ownership
 * ----------------
 * Stated per function below. The general rule: a `const char *` passed as an argument in
 * either direction is borrowed for the duration of that call only; the callee copies what it
 * keeps. No function transfers heap memory across the boundary, so host and plugin never
 * free each other's allocations.
 *
 * Threads
 * -------
 * Every host function may be called from any thread, concurrently. Event handlers run on the
 * thread that triggered the event; service start/stop run on the thread that starts or stops
 * the service. Handlers may call host functions (trigger, unwatch, ...) re-entrantly.
 */
#ifndef TRELLIS_PLUGIN_H
#define TRELLIS_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version this header describes. */
#define TRELLIS_PLUGIN_ABI_VERSION 1
/** The oldest plugin ABI version a host built from this header still loads. */
#define TRELLIS_PLUGIN_ABI_OLDEST 1
/** The name of the one symbol a plugin library exports. */
#define TRELLIS_PLUGIN_ENTRY_SYMBOL "trellis_plugin_entry"
/** Size of the error buffer the host passes to a service's start callback. */
#define TRELLIS_PLUGIN_ERROR_SIZE 512
/**
 * The longest JSON text, in bytes without the final NUL, that the host accepts from a plugin
 * (the `data_json` of trigger and navigate, the `parameters_json` of handle_request): 1 MiB.
 * A longer payload is refused with TRELLIS_ERROR_INVALID_ARGUMENT and logged with the plugin's
 * id and the size; nothing is triggered, navigated or requested.
 */
#define TRELLIS_PLUGIN_MAX_JSON_SIZE 1048576

/* Result codes of host functions. */
/** Success. */
#define TRELLIS_OK 0
/** An argument was NULL, empty, not valid UTF-8, not valid JSON, or JSON over TRELLIS_PLUGIN_MAX_JSON_SIZE. */
#define TRELLIS_ERROR_INVALID_ARGUMENT (-1)
/** The call is not allowed now (for example register_service after the entry returned). */
#define TRELLIS_ERROR_REFUSED (-2)
/** The watch id is unknown (never issued, or already removed). */
#define TRELLIS_ERROR_NOT_FOUND (-3)
/**
 * The plugin's manifest grants no permission for this call (see "permissions" in the README's
 * plugin section): trigger or handle_request outside the plugin's grants, navigate to a route
 * that is not public and not granted. The host logs the denial once per call and name. Added
 * in ABI 1 without a version bump: a plugin treating every non-zero result as failure (as the
 * header always said) needs no change.
 */
#define TRELLIS_ERROR_DENIED (-4)

/* Log levels for trellis_host_api.log, in increasing severity (swift-log's levels). */
#define TRELLIS_LOG_TRACE 0
#define TRELLIS_LOG_DEBUG 1
#define TRELLIS_LOG_INFO 2
#define TRELLIS_LOG_NOTICE 3
#define TRELLIS_LOG_WARNING 4
#define TRELLIS_LOG_ERROR 5
#define TRELLIS_LOG_CRITICAL 6

/** Identifies one watch; 0 is never a valid id. */
typedef uint64_t trellis_watch_id;

/**
 * Called for every event whose message matches a watched pattern.
 * `message` and `data_json` (UTF-8 JSON, "null" when the event has no data) are owned by the
 * host and valid only during the call. Runs on the thread that triggered the event.
 */
typedef void (*trellis_event_handler)(void *user_data, const char *message, const char *data_json);

/** Releases plugin-owned `user_data` once the host no longer uses it. */
typedef void (*trellis_release)(void *user_data);

/**
 * Starts a service. `options_json` (UTF-8 JSON, "null" for none) is host-owned and valid
 * during the call. Returns TRELLIS_OK, or any other value after writing a NUL-terminated UTF-8
 * reason of at most `error_size` bytes into `error` (host-owned; truncate to fit).
 */
typedef int32_t (*trellis_service_start)(void *service_data, const char *options_json, char *error, size_t error_size);

/** Stops a service. `options_json` is host-owned and valid during the call. */
typedef void (*trellis_service_stop)(void *service_data, const char *options_json);

/** A service a plugin provides: a name and start/stop callbacks. */
typedef struct trellis_service_definition {
    /** sizeof(trellis_service_definition) as compiled into the plugin. */
    uint32_t struct_size;
    /** The service name, as listed in the manifest's "services". Borrowed: the host copies it. */
    const char *name;
    /** Plugin-owned; passed back to start, stop and release. */
    void *service_data;
    /** Required. */
    trellis_service_start start;
    /** Required. */
    trellis_service_stop stop;
    /**
     * Optional (may be NULL). Called with `service_data` if the host discards the definition
     * (the registration or the whole plugin was refused). A registered service is never
     * discarded: plugins are never unloaded.
     */
    trellis_release release;
} trellis_service_definition;

/**
 * The host's function table. Host-owned and valid for the life of the process: a plugin may
 * keep the pointer. Every function takes `context` (the table's last member) first. Watches
 * end when the plugin is disabled or fails; its services are then stopped.
 */
typedef struct trellis_host_api {
    /** The host's ABI version (TRELLIS_PLUGIN_ABI_VERSION of the host). */
    uint32_t abi_version;
    /** sizeof(trellis_host_api) as compiled into the host. */
    uint32_t struct_size;

    /**
     * Watches events whose message matches `pattern` (an exact message such as "network:on",
     * or a wildcard such as "network:*" or "*"). `pattern` is borrowed. `user_data` stays
     * plugin-owned: the host passes it to `handler` and calls `release(user_data)` (if not
     * NULL) exactly once, on any thread, after the watch is removed and no handler call is
     * running.
     * Returns the watch id, or 0 (and calls release at once) when an argument is invalid
     * (NULL, empty or not UTF-8) or when no "watch" permission of the plugin covers `pattern`
     * (logged by the host, as TRELLIS_ERROR_DENIED is for the other functions).
     */
    trellis_watch_id (*watch)(void *context, const char *pattern, trellis_event_handler handler,
                              void *user_data, trellis_release release);

    /** Removes a watch made by this plugin. Returns TRELLIS_OK or TRELLIS_ERROR_NOT_FOUND. */
    int32_t (*unwatch)(void *context, trellis_watch_id watch);

    /**
     * Triggers an event on the host's bus; synchronous watchers (the plugins' among them) run
     * before it returns, main-thread watchers of the host later. `message` and
     * `data_json` (UTF-8 JSON, or NULL for no data) are borrowed. Returns TRELLIS_OK or
     * TRELLIS_ERROR_INVALID_ARGUMENT (empty message, text that is not UTF-8, malformed JSON,
     * JSON over TRELLIS_PLUGIN_MAX_JSON_SIZE; nothing is triggered) or TRELLIS_ERROR_DENIED
     * (a message outside the plugin's "trigger" grants).
     * Like watch, navigate and handle_request, it returns TRELLIS_ERROR_REFUSED (watch: 0)
     * once the plugin is disabled or has failed to load.
     */
    int32_t (*trigger)(void *context, const char *message, const char *data_json);

    /**
     * Registers a service. Allowed only while trellis_plugin_entry runs (TRELLIS_ERROR_REFUSED
     * afterwards) and only for a name the manifest lists. `service` and its strings are
     * borrowed; `service_data` stays plugin-owned (see trellis_service_definition.release).
     * The host registers the service only if the plugin as a whole is accepted; a refusal
     * (for example a name another plugin already registered) fails the plugin's load with
     * that reason.
     */
    int32_t (*register_service)(void *context, const trellis_service_definition *service);

    /**
     * Asks the host to navigate to `route` (such as "/notes/5") with `data_json` (UTF-8 JSON or
     * NULL); both borrowed. The navigation happens later on the host's main thread.
     * Returns TRELLIS_ERROR_DENIED for a route that is neither public nor granted.
     */
    int32_t (*navigate)(void *context, const char *route, const char *data_json);

    /**
     * Sends `command` to the host's front controller with `parameters_json` (UTF-8 JSON or
     * NULL); both borrowed. The request is handled later, as the front controller decides.
     * Returns TRELLIS_ERROR_DENIED for a command outside the plugin's "request" grants.
     */
    int32_t (*handle_request)(void *context, const char *command, const char *parameters_json);

    /** Logs `message` (borrowed, UTF-8) at `level` (TRELLIS_LOG_*) under the plugin's id. */
    void (*log)(void *context, int32_t level, const char *message);

    /** Opaque host context for this plugin; pass it as the first argument of every function. */
    void *context;
} trellis_host_api;

/** True when `host` is new enough to have `member` (use before calling a newer function). */
#define TRELLIS_HOST_HAS(host, member) \
    ((host) != NULL && (host)->struct_size >= offsetof(trellis_host_api, member) + sizeof((host)->member))

/** What a plugin's entry returns. Plugin-owned and valid for the life of the process. */
typedef struct trellis_plugin_info {
    /** TRELLIS_PLUGIN_ABI_VERSION as compiled into the plugin; must match the manifest. */
    uint32_t abi_version;
    /** sizeof(trellis_plugin_info) as compiled into the plugin. */
    uint32_t struct_size;
    /**
     * NULL when the plugin accepts the host. Otherwise a UTF-8 reason why it cannot run (for
     * example "needs host ABI 2"), plugin-owned and valid for the life of the process; the
     * host then discards the plugin's registrations and reports the reason.
     */
    const char *refusal;
} trellis_plugin_info;

/**
 * The entry every plugin exports (as TRELLIS_PLUGIN_ENTRY_SYMBOL). Called once, on the
 * thread that loads plugins. `host` is host-owned and outlives the plugin. Returns the
 * plugin's info (plugin-owned), or NULL if the plugin cannot describe itself (refused).
 */
typedef const trellis_plugin_info *(*trellis_plugin_entry_fn)(const trellis_host_api *host);

/** The entry's prototype, for plugins written in C (define it with default visibility). */
const trellis_plugin_info *trellis_plugin_entry(const trellis_host_api *host);

#ifdef __cplusplus
}
#endif

#endif
