import Foundation
import TrellisTesting
#if canImport(Glibc)
import Glibc
#endif

/// A program run as a child process (with `posix_spawnp`, not `Foundation.Process`): a
/// server kept running and killed like a crash, or a command run to its end.
///
/// ```swift
/// let server = try ChildProcess(["python3", "-m", "json_server.cli", "-b", "127.0.0.1:8080", "db.json"],
///                               output: logURL)
/// server.kill()                                    // SIGKILL: nothing is flushed
/// let result = try await ChildProcess.run([trellis.path, "sync"], environment: ["HOME": home])
/// ```
final class ChildProcess: Sendable {
    /// What a command run to its end did.
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    enum Failure: Error, CustomStringConvertible {
        case spawn(program: String, errno: Int32)
        case timedOut(program: String, after: Duration)

        var description: String {
            switch self {
            case .spawn(let program, let code): "cannot start \(program): \(String(cString: strerror(code)))"
            case .timedOut(let program, let limit): "\(program) did not exit within \(limit) and was killed"
            }
        }
    }

    let pid: pid_t

    /// Starts `arguments[0]` (looked up in `PATH`) with the other arguments, in `directory`
    /// if given; standard output and error go to `output`, standard input reads `input`
    /// (else `/dev/null`); `environment` changes the current environment.
    init(_ arguments: [String], environment: [String: String] = [:], input: URL? = nil, output: URL,
         errors: URL? = nil) throws
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input?.path ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, (errors ?? output).path,
                                         O_WRONLY | O_CREAT | (errors == nil ? O_APPEND : O_TRUNC), 0o600)
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = ChildProcessLaunch.oneAtATime { posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) }
        guard spawned == 0 else { throw Failure.spawn(program: arguments[0], errno: spawned) }
        self.pid = pid
    }

    /// Kills the process at once (SIGKILL, as a crash or a power cut) and reaps it.
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// Waits for the process to exit, at most `timeout` (then kills it and throws); returns
    /// its exit status (128 + the signal when killed by one).
    func wait(timeout: Duration, program: String) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now > deadline {
                kill()
                throw Failure.timedOut(program: program, after: timeout)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Runs a command to its end and returns what it printed.
    static func run(_ arguments: [String], environment: [String: String] = [:], input: URL? = nil,
                    timeout: Duration = .seconds(120)) async throws -> Result
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, errors) = (folder.appendingPathComponent("stdout"), folder.appendingPathComponent("stderr"))
        let child = try ChildProcess(arguments, environment: environment, input: input, output: output, errors: errors)
        let status = try await child.wait(timeout: timeout, program: arguments[0])
        return Result(status: status, standardOutput: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
                      standardError: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freePort() throws -> Int {
        while true {  // never a port another server of this process had: see TestPorts
            let port = try unusedPort()
            if TestPorts.claim(port) { return port }
        }
    }

    private static func unusedPort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socketFD, address, length) == 0 && getsockname(socketFD, address, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
