import Foundation

/// Runs `work`, which blocks its thread, on a thread of its own and awaits its result.
///
/// Swift concurrency runs every task on a pool of one thread per core. A test that blocks one
/// of them (`PluginHost.loadAll()` waits while each plugin process starts, up to its start
/// deadline for one that hangs) holds back every other test running beside it: on two cores
/// their HTTP servers stopped answering. `Task.detached` does not help: it runs on the same
/// pool. Call the blocking work through this instead:
///
/// ```swift
/// let reports = await offThePool { host.loadAll() }
/// ```
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// `offThePool(_:)`, for work that does not throw.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}
