import Dispatch
import Logging

/// The message bus: iStructure's `$watch`, `$trigger` and `$unwatch`, thread-safe and with
/// watches that end by themselves.
///
/// ```swift
/// let bus = EventBus()
/// bus.watch("network:*", owner: self) { _, event in print("network activity:", event.message) }
/// bus.watchOnMainActor("note:saved", from: note, owner: self) { page, event in page.reload() }
/// bus.trigger("note:saved", ["id": 7], from: note)
/// ```
///
/// ## Watching
/// A watch ends by itself when its **owner** (held weakly) is deallocated, or, for the forms
/// without `owner:`, when the returned ``WatchToken`` is deallocated or cancelled (like
/// Combine's `AnyCancellable`). An owner form's handler receives the owner, so it needs to
/// capture nothing: there is deliberately no owner form whose handler takes only the event,
/// as it invites capturing the owner, which the bus would then keep alive. `watchOnMainActor`
/// is each form with a main-actor handler, the one a front end uses to update widgets.
/// `from:` filters on the sender (iStructure's `$watch(message, object, block)`; its
/// `$watch(object, block)` is `watch("*", from: object, …)`), and such a watch also ends
/// when the sender is deallocated. `unwatch(owner:message:from:)` covers the four
/// `$unwatch` forms; `unwatch(_:)` and ``WatchToken/cancel()`` end one watch.
///
/// ## Patterns
/// A pattern without `*` is an exact message name; a `*` matches any run of characters,
/// `:` included (there is no escape): `network:*`, `*:failed`, `request:*:done`, `*`.
/// Names and patterns are compared by their UTF-8 bytes (`"caf\u{E9}"` and `"cafe\u{301}"`
/// are two messages), as `Notification.Name`s are compared by code units on Apple platforms.
///
/// ## Delivery rules
/// - Watchers of one message run in registration order, exact and wildcard interleaved.
/// - `trigger` takes the list of matching watchers under the bus lock and runs the handlers
///   outside it: a handler may watch, unwatch and trigger freely. Handlers, and what they
///   capture, are released outside the lock too, as a `deinit` may call back into the bus.
/// - A watcher added during a delivery does not receive that event. One removed (or whose
///   owner died) is not called afterwards, even by a delivery under way or still queued.
/// - The owner of the watcher being called is held until the bus calls a watcher of another
///   owner: an owner whose last other reference is dropped by one of its handlers still gets
///   its next handlers of that event that come before another owner's.
/// - A trigger from inside a synchronous handler is delivered depth-first: all its
///   synchronous watchers run before the outer trigger moves on to its next watcher.
/// - Main-actor handlers are enqueued on the main queue by `trigger` (one block per
///   trigger), so they run after it returns, in trigger order, even when it is called on the
///   main thread. Under GTK the main actor is the GTK thread.
public final class EventBus: Sendable {
    private let table = LockedState(WatchTable())
    let logger: Logger

    /// Creates an empty bus.
    public init(logger: Logger = Logger(trellis: "trellis.bus")) {
        self.logger = logger
    }

    // MARK: Watching with an owner

    /// Watches `pattern` (an exact name or a wildcard), optionally only when triggered from
    /// `sender`, until `owner` is deallocated or the watch is removed. The handler runs on
    /// the triggering thread and receives the owner, so it needs to capture nothing:
    ///
    /// ```swift
    /// bus.watch("network:on", owner: self) { service, _ in service.increment() }
    /// ```
    /// - Returns: the watch's identifier, for `unwatch(_:)`.
    @discardableResult
    public func watch<Owner: AnyObject & Sendable>(
        _ pattern: String, from sender: AnyObject? = nil, owner: Owner,
        _ handler: @escaping @Sendable (Owner, Event) -> Void
    ) -> WatchID {
        add(pattern, sender: sender, owner: owner, runsOnMainActor: false) { object, event in
            // The bus passes back the object registered as `owner`.
            if let owner = object as? Owner { handler(owner, event) }
        }
    }

    /// Watches `pattern` like `watch(_:from:owner:_:)`, with a handler that runs on the main
    /// actor, after `trigger` returns:
    ///
    /// ```swift
    /// bus.watchOnMainActor("activity:changed", owner: window) { window, event in
    ///     window.spinner.isVisible = event.data["active"]?.boolValue ?? false
    /// }
    /// ```
    @discardableResult
    public func watchOnMainActor<Owner: AnyObject & Sendable>(
        _ pattern: String, from sender: AnyObject? = nil, owner: Owner,
        _ handler: @escaping @MainActor @Sendable (Owner, Event) -> Void
    ) -> WatchID {
        add(pattern, sender: sender, owner: owner, runsOnMainActor: true) { object, event in
            guard let owner = object as? Owner else { return }
            // Main-actor deliveries run on the main queue, the main actor's executor.
            MainActor.assumeIsolated { handler(owner, event) }
        }
    }

    /// Watches `pattern` like ``watchOnMainActor(_:from:owner:_:)-(String,_,_,_)``, for an owner
    /// that lives on the main actor and is not `Sendable` — a page, a window controller: the
    /// seeds' `$watch(message, block)` on an ordinary class. The bus holds the owner weakly and
    /// touches it only on the main actor.
    ///
    /// ```swift
    /// @MainActor final class Counter {
    ///     var count = 0
    ///     init(bus: EventBus) {
    ///         bus.watchOnMainActor("note:saved", owner: self) { counter, _ in counter.count += 1 }
    ///     }
    /// }
    /// ```
    @MainActor
    @discardableResult
    public func watchOnMainActor<Owner: AnyObject>(
        _ pattern: String, from sender: AnyObject? = nil, owner: Owner,
        _ handler: @escaping @MainActor (Owner, Event) -> Void
    ) -> WatchID {
        add(pattern, sender: sender, owner: owner, runsOnMainActor: true) { object, event in
            // A main-actor watcher's handler runs on the main queue, the main actor's executor,
            // and only there is the owner (held weakly by the watcher) read as `Owner`.
            nonisolated(unsafe) let object = object
            MainActor.assumeIsolated {
                guard let owner = object as? Owner else { return }
                handler(owner, event)
            }
        }
    }

    // MARK: Watching with a token

    /// Watches `pattern`, optionally only when triggered from `sender`, for as long as the
    /// returned token is kept (in a property, or `store(in:)` a collection of tokens):
    ///
    /// ```swift
    /// bus.watch("note:saved") { _ in counter.increment() }.store(in: &watches)
    /// ```
    ///
    /// The handler must not capture the object that keeps the token strongly: the bus holds
    /// the handler, so that object would never be deallocated.
    public func watch(
        _ pattern: String, from sender: AnyObject? = nil, _ handler: @escaping @Sendable (Event) -> Void
    ) -> WatchToken {
        let id = add(pattern, sender: sender, owner: nil, runsOnMainActor: false) { _, event in handler(event) }
        return WatchToken(id: id, bus: self)
    }

    /// Watches `pattern` with a main-actor handler for as long as the returned token is kept.
    public func watchOnMainActor(
        _ pattern: String, from sender: AnyObject? = nil, _ handler: @escaping @MainActor @Sendable (Event) -> Void
    ) -> WatchToken {
        let id = add(pattern, sender: sender, owner: nil, runsOnMainActor: true) { _, event in
            // Main-actor deliveries run on the main queue, the main actor's executor.
            MainActor.assumeIsolated { handler(event) }
        }
        return WatchToken(id: id, bus: self)
    }

    /// `owner` is held weakly and only compared, except by a handler that runs on the main actor.
    private func add(
        _ pattern: String, sender: AnyObject?, owner: AnyObject?, runsOnMainActor: Bool,
        handler: @escaping @Sendable (AnyObject?, Event) -> Void
    ) -> WatchID {
        // Watchers swept on the way are released here, after the lock.
        let (watcher, _) = table.withLock {
            $0.add(pattern: pattern, owner: owner, sender: sender, runsOnMainActor: runsOnMainActor, handler: handler)
        }
        logger.trace("\(watcher.id) watches '\(pattern)' for \(owner.map { "\(type(of: $0))" } ?? "a token")")
        return watcher.id
    }

    // MARK: Triggering

    /// Triggers `message` with an optional payload, optionally from `sender`, and runs the
    /// synchronous watchers before returning (see the delivery rules above).
    public func trigger(_ message: String, _ data: JSONValue = .null, from sender: AnyObject? = nil) {
        let watchers = table.withLock { $0.watchers(for: MessageName(message)) }
        guard !watchers.isEmpty else { return }
        let event = Event(message: message, data: data, sender: sender.map(ObjectIdentifier.init))
        var queued: [Watcher] = []
        var foundDead = false
        // The owner of the last owner watch called, kept until the next one's owner is loaded
        // (token watches, whose handlers ignore it, leave it alone).
        var runOwner: AnyObject?
        // Read through a span, each watcher is borrowed rather than retained and released.
        let list = watchers.span
        for index in list.indices where list[index].isActive && list[index].accepts(sender: sender) {
            if list[index].hasOwner { runOwner = list[index].owner }
            if list[index].hasOwner && runOwner == nil {
                foundDead = true
            } else if list[index].runsOnMainActor {
                queued.append(list[index])
            } else {
                list[index].handler(runOwner, event)
            }
        }
        if !queued.isEmpty {
            DispatchQueue.main.async { [queued] in
                for watcher in queued { watcher.deliverQueued(event) }
            }
        }
        if foundDead { remove { $0.sweep() } }
    }

    // MARK: Unwatching

    /// Ends `owner`'s watches: all of them, or those of exactly the pattern `message` (a
    /// wildcard is removed by giving the same pattern, not a name it matches), or those
    /// filtered on `sender`, or both. iStructure's `$unwatch()`, `$unwatch(name)`,
    /// `$unwatch(name, object)` and `$unwatch(object)`:
    ///
    /// ```swift
    /// bus.unwatch(owner: self)
    /// bus.unwatch(owner: self, message: "note:saved")
    /// bus.unwatch(owner: self, message: "note:saved", from: note)
    /// bus.unwatch(owner: self, from: note)
    /// ```
    public func unwatch(owner: AnyObject, message pattern: String? = nil, from sender: AnyObject? = nil) {
        let name = pattern.map(MessageName.init)
        let count = remove { table in
            table.remove { watcher in
                watcher.owner === owner && (name == nil || watcher.pattern == name)
                    && (sender == nil || watcher.sender === sender)
            }
        }
        logger.trace("unwatched \(count) watches of \(type(of: owner)) (pattern \(pattern ?? "any"))")
    }

    /// Ends one watch; unknown or already ended identifiers are ignored.
    public func unwatch(_ id: WatchID) {
        let count = remove { $0.remove(id: id) }
        logger.trace("unwatched \(id) (\(count) removed)")
    }

    /// Takes watchers out of the table under the lock and releases them after it: releasing
    /// a handler may deinitialise an object whose `deinit` calls back into the bus.
    @discardableResult
    private func remove(_ body: (inout WatchTable) -> [Watcher]) -> Int {
        let removed = table.withLock(body)
        return removed.count
    }

    // MARK: Counting

    /// The number of live watches; watches whose owner or sender was deallocated are
    /// removed before counting.
    public var watchCount: Int {
        remove { $0.sweep() }
        return table.withLock { $0.count }
    }

    /// The number of live watches owned by `owner`.
    public func watchCount(owner: AnyObject) -> Int {
        table.withLock { $0.count(ownedBy: owner) }
    }
}
