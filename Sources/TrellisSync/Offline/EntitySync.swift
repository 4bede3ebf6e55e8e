import Foundation
import Logging
import TrellisCore
import TrellisStore

/// Offline-first sync of one store entity with a server collection: the notes page's
/// notes with `<server>/notes`. Nothing typed is lost or duplicated, whatever the server
/// does, and every conflict is kept where the user can see it.
///
/// ```swift
/// let notesSync = try EntitySync(store: store, bus: bus, server: URL(string: "https://notes.example/api")!,
///                                settings: SyncSettings(bearerToken: token))
/// notesSync.start()                          // sync now, then every 30 s and after each save
///
/// let note = try context.insert("Note", values: ["title": "Shopping", "created": .date(Date()), "updated": .date(Date())])
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
/// pass also queues any object the server has never seen. A change that leaves the synced
/// attributes as the server last held them (a pulled change, seen by the app's contexts)
/// queues nothing: a pull is never echoed back.
///
/// ## What the server is
/// The sync learns how the server behaves from its answers and remembers it in the store
/// (``ServerCapabilities``): whether a `PUT` creates, whether it keeps the client id
/// member, whether it filters lists by field, whether it has versions and changes them.
///
/// ## Creating without duplicates
/// Every object is created with a client id, its own id (``SyncMapping/clientIDKey``, sent
/// in the body, and as `Idempotency-Key` on a POST). The first create tries
/// `PUT <collection>/<client id>`: a server that creates on PUT (an upsert) makes creating
/// idempotent, and is used so from then on; one that refuses gets POSTs. A create is marked
/// as sent, in the store, before it goes out; when its outcome is not known (no answer, a
/// dropped connection, a 5xx), the next attempt first asks the server whether it happened —
/// `GET <collection>/<client id>` where creates are upserts, else the list, by client id
/// (or, from a server that drops the member, by content) — and links the object to what it
/// finds instead of creating it again. Nothing else of that object is sent before.
///
/// ## Pushing
/// Entries go to the server oldest first and leave the queue only in the transaction that
/// records the server's answer. A change is a `PUT` of the synced attributes, a deletion a
/// `DELETE`; before either, the resource is read and compared with its **base** — the
/// state this client last saw on the server (`SyncRecord`) — and written only if it is
/// unchanged, with `If-Match: "<version>"` when the server has versions (a server that
/// checks it closes the gap between the read and the write). A resource found holding the
/// change already (a write whose answer was lost) needs no second write. When the server
/// cannot be reached, answers 5xx or 429, or refuses an entry (another 4xx, a malformed
/// answer), the pass stops and the entry stays queued with its error, to be sent again by a
/// later pass.
///
/// ## Pulling
/// After a complete push, the collection is fetched (with `If-None-Match` when it comes
/// with an `ETag`) and merged into the store by server id. From a server without `ETag`s, a
/// list the same, byte for byte, as the last one a pass took in whole with nothing left to
/// do is not compared again when the pass wrote nothing and nothing waits (its digest stands
/// for the `ETag`; ``SyncReport/listUnchanged``). A resource whose content differs
/// from its base updates its object; new resources are inserted. An object with queued
/// changes is left alone: its push decides. An acknowledged write stays unconfirmed until
/// the pull of a later pass lists it: a server showing the state it replaced lost it (it is
/// written again), any other state meanwhile keeps the local version as a conflict copy.
/// No single list decides a deletion: a resource the list leaves out is read alone, and
/// only a 404 takes its object out — to the Trash (``trashedObjects()``, ``restore(_:)``),
/// or, written here and never listed since, created again; a list that leaves out more than
/// a small share takes nothing out (``SyncReport/suspectList``, ``acceptMissing()``,
/// ``sendMissingAgain()``). List items missing synced members are read whole, never applied
/// as blanks. A pull destroys nothing.
///
/// ## The conflict rule
/// Client clocks are never compared. **The server wins unless the local change was based
/// on the server's current state.** A change based on an older state (a 412 answer, or a
/// state read before writing that differs from the base) is not written: the object takes
/// the server's state, and the change (the object's latest local values) is kept as a
/// conflict copy, a new object created on the server too; the object's other queued
/// changes are folded into that copy. A queued deletion of a resource changed on the
/// server is undone: the object is restored with the server's state. A change to a
/// resource the server deleted is created again. Conflicts are kept until dismissed
/// (``conflicts()``). Against a server with no conditional write, a change another client
/// makes between the read and the write is still overwritten: the "residual race" of the
/// article "Sync and the REST contract".
///
/// The bus gets `sync:finished` after every pass (data: ``SyncReport/json``),
/// `sync:conflict` per conflict (`{"original", "copy"}` object ids) and `sync:kept-changed`
/// when a restore or a dismissal changes the Trash or the conflicts; the requests trigger
/// `network:on`/`network:off`.
@MainActor
public final class EntitySync {
    /// The messages an ``EntitySync`` triggers on the bus.
    public enum Events {
        /// A pass ended; data: ``SyncReport/json``.
        public static let finished = "sync:finished"
        /// A local edit lost to a newer server version: `{"original", "copy"}`.
        public static let conflict = "sync:conflict"
        /// The Trash or the conflict list changed by a restore or a dismissal (a pass ends
        /// with `sync:finished` instead): `{}`.
        public static let keptChanged = "sync:kept-changed"
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
    let trash: SyncTrash
    let conflictLog: SyncConflicts
    let profile: ServerProfile
    let logger = Logger(trellis: "trellis.sync")
    /// What the server has shown of itself so far (see ``ServerCapabilities``).
    public internal(set) var capabilities: ServerCapabilities
    /// The objects the running pass wrote on the server: a pull of the same pass does not
    /// count as the server having kept them (it may hold them only in memory).
    var writtenThisPass: Set<UUID> = []
    /// The ids of the synced entity's objects at the start of the running pass, when some
    /// record's object was missing; `nil` when every record's object was there.
    var localIDsThisPass: Set<UUID>?
    /// The objects whose changes the server refused in the running pass: their entries wait
    /// for the next pass.
    var heldThisPass: Set<UUID> = []
    /// The ETag of the list the running pass fetched, stored once the pull is complete.
    var pendingListETag: String?
    /// The objects the last pass's suspect list left out (see ``acceptMissing()``).
    var suspectMissing: [UUID] = []
    /// Where the passes' intervals and back-off are measured.
    let clock: any Clock<Duration>

    private var isSyncing = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var loop: Task<Void, Never>?
    private var ticker: Task<Void, Never>?
    /// The pass that follows one that wrote, to see the writes kept.
    private var confirmation: Task<Void, Never>?
    var wake: AsyncStream<Void>.Continuation?

    /// Syncs `mapping`'s entity of `store` with `<server>/<collectionPath>`.
    ///
    /// - Parameter sync: how requests are sent; by default a ``BasicSync`` with `settings`
    ///   that announces network activity on `bus`.
    /// - Throws: ``EntitySyncError`` when the model lacks the entity, a mapped key or the
    ///   sync entities, or when `settings` refuse the server URL (plain HTTP to a host
    ///   that is not loopback, unless allowed).
    public init(store: PersistentStore, bus: EventBus?, server: URL, settings: SyncSettings = SyncSettings(),
                mapping: SyncMapping = .notes, sync: (any Sync)? = nil,
                clock: any Clock<Duration> = ContinuousClock()) throws(EntitySyncError)
    {
        let model = store.model
        let required = [mapping.entityName, Outbox.entityName, SyncRecords.entityName, ServerProfile.entityName,
                        SyncTrash.entityName, SyncConflicts.entityName]
        for name in required where model.entity(named: name) == nil {
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
        self.clock = clock
        collection = RemoteCollection(url: url, sync: sync ?? BasicSync(settings: settings, bus: bus, clock: clock), bus: bus)
        context = ManagedObjectContext(store: store, undoEnabled: false)
        outbox = Outbox(entityName: mapping.entityName, context: context)
        records = SyncRecords(entityName: mapping.entityName, context: context)
        trash = SyncTrash(entityName: mapping.entityName, context: context)
        conflictLog = SyncConflicts(entityName: mapping.entityName, context: context)
        profile = ServerProfile(url: url, context: context)
        // Unreadable capabilities are simply learned again: every guess is a safe one.
        capabilities = (try? profile.load()) ?? ServerCapabilities()
        watchForeignSaves()
    }

    /// How many local changes wait for the server.
    public func pendingCount() throws -> Int { try outbox.count() }

    /// The local changes waiting for the server, oldest first.
    public func queuedChanges() throws -> [QueuedChange] { try outbox.queuedChanges() }

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
        let updated = try context.updatedObjects.filter(ownEntity).filter { object in
            try object.changedKeys.contains { mapping.keys.contains($0) } && needsPush(object)
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
        writtenThisPass = []
        heldThisPass = []
        pendingListETag = nil
        do {
            try adoptUnsyncedObjects()
            try await push(into: &report)
            if report.failure == nil {
                try await pull(into: &report)
                try storeListETag(after: report)
            }
            // What the pull queued (objects the server lost, duplicates to delete, conflict
            // copies) goes now.
            if report.failure == nil, try outbox.count() > 0 { try await push(into: &report) }
            report.pending = try outbox.count()
        } catch {
            context.rollback()
            report.storeFailure = String(describing: error)
            report.pending = (try? outbox.count()) ?? report.pending
            logger.error("sync pass failed in the store", metadata: ["error": "\(error)"])
            bus?.trigger(Events.finished, report.json, from: self)
            throw error
        }
        if let failure = report.failure {
            logger.notice("sync stopped early", metadata: ["error": "\(failure)", "pending": "\(report.pending)"])
        }
        bus?.trigger(Events.finished, report.json, from: self)
        return report
    }

    /// Keeps the list's ETag for the next pass's `If-None-Match` only when this pull took in
    /// the whole list and every write of the pass has been seen kept since (a 304 then
    /// means that nothing is left to do).
    private func storeListETag(after report: SyncReport) throws {
        let complete = report.failure == nil && report.skipped.isEmpty && report.suspectList == nil
            && writtenThisPass.isEmpty && report.rewritten == 0 && report.conflicts.isEmpty
        try profile.storeListETag(complete ? pendingListETag : nil)
        try context.save()
    }

    /// Syncs now, then every `interval` and soon after each ``save(_:)``, until ``stop()``.
    /// Failures are logged and reported through `sync:finished`; the next pass retries,
    /// after a pause that doubles with each failed pass in a row (1 s, 2 s, 4 s… at most
    /// `interval`), so that saves made while the server is down do not each wait for a
    /// timeout. A pass that wrote is followed by another after `confirmAfter`, whose pull
    /// sees the writes kept (until then, another client's change to a written note cannot be
    /// told from one made after the server lost the write, and is kept as a conflict).
    /// Every wait is measured on the sync's clock.
    public func start(every interval: Duration = .seconds(30), confirmAfter: Duration = .seconds(2)) {
        guard loop == nil else { return }
        let (signals, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        let clock = clock
        ticker = Task {
            while !Task.isCancelled {
                wake.yield()
                try? await clock.sleep(for: interval)
            }
        }
        loop = Task { [weak self] in
            var failedPasses = 0
            for await _ in signals {
                if failedPasses > 0 {
                    try? await clock.sleep(for: min(interval, .seconds(1 << min(failedPasses - 1, 16))))
                }
                guard let self else { return }
                do {
                    let report = try await self.syncNow()
                    failedPasses = report.failure == nil ? 0 : failedPasses + 1
                    if report.failure == nil, !self.writtenThisPass.isEmpty {
                        self.confirmation?.cancel()
                        self.confirmation = Task {
                            try? await clock.sleep(for: confirmAfter)
                            if !Task.isCancelled { wake.yield() }
                        }
                    }
                } catch {
                    failedPasses += 1
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
        confirmation?.cancel()
        confirmation = nil
        wake?.finish()
        ticker = nil
        loop = nil
        wake = nil
    }

    isolated deinit {
        stop()
    }

    /// Records what the server showed of itself (saved with the context's next save).
    func learn(_ change: (inout ServerCapabilities) -> Void) throws {
        var learned = capabilities
        change(&learned)
        guard learned != capabilities else { return }
        logger.info("server capabilities learned", metadata: ["url": "\(collection.url.absoluteString)",
                                                              "capabilities": "\(learned)"])
        capabilities = learned
        try profile.store(learned)
    }

    /// Whether a change saved to `object` must go to the server: its synced attributes are
    /// not those the server last held (a pulled change is not echoed back), or changes of
    /// it are queued already (the server will have older ones).
    func needsPush(_ object: ManagedObject) throws -> Bool {
        guard let base = try records.record(local: object.objectID.uuid)?.base else { return true }
        if mapping.attributes(of: object) != base { return true }
        return try outbox.entries().contains { $0.localID == object.objectID.uuid }
    }

    /// The client id object `localID` is created with: its id, in lower case.
    nonisolated static func clientID(of localID: UUID) -> String { localID.uuidString.lowercased() }

    /// The local object with `localID`, if it exists, with its saved values read afresh.
    func object(_ localID: UUID) throws -> ManagedObject? {
        try context.fetch(FetchRequest(entityName: entity.name, predicate: .equal("id", .uuid(localID)), limit: 1)).first
    }
}
