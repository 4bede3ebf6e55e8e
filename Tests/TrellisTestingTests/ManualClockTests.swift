import Testing
import TrellisCore
import TrellisTesting

@Suite("ManualClock")
struct ManualClockTests {
    @Test("a sleep ends when the clock is moved to its deadline, not before, and in no real time")
    func sleepEndsAtItsDeadline() async throws {
        let clock = ManualClock()
        let woke = LockedState(false)
        let sleeper = Task {
            try await clock.sleep(for: .seconds(30))
            woke.withLock { $0 = true }
        }
        await clock.waitForSleeper(dueIn: .seconds(30))
        clock.advance(by: .seconds(29))
        #expect(!woke.withLock { $0 }, "a second early")
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.withLock { $0 })
        #expect(clock.now == ManualClock().now.advanced(by: .seconds(30)))
    }

    @Test("a sleep whose deadline has passed returns at once; a cancelled one throws")
    func pastDeadlinesAndCancellation() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: ManualClock().now.advanced(by: .seconds(1)), tolerance: nil)

        let cancelled = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleeper(dueIn: .seconds(60))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test("advance(by:until:) moves the clock step by step until the condition holds")
    func advanceUntil() async {
        let clock = ManualClock()
        let looks = LockedState(0)
        let poller = Task {
            while (try? await clock.sleep(for: .seconds(1))) != nil { looks.withLock { $0 += 1 } }
        }
        #expect(await clock.advance(by: .seconds(1), until: { looks.withLock { $0 } >= 3 }))
        poller.cancel()
        #expect(clock.now >= ManualClock().now.advanced(by: .seconds(3)))
    }
}
