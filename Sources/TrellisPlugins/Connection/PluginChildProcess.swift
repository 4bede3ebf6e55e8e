import CLinux
import Dispatch
import TrellisCore
#if canImport(Glibc)
import Glibc
#endif

/// A plugin process the shell started: its end, learnt from its pidfd (readable once the
/// process ended) on a dispatch source rather than a thread blocked in `waitpid` or a poll; and
/// a kill that can never reach another process that took its pid since.
final class PluginChildProcess: Sendable {
    let pid: pid_t
    private let pidfd: Int32
    private struct State {
        var reaped = false
        var killReason: String?
    }

    private let state = LockedState(State())
    // libdispatch's sources may be cancelled from any thread; the overlay does not mark them
    // Sendable. It is cancelled once, under `state`'s lock.
    nonisolated(unsafe) private let exitSource: DispatchSourceRead

    /// Watches child `pid`; `onExit` gets its wait status once, on `queue`. Nil when the kernel
    /// gives no pidfd (before Linux 5.3).
    init?(pid: pid_t, queue: DispatchQueue, onExit: @escaping @Sendable (Int32) -> Void) {
        let pidfd = pidfd_open(pid, 0)
        guard pidfd >= 0 else { return nil }
        self.pid = pid
        self.pidfd = pidfd
        exitSource = DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: queue)
        exitSource.setEventHandler { [weak self] in self?.reap(onExit) }
        exitSource.setCancelHandler { Glibc.close(pidfd) }
        exitSource.activate()
    }

    /// Why the shell killed the process, if it did.
    var killReason: String? { state.withLock { $0.killReason } }

    /// Kills the process (SIGKILL) unless it has ended; the first reason given is kept. False
    /// when it had ended already.
    @discardableResult
    func kill(because reason: String) -> Bool {
        state.withLock { state in
            if state.killReason == nil { state.killReason = reason }
            guard !state.reaped else { return false }
            // The pidfd stays open until the process is reaped, so the signal reaches it alone.
            return pidfd_send_signal(pidfd, SIGKILL, nil, 0) == 0
        }
    }

    /// The process ended: its status is collected, `onExit` told.
    private func reap(_ onExit: @Sendable (Int32) -> Void) {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid || (result < 0 && errno == ECHILD) else { return }
        state.withLock { state in
            state.reaped = true
            exitSource.cancel()
        }
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
