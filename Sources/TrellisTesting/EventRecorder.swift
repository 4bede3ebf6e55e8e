import TrellisCore

/// Records the events a bus delivers, for a test to assert on or wait for.
///
/// The recorder watches its pattern synchronously, so an event is recorded inside `trigger`,
/// on the triggering thread, before `trigger` returns, and events are kept in trigger order.
/// The watch lasts as long as the recorder (or until ``stop()``).
///
/// ```swift
/// let bus = EventBus()
/// let network = EventRecorder(bus: bus, pattern: "network:*")
/// bus.trigger("network:on")
/// bus.trigger("network:off", ["outcome": "200"])
/// #expect(network.messages == ["network:on", "network:off"])
/// #expect(network.all.last?.data["outcome"] == "200")
///
/// let sync = EventRecorder(bus: bus, pattern: "sync:*")
/// Task.detached { bus.trigger("sync:finished", ["pushed": 1]) }
/// let finished = try await sync.wait(for: "sync:finished")
/// #expect(finished.first?.data["pushed"] == 1)
/// ```
///
/// The recorder works with XCTest as well as Swift Testing: it returns values to assert on
/// and throws ``WaitTimeout`` from a wait that runs out of time.
public final class EventRecorder: Sendable {
    private let recording = Recording<Event>()
    private let token: WatchToken

    /// Starts recording the events of `bus` whose message matches `pattern` (an exact name or
    /// a wildcard, as `EventBus.watch` takes it; by default every message).
    public init(bus: EventBus, pattern: String = "*") {
        token = bus.watch(pattern) { [recording] event in recording.append(event) }
    }

    /// Every event recorded so far, in trigger order.
    public var all: [Event] { recording.all }

    /// The message names of the recorded events, in trigger order.
    public var messages: [String] { all.map(\.message) }

    /// The recorded events named exactly `message`, in trigger order.
    public func events(named message: String) -> [Event] {
        all.filter { $0.message == message }
    }

    /// How many events named exactly `message` were recorded.
    public func count(_ message: String) -> Int {
        events(named: message).count
    }

    /// Forgets what was recorded so far (recording goes on).
    public func clear() {
        recording.removeAll()
    }

    /// Ends the watch: later events are not recorded; what was recorded stays.
    public func stop() {
        token.cancel()
    }

    /// Waits until `count` events named `message` have been recorded (counting those recorded
    /// before the call) and returns them.
    ///
    /// - Parameter timeout: how long to wait before giving up. It is a deadline for something
    ///   that should happen, not a measurement: keep it generous (a loaded machine is slow).
    ///   By default ``testDeadline``.
    /// - Throws: ``WaitTimeout`` listing what was recorded instead.
    @discardableResult
    public func wait(for message: String, count: Int = 1, timeout: Duration = testDeadline) async throws(WaitTimeout) -> [Event] {
        let events = try await wait(until: { events in events.lazy.filter { $0.message == message }.count >= count },
                                    describedAs: count == 1 ? "an event '\(message)'" : "\(count) events '\(message)'",
                                    timeout: timeout)
        return events.filter { $0.message == message }
    }

    /// Waits until `condition` holds for the events recorded (all of them, in trigger order)
    /// and returns them. The condition runs on the thread that recorded the latest event, or
    /// on the waiting task: it must only look at the events it is given.
    ///
    /// - Throws: ``WaitTimeout`` listing what was recorded instead.
    @discardableResult
    public func wait(until condition: @escaping @Sendable ([Event]) -> Bool,
                     timeout: Duration = testDeadline) async throws(WaitTimeout) -> [Event] {
        try await wait(until: condition, describedAs: "the recorded events to satisfy a condition", timeout: timeout)
    }

    private func wait(until condition: @escaping @Sendable ([Event]) -> Bool, describedAs expectation: String,
                      timeout: Duration) async throws(WaitTimeout) -> [Event] {
        guard let events = await recording.wait(until: condition, timeout: timeout) else {
            throw WaitTimeout(expectation: expectation, timeout: timeout, recorded: messages)
        }
        return events
    }
}
