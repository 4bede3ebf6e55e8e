import Foundation
import TrellisTesting

/// Runs a program to its end and captures what it printed: for command-line and install tests.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum CommandRunner {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardizedFileURL

    /// Runs `executable` with `arguments`; the environment is the test's, minus Trellis's own
    /// variables, plus `environment`. Fails after `timeout` seconds.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                    directory: URL? = nil, timeout: TimeInterval = 60) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TRELLIS_") || $0.key == "TRELLIS_LOG_LEVEL" }
        env["GSETTINGS_BACKEND"] = "memory"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-run-\(UUID().uuidString)")
        for suffix in [".out", ".err"] where !FileManager.default.createFile(atPath: output.path + suffix, contents: nil) {
            throw Failure.failed(command: "creating \(output.path + suffix)", output: "")
        }
        defer {
            try? FileManager.default.removeItem(atPath: output.path + ".out")
            try? FileManager.default.removeItem(atPath: output.path + ".err")
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output.path + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output.path + ".err"))
        process.standardInput = FileHandle.nullDevice
        try process.runOneAtATime()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            let printed = (try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? ""
            throw Failure.timedOut(command: ([executable.path] + arguments).joined(separator: " "), seconds: timeout,
                                   standardError: String(printed.suffix(4000)))
        }
        return CommandResult(status: process.terminationStatus,
                             stdout: (try? String(contentsOfFile: output.path + ".out", encoding: .utf8)) ?? "",
                             stderr: (try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? "")
    }

    /// Runs a tool found on `PATH` (`meson`, `msgfmt`, …).
    static func tool(_ name: String, _ arguments: [String], environment: [String: String] = [:],
                     directory: URL? = nil, timeout: TimeInterval = 60) throws -> CommandResult {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let path else { throw Failure.missingTool(name) }
        return try run(path, arguments, environment: environment, directory: directory, timeout: timeout)
    }

    /// Compiles `data/po/*.po` (the languages of `data/po/LINGUAS`) into a fresh locale folder,
    /// as the README's commands do into `.build/locale`, and returns it.
    static func compileTranslations() throws -> URL {
        let locale = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-locale-\(UUID().uuidString)")
        // One domain per folder, as .ci/deps.sh compiles them: Trellis's own, the demo app's.
        for (po, domain) in [("data/po", "trellis"), ("data/po-demo", "io.github.trellis.Demo")] {
            let languages = try String(contentsOf: packageRoot.appendingPathComponent("\(po)/LINGUAS"), encoding: .utf8)
                .split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.hasPrefix("#") }
            for language in languages {
                let folder = locale.appendingPathComponent("\(language)/LC_MESSAGES")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let result = try tool("msgfmt", ["--check", "-o", folder.appendingPathComponent("\(domain).mo").path,
                                                 packageRoot.appendingPathComponent("\(po)/\(language).po").path])
                guard result.status == 0 else { throw Failure.failed(command: "msgfmt \(po)/\(language).po", output: result.stderr) }
            }
        }
        return locale
    }

    enum Failure: Error, CustomStringConvertible {
        case missingTool(String)
        case timedOut(command: String, seconds: TimeInterval, standardError: String)
        case failed(command: String, output: String)

        var description: String {
            switch self {
            case .missingTool(let name): return "\(name) is not installed (the README's test command installs it)"
            case .timedOut(let command, let seconds, let printed):
                return "\(command) did not finish within \(Int(seconds)) s; the end of its standard error:\n\(printed)"
            case .failed(let command, let output): return "\(command) failed:\n\(output)"
            }
        }
    }
}
