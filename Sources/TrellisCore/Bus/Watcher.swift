import Synchronization

/// One registered watch: its pattern, filters and handler, and whether it is still live.
///
/// The table (under the bus lock) and the lists `trigger` delivers from (outside it) share
/// watchers, so a watcher is immutable apart from its liveness flag, which is atomic.
// @unchecked Sendable: every stored property is a `let`. The two weak references are set
// once in `init` and only loaded afterwards (weak loads are thread-safe in the Swift
// runtime); `active` is an atomic.
final class Watcher: @unchecked Sendable {
    let id: WatchID
    /// The pattern as given to `watch`, for `unwatch(owner:message:from:)`.
    let pattern: MessageName
    let matcher: MessagePattern
    /// Whether the handler runs on the main actor, enqueued by `trigger`, rather than inside it.
    let runsOnMainActor: Bool
    /// The handler, given the owner and the event (a token watch's handler ignores the owner).
    let handler: @Sendable (AnyObject?, Event) -> Void
    /// Whether the watch ends with an owner; a token watch ends when its ``WatchToken`` does.
    let hasOwner: Bool
    weak let owner: AnyObject?
    /// Whether the watch only accepts events triggered from `sender`.
    let hasSenderFilter: Bool
    weak let sender: AnyObject?
    private let active = Atomic<Bool>(true)

    init(
        id: WatchID, pattern: String, owner: AnyObject?, sender: AnyObject?, runsOnMainActor: Bool,
        handler: @escaping @Sendable (AnyObject?, Event) -> Void
    ) {
        self.id = id
        self.pattern = MessageName(pattern)
        self.matcher = MessagePattern(pattern)
        self.runsOnMainActor = runsOnMainActor
        self.handler = handler
        self.hasOwner = owner != nil
        self.owner = owner
        self.hasSenderFilter = sender != nil
        self.sender = sender
    }

    /// False once the watch was removed: a list taken earlier then skips this watcher.
    var isActive: Bool { active.load(ordering: .acquiring) }

    func deactivate() {
        active.store(false, ordering: .releasing)
    }

    /// Whether the owner, and the sender filtered on, are still alive.
    var isAlive: Bool {
        (!hasOwner || owner != nil) && (!hasSenderFilter || sender != nil)
    }

    /// Whether an event triggered from `eventSender` passes the sender filter. A filtered-on
    /// sender that died does not match a new object at its address: its weak reference is nil.
    func accepts(sender eventSender: AnyObject?) -> Bool {
        !hasSenderFilter || (eventSender != nil && sender === eventSender)
    }

    /// Runs a queued main-actor delivery, unless the watch ended or its owner died meanwhile.
    func deliverQueued(_ event: Event) {
        guard isActive else { return }
        let owner = owner
        if hasOwner && owner == nil { return }
        handler(owner, event)
    }
}
