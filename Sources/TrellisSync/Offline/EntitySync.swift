import Foundation
import Logging
import TrellisCore
import TrellisStore

/// Offline-first sync of one store entity with a server collection: the notes page's
/// notes with `<server>/notes`.
///
/// ```swift
/// let notesSync = try EntitySync(store: store, bus: bus, server: URL(string: "https://notes.example/api")!,
///                                settings: SyncSettings(bearerToken: token))
/// notesSync.start()                          // sync now, then every 30 s and after each save
///
/// let note = try context.insert("Note", values: ["title": "Shopping", ...])
/// try notesSync.save(context)                // saved and queued in one transaction
/// let report = try await notesSync.syncNow() // push the queue in order, then pull
/// ```
///
/// ## Saving
/// The store is the truth the app shows; nothing waits for the network. ``save(_:)`` saves
/// a context and, in the same transaction, queues each insertion, change (of a synced
/// attribute) and deletion of the entity in the outbox (`SyncOutboxEntry`), which survives
/// restarts. Saves made otherwise (`context.save()`, a background context, a plugin) are
/// caught too: the store's `store:did-save` event (when the store triggers it on `bus`) is
/// handled on the main actor right after, and queues them in a second transaction; a
/// pass also queues any object the server has never seen. Prefer ``save(_:)``, which
/// leaves no moment where a change is saved but not queued.
///
/// ## How it works
/// - **Push** (first in a pass, after queuing a creation for every object the server has
///   never seen and that has nothing queued, such as notes written before a server was
///   configured): entries go to the server oldest first. A change is PUT
///   with `If-Match: "<version>"`, the server version the object was based on (kept in
///   `SyncRecord` with the server id). An entry leaves the queue only in the transaction
///   that records the server's answer. When the server cannot be reached, answers 5xx or
///   429, or refuses an entry (another 4xx, a malformed answer), the pass stops and the
///   entry stays queued with its error, to be sent again by a later pass: what a user
///   typed is never dropped.
/// - **Pull** (after a complete push): the collection is fetched and merged into the store
///   by server id: new resources are inserted, resources whose version changed update
///   their object, vanished ones delete it. An object with queued changes is left alone:
///   its push decides.
///
/// ## The conflict rule
/// Versions come from the server only (`ETag` or the `version` member); client clocks are
/// never compared. **The server wins unless the local edit was based on the server's
/// current version.** An edit based on the current version is accepted by the server (its
/// `If-Match` holds). An edit based on an older version is answered 412: the local object
/// takes the server's state, and the edit (the object's latest local values) is kept as a
/// conflict copy, a new object queued for the server as a new resource; the object's other
/// queued changes are folded into that copy. A queued deletion of a resource changed on the
/// server is undone: the object is restored with the server's state. A change to a
/// resource the server deleted (404) is sent again as a new resource.
///
/// The bus gets `sync:finished` after every pass (data: ``SyncReport/json``) and
/// `sync:conflict` per conflict (`{"original", "copy"}` object ids); the requests trigger
/// the model and collection events and `network:on`/`network:off`.
@MainActor
public final class EntitySync {
    /// The messages an ``EntitySync`` triggers on the bus.
    public enum Events {
        /// A pass ended; data: ``SyncReport/json``.
        public static let finished = "sync:finished"
        /// A local edit lost to a newer server version: `{"original", "copy"}`.
        public static let conflict = "sync:conflict"
    }

    /// The store whose objects are synced.
    public let store: PersistentStore
    /// The synced entity, its collection path and its travelling attributes.
    public let mapping: SyncMapping
    /// The server collection, as of the last pull (a live table source).
    public let collection: RemoteCollection
    let bus: EventBus?
    let entity: EntityDescription
    /// The sync's own context: it never holds unsaved changes between two steps.
    let context: ManagedObjectContext
    let outbox: Outbox
    let records: SyncRecords
    let logger = Logger(trellis: "trellis.sync")

    private var isSyncing = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var loop: Task<Void, Never>?
    private var ticker: Task<Void, Never>?
    var wake: AsyncStream<Void>.Continuation?

    /// Syncs `mapping`'s entity of `store` with `<server>/<collectionPath>`.
    ///
    /// - Parameter sync: how requests are sent; by default a ``BasicSync`` with `settings`
    ///   that announces network activity on `bus`.
    /// - Throws: ``EntitySyncError`` when the model lacks the entity, a mapped key or the
    ///   sync entities, or when `settings` refuse the server URL (plain HTTP to a host
    ///   that is not loopback, unless allowed).
    public init(store: PersistentStore, bus: EventBus?, server: URL, settings: SyncSettings = SyncSettings(),
                mapping: SyncMapping = .notes, sync: (any Sync)? = nil) throws(EntitySyncError)
    {
        let model = store.model
        for name in [mapping.entityName, Outbox.entityName, SyncRecords.entityName] where model.entity(named: name) == nil {
            throw .missingEntity(entity: name, modelSource: model.source)
        }
        guard let entity = model.entity(named: mapping.entityName) else {
            throw .missingEntity(entity: mapping.entityName, modelSource: model.source)
        }
        for key in mapping.keys where entity.attribute(named: key) == nil {
            throw .unknownKey(entity: mapping.entityName, key: key)
        }
        let url = server.appendingPathComponent(mapping.collectionPath)
        do {
            try settings.check(url, for: .get)
        } catch {
            throw .refusedServer(error)
        }
        self.store = store
        self.mapping = mapping
        self.bus = bus
        self.entity = entity
        collection = RemoteCollection(url: url, sync: sync ?? BasicSync(settings: settings, bus: bus), bus: bus)
        context = ManagedObjectContext(store: store, undoEnabled: false)
        outbox = Outbox(entityName: mapping.entityName, context: context)
        records = SyncRecords(entityName: mapping.entityName, context: context)
        watchForeignSaves()
    }

    /// How many local changes wait for the server.
    public func pendingCount() throws -> Int { try outbox.count() }

    // MARK: - Saving

    /// Saves `context` and queues its changes to the synced entity, in one transaction
    /// (the way to save synced objects: see "Saving" above):
    /// an insertion as a create, a change to a synced attribute as an update (with the
    /// synced attributes as they are now), a deletion as a delete. Wakes the sync loop
    /// when ``start(every:)`` runs.
    ///
    /// - Throws: what `context.save()` throws; the context then keeps its changes and
    ///   nothing is queued.
    public func save(_ context: ManagedObjectContext) throws {
        let ownEntity = { (object: ManagedObject) in object.entityName == self.mapping.entityName }
        let inserted = context.insertedObjects.filter(ownEntity)
        let updated = context.updatedObjects.filter(ownEntity).filter { object in
            object.changedKeys.contains { mapping.keys.contains($0) }
        }
        let deleted = context.deletedObjects.filter(ownEntity)
        guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else {
            try context.save()
            return
        }
        let queue = Outbox(entityName: mapping.entityName, context: context)
        let undoWasEnabled = context.isUndoRegistrationEnabled
        context.isUndoRegistrationEnabled = false
        defer { context.isUndoRegistrationEnabled = undoWasEnabled }
        var sequence = try queue.nextSequence()
        var queued: [ManagedObject] = []
        do {
            for (operation, objects) in [(Outbox.Operation.create, inserted), (.update, updated), (.delete, deleted)] {
                for object in objects {
                    let payload = operation == .delete ? nil : mapping.attributes(of: object)
                    queued.append(try queue.enqueue(operation, localID: object.objectID.uuid, payload: payload,
                                                    sequence: sequence))
                    sequence += 1
                }
            }
            try context.save()
        } catch {
            for entry in queued { try? context.delete(entry) }
            throw error
        }
        wake?.yield()
    }

    // MARK: - Passes

    /// Pushes the queued changes in order, then (if all went through) pulls the server's
    /// collection into the store. Passes never overlap: a call made during a pass runs
    /// after it.
    ///
    /// - Returns: what the pass did; a network or server failure ends the pass early and is
    ///   reported in ``SyncReport/failure``, not thrown.
    /// - Throws: store errors only (the store's changes of the failed step are rolled back).
    @discardableResult
    public func syncNow() async throws -> SyncReport {
        while isSyncing { await withCheckedContinuation { waiting.append($0) } }
        isSyncing = true
        defer {
            isSyncing = false
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        var report = SyncReport()
        do {
            try adoptUnsyncedObjects()
            try await push(into: &report)
            if report.failure == nil { try await pull(into: &report) }
            report.pending = try outbox.count()
        } catch {
            context.rollback()
            throw error
        }
        if let failure = report.failure {
            logger.notice("sync stopped early", metadata: ["error": "\(failure)", "pending": "\(report.pending)"])
        }
        bus?.trigger(Events.finished, report.json, from: self)
        return report
    }

    /// Syncs now, then every `interval` and soon after each ``save(_:)``, until ``stop()``.
    /// Failures are logged and reported through `sync:finished`; the next pass retries.
    public func start(every interval: Duration = .seconds(30)) {
        guard loop == nil else { return }
        let (signals, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        ticker = Task {
            while !Task.isCancelled {
                wake.yield()
                try? await Task.sleep(for: interval)
            }
        }
        loop = Task { [weak self] in
            for await _ in signals {
                guard let self else { return }
                do {
                    try await self.syncNow()
                } catch {
                    self.logger.error("sync pass failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// Stops the passes ``start(every:)`` began; a pass under way is cancelled (its
    /// request fails as cancelled, its entry stays queued).
    public func stop() {
        ticker?.cancel()
        loop?.cancel()
        wake?.finish()
        ticker = nil
        loop = nil
        wake = nil
    }

    isolated deinit {
        stop()
    }

    /// The local object with `localID`, if it exists, with its saved values read afresh.
    func object(_ localID: UUID) throws -> ManagedObject? {
        try context.fetch(FetchRequest(entityName: entity.name, predicate: .equal("id", .uuid(localID)), limit: 1)).first
    }
}
