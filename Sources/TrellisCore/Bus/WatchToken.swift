/// Keeps one watch alive: the watch ends when the token is deallocated or cancelled.
///
/// Returned by the `EventBus.watch` forms without an `owner:`. Store it in the object the
/// watch belongs to (a property, or an array or set of tokens with `store(in:)`), and the
/// watch ends with that object; discard it (`_ = bus.watch(…)`) and the watch ends at once.
///
/// A token holds its bus weakly: keeping a token does not keep the bus alive.
public final class WatchToken: Sendable, Hashable, CustomStringConvertible {
    /// The watch's identifier, as `EventBus.unwatch(_:)` takes it.
    public let id: WatchID
    private weak let bus: EventBus?

    init(id: WatchID, bus: EventBus) {
        self.id = id
        self.bus = bus
    }

    deinit {
        bus?.unwatch(id)
    }

    /// Ends the watch now; later calls do nothing. A delivery already under way on another
    /// thread does not call the handler after `cancel` returns.
    public func cancel() {
        bus?.unwatch(id)
    }

    /// Appends the token to `tokens`, which then keeps the watch alive.
    public func store(in tokens: inout [WatchToken]) {
        tokens.append(self)
    }

    /// Inserts the token into `tokens`, which then keeps the watch alive.
    public func store(in tokens: inout Set<WatchToken>) {
        tokens.insert(self)
    }

    public static func == (lhs: WatchToken, rhs: WatchToken) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    public var description: String { "WatchToken(\(id))" }
}
