import Synchronization

/// One registered watch: its filters, its handler and whether it is still live.
///
/// A watcher is shared between the bus's table (under the bus lock) and the snapshots that
/// `trigger` iterates outside the lock, so everything it exposes is either immutable or atomic.
// All stored properties are `let` except the two weak references, which are written once in
// `init` and only read afterwards (weak loads are thread-safe in the Swift runtime);
// `liveness` is an atomic. Nothing is mutated without synchronisation.
final class Watcher: @unchecked Sendable {
    let id: WatchID
    /// The pattern string as given to `watch`, for `unwatch(owner:message:)`.
    let pattern: String
    let matcher: MessagePattern
    let delivery: Delivery
    let handler: Handler

    /// Held weakly: the watch ends when its owner is deallocated.
    private weak var owner: AnyObject?
    let ownerID: ObjectIdentifier
    /// The sender filter, held weakly: the watch ends when that sender is deallocated.
    private weak var sender: AnyObject?
    let senderID: ObjectIdentifier?

    private let liveness = Atomic<Bool>(true)

    /// What a watch calls: the plain form needs only to know the owner is alive, the other
    /// receives it (loaded strongly for the call).
    enum Handler: Sendable {
        case plain(@Sendable (Event) -> Void)
        case withOwner(@Sendable (AnyObject, Event) -> Void)
    }

    init(
        id: WatchID, pattern: String, owner: AnyObject, sender: AnyObject?, delivery: Delivery,
        handler: Handler
    ) {
        self.id = id
        self.pattern = pattern
        self.matcher = MessagePattern(pattern)
        self.delivery = delivery
        self.handler = handler
        self.owner = owner
        self.ownerID = ObjectIdentifier(owner)
        self.sender = sender
        self.senderID = sender.map(ObjectIdentifier.init)
    }

    /// False once unwatched or found dead; a snapshot taken earlier then skips this watcher.
    var isActive: Bool { liveness.load(ordering: .acquiring) }

    /// Ends the watch: later deliveries, including ones already in flight, skip it.
    func deactivate() {
        liveness.store(false, ordering: .releasing)
    }

    /// Calls the handler with `event` if the owner is still alive; returns whether it was.
    func deliver(_ event: Event) -> Bool {
        guard let owner else { return false }
        switch handler {
        case .plain(let body): body(event)
        case .withOwner(let body): body(owner, event)
        }
        return true
    }

    /// Whether the owner, and the sender if the watch filters on one, are still alive.
    var hasLiveObjects: Bool {
        owner != nil && (senderID == nil || sender != nil)
    }

    /// Whether this watcher is owned by `object` (which is alive, being passed in).
    func isOwned(by object: AnyObject) -> Bool {
        ownerID == ObjectIdentifier(object) && owner === object
    }

    /// Whether this watcher filters on `object` as its sender.
    func filters(on object: AnyObject) -> Bool {
        senderID == ObjectIdentifier(object) && sender === object
    }

    /// Whether an event from `eventSender` passes the sender filter. An identity that matches
    /// a deallocated sender (a reused address) does not pass.
    func accepts(sender eventSender: ObjectIdentifier?) -> Bool {
        guard let senderID else { return true }
        return senderID == eventSender && sender != nil
    }
}
