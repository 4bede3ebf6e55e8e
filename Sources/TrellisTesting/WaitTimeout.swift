/// A wait of ``EventRecorder`` or ``Trace`` that ran out of time: what was awaited, for how
/// long, and what had been recorded by then, so the failure says what happened instead.
public struct WaitTimeout: Error, CustomStringConvertible, Sendable {
    /// What the wait was for, in words ("2 events 'sync:finished'").
    public let expectation: String
    /// How long the wait lasted.
    public let timeout: Duration
    /// What had been recorded when the time ran out (message names, or trace entries).
    public let recorded: [String]

    /// A timeout of a wait for `expectation`, after `timeout`, with what was `recorded`.
    public init(expectation: String, timeout: Duration, recorded: [String]) {
        self.expectation = expectation
        self.timeout = timeout
        self.recorded = recorded
    }

    public var description: String {
        let shown = recorded.suffix(20)
        let list = shown.isEmpty ? "nothing" : (recorded.count > shown.count ? "…, " : "") + shown.joined(separator: ", ")
        return "waited \(timeout) for \(expectation); recorded \(recorded.count): \(list)"
    }
}
