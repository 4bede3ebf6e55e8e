import Foundation

/// Plugins in C that flood the shell on purpose, compiled with `cc` at test time from
/// `trellis_plugin.h` alone: each, when `flood:go` is triggered, calls one host function (or
/// writes to stderr) as fast as it can, for ever.
enum FloodingPlugin {
    /// What the plugin floods.
    enum Kind: String, CaseIterable, CustomStringConvertible {
        /// `navigate("/x")`.
        case navigate = "FLOOD_NAVIGATE"
        /// `trigger("flooder:tick")`.
        case trigger = "FLOOD_TRIGGER"
        /// `log` of two lines, one with terminal escape codes, one that looks like the shell's own.
        case log = "FLOOD_LOG"
        /// `watch("flooder:w")`, 100,000 times, then `trigger("flooder:watched")`.
        case watch = "FLOOD_WATCH"
        /// 64 KiB blocks of `x` to stderr, without a newline.
        case stderr = "FLOOD_STDERR"

        var description: String { rawValue.lowercased() }
    }

    static let source = """
        #include <string.h>
        #include <unistd.h>
        #include "trellis_plugin.h"
        static const trellis_host_api *api;
        static void nothing (void *u, const char *m, const char *j) { (void) u; (void) m; (void) j; }
        static void flood (void *u, const char *m, const char *j) {
          (void) u; (void) m; (void) j;
        #if defined(FLOOD_NAVIGATE)
          for (;;) api->navigate (api->context, "/x", 0);
        #elif defined(FLOOD_TRIGGER)
          for (;;) api->trigger (api->context, "flooder:tick", 0);
        #elif defined(FLOOD_LOG)
          for (;;) api->log (api->context, TRELLIS_LOG_WARNING, "\\x1b[31mred\\x1b[0m\\n[shell] trellis.plugins: forged");
        #elif defined(FLOOD_WATCH)
          for (int i = 0; i < 100000; i++) api->watch (api->context, "flooder:w", nothing, 0, 0);
          api->trigger (api->context, "flooder:watched", 0);
        #elif defined(FLOOD_STDERR)
          static char block[65536];
          memset (block, 'x', sizeof block);
          for (;;) (void) write (2, block, sizeof block);
        #endif
        }
        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host) {
          api = host;
          host->watch (host->context, "flood:go", flood, 0, 0);
          return &info;
        }
        """
}

extension PluginSandbox {
    /// Installs flooding plugin `flooder` of `kind`, granted what it floods.
    @discardableResult
    func installFlooding(_ kind: FloodingPlugin.Kind) throws -> URL {
        let folder = try writeManifest(folder: "flooder", """
            {"id": "flooder", "name": "Flooder", "version": "0.0.1", "abiVersion": 2, "library": "libflooder.so",
             "permissions": {"watch": ["flood:go"], "navigate": ["/x"]}}
            """)
        try CCompiler.build(FloodingPlugin.source, definitions: ["-D\(kind.rawValue)"], to: folder.appendingPathComponent("libflooder.so"))
        return folder
    }
}
