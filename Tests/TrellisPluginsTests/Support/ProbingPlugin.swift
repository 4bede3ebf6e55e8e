import Foundation
import TrellisCore
import TrellisPlugins

/// A plugin in C, compiled with `cc` at test time from `trellis_plugin.h` alone, that tries
/// every host function a permission governs and reports what the host answered: on
/// `<id>:go` it makes each call of ``calls`` and triggers `<id>:codes` with the results by
/// name; every other event it receives is reported as `<id>:saw` with the event's message.
enum ProbingPlugin {
    /// The calls made on `<id>:go`, in order: a result name, the host function, its argument.
    static let calls: [(name: String, function: String, argument: String)] = [
        ("trigger_own", "trigger", "ID:note"),
        ("trigger_granted", "trigger", "extra:thing"),
        ("trigger_app", "trigger", "app:quit"),
        ("trigger_app_again", "trigger", "app:quit"),
        ("watch_exact", "watch", "network:on"),
        ("watch_wildcard", "watch", "network:*"),
        ("watch_everything", "watch", "*"),
        ("watch_sync", "watch", "sync:finished"),
        ("navigate_granted", "navigate", "/secret/5"),
        ("navigate_hidden", "navigate", "/hidden"),
        ("navigate_public", "navigate", "/open"),
        ("navigate_unknown", "navigate", "/nowhere"),
        ("request_granted", "handle_request", "notes.save"),
        ("request_other", "handle_request", "notes.delete"),
        ("request_own", "handle_request", "ID:refresh"),
    ]

    /// The C source for plugin `id`.
    static func source(id: String) -> String {
        let body = calls.map { call -> String in
            let argument = call.argument.replacingOccurrences(of: "ID", with: id)
            let expression = switch call.function {
            case "watch": "(long long) host->watch (host->context, \"\(argument)\", on_event, 0, 0)"
            case "trigger": "(long long) host->trigger (host->context, \"\(argument)\", 0)"
            case "navigate": "(long long) host->navigate (host->context, \"\(argument)\", 0)"
            default: "(long long) host->handle_request (host->context, \"\(argument)\", 0)"
            }
            return "  used += snprintf (codes + used, sizeof codes - used, \"%s\\\"\(call.name)\\\": %lld\", used > 1 ? \", \" : \"\", \(expression));"
        }.joined(separator: "\n")
        return """
            #include <stdio.h>
            #include <string.h>
            #include "trellis_plugin.h"
            static const trellis_host_api *host;
            static void on_event (void *u, const char *m, const char *j);
            static void probe (void) {
              char codes[2048] = "{";
              int used = 1;
            \(body)
              snprintf (codes + used, sizeof codes - used, "}");
              host->trigger (host->context, "\(id):codes", codes);
            }
            static void on_event (void *u, const char *m, const char *j) {
              char data[512];
              (void) u; (void) j;
              if (strcmp (m, "\(id):go") == 0) { probe (); return; }
              if (strncmp (m, "\(id):", strlen ("\(id):")) == 0) return;
              snprintf (data, sizeof data, "{\\"message\\": \\"%s\\"}", m);
              host->trigger (host->context, "\(id):saw", data);
            }
            static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
            const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *h) {
              host = h;
              host->watch (host->context, "\(id):go", on_event, 0, 0);
              return &info;
            }
            """
    }

    /// A plugin `id` that, in a plugin process, bypasses the host table: on `<id>:go` it writes
    /// wire messages for ungranted calls straight to the process's socket (fd 3), then
    /// triggers `<id>:lied` through the table.
    static func liarSource(id: String) -> String {
        let forged = [
            PluginMessage(.trigger, name: "app:quit"),
            PluginMessage(.watch, number: 99, name: "*"),
            PluginMessage(.navigate, name: "/hidden"),
            PluginMessage(.request, name: "notes.delete"),
        ].flatMap(PluginWire.frame)
        return """
        #include <string.h>
        #include <unistd.h>
        #include "trellis_plugin.h"
        static const trellis_host_api *host;
        static const unsigned char forged[] = { \(forged.map(String.init).joined(separator: ", ")) };
        static void on_event (void *u, const char *m, const char *j) {
          (void) u; (void) m; (void) j;
          if (write (3, forged, sizeof forged) != (ssize_t) sizeof forged) return;
          host->trigger (host->context, "\(id):lied", 0);
        }
        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *h) {
          host = h;
          host->watch (host->context, "\(id):go", on_event, 0, 0);
          return &info;
        }
        """
    }

    /// Compiles plugin `id` (the probe, or the liar) into the shared library `output`.
    static func build(id: String, liar: Bool = false, to output: URL) throws {
        try CCompiler.build(liar ? liarSource(id: id) : source(id: id), definitions: ["-Wall", "-Werror"], to: output)
    }
}

extension PluginSandbox {
    /// Installs probing plugin `id` with `permissions` (the JSON of the manifest's key, or nil
    /// for a manifest without it).
    @discardableResult
    func installProbing(_ id: String, permissions: String?, liar: Bool = false) throws -> URL {
        let folder = try writeManifest(folder: id, """
            {"id": "\(id)", "name": "Probing \(id)", "version": "0.0.1", "abiVersion": 2,
             "library": "lib\(id).so"\(permissions.map { ", \"permissions\": \($0)" } ?? "")}
            """)
        try ProbingPlugin.build(id: id, liar: liar, to: folder.appendingPathComponent("lib\(id).so"))
        return folder
    }
}
