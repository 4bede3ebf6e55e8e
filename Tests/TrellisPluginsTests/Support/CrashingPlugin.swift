import Foundation

/// Plugins in C that crash or hang, compiled with `cc` at test time from `trellis_plugin.h`
/// alone: what a plugin author's bug does, not an error the ABI lets a plugin return.
enum CrashingPlugin {
    /// How the plugin misbehaves.
    enum Fault: String, CaseIterable, CustomStringConvertible {
        /// Its service's start calls abort().
        case abortInStart = "ABORT_IN_START"
        /// Its service's start writes through a NULL pointer.
        case nullInStart = "NULL_IN_START"
        /// Its service's start never returns.
        case loopInStart = "LOOP_IN_START"
        /// It loads fine; its handler of `crash:now` writes a line to stderr, then through NULL.
        case nullInHandler = "NULL_IN_HANDLER"
        /// It loads fine; its handler of `crash:now` never returns.
        case loopInHandler = "LOOP_IN_HANDLER"
        /// It loads fine; its handler of `crash:now` triggers `crash:handling`, waits until the
        /// file `go-N` is in its folder (N counting its calls from 1: the test lets each call
        /// end), then triggers `crash:handled`.
        case slowHandler = "SLOW_HANDLER"
        /// It loads fine; its handler of `crash:now` fills 1 GiB in 16 MiB blocks, aborting with a
        /// line on stderr when an allocation fails, and triggers `crash:handled` if none did.
        case eatMemoryInHandler = "EAT_MEMORY_IN_HANDLER"
        /// It loads fine; its handler of `crash:now` triggers `crash:tick` 1,500 times at once.
        case floodInHandler = "FLOOD_IN_HANDLER"
        /// It loads fine; its handler of `crash:now` calls `exit(0)`.
        case exitInHandler = "EXIT_IN_HANDLER"
        /// It loads fine; its handler of `crash:now` closes the plugin process's socket (fd 3)
        /// and waits for ever.
        case closeSocketInHandler = "CLOSE_SOCKET_IN_HANDLER"
        /// Its service's stop never returns.
        case loopInStop = "LOOP_IN_STOP"

        var description: String { rawValue.lowercased() }
    }

    static let source = """
        #include <stdio.h>
        #include <stdlib.h>
        #include <unistd.h>
        #include "trellis_plugin.h"
        static volatile int *nowhere = 0;
        static const trellis_host_api *api;
        static int32_t start (void *d, const char *o, char *e, size_t n) {
          (void) d; (void) o; (void) e; (void) n;
        #if defined(ABORT_IN_START)
          abort ();
        #elif defined(NULL_IN_START)
          *nowhere = 1;
        #elif defined(LOOP_IN_START)
          for (;;) {}
        #endif
          return TRELLIS_OK;
        }
        static void stop (void *d, const char *o) {
          (void) d; (void) o;
        #if defined(LOOP_IN_STOP)
          for (;;) {}
        #endif
        }
        static void handler (void *u, const char *m, const char *j) {
          (void) u; (void) m; (void) j;
        #if defined(LOOP_IN_HANDLER)
          for (;;) {}
        #elif defined(EAT_MEMORY_IN_HANDLER)
          for (int block = 0; block < 64; block++) {
            char *memory = malloc (16 << 20);
            if (!memory) {
              fprintf (stderr, "crashing plugin: no memory after %d MiB\\n", block * 16);
              fflush (stderr);
              abort ();
            }
            for (int i = 0; i < (16 << 20); i += 4096) memory[i] = 1;
          }
          api->trigger (api->context, "crash:handled", 0);
        #elif defined(EXIT_IN_HANDLER)
          exit (0);
        #elif defined(CLOSE_SOCKET_IN_HANDLER)
          close (3);
          for (;;) pause ();
        #elif defined(FLOOD_IN_HANDLER)
          for (int i = 0; i < 1500; i++) api->trigger (api->context, "crash:tick", 0);
        #elif defined(SLOW_HANDLER)
          static int calls;
          char gate[4096];
          snprintf (gate, sizeof gate, "%s/go-%d", PLUGIN_FOLDER, ++calls);
          api->trigger (api->context, "crash:handling", 0);
          while (access (gate, F_OK) != 0) usleep (1000);
          api->trigger (api->context, "crash:handled", 0);
        #else
          fprintf (stderr, "crashing plugin: about to write through NULL\\n");
          fflush (stderr);
          *nowhere = 1;
        #endif
        }
        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host) {
          api = host;
          trellis_service_definition service = { sizeof service, "crashy", 0, start, stop, 0 };
          host->register_service (host->context, &service);
          host->watch (host->context, "crash:now", handler, 0, 0);
          return &info;
        }
        """

    /// Compiles the plugin with `fault` into the shared library `output`.
    static func build(_ fault: Fault, to output: URL) throws {
        let folder = output.deletingLastPathComponent().path
        try CCompiler.build(source, definitions: ["-D\(fault.rawValue)", "-DPLUGIN_FOLDER=\"\(folder)\""], to: output)
    }
}

extension PluginSandbox {
    /// Installs crashing plugin `id` with `fault`; its service `crashy` starts with the plugin
    /// when `autostart` is true.
    @discardableResult
    func installCrashing(_ id: String, _ fault: CrashingPlugin.Fault, autostart: Bool) throws -> URL {
        let folder = try writeManifest(folder: id, """
            {"id": "\(id)", "name": "Crashing \(id)", "version": "0.0.1", "abiVersion": 2,
             "library": "lib\(id).so", "services": ["crashy"], "permissions": {"watch": ["crash:now"], "trigger": ["crash:*"]}\(autostart ? ", \"autostart\": {\"crashy\": null}" : "")}
            """)
        try CrashingPlugin.build(fault, to: folder.appendingPathComponent("lib\(id).so"))
        return folder
    }
}
