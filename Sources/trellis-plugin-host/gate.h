/* gate.h: the plugin's permissions, checked in its process before a call is sent, so that the
 * plugin gets TRELLIS_ERROR_DENIED at once (PluginGate.swift is the shell's, which checks
 * every call again: a plugin writing to its socket itself gains nothing). */
#ifndef TRELLIS_HOST_GATE_H
#define TRELLIS_HOST_GATE_H

#include "trellis_json.h"

/** The kinds of call a permission grants (PluginPermissions.Kind). */
typedef enum gate_kind {
    GATE_TRIGGER,
    GATE_WATCH,
    GATE_NAVIGATE,
    GATE_REQUEST,
    GATE_KINDS,
} gate_kind;

/** Reads the `permissions`, `ownRoutes` and `routes` of the shell's grants message; 0 with a
 * reason in `error` when they are malformed. Logs denials through `log` (at warning). */
int gate_init (const char *plugin_id, trellis_json grants, void (*log) (const char *text), char *error, size_t error_size);

/** Whether the plugin may make a call of `kind` (trigger, watch, request) on `name`; a denial is logged once. */
int gate_allows (gate_kind kind, const char *name);

/** Whether the plugin may navigate to `path` (a route neither public nor granted is denied, and logged once). */
int gate_allows_navigation (const char *path);

#endif
