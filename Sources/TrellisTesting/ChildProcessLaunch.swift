import Foundation

/// Starts child processes one at a time within a test process, so that a child's end is seen
/// when it comes, whatever the tests running beside it start.
///
/// Foundation on Linux learns that a `Process` ended when a socket only that child holds
/// closes. The child gets it by inheriting it, and Foundation closes in the child every other
/// descriptor it saw open just before starting it. A launch on another thread in that moment
/// opens its own socket, which the first child then inherits too: the second `Process` then
/// stays `isRunning`, and `waitUntilExit()` waits, until *both* children have ended. A
/// command that exits at once looks stuck for as long as a window started beside it lives.
/// Tests run in parallel, so every test that starts a process goes through here (Trellis's
/// own tests are checked for any other launch: `ChildProcessLaunchTests`).
///
/// The child also starts with no signal blocked. A child inherits the signal mask of the
/// thread that started it, and the threads Swift Testing runs tests on block most signals
/// (libdispatch's workers do): without this, `terminate()` would not end a child a test
/// started, and a server or window left behind would outlive its test.
///
/// ```swift
/// let process = Process()
/// process.executableURL = URL(fileURLWithPath: "/bin/true")
/// try process.runOneAtATime()
/// process.waitUntilExit()
/// ```
public enum ChildProcessLaunch {
    private static let launching = NSLock()

    /// Runs `launch` (a `posix_spawn`, a `Process.run()`) while no other launch of this
    /// process is under way, with no signal blocked on the calling thread meanwhile.
    public static func oneAtATime<Launched>(_ launch: () throws -> Launched) rethrows -> Launched {
        try launching.withLock {
            var none = sigset_t(), before = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, &before)
            defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
            return try launch()
        }
    }
}

extension Process {
    /// `run()` through ``ChildProcessLaunch/oneAtATime(_:)``: no other launch meanwhile, and
    /// the child starts with no signal blocked.
    public func runOneAtATime() throws {
        try ChildProcessLaunch.oneAtATime { try run() }
    }
}
