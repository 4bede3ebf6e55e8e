import Foundation
import TrellisCore

/// Runs `work` on the main actor from a command's synchronous `run()` (on the main thread),
/// turning the main run loop, which serves the main queue, until the work is done; returns
/// its value or throws its error. The GTK window has its own loop; the commands without a
/// window (`--headless`, `sync`) need this one for their awaits, and for what the store and
/// the bus deliver on the main queue.
func runOnMainActor<T: Sendable>(_ work: @escaping @MainActor () async throws -> T) throws -> T {
    let outcome = LockedState<Result<T, any Error>?>(nil)
    Task { @MainActor in
        let result: Result<T, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
    }
    while outcome.withLock({ $0 }) == nil {
        // Returns once a source (the main queue among them) was served; the limit is only a backstop.
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 1))
    }
    return try outcome.withLock { $0! }.get()
}
