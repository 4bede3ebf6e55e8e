import Foundation

/// Runs `work`, which blocks while plugin processes start (up to 5 s for one that hangs), on a
/// thread of its own: blocking a thread of Swift concurrency's small pool would starve the
/// tests running beside these (their HTTP servers timed out).
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// ``offThePool(_:)`` for work that does not throw.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}
