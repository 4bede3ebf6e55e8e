/// Identifies one registration in a ``RouteTable``; returned by `RouteTable.add(_:owner:isPublic:target:)`.
///
/// IDs grow in registration order within a table, so comparing two IDs of the same
/// table tells which route was registered first.
public struct RouteID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The registration's sequence number in its table, starting at 1.
    public let rawValue: UInt64

    /// Wraps a sequence number; a ``RouteTable`` makes these, callers only compare and print them.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: RouteID, rhs: RouteID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `route#N`.
    public var description: String { "route#\(rawValue)" }
}

/// One registered route, as listed by ``RouteTable/entries`` (what `trellis routes` prints).
public struct RouteEntry<Target: Sendable>: Sendable {
    /// The registration's identity, for ``RouteTable/remove(_:)``.
    public let id: RouteID

    /// The parsed pattern.
    public let pattern: RoutePattern

    /// Who registered the route (a plugin id, a controller type name…), for ``RouteTable/remove(owner:)``.
    public let owner: String

    /// Whether the route may be reached from outside the application (a command line
    /// argument, a link, another plugin). The table records it; the navigator enforces it.
    public let isPublic: Bool

    /// What the route leads to: a block, a controller type and action…
    public let target: Target
}
