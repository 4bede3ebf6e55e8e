import Synchronization

/// The identity of one page, unique for the life of the process: what a request carries so
/// that its view and error objects find the page that sent it (``Navigator/page(_:)``),
/// whatever page is on top by the time they run.
public struct PageID: Hashable, Sendable, CustomStringConvertible {
    /// The page's sequence number, from 1.
    public let rawValue: UInt64

    private static let last = Atomic<UInt64>(0)

    /// The next free identity.
    static func next() -> PageID {
        PageID(rawValue: last.add(1, ordering: .relaxed).newValue)
    }

    public var description: String { "page#\(rawValue)" }
}
