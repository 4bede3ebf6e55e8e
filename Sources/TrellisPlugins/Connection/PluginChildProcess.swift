import CLinux
import TrellisCore
#if canImport(Glibc)
import Glibc
#endif

/// A plugin process the shell started: its end, learnt from its pidfd (readable once the
/// process ended) on the connection's event loop rather than a thread blocked in `waitpid`; and
/// a kill that can never reach another process that took its pid since.
final class PluginChildProcess: Sendable {
    let pid: pid_t
    private let pidfd: Int32
    private struct State {
        var reaped = false
        var killReason: String?
    }

    private let state = LockedState(State())

    /// Child `pid`, by a pidfd. Nil when the kernel gives none (before Linux 5.3).
    init?(pid: pid_t) {
        let pidfd = pidfd_open(pid, 0)
        guard pidfd >= 0 else { return nil }
        self.pid = pid
        self.pidfd = pidfd
    }

    /// Watches for the process's end on `loop`: `onExit` gets its wait status once, there (an
    /// end before this call is reported too: the pidfd stays readable).
    ///
    /// The handler holds the pid, the pidfd and the state, not this object: the process is
    /// reaped and its pidfd closed even once its connection is gone (a host released with its
    /// plugins killed), so that the loop never spins on a pidfd no one reads.
    func watch(on loop: PluginEventLoop, onExit: @escaping @Sendable (Int32) -> Void) {
        loop.watch(pidfd, for: PluginEventLoop.Interest(reading: true, writing: false)) { [pid, pidfd, state] _ in
            Self.reap(pid: pid, pidfd: pidfd, state: state, on: loop, onExit)
        }
    }

    /// Why the shell killed the process, if it did.
    var killReason: String? { state.withLock { $0.killReason } }

    /// Kills the process (SIGKILL) unless it has ended; the first reason given is kept. True
    /// only for the first kill of a running process (the one worth saying).
    @discardableResult
    func kill(because reason: String) -> Bool {
        state.withLock { state in
            let first = state.killReason == nil
            if first { state.killReason = reason }
            guard !state.reaped else { return false }
            // The pidfd stays open until the process is reaped, so the signal reaches it alone.
            return pidfd_send_signal(pidfd, SIGKILL, nil, 0) == 0 && first
        }
    }

    /// The process ended: its status is collected, `onExit` told.
    private static func reap(pid: pid_t, pidfd: Int32, state: LockedState<State>, on loop: PluginEventLoop, _ onExit: @Sendable (Int32) -> Void) {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid || (result < 0 && errno == ECHILD) else { return }
        state.withLock { $0.reaped = true }
        // The pidfd is closed once the process is reaped: a kill never reaches a reused pid.
        loop.close(pidfd)
        onExit(result == pid ? status : 0)
    }

    /// How a child ended, in words: "killed by signal 11 (SIGSEGV)" or "exited with status 3".
    static func describe(waitStatus status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        let name = signalNames[signal].map { " (\($0))" } ?? ""
        return "killed by signal \(signal)\(name)"
    }

    private static let signalNames: [Int32: String] = [
        SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
        SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS",
    ]
}
