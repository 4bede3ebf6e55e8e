/* gate.c: the permission checks of gate.h, as PluginGate and PluginPermissions make them. */
#include "gate.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/** A list of patterns. */
typedef struct pattern_list {
    char **items;
    size_t count;
} pattern_list;

/** A route of the app: its pattern and whether it may be opened from outside. */
typedef struct route {
    char *pattern;
    int is_public;
} route;

static const char *const kind_names[GATE_KINDS] = { "trigger", "watch", "navigate", "request" };
/** The most distinct denials logged (PluginGate.maximumLoggedDenials). */
enum { MAXIMUM_LOGGED = 100 };

static struct {
    char *id;
    char *own;         /* "<id>:*" */
    pattern_list granted[GATE_KINDS];
    pattern_list own_routes;
    route *routes;
    size_t route_count;
    void (*log) (const char *text);
    pthread_mutex_t lock;
    char *logged[MAXIMUM_LOGGED];
    size_t logged_count;
} gate = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int add (pattern_list *list, trellis_json value)
{
    char *text = trellis_json_string_dup (value);
    char **items = realloc (list->items, (list->count + 1) * sizeof *items);
    if (!text || !items) {
        free (text);
        return 0;
    }
    list->items = items;
    list->items[list->count++] = text;
    return 1;
}

/* The strings of array `value` into `list`; 0 when it is not an array of strings. */
static int read_strings (trellis_json value, pattern_list *list)
{
    if (trellis_json_type_of (value) != TRELLIS_JSON_ARRAY) return 0;
    trellis_json_iter iter = trellis_json_iterate (value);
    trellis_json item;
    while (trellis_json_next (&iter, NULL, &item))
        if (trellis_json_type_of (item) != TRELLIS_JSON_STRING || !add (list, item)) return 0;
    return 1;
}

int gate_init (const char *plugin_id, trellis_json grants, void (*log) (const char *text), char *error, size_t error_size)
{
    gate.id = strdup (plugin_id);
    gate.log = log;
    size_t own_size = strlen (plugin_id) + 3;
    gate.own = malloc (own_size);
    if (!gate.id || !gate.own) return snprintf (error, error_size, "out of memory"), 0;
    snprintf (gate.own, own_size, "%s:*", plugin_id);
    trellis_json permissions, value;
    /* No permissions: the plugin's own namespace only (no implicit trust). */
    if (trellis_json_get (grants, "permissions", &permissions) && trellis_json_type_of (permissions) != TRELLIS_JSON_NULL) {
        if (trellis_json_type_of (permissions) != TRELLIS_JSON_OBJECT)
            return snprintf (error, error_size, "\"permissions\" is not an object"), 0;
        for (gate_kind kind = GATE_TRIGGER; kind < GATE_KINDS; kind++) {
            if (trellis_json_get (permissions, kind_names[kind], &value) && !read_strings (value, &gate.granted[kind]))
                return snprintf (error, error_size, "\"permissions.%s\" is not an array of strings", kind_names[kind]), 0;
        }
    }
    if (trellis_json_get (grants, "ownRoutes", &value) && !read_strings (value, &gate.own_routes))
        return snprintf (error, error_size, "\"ownRoutes\" is not an array of strings"), 0;
    if (trellis_json_get (grants, "routes", &value) && trellis_json_type_of (value) == TRELLIS_JSON_ARRAY) {
        trellis_json_iter iter = trellis_json_iterate (value);
        trellis_json item, pattern, flag;
        while (trellis_json_next (&iter, NULL, &item)) {
            if (!trellis_json_get (item, "pattern", &pattern) || trellis_json_type_of (pattern) != TRELLIS_JSON_STRING) continue;
            route *routes = realloc (gate.routes, (gate.route_count + 1) * sizeof *routes);
            if (!routes) return snprintf (error, error_size, "out of memory"), 0;
            gate.routes = routes;
            gate.routes[gate.route_count].pattern = trellis_json_string_dup (pattern);
            gate.routes[gate.route_count].is_public = trellis_json_get (item, "public", &flag) && trellis_json_is_true (flag);
            gate.route_count++;
        }
    }
    return 1;
}

/* `*` matches any run of bytes (MessagePattern.Glob): greedy, left to right. */
static int glob_matches (const char *pattern, const char *name)
{
    const char *star = strchr (pattern, '*');
    if (!star) return strcmp (pattern, name) == 0;
    size_t prefix = (size_t) (star - pattern);
    if (strncmp (pattern, name, prefix) != 0) return 0;
    name += prefix;
    pattern = star + 1;
    for (;;) {
        star = strchr (pattern, '*');
        if (!star) {
            size_t suffix = strlen (pattern), left = strlen (name);
            return left >= suffix && strcmp (name + left - suffix, pattern) == 0;
        }
        size_t piece = (size_t) (star - pattern);
        const char *found = NULL;
        for (const char *at = name; *at || piece == 0; at++) {
            if (strncmp (at, pattern, piece) == 0) {
                found = at;
                break;
            }
            if (!*at) break;
        }
        if (!found) return 0;
        name = found + piece;
        pattern = star + 1;
    }
}

/* Says a denial once per kind and name, naming the permission to add (PluginGate.deny). */
static void deny (gate_kind kind, const char *name, const char *reason)
{
    size_t key_size = strlen (kind_names[kind]) + strlen (name) + 2;
    char *key = malloc (key_size);
    if (!key) return;
    snprintf (key, key_size, "%s %s", kind_names[kind], name);
    int first = 1, full = 0;
    pthread_mutex_lock (&gate.lock);
    if (gate.logged_count >= MAXIMUM_LOGGED) first = 0;
    for (size_t i = 0; first && i < gate.logged_count; i++)
        if (strcmp (gate.logged[i], key) == 0) first = 0;
    if (first) {
        gate.logged[gate.logged_count++] = key;
        full = gate.logged_count == MAXIMUM_LOGGED;
    }
    pthread_mutex_unlock (&gate.lock);
    if (!first) {
        free (key);
        return;
    }
    char *shown = text_quoted (name, 120);
    text_buffer line;
    text_init (&line);
    text_printf (&line, "plugin \"%s\": %s %s: denied: %s", gate.id, kind == GATE_REQUEST ? "handle_request" : kind_names[kind],
                 shown ? shown : "?", reason);
    if (line.data) gate.log (line.data);
    text_free (&line);
    free (shown);
    if (full) {
        text_init (&line);
        text_printf (&line, "plugin \"%s\": %d different calls denied; further denials are not logged", gate.id, MAXIMUM_LOGGED);
        if (line.data) gate.log (line.data);
        text_free (&line);
    }
}

int gate_allows (gate_kind kind, const char *name)
{
    if (glob_matches (gate.own, name)) return 1;
    for (size_t i = 0; i < gate.granted[kind].count; i++)
        if (strcmp (gate.granted[kind].items[i], name) == 0 || glob_matches (gate.granted[kind].items[i], name)) return 1;
    text_buffer reason;
    text_init (&reason);
    text_printf (&reason, "no \"%s\" permission covers it (granted: %s", kind_names[kind], gate.own);
    for (size_t i = 0; i < gate.granted[kind].count; i++) text_printf (&reason, ", %s", gate.granted[kind].items[i]);
    text_printf (&reason, "); add a pattern to \"permissions\" in its plugin.json");
    deny (kind, name, reason.data ? reason.data : "no permission covers it");
    text_free (&reason);
    return 0;
}

/* ---- Routes (RoutePattern's syntax, matched as RouteTable matches: literal, then parameter, then splat) ---- */

enum { MAXIMUM_SEGMENTS = 32 };

/* The decoded segments of `path` into `segments` (each malloc'd); their count, or -1 when
 * `path` is not a path a route could match. */
static int split (const char *path, char **segments, int is_pattern)
{
    if (path[0] != '/') return -1;
    size_t end = strcspn (path, is_pattern ? "" : "?#");
    int count = 0;
    size_t at = 1;
    if (end > 1 && path[end - 1] == '/') end--;  /* one trailing "/" is ignored */
    while (at < end) {
        size_t length = strcspn (path + at, "/");
        if (at + length > end) length = end - at;
        if (length == 0 || count == MAXIMUM_SEGMENTS) goto fail;
        char *segment = malloc (length + 1);
        if (!segment) goto fail;
        size_t out = 0;
        for (size_t i = 0; i < length; i++) {
            char ch = path[at + i];
            if (ch == '%') {
                int high = i + 2 < length ? trellis_json_hex_ (path[at + i + 1]) : -1;
                int low = high >= 0 ? trellis_json_hex_ (path[at + i + 2]) : -1;
                if (high < 0 || low < 0 || (high == 0 && low == 0)) {
                    free (segment);
                    goto fail;
                }
                segment[out++] = (char) (high * 16 + low);
                i += 2;
            } else {
                segment[out++] = ch;
            }
        }
        segment[out] = 0;
        segments[count++] = segment;
        at += length + 1;
    }
    return count;
fail:
    while (count > 0) free (segments[--count]);
    return -1;
}

/* How well `pattern` matches `path` (segments decoded): -1 when it does not; otherwise a rank
 * where lower is better, comparing segment by segment (literal 0, parameter 1, splat 2). */
static long long rank_match (char **pattern, int pattern_count, char **path, int path_count)
{
    long long rank = 0;
    for (int i = 0; i < pattern_count; i++) {
        int kind = pattern[i][0] == ':' ? 1 : pattern[i][0] == '*' ? 2 : 0;
        if (kind == 2) return i < path_count ? rank * 3 + 2 : -1;  /* the rest, at least one segment */
        if (i >= path_count || (kind == 0 && strcmp (pattern[i], path[i]) != 0)) return -1;
        rank = rank * 3 + kind;
    }
    return pattern_count == path_count ? rank : -1;
}

/* The best of `patterns` matching `path`: its index, or -1. */
static int best_route (const char *path, char *const *patterns, size_t count)
{
    char *segments[MAXIMUM_SEGMENTS], *pattern_segments[MAXIMUM_SEGMENTS];
    int path_count = split (path, segments, 0);
    if (path_count < 0) return -1;
    int best = -1;
    long long best_rank = 0;
    for (size_t i = 0; i < count; i++) {
        int pattern_count = split (patterns[i], pattern_segments, 1);
        if (pattern_count < 0) continue;
        /* Deeper matches compare by their first segments: pad ranks to the same length. */
        long long rank = rank_match (pattern_segments, pattern_count, segments, path_count);
        if (rank >= 0) {
            for (int pad = pattern_count; pad < MAXIMUM_SEGMENTS; pad++) rank *= 3;
            if (best < 0 || rank < best_rank) {
                best = (int) i;
                best_rank = rank;
            }
        }
        while (pattern_count > 0) free (pattern_segments[--pattern_count]);
    }
    while (path_count > 0) free (segments[--path_count]);
    return best;
}

int gate_allows_navigation (const char *path)
{
    if (best_route (path, gate.granted[GATE_NAVIGATE].items, gate.granted[GATE_NAVIGATE].count) >= 0) return 1;
    if (best_route (path, gate.own_routes.items, gate.own_routes.count) >= 0) return 1;
    char **patterns = malloc ((gate.route_count + 1) * sizeof *patterns);
    if (!patterns) return 1;
    for (size_t i = 0; i < gate.route_count; i++) patterns[i] = gate.routes[i].pattern;
    int found = best_route (path, patterns, gate.route_count);
    free (patterns);
    /* An unknown path goes on, to fail as any navigation does; the shell decides. */
    if (found < 0 || gate.routes[found].is_public) return 1;
    text_buffer reason;
    text_init (&reason);
    text_printf (&reason, "its route is not public and no \"navigate\" permission covers it (granted: ");
    if (gate.granted[GATE_NAVIGATE].count == 0) text_printf (&reason, "none");
    for (size_t i = 0; i < gate.granted[GATE_NAVIGATE].count; i++)
        text_printf (&reason, "%s%s", i ? ", " : "", gate.granted[GATE_NAVIGATE].items[i]);
    text_printf (&reason, "); add the route pattern to \"permissions\" in its plugin.json");
    deny (GATE_NAVIGATE, path, reason.data ? reason.data : "its route is not public");
    text_free (&reason);
    return 0;
}
