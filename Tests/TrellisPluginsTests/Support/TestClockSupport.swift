import Clocks
import TrellisPlugins
import TrellisTesting

extension TestClock<Duration> {
    /// The host's clock on this test clock.
    var plugin: PluginClock { PluginClock(self) }

    /// Advances the clock by `step` at a time until `condition` holds, letting the tasks each
    /// step wakes run in between (they may run on other threads: a millisecond of real time
    /// between steps paces them, it measures nothing). False if it still does not hold after
    /// ``testDeadline`` of real time.
    func advance(by step: Duration, until condition: @Sendable () -> Bool) async -> Bool {
        let giveUp = ContinuousClock.now + testDeadline
        while !condition() {
            guard ContinuousClock.now < giveUp else { return false }
            await advance(by: step)
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}
