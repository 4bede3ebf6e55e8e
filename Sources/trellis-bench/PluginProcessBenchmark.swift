import Foundation
import Logging
import TrellisCore
import TrellisPlugins

/// The figures of a plugin in a process of its own (`trellis-bench plugins`), with the C
/// plugin c-hello, which answers `hello:ping` with `hello:pong` and ignores other `hello:*`:
/// - `plugin-ipc-roundtrip`: trigger `hello:ping` in the shell → the plugin's watcher in its
///   process → `hello:pong` back at a watcher on the shell's bus (the clock read in that
///   watcher), p50 of 150 (within the call budget's burst, which a longer run would measure
///   instead). Goal ≤ 50 µs. Beside it, measured in the same run, `plugin-ipc-roundtrip-socketpair`: one byte to a C child process over a
///   socketpair and back (`Baselines/socketpair-pingpong.c`), the floor of any round trip
///   between two processes on the machine; `ratio plugin-ipc-roundtrip` is floor ÷ Trellis.
/// - `plugin-events-per-second`: 4 × (5,000 `hello:noop` events into the process, then a ping:
///   all handled when its pong is back).
/// - `plugin-restart`: SIGKILL of the plugin's process → its service running again in a new
///   one (`plugin:restarted`), median of 5 plugins' first crash. Goal ≤ 250 ms.
/// - `plugin-rss`: the resident memory of the process that runs the C plugin (issue #37:
///   ≤ 8 MiB), and `plugin-rss-total` with the two small processes around it (the warden
///   outside its namespaces and their init); `plugin-rss-swift`, `plugin-rss-swift-total`:
///   the same for the Swift plugin NetworkActivity (goal ≤ 15 MiB).
enum PluginProcessBenchmark {
    /// The resident memory, in MiB, of plugin `id`'s processes started by this one: the
    /// largest (the plugin's) and all of them (their command line is the plugin host's, ending
    /// with the id).
    static func residentMemory(of id: String) -> (plugin: Double, total: Double) {
        let sizes = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).compactMap { pid -> Double? in
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            guard command.contains("trellis-plugin-host"), command.hasSuffix("\0\(id)\0"), descends(pid),
                  let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                  let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return nil }
            return kilobytes / 1024
        }
        return (sizes.max() ?? 0, sizes.reduce(0, +))
    }

    /// Whether process `pid` was started by this one, directly or not.
    private static func descends(_ pid: Int32) -> Bool {
        var current = pid
        while current > 1 {
            guard let stat = try? String(contentsOfFile: "/proc/\(current)/stat", encoding: .utf8),
                  let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 1,
                  let parent = Int32(fields[1]) else { return false }
            if parent == getpid() { return true }
            current = parent
        }
        return false
    }

    /// Loads the plugin of `library` (its manifest's id) in a process of its own and measures
    /// its resident memory.
    static func residentMemory(library: (manifest: JSONValue, library: URL)) throws -> (plugin: Double, total: Double) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-rss-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let id = library.manifest["id"]?.stringValue ?? "plugin"
        let folder = root.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try library.manifest.jsonData().write(to: folder.appendingPathComponent("plugin.json"))
        try FileManager.default.copyItem(at: library.library, to: folder.appendingPathComponent(library.library.lastPathComponent))
        var logger = Logger(label: "trellis.bench.plugins")
        logger.logLevel = .critical
        let bus = EventBus(logger: logger)
        let host = PluginHost(bus: bus, services: ServiceRegistry(bus: bus, logger: logger),
                              searchPaths: [PluginSearchPath(directory: folder, origin: .commandLine)],
                              settings: PluginSettings(url: root.appendingPathComponent("settings.json")),
                              isolation: .process, navigate: { _ in }, handleRequest: { _, _ in }, logger: logger)
        guard host.loadAll().first?.state == .loaded else { throw BenchError.missing("\(id) loaded in a process") }
        defer { _ = try? host.setEnabled(id, false) }
        return residentMemory(of: id)
    }

    static func run(library: (manifest: JSONValue, library: URL)) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-ipc-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        var logger = Logger(label: "trellis.bench.plugins")
        logger.logLevel = .critical
        var restarts: [Double] = []
        for index in 1...5 {
            let id = "c-hello-\(index)"
            let folder = root.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var manifest = library.manifest
            manifest["id"] = .string(id)
            try manifest.jsonData().write(to: folder.appendingPathComponent("plugin.json"))
            try FileManager.default.copyItem(at: library.library, to: folder.appendingPathComponent(library.library.lastPathComponent))
            let bus = EventBus(logger: logger)
            let host = PluginHost(bus: bus, services: ServiceRegistry(bus: bus, logger: logger),
                                  searchPaths: [PluginSearchPath(directory: folder, origin: .commandLine)],
                                  settings: PluginSettings(url: root.appendingPathComponent("settings-\(index).json")),
                                  isolation: .process, navigate: { _ in }, handleRequest: { _, _ in }, logger: logger)
            guard host.loadAll().first?.state == .loaded else { throw BenchError.missing("c-hello loaded in a process") }
            let pong = DispatchSemaphore(value: 0)
            let restarted = DispatchSemaphore(value: 0)
            let owner = Owner()
            // The round trip ends where the pong reaches a watcher on the shell's bus: the
            // watcher reads the clock, not the benchmark's thread after the semaphore wakes it.
            let pongArrived = LockedState(0.0)
            bus.watch("hello:pong", owner: owner) { _, _ in
                pongArrived.withLock { $0 = Report.now() }
                pong.signal()
            }
            bus.watch("plugin:restarted", owner: owner) { _, _ in restarted.signal() }
            if index == 1 {
                var microseconds: [Double] = []
                for _ in 0..<150 {
                    let start = Report.now()
                    bus.trigger("hello:ping")
                    guard pong.wait(timeout: .now() + 5) == .success else { throw BenchError.missing("hello:pong within 5 s") }
                    microseconds.append((pongArrived.withLock { $0 } - start) * 1_000_000)
                }
                let roundTrip = Report.median(microseconds)
                Report.figure("plugin-ipc-roundtrip", roundTrip, "us")
                let floor = try socketpairFloor()
                Report.figure("plugin-ipc-roundtrip-socketpair", floor, "us")
                Report.ratio("plugin-ipc-roundtrip", floor / roundTrip)
                Thread.sleep(forTimeInterval: 1)  // the call budget refills
                // In batches of 5,000: a plugin 10,000 events behind is stopped as unresponsive.
                let batches = 4, batch = 5_000
                let seconds = Report.time {
                    for _ in 0..<batches {
                        for _ in 0..<batch { bus.trigger("hello:noop") }
                        bus.trigger("hello:ping")
                        _ = pong.wait(timeout: .now() + 60)
                    }
                }
                Report.figure("plugin-events-per-second", Double(batches * (batch + 1)) / seconds, "/s")
                let memory = residentMemory(of: id)
                Report.figure("plugin-rss", memory.plugin, "MiB")
                Report.figure("plugin-rss-total", memory.total, "MiB")
            }
            guard let pid = try childProcess(running: id) else { throw BenchError.missing("the process of \(id)") }
            restarts.append(Report.time {
                kill(pid, SIGKILL)
                _ = restarted.wait(timeout: .now() + 10)
            } * 1000)
        }
        Report.figure("plugin-restart", Report.median(restarts), "ms")
    }

    /// The median round trip of one byte between two C processes over a socketpair
    /// (`Baselines/socketpair-pingpong.c`), measured now: the floor under any plugin process's.
    private static func socketpairFloor() throws -> Double {
        let baseline = try ProcessRunner.buildBaseline("socketpair-pingpong")
        let run = try ProcessRunner.measure(baseline, [], capture: .output)
        guard let microseconds = Double(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError.missing("a median from socketpair-pingpong, not \(run.output)")
        }
        return microseconds
    }

    /// The pid of this process's plugin host running plugin `id`.
    private static func childProcess(running id: String) throws -> Int32? {
        let pgrep = Process()
        pgrep.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        pgrep.arguments = ["-P", "\(getpid())", "-f", "trellis-plugin-host .* \(id)$"]
        let output = Pipe()
        pgrep.standardOutput = output
        try pgrep.run()
        pgrep.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// Owns the benchmark's watches.
    private final class Owner: Sendable {}
}
