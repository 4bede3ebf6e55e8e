import Foundation

/// How much longer than usual a test waits for what a healthy run does: `TRELLIS_TEST_PATIENCE`
/// from the environment, or 1. `.ci/tsan` sets it, since its build runs everything several times
/// slower while the other suites keep the cores busy. Use it for deadlines that mean a failure
/// (a server that should be listening, a condition that should hold); a test of a timeout keeps
/// its own.
///
/// ```swift
/// let deadline = ContinuousClock.now + .seconds(30 * testPatience)
/// ```
public let testPatience = Double(ProcessInfo.processInfo.environment["TRELLIS_TEST_PATIENCE"] ?? "") ?? 1
