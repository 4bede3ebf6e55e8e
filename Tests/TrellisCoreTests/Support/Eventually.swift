import Foundation
import TrellisTesting

/// Polls `condition` until it holds or `timeout` passes, sleeping a millisecond between polls
/// so the main queue and other tasks can run. Returns whether the condition held.
func eventually(timeout: Duration = testDeadline, _ condition: @Sendable () async -> Bool) async -> Bool {
    // Stretched by testPatience (TRELLIS_TEST_PATIENCE); a condition that holds returns at once.
    let deadline = ContinuousClock.now + timeout * testPatience
    while await !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
