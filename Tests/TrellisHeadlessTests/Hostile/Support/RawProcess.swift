import Foundation
import TrellisTesting

/// Runs an executable with arguments given as raw bytes, which `Foundation.Process` cannot do
/// (it takes `String`s, so bytes that are not UTF-8 never reach the child). Standard output and
/// error go to files, so a chatty child cannot block on a full pipe.
///
/// ```swift
/// let result = try await RawProcess.run(trellis, arguments: [Array("--headless".utf8), [0x2F, 0xFF]],
///                                 environment: ["XDG_DATA_HOME": "/tmp/x"])
/// #expect(result.termination == .exit(1))
/// ```
enum RawProcess {
    /// How the child ended.
    enum Termination: Equatable, CustomStringConvertible {
        case exit(Int32)
        case signal(Int32)

        var description: String {
            switch self {
            case .exit(let status): "exit status \(status)"
            case .signal(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// What the child did.
    struct Result {
        let termination: Termination
        let standardOutput: String
        let standardError: String
    }

    /// Why the child could not be run to its end.
    enum Failure: Error, CustomStringConvertible {
        case spawn(errno: Int32)
        case timedOut(after: Duration)

        var description: String {
            switch self {
            case .spawn(let code): "posix_spawn failed: \(String(cString: strerror(code)))"
            case .timedOut(let limit): "the process did not exit within \(limit) and was killed"
            }
        }
    }

    /// Runs `executable` with `arguments` (each passed byte for byte) and the current
    /// environment changed by `environment`; waits at most `timeout`, then kills the child.
    static func run(_ executable: URL, arguments: [[UInt8]], environment: [String: String],
                    timeout: Duration = .seconds(60)) async throws -> Result {
        let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outputs) }
        let stdoutPath = outputs.appendingPathComponent("stdout").path
        let stderrPath = outputs.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let argv = CStrings([Array(executable.path.utf8)] + arguments)
        let envp = CStrings(merged.map { Array("\($0.key)=\($0.value)".utf8) })
        var pid = pid_t()
        let spawned = ChildProcessLaunch.oneAtATime {
            posix_spawn(&pid, executable.path, &actions, nil, argv.pointers, envp.pointers)
        }
        guard spawned == 0 else { throw Failure.spawn(errno: spawned) }

        let termination = try await wait(for: pid, timeout: timeout)
        return Result(termination: termination,
                      standardOutput: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
                      standardError: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
    }

    /// Polls the child until it ends, or kills it (by its pid) once `timeout` has passed;
    /// sleeps between polls without holding a thread.
    private static func wait(for pid: pid_t, timeout: Duration) async throws -> Termination {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw Failure.timedOut(after: timeout)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        // The wait status layout of <sys/wait.h>: the low 7 bits hold the signal, zero on exit.
        let signal = status & 0x7F
        return signal == 0 ? .exit((status >> 8) & 0xFF) : .signal(signal)
    }
}

/// A NULL-terminated array of NUL-terminated C strings, freed with the value.
private final class CStrings {
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [[UInt8]]) {
        count = strings.count
        pointers = .allocate(capacity: strings.count + 1)
        for (index, bytes) in strings.enumerated() {
            let string = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (offset, byte) in bytes.enumerated() { string[offset] = CChar(bitPattern: byte) }
            string[bytes.count] = 0
            pointers[index] = string
        }
        pointers[strings.count] = nil
    }

    deinit {
        for index in 0..<count { pointers[index]?.deallocate() }
        pointers.deallocate()
    }
}
