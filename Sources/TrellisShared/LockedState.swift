// FoundationEssentials, not Foundation, where the toolchain has it: a plugin process loads this
// module, and Foundation's internationalisation would add 6 MiB to each (issue #37's plugin-rss).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A value guarded by a lock that ThreadSanitizer understands; Trellis's own lock, public so
/// that apps and plugins can use it too.
///
/// `Synchronization.Mutex` would be the first choice, but on Linux ThreadSanitizer sees its lock
/// only when it is free: a contended `Mutex` is taken and handed over inside
/// libswiftSynchronization (futex calls that TSan does not instrument), so TSan reports the
/// accesses it guards as races whenever two threads meet at it (Swift 6.3.1;
/// `.ci/lock-visibility/check` proves it on every CI run, for this lock and the others). This is
/// a plain `pthread_mutex_t`, which ThreadSanitizer intercepts (`NSLock` wraps one too, behind
/// two more calls). Never call out of `withLock`'s body (a handler, a trigger, a plugin): copy
/// what you need and call after it returns.
///
/// ```swift
/// let names = LockedState<[String]>([])
/// names.withLock { $0.append("net_state") }
/// assert(names.withLock { $0.count } == 1)
/// ```
// The state is only read or written between `pthread_mutex_lock` and `pthread_mutex_unlock`,
// so no two threads touch it at once; the mutex and the state each have a stable address.
public final class LockedState<State: Sendable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The state lives in its own allocation rather than a stored `var`: a class's `var`
    /// accessed through `inout` gets a run-time exclusivity check on every access (a
    /// thread-local lookup, about a tenth of an event-bus trigger), which the lock makes
    /// redundant.
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// A lock guarding `state`, its first value.
    ///
    /// ```swift
    /// let rows = LockedState<[[String]]>([])
    /// let visits = LockedState(0)
    /// assert(rows.withLock(\.isEmpty) && visits.withLock { $0 } == 0)
    /// ```
    public init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state. `body` must not call back into this
    /// same `LockedState` (the lock is not recursive). What `body` returns or throws is passed on.
    ///
    /// ```swift
    /// let rows = LockedState<[[String]]>([])
    /// let added = rows.withLock { rows in
    ///     rows.append(["Tea", "2"])
    ///     return rows.count
    /// }
    /// assert(added == 1)
    /// ```
    // Inlinable (and so public: `@inlinable package` is not inlined across modules by Swift
    // 6.3): callers are in other modules, where an opaque generic call costs a tenth of an
    // event-bus trigger.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}
