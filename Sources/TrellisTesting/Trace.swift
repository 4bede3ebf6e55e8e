/// What a test's handlers saw, in the order they saw it: a list of lines that any thread may
/// add to, for a test to compare with the order it expects.
///
/// Where ``EventRecorder`` shows what the bus delivered, a trace shows what the code under
/// test did with it: which handler ran, on which thread, with what.
///
/// ```swift
/// let bus = EventBus()
/// let trace = Trace()
/// var watches: [WatchToken] = []
/// bus.watch("tick") { _ in trace.record("first") }.store(in: &watches)
/// bus.watch("tick") { event in trace.record("second \(event.data)") }.store(in: &watches)
/// bus.trigger("tick", 1)
/// #expect(trace.all == ["first", "second 1"])
/// ```
public final class Trace: Sendable {
    private let recording = Recording<String>()

    /// An empty trace.
    public init() {}

    /// Adds `entry` at the end.
    public func record(_ entry: String) {
        recording.append(entry)
    }

    /// Every entry so far, in the order recorded.
    public var all: [String] { recording.all }

    /// Forgets the entries so far.
    public func clear() {
        recording.removeAll()
    }

    /// Waits until `condition` holds for the entries (all of them, in order) and returns them.
    /// The condition runs on the thread that recorded the latest entry, or on the waiting
    /// task: it must only look at the entries it is given.
    ///
    /// - Parameter timeout: a generous deadline for something that should happen, not a
    ///   measurement. By default ``testDeadline``.
    /// - Throws: ``WaitTimeout`` listing the entries recorded instead.
    @discardableResult
    public func wait(until condition: @escaping @Sendable ([String]) -> Bool,
                     timeout: Duration = testDeadline) async throws(WaitTimeout) -> [String] {
        guard let entries = await recording.wait(until: condition, timeout: timeout) else {
            throw WaitTimeout(expectation: "the trace to satisfy a condition", timeout: timeout, recorded: all)
        }
        return entries
    }
}
