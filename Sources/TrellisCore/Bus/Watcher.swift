import Synchronization

/// The weak reference to one watch owner, shared by all of that owner's watches on a bus.
///
/// Sharing it lets `trigger` load the owner once for a run of its watchers instead of once
/// per watcher (a weak load is the most expensive step of a delivery), and compare owners by
/// the identity of this handle, which is never reused while a watcher holds it.
// `object` is written once in `init` and only read afterwards (weak loads are thread-safe
// in the Swift runtime); `id` is immutable.
final class OwnerHandle: @unchecked Sendable {
    private(set) weak var object: AnyObject?
    let id: ObjectIdentifier

    init(_ object: AnyObject) {
        self.object = object
        self.id = ObjectIdentifier(object)
    }

    /// Whether this handle stands for `object` (alive, being passed in).
    func refers(to candidate: AnyObject) -> Bool {
        id == ObjectIdentifier(candidate) && object === candidate
    }

    var isAlive: Bool { object != nil }
}

/// One registered watch: its filters, its handler and whether it is still live.
///
/// A watcher is shared between the bus's table (under the bus lock) and the snapshots that
/// `trigger` iterates outside the lock, so everything it exposes is either immutable or atomic.
// All stored properties are `let` except the weak sender reference, which is written once in
// `init` and only read afterwards (weak loads are thread-safe in the Swift runtime);
// `liveness` is an atomic. Nothing is mutated without synchronisation.
final class Watcher: @unchecked Sendable {
    let id: WatchID
    /// The pattern string as given to `watch`, for `unwatch(owner:message:)`.
    let pattern: String
    let matcher: MessagePattern
    let delivery: Delivery
    /// The handler, given the (strongly loaded) owner and the event; a handler that does not
    /// want the owner is wrapped to ignore it.
    let body: @Sendable (AnyObject, Event) -> Void

    /// The owner, held weakly through a handle shared with its other watches: the watch ends
    /// when its owner is deallocated. Nil for a token watch (``WatchToken``), which ends
    /// when its token does and so needs no owner load to deliver.
    let owner: OwnerHandle?
    /// The sender filter, held weakly: the watch ends when that sender is deallocated.
    private weak var sender: AnyObject?
    let senderID: ObjectIdentifier?

    private let liveness = Atomic<Bool>(true)

    init(
        id: WatchID, pattern: String, owner: OwnerHandle?, sender: AnyObject?, delivery: Delivery,
        body: @escaping @Sendable (AnyObject, Event) -> Void
    ) {
        self.id = id
        self.pattern = pattern
        self.matcher = MessagePattern(pattern)
        self.delivery = delivery
        self.body = body
        self.owner = owner
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
        guard let owner else {
            // A token watch: its handler ignores the object it is given.
            body(self, event)
            return true
        }
        guard let object = owner.object else { return false }
        body(object, event)
        return true
    }

    /// Whether the owner, and the sender if the watch filters on one, are still alive.
    var hasLiveObjects: Bool {
        (owner?.isAlive ?? true) && (senderID == nil || sender != nil)
    }

    /// Whether this watcher is owned by `object` (which is alive, being passed in).
    func isOwned(by object: AnyObject) -> Bool {
        owner?.refers(to: object) ?? false
    }

    /// Whether this watcher filters on `object` as its sender.
    func filters(on object: AnyObject) -> Bool {
        senderID == ObjectIdentifier(object) && sender === object
    }

    /// Whether an event from `eventSender` passes the sender filter. An identity that matches
    /// a deallocated sender (a reused address) does not pass.
    @inline(__always)
    func accepts(sender eventSender: ObjectIdentifier?) -> Bool {
        guard let senderID else { return true }
        return senderID == eventSender && sender != nil
    }
}
