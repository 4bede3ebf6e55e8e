/// The bus's registry of watchers: the state behind the bus lock.
///
/// Lookup by message name is one probe of a ``NameTable`` (names compared by UTF-8 bytes).
/// Exact watches are kept per name; wildcard watches in one list. The deliverable list for a name (its exact watches merged with the
/// wildcards that match it, in registration order) is built once and cached until a watch
/// that could change it is added or removed. Delivered lists are immutable ``WatcherList``s
/// that a trigger borrows without a retain, protected by a reader slot (see ``ReaderSlots``):
/// a list the table drops is *retired*, and freed only once no trigger that could be using it
/// is still running.
struct WatchTable {
    /// Above this many cached names the cache is dropped and rebuilt on demand, so triggering
    /// many distinct names (say one per record id) cannot grow it without bound.
    static let routeCacheLimit = 4096
    /// Dead watchers are swept after this many registrations at least (and at most after as
    /// many registrations as there are live watchers): sweeping stays amortised O(1).
    static let minimumSweepInterval = 64

    private var nextID: UInt64 = 1
    private var byID: [WatchID: Watcher] = [:]
    private var exact = NameTable<[Watcher]>()
    private var wildcards: [Watcher] = []
    private var routes = NameTable<WatcherList>()
    /// Stamps reader slots and retired lists (see ``retire(_:)``); starts at 1, as 0 marks
    /// a free slot.
    private var epoch: UInt64 = 1
    /// Lists dropped from `routes` while a trigger may still be delivering from them, with
    /// the epoch they were dropped at.
    private var retired: [(epoch: UInt64, list: WatcherList)] = []
    /// One slot per trigger in flight (nested or on other threads); beyond that many, a
    /// trigger retains its list instead.
    let readers = ReaderSlots()
    /// One shared handle per live owner (see ``OwnerHandle``); rebuilt from the live watchers
    /// at each sweep, so it holds no owner that has no watch.
    private var owners: [ObjectIdentifier: OwnerHandle] = [:]
    private var registrationsSinceSweep = 0

    /// Registered watchers, dead or alive (call `sweep()` first for an exact live count).
    var count: Int { byID.count }

    /// Registers a watcher. Returns it, and the dead watchers swept on the way: the caller
    /// drops those outside the lock, because releasing a handler may deinitialise objects
    /// whose `deinit` calls back into the bus.
    /// A nil `owner` registers a token watch: it lives until its ``WatchToken`` ends it.
    mutating func add(
        pattern: String, owner: AnyObject?, sender: AnyObject?, delivery: Delivery,
        body: @escaping @Sendable (AnyObject, Event) -> Void
    ) -> (watcher: Watcher, swept: [Watcher]) {
        var handle: OwnerHandle?
        if let owner {
            if let known = owners[ObjectIdentifier(owner)], known.refers(to: owner) {
                handle = known
            } else {
                // New owner, or a dead one's address reused by a new object.
                handle = OwnerHandle(owner)
                owners[ObjectIdentifier(owner)] = handle
            }
        }
        let watcher = Watcher(
            id: WatchID(rawValue: nextID), pattern: pattern, owner: handle, sender: sender,
            delivery: delivery, body: body)
        nextID += 1
        byID[watcher.id] = watcher
        switch watcher.matcher {
        case .exact(let name):
            exact.modify(name, default: []) { $0.append(watcher) }
            invalidate(name)
        case .wildcard:
            wildcards.append(watcher)
            invalidateAll()
        }
        registrationsSinceSweep += 1
        guard registrationsSinceSweep >= max(Self.minimumSweepInterval, byID.count) else {
            return (watcher, [])
        }
        return (watcher, sweep())
    }

    /// The watchers that match `message`, in registration order, as the borrowed list the
    /// table keeps (built and cached on first use); `body` gets nil when there are none.
    /// A name nobody watches is cached too (an empty list), so triggering it again costs one
    /// probe rather than matching every wildcard.
    @inline(__always)
    mutating func withWatchers<Result>(for message: String, _ body: (WatcherList?) -> Result) -> Result {
        if let result = routes.withValue(for: message, { body($0?.buffer.isEmpty == false ? $0 : nil) }) {
            return result
        }
        if routes.count >= Self.routeCacheLimit { invalidateAll() }
        let list = WatcherList(build(for: message))
        routes[message] = list
        return body(list.buffer.isEmpty ? nil : list)
    }

    // MARK: Reader slots and retired lists

    /// For a trigger: the list of `message`'s watchers, not retained, and the reader slot
    /// that keeps it alive until `readers.release(slot)`; or, with every slot taken, the list
    /// retained (slot -1: the caller releases it). Nil when nobody watches `message`.
    @inline(__always)
    mutating func borrow(_ message: String) -> (list: Unmanaged<WatcherList>, slot: Int)? {
        let slot = readers.claim(epoch: epoch)
        let list = withWatchers(for: message) { $0.map { Unmanaged.passUnretained($0) } }
        guard let list else {
            if slot >= 0 { readers.release(slot) }
            return nil
        }
        if slot < 0 { _ = list.retain() }
        return (list, slot)
    }

    /// Drops `name`'s cached list: retired, not released.
    private mutating func invalidate(_ name: String) {
        if let list = routes.removeValue(for: name) { retire(list) }
    }

    /// Drops every cached list.
    private mutating func invalidateAll() {
        for list in routes.storedValues { retire(list) }
        routes.removeAll()
    }

    private mutating func retire(_ list: WatcherList) {
        retired.append((epoch, list))
        epoch += 1
    }

    /// Takes out the retired lists no running trigger can hold, for the caller to release
    /// outside the lock: a list retired at epoch R can be held only by a trigger whose slot
    /// was stamped at R or earlier.
    mutating func reclaim() -> [WatcherList] {
        guard !retired.isEmpty else { return [] }
        let oldestReader = readers.oldestStamp()
        var freed: [WatcherList] = []
        var kept: [(epoch: UInt64, list: WatcherList)] = []
        for entry in retired {
            if entry.epoch < oldestReader { freed.append(entry.list) } else { kept.append(entry) }
        }
        retired = kept
        return freed
    }

    /// Whether some retired list waits for a trigger to finish.
    var hasRetired: Bool { !retired.isEmpty }


    /// Removes and deactivates the watchers for which `shouldRemove` is true; returns them
    /// for the caller to drop outside the lock.
    mutating func remove(where shouldRemove: (Watcher) -> Bool) -> [Watcher] {
        remove(byID.values.filter(shouldRemove))
    }

    /// Removes and deactivates `doomed` (registered watchers); returns them.
    private mutating func remove(_ doomed: [Watcher]) -> [Watcher] {
        guard !doomed.isEmpty else { return [] }
        var names: [String] = []
        var touchesWildcards = false
        for watcher in doomed {
            watcher.deactivate()
            byID[watcher.id] = nil
            switch watcher.matcher {
            case .exact(let name): names.append(name)
            case .wildcard: touchesWildcards = true
            }
        }
        // Each name once, however many of its watchers go (compared by bytes, as the table
        // compares them: a `Set<String>` would merge canonically equal names).
        var seen = NameTable<Bool>()
        for name in names where seen[name] == nil && exact[name] != nil {
            seen[name] = true
            var emptied = false
            exact.modify(name, default: []) { list in
                list.removeAll { !$0.isActive }
                emptied = list.isEmpty
            }
            if emptied { exact[name] = nil }
            invalidate(name)
        }
        if touchesWildcards {
            wildcards.removeAll { !$0.isActive }
            invalidateAll()
        }
        return doomed
    }

    /// Removes one watcher by identifier.
    mutating func remove(id: WatchID) -> [Watcher] {
        guard let watcher = byID[id] else { return [] }
        return remove([watcher])
    }

    /// Removes the watchers that were deactivated or whose owner or sender is gone.
    mutating func sweep() -> [Watcher] {
        registrationsSinceSweep = 0
        let swept = remove { !$0.isActive || !$0.hasLiveObjects }
        owners.removeAll(keepingCapacity: true)
        for watcher in byID.values {
            if let owner = watcher.owner { owners[owner.id] = owner }
        }
        return swept
    }

    /// Live watchers owned by `owner`.
    func count(ownedBy owner: AnyObject) -> Int {
        byID.values.reduce(0) { total, watcher in
            total + (watcher.isActive && watcher.isOwned(by: owner) && watcher.hasLiveObjects ? 1 : 0)
        }
    }

    private func build(for message: String) -> [Watcher] {
        let named = exact[message] ?? []
        let matching = wildcards.filter { watcher in
            guard case .wildcard(let glob) = watcher.matcher else { return false }
            return glob.matches(message)
        }
        if matching.isEmpty { return named }
        if named.isEmpty { return matching }
        var merged: [Watcher] = []
        merged.reserveCapacity(named.count + matching.count)
        var left = named[...]
        var right = matching[...]
        while let l = left.first, let r = right.first {
            if l.id < r.id {
                merged.append(l)
                left = left.dropFirst()
            } else {
                merged.append(r)
                right = right.dropFirst()
            }
        }
        merged.append(contentsOf: left)
        merged.append(contentsOf: right)
        return merged
    }
}
