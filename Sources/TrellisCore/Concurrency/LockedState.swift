import Foundation

/// A value guarded by a lock that ThreadSanitizer understands (`package`: TrellisPluginSDK uses it too).
///
/// `Synchronization.Mutex` would be the first choice, but on Linux ThreadSanitizer does not
/// see its lock and reports every access it guards as a race (checked with Swift 6.3.1), so
/// `swift test --sanitize=thread` could not check the code using it. `NSLock` wraps a
/// `pthread_mutex_t`, which ThreadSanitizer intercepts.
///
/// ```swift
/// let names = LockedState<[String]>([])
/// names.withLock { $0.append("net_state") }
/// let count = names.withLock { $0.count }
/// ```
// `state` is only read or written inside `lock.withLock`, so no two threads touch it at once.
package final class LockedState<State: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state. `body` must not call back into this
    /// same `LockedState` (the lock is not recursive).
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
