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
    /// The identity of `owner`'s handle (nil for a token watch), to group a run of one
    /// owner's watchers without touching the handle's reference count.
    let ownerKey: ObjectIdentifier?
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
        self.ownerKey = owner.map { ObjectIdentifier($0) }
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

/// An immutable list of watchers as a trigger delivers it: the table's cached route for one
/// message name. A trigger borrows it without a retain (see ``ReaderSlots``), and reads its
/// elements through `buffer`, a plain pointer, so no array buffer is retained either.
// `buffer` is allocated and initialised in `init`, never written afterwards, and freed in
// `deinit`; reading it from several threads is safe.
final class WatcherList: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Watcher>

    init(_ watchers: [Watcher]) {
        buffer = .allocate(capacity: watchers.count)
        _ = buffer.initialize(from: watchers)
    }

    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }
}

/// The reader slots of one bus: each marks one trigger delivering from a borrowed
/// ``WatcherList``.
///
/// A trigger claims a free slot under the bus lock, stamping it with the table's epoch, and
/// frees it with a release store when its delivery is over. The table frees a list it dropped
/// at epoch R only when no slot holds a stamp ≤ R (read with acquire): so a borrowed list
/// stays alive for every trigger that could have read it, without a retain and release per
/// trigger, which were a third of its cost.
// The slots are atomics in one allocation owned by this object, freed in `deinit`; every
// access is an atomic operation, so sharing the object between threads is safe.
final class ReaderSlots: @unchecked Sendable {
    static let count = 16
    private let slots: UnsafeMutablePointer<Atomic<UInt64>>

    init() {
        slots = .allocate(capacity: Self.count)
        for index in 0..<Self.count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: Self.count)
        slots.deallocate()
    }

    /// Under the bus lock: claims a free slot for a trigger starting at `epoch` and returns
    /// its index, or -1 when all are taken. Only a slot's own trigger frees it.
    @inline(__always)
    func claim(epoch: UInt64) -> Int {
        for index in 0..<Self.count where slots[index].load(ordering: .relaxed) == 0 {
            slots[index].store(epoch, ordering: .relaxed)
            return index
        }
        return -1
    }

    /// The trigger holding slot `index` is done with its list: every read of the list
    /// happens before this store.
    @inline(__always)
    func release(_ index: Int) {
        slots[index].store(0, ordering: .releasing)
    }

    /// The oldest stamp of a trigger in flight, or `UInt64.max` when none is.
    func oldestStamp() -> UInt64 {
        var oldest = UInt64.max
        for index in 0..<Self.count {
            let stamp = slots[index].load(ordering: .acquiring)
            if stamp != 0 && stamp < oldest { oldest = stamp }
        }
        return oldest
    }
}
