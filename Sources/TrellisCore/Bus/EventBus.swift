import Dispatch
import Logging
import Synchronization

/// The message bus: iStructure's `$watch`, `$trigger` and `$unwatch`, thread-safe and with
/// watches that end by themselves.
///
/// ```swift
/// let bus = EventBus()
/// bus.watch("network:*", owner: self) { event in
///     print("network activity:", event.message)
/// }
/// bus.watch("note:saved", from: note, owner: self, delivery: .mainActor) { event in
///     // runs on the main actor
/// }
/// bus.trigger("network:on")
/// bus.trigger("note:saved", ["id": 7], from: note)
/// ```
///
/// ## Ownership
/// Every watch has an owner, held weakly: when the owner is deallocated its watches end by
/// themselves, with no `unwatch` in `deinit`. The forms without `owner:` return a
/// ``WatchToken`` instead, which is the owner: the watch ends when the token is deallocated
/// or cancelled (keep it in a property, or `store(in:)` a collection of tokens). A token
/// watch is the cheapest to deliver, since the bus has no owner to load. A watch filtered on
/// a sender ends likewise when that sender is deallocated. The handler itself is held
/// strongly, so it must not capture its owner (or its token's holder) strongly: that would
/// keep the owner alive through the bus. Use the variants whose handler receives the owner,
/// `watch(_:from:owner:delivery:_:)` with a two-argument closure or `watchOnMainActor`, and
/// capture nothing.
///
/// ## Patterns
/// A pattern is an exact message name, or a wildcard where `*` matches any run of
/// characters: `"network:*"` is every message starting with `network:`, `"*"` is every
/// message. See ``MessagePattern`` for the full syntax. Names and patterns are compared by
/// their UTF-8 bytes (`"caf\u{E9}"` and `"cafe\u{301}"` are two messages), as
/// `Notification.Name`s are compared by their code units on Apple platforms.
///
/// ## Delivery rules
/// - Watchers of one message run in registration order (exact and wildcard watches
///   interleaved by when they were registered).
/// - `trigger` takes a snapshot of the matching watchers under the lock, then runs the
///   handlers outside it: a handler may watch, unwatch and trigger freely.
/// - A watcher added during a delivery does not receive that event.
/// - A watcher removed (or whose owner died) during a delivery is not called afterwards, even
///   if it was in the snapshot; the same holds for main-actor deliveries still queued.
/// - While one event is delivered to consecutive watchers of one owner, the bus holds that
///   owner strongly (it loads the owner once for the run, which is what makes a delivery
///   cost a few nanoseconds): an owner whose last other reference is dropped by one of
///   these handlers is deallocated when the run ends, not between two of its own handlers.
/// - A trigger from inside a synchronous handler is delivered depth-first: all its
///   synchronous watchers run before the outer trigger moves on to its next watcher.
/// - `.mainActor` watchers are enqueued on the main queue when the message is triggered (one
///   queued block per trigger), so they run after `trigger` returns, in trigger order.
public final class EventBus: Sendable {
    private let table = LockedState(WatchTable())
    /// Set (under the lock) while some retired list waits for a trigger to finish; a trigger
    /// that sees it when done frees what it can (see ``ReaderSlots``).
    private let retiredPending = Atomic<Bool>(false)
    /// The table's reader slots, reached without the lock to free a slot.
    private let readers: ReaderSlots
    private let logger: Logger

    /// Creates an empty bus.
    public init(logger: Logger = Logger(label: "trellis.bus")) {
        self.logger = logger
        readers = table.withLock { $0.readers }
    }

    // MARK: Watching

    /// Watches `pattern` (an exact name or a wildcard), optionally only when triggered from
    /// `sender`, until `owner` is deallocated or the watch is removed.
    /// - Returns: the watch's identifier, for `unwatch(_:)`.
    @discardableResult
    public func watch(
        _ pattern: String, from sender: AnyObject? = nil, owner: AnyObject, delivery: Delivery = .synchronous,
        _ handler: @escaping @Sendable (Event) -> Void
    ) -> WatchID {
        register(pattern, sender: sender, owner: owner, delivery: delivery, body: { _, event in handler(event) })
    }

    /// Watches every message triggered from `sender` (iStructure's `$watch(object, block)`).
    @discardableResult
    public func watch(
        everyMessageFrom sender: AnyObject, owner: AnyObject, delivery: Delivery = .synchronous,
        _ handler: @escaping @Sendable (Event) -> Void
    ) -> WatchID {
        register("*", sender: sender, owner: owner, delivery: delivery, body: { _, event in handler(event) })
    }

    /// Watches `pattern` with a handler that receives the owner, so it needs to capture nothing:
    ///
    /// ```swift
    /// bus.watch("network:on", owner: self) { service, _ in service.increment() }
    /// ```
    @discardableResult
    public func watch<Owner: AnyObject & Sendable>(
        _ pattern: String, from sender: AnyObject? = nil, owner: Owner, delivery: Delivery = .synchronous,
        _ handler: @escaping @Sendable (Owner, Event) -> Void
    ) -> WatchID {
        let typed: @Sendable (AnyObject, Event) -> Void = { object, event in
            // The bus passes back the very object registered as `owner`, so the cast cannot fail.
            handler(unsafeDowncast(object, to: Owner.self), event)
        }
        return register(pattern, sender: sender, owner: owner, delivery: delivery, body: typed)
    }

    /// Watches `pattern` with a main-actor handler that receives the owner: the form a front
    /// end uses to update widgets.
    ///
    /// ```swift
    /// bus.watchOnMainActor("activity:changed", owner: self) { window, event in
    ///     window.spinner.isVisible = event.data["active"]?.boolValue ?? false
    /// }
    /// ```
    @discardableResult
    public func watchOnMainActor<Owner: AnyObject & Sendable>(
        _ pattern: String, from sender: AnyObject? = nil, owner: Owner,
        _ handler: @escaping @MainActor @Sendable (Owner, Event) -> Void
    ) -> WatchID {
        let isolated: @Sendable (AnyObject, Event) -> Void = { object, event in
            // As above, `object` is the registered owner.
            let owner = unsafeDowncast(object, to: Owner.self)
            // `.mainActor` delivery always runs on the main queue, the main actor's executor.
            MainActor.assumeIsolated { handler(owner, event) }
        }
        return register(pattern, sender: sender, owner: owner, delivery: .mainActor, body: isolated)
    }

    // MARK: Watching with a token

    /// Watches `pattern`, optionally only when triggered from `sender`, for as long as the
    /// returned token is kept: the watch ends when the token is deallocated (or cancelled).
    ///
    /// Keep the token in the object the watch belongs to, and the watch ends with that
    /// object, as with `AnyCancellable` in Combine:
    ///
    /// ```swift
    /// final class Badge {
    ///     private var watches: [WatchToken] = []
    ///     init(bus: EventBus, counter: Counter) {
    ///         bus.watch("note:saved") { _ in counter.increment() }.store(in: &watches)
    ///     }
    /// }
    /// ```
    ///
    /// A token watch has no owner for the bus to load on each delivery, so it is the cheapest
    /// watch to trigger. Its handler must not capture the object that keeps the token
    /// strongly: the bus holds the handler, so that object would never be deallocated.
    public func watch(
        _ pattern: String, from sender: AnyObject? = nil, delivery: Delivery = .synchronous,
        _ handler: @escaping @Sendable (Event) -> Void
    ) -> WatchToken {
        let id = register(pattern, sender: sender, owner: nil, delivery: delivery, body: { _, event in handler(event) })
        return WatchToken(id: id, bus: self)
    }

    /// Watches every message triggered from `sender` for as long as the returned token is kept.
    public func watch(
        everyMessageFrom sender: AnyObject, delivery: Delivery = .synchronous,
        _ handler: @escaping @Sendable (Event) -> Void
    ) -> WatchToken {
        watch("*", from: sender, delivery: delivery, handler)
    }

    /// Watches `pattern` with a main-actor handler for as long as the returned token is kept.
    public func watchOnMainActor(
        _ pattern: String, from sender: AnyObject? = nil,
        _ handler: @escaping @MainActor @Sendable (Event) -> Void
    ) -> WatchToken {
        let isolated: @Sendable (AnyObject, Event) -> Void = { _, event in
            // `.mainActor` delivery always runs on the main queue, the main actor's executor.
            MainActor.assumeIsolated { handler(event) }
        }
        let id = register(pattern, sender: sender, owner: nil, delivery: .mainActor, body: isolated)
        return WatchToken(id: id, bus: self)
    }

    private func register(
        _ pattern: String, sender: AnyObject?, owner: AnyObject?, delivery: Delivery, body: @escaping @Sendable (AnyObject, Event) -> Void
    ) -> WatchID {
        let (id, swept) = mutate { table in
            let added = table.add(pattern: pattern, owner: owner, sender: sender, delivery: delivery, body: body)
            return (added.watcher.id, added.swept)
        }
        logger.trace("\(id) watches '\(pattern)' for \(owner.map { "\(type(of: $0))" } ?? "a token")")
        if !swept.isEmpty {
            logger.debug("swept \(swept.count) watches whose owner or sender was deallocated")
        }
        return id
    }

    // MARK: Triggering

    /// Triggers `message` with an optional payload, optionally from `sender`, and runs the
    /// synchronous watchers before returning (see the delivery rules above).
    // The message and data are taken `consuming`: the event stores them, so a caller's
    // temporary (a literal name, `.null`) moves in instead of being copied and released.
    public func trigger(_ message: consuming String, _ data: consuming JSONValue = .null, from sender: AnyObject? = nil) {
        // The list is borrowed, not retained: the claimed reader slot keeps the table from
        // freeing it until this delivery is over (see ReaderSlots). With every slot taken (16
        // triggers in flight at once), the list is retained instead.
        let borrowed = table.withLock { table in
            let borrowed = table.borrow(message)
            if table.hasRetired { retiredPending.store(true, ordering: .relaxed) }
            return borrowed
        }
        guard let borrowed else { return }
        defer {
            if borrowed.slot >= 0 {
                readers.release(borrowed.slot)
            } else {
                borrowed.list.release()
            }
            if retiredPending.load(ordering: .relaxed) { reclaim() }
        }
        let event = Event(message: message, data: data, sender: sender.map(ObjectIdentifier.init))
        var queued: [Watcher] = []
        var foundDead = false
        // Watchers are taken in runs of one owner (a page or service usually watches
        // several things): the owner is loaded once per run, one weak load and one retain,
        // and held strongly while its handlers run. Token watches have no owner to load.
        do {
            // The borrowed list keeps every element alive for this whole loop, so each is used
            // at +0 (`_withUnsafeGuaranteedRef`): no retain and release per delivery.
            let list = UnsafeBufferPointer(borrowed.list._withUnsafeGuaranteedRef { $0.buffer })
            let count = list.count
            var start = 0
            while start < count {
                let key = Unmanaged.passUnretained(list[start])._withUnsafeGuaranteedRef { $0.ownerKey }
                var end = start + 1
                while end < count && Unmanaged.passUnretained(list[end])._withUnsafeGuaranteedRef({ $0.ownerKey }) == key {
                    end += 1
                }
                if key != nil {
                    if let owner = Unmanaged.passUnretained(list[start])._withUnsafeGuaranteedRef({ $0.owner?.object }) {
                        for index in start..<end {
                            Unmanaged.passUnretained(list[index])._withUnsafeGuaranteedRef { watcher in
                                guard watcher.isActive && watcher.accepts(sender: event.sender) else { return }
                                if watcher.delivery == .synchronous {
                                    watcher.body(owner, event)
                                } else {
                                    queued.append(watcher)
                                }
                            }
                        }
                    } else {
                        for index in start..<end where list[index].isActive {
                            list[index].deactivate()
                            foundDead = true
                        }
                    }
                } else {
                    // Token watches. The same loop as above with the watcher in the owner's
                    // place, written out: one loop with `owner ?? watcher` cost ~3 ns a trigger.
                    for index in start..<end {
                        Unmanaged.passUnretained(list[index])._withUnsafeGuaranteedRef { watcher in
                            guard watcher.isActive && watcher.accepts(sender: event.sender) else { return }
                            if watcher.delivery == .synchronous {
                                // A token watch's handler ignores the object it is given.
                                watcher.body(watcher, event)
                            } else {
                                queued.append(watcher)
                            }
                        }
                    }
                }
                start = end
            }
        }
        if !queued.isEmpty {
            let batch = queued
            DispatchQueue.main.async {
                for watcher in batch where watcher.isActive {
                    _ = watcher.deliver(event)
                }
            }
        }
        if foundDead {
            let swept = mutate { $0.sweep() }
            logger.debug("swept \(swept.count) watches whose owner or sender was deallocated")
        }
    }

    // MARK: Unwatching

    /// Ends every watch of `owner`.
    public func unwatch(owner: AnyObject) {
        remove("all watches of \(type(of: owner))") { $0.isOwned(by: owner) }
    }

    /// Ends `owner`'s watches registered with exactly this pattern (a wildcard pattern is
    /// removed by giving the same pattern, not a name it matches).
    public func unwatch(owner: AnyObject, message: String) {
        remove("'\(message)' watches of \(type(of: owner))") { $0.isOwned(by: owner) && $0.pattern == message }
    }

    /// Ends `owner`'s watches of this pattern filtered on `sender`.
    public func unwatch(owner: AnyObject, message: String, from sender: AnyObject) {
        remove("'\(message)' watches from \(type(of: sender)) of \(type(of: owner))") {
            $0.isOwned(by: owner) && $0.pattern == message && $0.filters(on: sender)
        }
    }

    /// Ends `owner`'s watches filtered on `sender`, whatever their pattern (including
    /// `watch(everyMessageFrom:)`).
    public func unwatch(owner: AnyObject, from sender: AnyObject) {
        remove("watches from \(type(of: sender)) of \(type(of: owner))") {
            $0.isOwned(by: owner) && $0.filters(on: sender)
        }
    }

    /// Ends one watch; unknown or already ended identifiers are ignored.
    public func unwatch(_ id: WatchID) {
        let removed = mutate { $0.remove(id: id) }
        logger.trace("unwatched \(id) (\(removed.count) removed)")
    }

    private func remove(_ what: @autoclosure () -> String, where shouldRemove: (Watcher) -> Bool) {
        let removed = mutate { $0.remove(where: shouldRemove) }
        logger.trace("unwatched \(what()) (\(removed.count) removed)")
    }

    // MARK: Counting

    /// The number of live watches; watches whose owner or sender was deallocated are
    /// removed before counting.
    public var watchCount: Int {
        // The swept watchers are released when `result` goes out of scope, outside the lock.
        let result = mutate { table in (swept: table.sweep(), count: table.count) }
        return result.count
    }

    // MARK: Table changes

    /// Changes the table under the lock. The lists no trigger holds any more are released
    /// after the lock, as are the watchers `body` returns: releasing a handler may
    /// deinitialise objects whose `deinit` calls back into the bus.
    private func mutate<Result>(_ body: (inout WatchTable) -> Result) -> Result {
        let (result, garbage) = table.withLock { table in
            let result = body(&table)
            let garbage = table.reclaim()
            retiredPending.store(table.hasRetired, ordering: .relaxed)
            return (result, garbage)
        }
        withExtendedLifetime(garbage) {}
        return result
    }

    /// Frees the retired lists that no trigger holds any more.
    private func reclaim() {
        mutate { _ in }
    }

    /// The number of live watches owned by `owner`.
    public func watchCount(owner: AnyObject) -> Int {
        table.withLock { $0.count(ownedBy: owner) }
    }
}
