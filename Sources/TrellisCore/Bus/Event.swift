/// One delivery of a triggered message: what a watcher's handler receives.
///
/// ```swift
/// bus.watch("note:saved", owner: self) { _, event in
///     print(event.message, event.data["id"]?.intValue ?? -1)
/// }
/// bus.trigger("note:saved", ["id": 7], from: note)
/// ```
public struct Event: Sendable {
    /// The message name exactly as it was triggered (never a wildcard pattern).
    public let message: String
    /// The payload given to `trigger`; `.null` when none was given.
    public let data: JSONValue
    /// The identity of the object the message was triggered from, if any.
    ///
    /// Only the identity is carried, never the object itself, so an event can cross threads
    /// and the plugin ABI without keeping the sender alive.
    public let sender: ObjectIdentifier?

    /// Makes an event; the bus builds these, tests and front ends may too.
    public init(message: String, data: JSONValue = .null, sender: ObjectIdentifier? = nil) {
        self.message = message
        self.data = data
        self.sender = sender
    }
}

/// The handle of one watch, returned by `EventBus.watch(_:from:owner:_:)`, for
/// `EventBus.unwatch(_:)`.
///
/// Identifiers are never reused within one bus; they increase in registration order.
public struct WatchID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The registration sequence number.
    public let rawValue: UInt64

    package init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: WatchID, rhs: WatchID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { "watch#\(rawValue)" }
}
