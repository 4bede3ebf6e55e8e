import Foundation
import TrellisCore
import TrellisGtk

/// Runs whole processes for benchmarks and measures wall time and peak resident memory
/// (`wait4`'s `ru_maxrss`), which Foundation's `Process` does not report.
enum ProcessRunner {
    /// What of the child's output the bench reads instead of passing it on.
    enum Capture {
        /// Nothing: the child writes to the bench's own standard output and error.
        case nothing
        /// Its standard output, into ``Measurement/output``.
        case output
        /// Its standard output and error together: a window's warnings (such as GTK's about
        /// the missing session bus under `xvfb-run`) are shown only if the run fails.
        case outputAndErrors
    }

    struct Measurement {
        /// From just before the spawn to the child's exit.
        var seconds: Double
        var peakRSSKiB: Int
        var status: Int32
        /// What the child wrote on what was captured (see ``Capture``).
        var output = ""
        /// `CLOCK_MONOTONIC` in seconds just before the spawn, to place moments the child reports.
        var started: Double = 0
    }

    enum Failure: Error, CustomStringConvertible {
        case spawn(path: String, errno: Int32)
        case exit(path: String, status: Int32, output: String = "")

        var description: String {
            switch self {
            case .spawn(let path, let code): return "cannot start \(path): \(String(cString: strerror(code)))"
            case .exit(let path, let status, let output):
                let said = output.isEmpty ? "" : "; its last output:\n\(output.suffix(1500))"
                return "\(path) exited with status \(status)\(said)"
            }
        }
    }

    /// Runs `path` with `arguments` to completion; throws if it cannot start or exits non-zero.
    /// With `capture`, its standard output (and error) is read (to its end, then the child
    /// is waited for) into ``Measurement/output``.
    static func measure(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                        capture: Capture = .nothing) throws -> Measurement {
        var env = ProcessEnvironment.current
        for (key, value) in environment { env[key] = value }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pipeEnds: [Int32] = [-1, -1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if capture != .nothing {
            guard pipe(&pipeEnds) == 0 else { throw Failure.spawn(path: path, errno: errno) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
            if capture == .outputAndErrors { posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDERR_FILENO) }
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        }
        var pid: pid_t = 0
        let start = Report.now()
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        var output = Data()
        if capture != .nothing {
            close(pipeEnds[1])
            defer { close(pipeEnds[0]) }
            if rc == 0 { output = readToEnd(pipeEnds[0]) }
        }
        guard rc == 0 else { throw Failure.spawn(path: path, errno: rc) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Report.now() - start
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let text = String(decoding: output, as: UTF8.self)
        guard exitStatus == 0 else { throw Failure.exit(path: path, status: exitStatus, output: text) }
        return Measurement(seconds: seconds, peakRSSKiB: usage.ru_maxrss, status: exitStatus, output: text, started: start)
    }

    private static func readToEnd(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 { data.append(contentsOf: buffer[..<count]) } else if count < 0 && errno == EINTR { continue } else { break }
        }
        return data
    }

    /// Compiles a C baseline from `Sources/trellis-bench/Baselines/<name>.c` against GTK 4
    /// into a temporary folder and returns the executable's path.
    static func buildBaseline(_ name: String) throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Baselines/\(name).c").path
        // Beside this executable, in the build folder (nothing left in /tmp): compiled under a
        // name of this process's, then renamed over the last run's, so that two benchmarks
        // running at once never run a half-written program.
        let dir = URL(fileURLWithPath: currentExecutable).deletingLastPathComponent().appendingPathComponent("bench-baselines")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let output = dir.appendingPathComponent(name).path
        let partial = "\(output).\(getpid())"
        let shell = "cc -O2 -o '\(partial)' '\(source)' $(pkg-config --cflags --libs gtk4) && mv -f '\(partial)' '\(output)'"
        let status = try measure("/bin/sh", ["-c", shell])
        guard status.status == 0 else { throw Failure.exit(path: "cc", status: status.status) }
        return output
    }

    /// This `trellis-bench` executable (to run one of its hidden subcommands as a child).
    static var currentExecutable: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    }

    /// A sibling executable of `trellis-bench` in the same build folder (e.g. `trellis`).
    static func sibling(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: currentExecutable).deletingLastPathComponent().appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError.missing("\(path) — build it first: swift build -c release")
        }
        return path
    }

    /// Environment for GUI processes under a benchmark: no settings daemon, no accessibility bus.
    /// For every GUI program measured, Trellis and its C baselines alike: the renderer Trellis
    /// chooses on this machine (cairo where OpenGL would run in software, `RendererChoice`).
    static let guiEnvironment = ["GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1"].merging(RendererChoice.environment) { _, new in new }

    /// Checks that the session bus answers for the accessibility bus (`org.a11y.Bus`), which
    /// at-spi2-core's launcher provides once asked.
    static func requireAccessibilityBus() throws {
        let call = Process()
        call.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        call.arguments = ["call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus", "--method", "org.a11y.Bus.GetAddress"]
        call.standardOutput = FileHandle.nullDevice
        call.standardError = FileHandle.nullDevice
        do { try call.run() } catch { throw BenchError.missing("gdbus (libglib2.0-bin) to find the accessibility bus") }
        call.waitUntilExit()
        guard call.terminationStatus == 0 else {
            throw BenchError.missing("the accessibility bus: run under dbus-run-session, with at-spi2-core installed")
        }
    }

    static func requireDisplay() throws {
        let env = ProcessEnvironment.current
        if (env["DISPLAY"] ?? "").isEmpty && (env["WAYLAND_DISPLAY"] ?? "").isEmpty {
            throw BenchError.missing("a display: run under xvfb-run -a")
        }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case missing(String)
    var description: String {
        switch self { case .missing(let what): return "trellis-bench needs \(what)" }
    }
}
