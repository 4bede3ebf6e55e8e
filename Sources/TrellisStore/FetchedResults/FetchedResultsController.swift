import Dispatch
import TrellisCore

/// A live fetch (Core Data's `NSFetchedResultsController`): the results of a request in
/// sections, read a page at a time, with the changes of every save delivered as index
/// paths.
///
/// ```swift
/// let notes = try FetchedResultsController(
///     request: FetchRequest(entityName: "Note", sortKeys: [.descending("created")]), context: context)
/// let count = notes.count                                // counted, no row read
/// let first = try notes.object(at: TableIndexPath(row: 0))  // reads one page
/// notes.onChange = { change in
///     // a single inserted note: change.inserted == [Row(id, path 0/0)]
/// }
/// ```
///
/// With `sectionKey`, rows are grouped by that key's value, which becomes the first sort
/// key if the request does not sort by it first.
///
/// ## How it works
/// The results are a view of one database snapshot: `count` and `sections` are counted
/// (SQL `count(*)`, `GROUP BY`), and rows are read in pages of the request's `batchSize`
/// (`LIMIT`/`OFFSET`), so a million rows show their first page without reading the rest.
/// After each save through the store, a worker thread opens a new snapshot, looks up the
/// saved objects in both snapshots and counts the rows before each to place them
/// (see `FetchedDiff`); the main actor then switches to the new snapshot and calls
/// `onChange`. Writes made by another process are not seen until ``refresh()``.
@MainActor
public final class FetchedResultsController {
    /// The context whose instances the results hand out.
    public let context: ManagedObjectContext
    /// What is fetched; change it with ``setRequest(_:)``.
    public private(set) var request: FetchRequest
    /// The key rows are grouped by, if any.
    public let sectionKey: String?
    /// Called on the main actor after the results changed, in the new state.
    public var onChange: ((FetchedResultsChange) -> Void)?
    /// Called on the main actor when following the store failed; the results stay as
    /// they were until the next save or ``refresh()``.
    public var onError: ((any Error) -> Void)?
    /// For ``FetchedSource``: called before `onChange` with the state the change started from.
    var transitionObserver: ((FetchedPages, FetchedResultsChange) -> Void)?

    private(set) var pages: FetchedPages
    private var worker: FetchedResultsWorker?
    private var generation = 0

    /// Fetches at once and follows the store's saves from then on.
    /// - Throws: ``ContextError`` for an invalid request or section key, ``StoreError``.
    public init(request: FetchRequest, sectionKey: String? = nil, context: ManagedObjectContext) throws {
        self.context = context
        self.sectionKey = sectionKey
        self.request = request
        let state = try Self.load(request, sectionKey: sectionKey, store: context.store)
        self.pages = FetchedPages(state: state, pageSize: request.batchSize)
        startWorker(from: state)
    }

    /// The sections; one untitled section when there is no section key.
    public var sections: [FetchedSection] { pages.state.sections }

    /// How many rows there are in all sections.
    public var count: Int { pages.state.count }

    /// How many rows section `section` has.
    public func numberOfRows(inSection section: Int) -> Int { sections[section].count }

    /// The object at `path` (a valid path of the current state), as the context's instance.
    public func object(at path: TableIndexPath) throws -> ManagedObject {
        try object(atOffset: pages.state.offset(of: path))
    }

    /// The object at global position `offset`, counting across sections.
    public func object(atOffset offset: Int) throws -> ManagedObject {
        context.object(for: try pages.row(at: offset), entity: pages.state.fetch.entity)
    }

    /// Where the object with `id` is now, or `nil` when it is not in the results.
    public func indexPath(for id: ObjectID) throws -> TableIndexPath? {
        let state = pages.state
        let values = try state.sortValues(of: [id])
        return try state.positions(of: values)[id].map(state.path(ofOffset:))
    }

    /// Replaces the request (e.g. a search predicate) and reloads; `onChange` receives a
    /// reload.
    public func setRequest(_ request: FetchRequest) throws {
        let state = try Self.load(request, sectionKey: sectionKey, store: context.store)
        let old = pages
        self.request = request
        pages = FetchedPages(state: state, pageSize: request.batchSize)
        startWorker(from: state)
        announce(.reload, from: old)
    }

    /// Looks for changes now; needed only after another process wrote to the store.
    public func refresh() throws {
        try setRequest(request)
    }

    private static func load(_ request: FetchRequest, sectionKey: String?, store: PersistentStore) throws -> SnapshotState {
        var request = request
        if let sectionKey {
            guard let entity = store.model.entity(named: request.entityName) else {
                throw ContextError.unknownEntity(request.entityName)
            }
            guard entity.type(ofKey: sectionKey) != nil else {
                throw ContextError.unknownKey(entity: entity.name, key: sectionKey)
            }
            if request.sortKeys.first?.key != sectionKey { request.sortKeys.insert(.ascending(sectionKey), at: 0) }
        }
        let fetch = try CompiledFetch(request, model: store.model)
        return try SnapshotState.load(from: store, fetch: fetch, isSectioned: sectionKey != nil)
    }

    private func startWorker(from state: SnapshotState) {
        generation += 1
        let generation = self.generation
        worker = FetchedResultsWorker(store: context.store, initial: state) { [weak self] result in
            DispatchQueue.main.async {
                // Blocks queued on the main queue run on the main actor's executor.
                MainActor.assumeIsolated { self?.receive(result, generation: generation) }
            }
        }
    }

    private func receive(_ result: Result<FetchedTransition, any Error>, generation: Int) {
        guard generation == self.generation else { return }
        switch result {
        case .success(let transition):
            let old = pages
            pages = FetchedPages(state: transition.new, pageSize: request.batchSize)
            if !transition.change.isEmpty { announce(transition.change, from: old) }
        case .failure(let error):
            onError?(error)
        }
    }

    private func announce(_ change: FetchedResultsChange, from old: FetchedPages) {
        transitionObserver?(old, change)
        onChange?(change)
    }
}
