import Foundation
import TrellisCore

/// How much longer than usual a test waits for what a healthy run does: `TRELLIS_TEST_PATIENCE`
/// from the environment, or 1. `.ci/tsan` sets it, since its build runs everything several times
/// slower while the other suites keep the cores busy. Use it for deadlines that mean a failure
/// (a server that should be listening, a condition that should hold); a test of a timeout keeps
/// its own.
///
/// ```swift
/// let deadline = ContinuousClock.now + .seconds(30 * testPatience)
/// ```
public let testPatience = Double(ProcessEnvironment.current["TRELLIS_TEST_PATIENCE"] ?? "") ?? 1

/// How long a wait for something that should happen lasts before the test fails, unless the
/// test names its own: 30 seconds × ``testPatience``. The waits of ``EventRecorder`` and
/// ``Trace`` use it. It is a deadline for a failure, not a measurement: under `.ci/tsan` a
/// trivial task may wait behind hundreds of other tests' tasks on the two threads of the
/// cooperative pool.
public let testDeadline: Duration = .seconds(testDeadlineSeconds)

/// ``testDeadline`` in seconds, for the waits that count in `TimeInterval` (`Date`, `RunLoop`,
/// a process's exit).
public let testDeadlineSeconds: TimeInterval = 30 * testPatience
