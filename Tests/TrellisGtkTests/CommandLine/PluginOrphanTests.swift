import Foundation
import Testing

/// A plugin process outlives no shell: killed with SIGKILL while its plugin spins in an
/// endless loop (the one moment its process reads nothing, so never sees the socket close),
/// the shell leaves no plugin process behind.
@Suite("plugin processes end with their shell")
struct PluginOrphanTests {
    /// A C plugin whose service start leaves `marker` (in a folder granted to it) and never
    /// returns. (It can no longer kill the shell itself, as it once did: the test does.)
    static func spinner(marker: String) -> String {
        """
        #include <signal.h>
        #include <stdio.h>
        #include <unistd.h>
        #include "trellis_plugin.h"
        static int32_t start (void *d, const char *o, char *e, size_t n) {
          (void) d; (void) o; (void) e; (void) n;
          FILE *f = fopen ("\(marker)", "w");
          if (f) fclose (f);
          for (;;) {}
          return TRELLIS_OK;
        }
        static void stop (void *d, const char *o) { (void) d; (void) o; }
        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host) {
          trellis_service_definition service = { sizeof service, "spin", 0, start, stop, 0 };
          host->register_service (host->context, &service);
          return &info;
        }
        """
    }

    /// The processes of plugin `id` (the plugin host the shell started, and those it forked:
    /// the namespace's init and the plugin), as /proc lists them.
    static func processes(of id: String) -> [Int32] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.compactMap(Int32.init).filter { pid in
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            return command.contains("trellis-plugin-host") && command.hasSuffix("\0\(id)\0") && !ended(pid)
        }
    }

    /// Whether process `pid` has ended: gone, or a zombie its new parent did not reap.
    static func ended(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Waits until `condition` holds, for at most `seconds` (a deadline for a failure only),
    /// sleeping between checks without holding a thread of Swift concurrency's pool.
    static func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// The window needs a display; the README's test command starts Xvfb.
    static let hasDisplay = !(ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty
        || ProcessInfo.processInfo.environment["TRELLIS_REQUIRE_GUI"] == "1"

    @Test("the shell killed while its plugin spins: the plugin's process ends too", .enabled(if: hasDisplay))
    func shellKilled() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-orphan-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("plugins/spinner")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let signals = root.appendingPathComponent("signals")
        try FileManager.default.createDirectory(at: signals, withIntermediateDirectories: true)
        let marker = signals.appendingPathComponent("spinning").path
        let source = folder.appendingPathComponent("spinner.c")
        try Data(Self.spinner(marker: marker).utf8).write(to: source)
        try CPlugin.compile(source, to: folder.appendingPathComponent("libspinner.so"))
        try Data("""
            {"id": "spinner", "name": "Spinner", "version": "0.0.1", "abiVersion": 2,
             "library": "libspinner.so", "services": ["spin"], "autostart": {"spin": null},
             "permissions": {"files": {"\(signals.path)": "read-write"}}}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))

        // The window, not a headless run: it lives until it is killed, however late this test
        // sees the marker. (A headless run ends once its page is printed, after the shell's
        // start deadline has killed the spinning plugin: on a loaded machine, that can come
        // before this test looks.) Driven as the GUI tests drive it, so that it is an instance
        // of its own beside theirs on the session bus.
        let app = try AppDriver(arguments: ["--plugin-dir", root.appendingPathComponent("plugins").path])
        let shell = app.process

        // The plugin's start spins, after leaving its marker. The shell's start deadline (5 s)
        // kills it, and the restart policy starts it twice more (at once, then after a
        // second) before it gives up: a test held up longer than that on a loaded machine
        // kills the shell between two spins, or after them. Whatever the moment, no process of
        // the plugin may outlive the shell.
        #expect(await Self.eventually(within: 120) { FileManager.default.fileExists(atPath: marker) }, "the plugin's start ran")
        _ = await Self.eventually(within: 10) { !Self.processes(of: "spinner").isEmpty }
        let plugin = Self.processes(of: "spinner")
        defer { for pid in Self.processes(of: "spinner") { kill(pid, SIGKILL) } }
        kill(shell.processIdentifier, SIGKILL)
        #expect(await Self.eventually(within: 60) { !shell.isRunning }, "the shell was killed")
        #expect(shell.terminationReason == .uncaughtSignal && shell.terminationStatus == SIGKILL)

        #expect(await Self.eventually(within: 30) { Self.processes(of: "spinner").isEmpty },
                "the plugin's processes \(Self.processes(of: "spinner")) (\(plugin) when the shell was killed) still run after their shell was killed")
        withExtendedLifetime(app) {}
    }
}
