import Foundation

/// A value guarded by a lock that ThreadSanitizer understands; Trellis's own lock, public so
/// that apps and plugins can use it too.
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
// The state is only read or written inside `lock.lock()`/`unlock()`, so no two threads
// touch it at once.
public final class LockedState<State: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    /// The state lives in its own allocation rather than a stored `var`: a class's `var`
    /// accessed through `inout` gets a run-time exclusivity check on every access (a
    /// thread-local lookup, about a tenth of an event-bus trigger), which the lock makes
    /// redundant.
    @usableFromInline let state: UnsafeMutablePointer<State>

    public init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state. `body` must not call back into this
    /// same `LockedState` (the lock is not recursive).
    // Inlinable (and so public: `@inlinable package` is not inlined across modules by Swift
    // 6.3): callers are in other modules, where an opaque generic call costs a tenth of an
    // event-bus trigger.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state.pointee)
    }
}
