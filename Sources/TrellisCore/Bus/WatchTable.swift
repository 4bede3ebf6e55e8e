/// The bus's registry of watchers: the state behind its lock.
///
/// Exact watches are kept per name and wildcard watches in one list, in registration order,
/// as copy-on-write arrays: `trigger` takes the list for its name under the lock (a copy that
/// shares storage) and delivers from it after the lock is released; a later change copies
/// the array rather than disturbing it. While wildcard watches exist, the list for a name
/// (its exact watches and the matching wildcards, merged in registration order) is cached;
/// a change to a name's watches drops its entry, a change to the wildcards drops them all.
struct WatchTable {
    /// Past this many cached names the cache is emptied, so triggering many distinct names
    /// (say one per record id) cannot grow it without bound.
    static let routeCacheLimit = 4096
    /// Watchers of dead owners or senders are swept after this many registrations at least
    /// (and at most after as many as there are watchers): amortised O(1) per registration.
    static let minimumSweepInterval = 64

    private var nextID: UInt64 = 1
    private var byID: [WatchID: Watcher] = [:]
    private var exact: [MessageName: [Watcher]] = [:]
    private var wildcards: [Watcher] = []
    private var routes: [MessageName: [Watcher]] = [:]
    private var registrationsSinceSweep = 0

    /// Registered watchers (call `sweep()` first for an exact live count).
    var count: Int { byID.count }

    /// Registers a watcher; returns it, and the dead watchers swept on the way for the
    /// caller to release outside the lock. A nil `owner` makes a token watch.
    mutating func add(
        pattern: String, owner: AnyObject?, sender: AnyObject?, runsOnMainActor: Bool,
        handler: @escaping @Sendable (AnyObject?, Event) -> Void
    ) -> (watcher: Watcher, swept: [Watcher]) {
        let watcher = Watcher(
            id: WatchID(rawValue: nextID), pattern: pattern, owner: owner, sender: sender,
            runsOnMainActor: runsOnMainActor, handler: handler)
        nextID += 1
        byID[watcher.id] = watcher
        switch watcher.matcher {
        case .exact:
            exact[watcher.pattern, default: []].append(watcher)
            routes[watcher.pattern] = nil
        case .wildcard:
            wildcards.append(watcher)
            routes.removeAll()
        }
        registrationsSinceSweep += 1
        guard registrationsSinceSweep >= max(Self.minimumSweepInterval, byID.count) else { return (watcher, []) }
        return (watcher, sweep())
    }

    /// The watchers of `name`, in registration order.
    mutating func watchers(for name: MessageName) -> [Watcher] {
        guard !wildcards.isEmpty else { return exact[name] ?? [] }
        if let cached = routes[name] { return cached }
        let matching = wildcards.filter { watcher in
            guard case .wildcard(let glob) = watcher.matcher else { return false }
            return glob.matches(name.text)
        }
        let list = ((exact[name] ?? []) + matching).sorted { $0.id < $1.id }
        if routes.count >= Self.routeCacheLimit { routes.removeAll() }
        routes[name] = list
        return list
    }

    /// Removes and deactivates the watchers for which `shouldRemove` is true; returns them
    /// for the caller to release outside the lock (releasing a handler may deinitialise an
    /// object whose `deinit` calls back into the bus).
    mutating func remove(where shouldRemove: (Watcher) -> Bool) -> [Watcher] {
        remove(byID.values.filter(shouldRemove))
    }

    /// Removes one watcher by identifier; unknown identifiers are ignored.
    mutating func remove(id: WatchID) -> [Watcher] {
        remove(byID[id].map { [$0] } ?? [])
    }

    private mutating func remove(_ doomed: [Watcher]) -> [Watcher] {
        guard !doomed.isEmpty else { return [] }
        var names = Set<MessageName>()
        var touchesWildcards = false
        for watcher in doomed {
            watcher.deactivate()
            byID[watcher.id] = nil
            switch watcher.matcher {
            case .exact: names.insert(watcher.pattern)
            case .wildcard: touchesWildcards = true
            }
        }
        for name in names {
            let kept = exact[name]?.filter(\.isActive) ?? []
            exact[name] = kept.isEmpty ? nil : kept
            routes[name] = nil
        }
        if touchesWildcards {
            wildcards.removeAll { !$0.isActive }
            routes.removeAll()
        }
        return doomed
    }

    /// Removes the watchers whose owner or sender was deallocated.
    mutating func sweep() -> [Watcher] {
        registrationsSinceSweep = 0
        return remove { !$0.isAlive }
    }

    /// Live watchers owned by `owner`.
    func count(ownedBy owner: AnyObject) -> Int {
        byID.values.count { $0.owner === owner && $0.isAlive }
    }
}
