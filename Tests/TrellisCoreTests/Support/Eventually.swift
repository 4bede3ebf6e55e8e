import Foundation

/// Polls `condition` until it holds or `timeout` passes, sleeping a millisecond between polls
/// so the main queue and other tasks can run. Returns whether the condition held.
func eventually(timeout: Duration = .seconds(30), _ condition: @Sendable () async -> Bool) async -> Bool {
    // TRELLIS_TEST_PATIENCE (set by .ci/tsan) stretches the wait, as in the headless tests.
    let patience = Double(ProcessInfo.processInfo.environment["TRELLIS_TEST_PATIENCE"] ?? "") ?? 1
    let deadline = ContinuousClock.now + timeout * patience
    while await !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
