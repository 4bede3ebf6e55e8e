import CLinux
import TrellisCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starting `trellis-plugin-host` for one plugin: the executable's place, and the spawn with
/// the shell's end of a socket pair on the child's file descriptor 3, its stdout and stderr on
/// a pipe, its stdin on /dev/null.
enum PluginProcessLaunch {
    /// The places looked in for the plugin host executable, in order: `$TRELLIS_PLUGIN_HOST`;
    /// beside the running executable (any SwiftPM build folder, the test runner's too);
    /// `<prefix>/libexec/trellis/` where the executable is `<prefix>/bin/<name>`.
    static func candidates(environment: [String: String] = ProcessEnvironment.current,
                           executable: URL = RunningExecutable.url) -> [String] {
        var paths: [String] = []
        if let path = environment["TRELLIS_PLUGIN_HOST"], !path.isEmpty { paths.append(path) }
        let directory = executable.deletingLastPathComponent()
        paths.append(directory.appendingPathComponent("trellis-plugin-host").path)
        paths.append(directory.deletingLastPathComponent().appendingPathComponent("libexec/trellis/trellis-plugin-host").path)
        return paths
    }

    /// A started plugin process: its pid, the shell's end of the socket and the read end of
    /// its stderr.
    struct Spawned {
        let pid: pid_t
        let socket: Int32
        let stderr: Int32
    }

    /// Done once, before the first plugin process starts: the shell's memory is its own (no
    /// process of the same user may read it through /proc or ptrace, a plugin's among them).
    private static let forbidDumps: Void = {
        _ = trellis_forbid_dumps()
    }()

    /// Spawns the plugin host for `library`, or says why it could not. `grants`: the grants
    /// message, whose `confinement` names the environment variables granted (the process gets
    /// the shell's environment through ``PluginConfinement/environment(from:granted:confinement:)``
    /// only).
    /// The plugin's send buffer (the kernel doubles it for its bookkeeping).
    static let sendBufferBytes = 32 * 1024

    static func spawn(library: URL, pluginID: String, grants: JSONValue = .null) -> Result<Spawned, PluginFailure> {
        _ = forbidDumps
        let paths = candidates()
        guard let executable = paths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return .failure(.pluginProcess(reason: "trellis-plugin-host is not installed: looked in \(paths.joined(separator: ", ")) (set TRELLIS_PLUGIN_HOST to its path)"))
        }
        var sockets: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            return .failure(.pluginProcess(reason: "socketpair failed: \(String(cString: strerror(errno)))"))
        }
        // What the plugin has written and the shell not yet taken is bounded by the plugin's
        // send buffer: a small one keeps a shell that lags (a slow watcher) a few hundred
        // messages behind, not thousands, so that an answer queued behind them comes soon.
        var sendBuffer = Int32(Self.sendBufferBytes)
        _ = setsockopt(sockets[1], SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        var errors: [Int32] = [0, 0]
        guard pipe(&errors) == 0, fcntl(errors[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(errors[1], F_SETFD, FD_CLOEXEC) == 0 else {
            close(sockets[0]); close(sockets[1])
            return .failure(.pluginProcess(reason: "pipe failed: \(String(cString: strerror(errno)))"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears FD_CLOEXEC on the copies: the child keeps fd 3 and its stderr.
        posix_spawn_file_actions_adddup2(&actions, sockets[1], 3)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // What a plugin prints goes with its stderr (kept for a crash report), never into the
        // shell's output (`trellis plugins` prints a table there); it reads nothing of the
        // shell's input (the automation channel, for one).
        posix_spawn_file_actions_adddup2(&actions, errors[1], 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // Any other descriptor the shell opened without CLOEXEC the plugin host closes first.
        let arguments = [executable, library.path, pluginID]
        let confinement = grants["confinement"]
        var environment = PluginConfinement.environment(
            from: ProcessEnvironment.current,
            granted: confinement?["environment"]?.arrayValue?.compactMap(\.stringValue) ?? [], confinement: confinement)
        // Without this, the Swift runtime's backtracer of a Swift plugin fills the stderr lines
        // kept for the report with its own dump instead of the plugin's.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // The plugin host follows the shell by its pid: a shell gone before it looks is noticed.
        environment["TRELLIS_SHELL_PID"] = String(getpid())
        // In a sanitized build (.ci/tsan) the sanitizer would catch the plugin's crash and exit
        // with its own report: let the signal end the process, as in a normal build.
        for key in ["TSAN_OPTIONS", "ASAN_OPTIONS"] {
            let own = "handle_segv=0 handle_sigbus=0 handle_abort=0 handle_sigill=0 handle_sigfpe=0"
            environment[key] = [environment[key] ?? "", own].filter { !$0.isEmpty }.joined(separator: " ")
        }
        // strdup'd C strings for posix_spawn's argv and envp, freed right after the call.
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // The process starts with no signal blocked, as any program does. posix_spawn would
        // hand on the mask of the thread calling it, and the shell's threads block most
        // signals (libdispatch's workers do, and a thread inherits its creator's mask): a
        // plugin's alarm, or a SIGTERM to it or from it to a program it runs, would never come.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(sockets[1])
        close(errors[1])
        guard status == 0 else {
            close(sockets[0]); close(errors[0])
            return .failure(.pluginProcess(reason: "\(executable) could not be started: \(String(cString: strerror(status)))"))
        }
        return .success(Spawned(pid: pid, socket: sockets[0], stderr: errors[0]))
    }
}
