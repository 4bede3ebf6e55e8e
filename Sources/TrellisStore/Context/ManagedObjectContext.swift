import Foundation
import Logging

/// A scratch pad of managed objects (Core Data's `NSManagedObjectContext`): it tracks
/// insertions, changes and deletions, validates and saves them through the store in one
/// transaction, rolls them back, and undoes and redoes them.
///
/// ```swift
/// let context = store.newContext()
/// let person = try context.insert("Person", values: ["firstName": "Anna", "lastName": "Ivanova"])
/// let note = try context.insert("Note")
/// note["title"] = "Shopping"
/// note["created"] = .date(Date()); note["updated"] = .date(Date())
/// try note.setRelated("author", to: person)
/// assert(context.hasChanges)
/// try context.save()          // one transaction; `store:did-save` follows
/// note["title"] = "Groceries"
/// context.undo()              // title is "Shopping" again
/// ```
///
/// A context is not `Sendable`: use it from one thread or actor (the main actor for the
/// window's context; ``BackgroundContext`` for imports). Objects are unique per id within
/// a context. Fetches read what is saved in the store: unsaved insertions are not
/// returned, objects deleted in the context are left out, and objects changed in the
/// context keep their unsaved values.
public final class ManagedObjectContext {
    /// The store the context fetches from and saves into.
    public let store: PersistentStore
    /// The context's instance of each object it knows. Instances nobody else holds are
    /// dropped from time to time (see `purgeIfNeeded`), so that scrolling through a million
    /// rows does not keep them all; changed objects are also held by `pending`.
    private var registered: [ObjectID: ManagedObject] = [:]
    private var purgeThreshold = 1024
    private var lastEntity: EntityDescription?
    /// Objects that became inserted, changed or deleted since the last save, in order.
    private(set) var pending: [ManagedObject] = []
    var undoStack = UndoStack<UndoAction>()
    let logger = Logger(trellis: "trellis.store.context")

    /// A context on `store`; `undoEnabled: false` for imports that need no undo.
    public init(store: PersistentStore, undoEnabled: Bool = true) {
        self.store = store
        self.model = store.model
        undoStack.isEnabled = undoEnabled
    }

    /// The store's model.
    public let model: ManagedObjectModel

    // MARK: - Objects

    /// Inserts a new object of `entityName` with the model's default values.
    @discardableResult
    public func insert(_ entityName: String) throws -> ManagedObject {
        try insert(entityName, id: UUID())
    }

    /// Inserts a new object with a given id, e.g. one an import or a sync peer already
    /// uses. Throws ``ContextError/duplicateID(_:)`` when the context has an object with
    /// that id; a duplicate of a saved object fails at save with a constraint error.
    @discardableResult
    public func insert(_ entityName: String, id uuid: UUID) throws -> ManagedObject {
        let entity = try self.entity(named: entityName)
        let id = ObjectID(entityName: entityName, uuid: uuid)
        purgeIfNeeded()
        let object = ManagedObject(id: id, entity: entity, values: entity.defaultValues, committed: nil,
                                   state: .inserted, context: self)
        if let existing = registered.updateValue(object, forKey: id), existing.state != .detached {
            registered[id] = existing
            throw ContextError.duplicateID(id)
        }
        markPending(object)
        undoStack.register(.delete(object))
        return object
    }

    /// Inserts a new object and sets `values`, as one undo step.
    @discardableResult
    public func insert(_ entityName: String, values: [String: AttributeValue]) throws -> ManagedObject {
        try undoGroup(named: "Insert \(entityName)") {
            let object = try insert(entityName)
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { try object.setValue(value, forKey: key) }
            return object
        }
    }

    /// Deletes `object` at the next save (an unsaved insertion is simply dropped).
    public func delete(_ object: ManagedObject) throws {
        try checkOwnership(object)
        switch object.state {
        case .inserted: object.state = .detached
        case .persistent: object.state = .deleted
        case .deleted, .detached: return
        }
        markPending(object)
        undoStack.register(.reinsert(object))
    }

    /// The object with `id`: the context's own instance if it has one, else read from the
    /// store; `nil` when there is no such object (or it is deleted in this context).
    public func object(with id: ObjectID) throws -> ManagedObject? {
        if let object = registered[id], object.state != .detached {
            return object.state == .deleted ? nil : object
        }
        guard let entity = model.entity(named: id.entityName) else { throw ContextError.unknownEntity(id.entityName) }
        let rows = try store.read("fetch \(id)") { db in
            try ObjectRow.fetch(db, entity, "WHERE \(SchemaSQL.quote(EntityDescription.idKey)) = ?",
                                arguments: [.uuid(id.uuid)])
        }
        return rows.first.map { object(for: $0, entity: entity) }
    }

    /// The context's instance for a row read from the store. An existing unchanged
    /// instance takes the row's values when `refreshing` (a row of the latest state; not
    /// for a row of an older snapshot); a changed one keeps its unsaved values.
    func object(for row: ObjectRow, entity: EntityDescription, refreshing: Bool = true) -> ManagedObject {
        if let object = registered[row.id], object.state != .detached {
            if refreshing && object.state == .persistent && !object.isUpdated {
                object.values = row.values
                object.committed = row.values
            }
            return object
        }
        purgeIfNeeded()
        let object = ManagedObject(id: row.id, entity: entity, values: row.values, committed: row.values,
                                   state: .persistent, context: self)
        registered[row.id] = object
        return object
    }

    /// The description of `name`; the last one asked for is kept at hand for runs of
    /// inserts.
    private func entity(named name: String) throws -> EntityDescription {
        if let last = lastEntity, last.name == name { return last }
        guard let entity = model.entity(named: name) else { throw ContextError.unknownEntity(name) }
        lastEntity = entity
        return entity
    }

    // MARK: - Pending changes

    /// Whether any object is inserted, changed or deleted and not saved.
    public var hasChanges: Bool { pending.contains { $0.hasChanges } }

    /// Unsaved insertions, in insertion order.
    public var insertedObjects: [ManagedObject] { pending.filter(\.isInserted) }

    /// Saved objects with unsaved changes.
    public var updatedObjects: [ManagedObject] { pending.filter(\.isUpdated) }

    /// Saved objects marked for deletion.
    public var deletedObjects: [ManagedObject] { pending.filter(\.isDeleted) }

    /// Called by an object after one of its values changed.
    func objectDidChange(_ object: ManagedObject, column: Int, from old: AttributeValue) {
        if object.state != .detached { markPending(object) }
        if undoStack.isEnabled { undoStack.register(.set(object, column: column, value: old)) }
    }

    /// Undoes a deletion: the object is inserted (or un-deleted) again.
    func reinsert(_ object: ManagedObject) {
        switch object.state {
        case .detached: object.state = .inserted
        case .deleted: object.state = .persistent
        case .inserted, .persistent: return
        }
        registered[object.objectID] = object
        markPending(object)
        undoStack.register(.delete(object))
    }

    func markPending(_ object: ManagedObject) {
        guard !object.isPending else { return }
        object.isPending = true
        pending.append(object)
    }

    func clearPending() {
        for object in pending { object.isPending = false }
        pending.removeAll()
    }

    func forget(_ id: ObjectID) { registered.removeValue(forKey: id) }

    func registeredObject(_ id: ObjectID) -> ManagedObject? { registered[id] }

    /// How many instances the context holds.
    var registeredCount: Int { registered.count }

    func checkOwnership(_ object: ManagedObject) throws {
        guard object.context === self else { throw ContextError.foreignObject(object.objectID) }
    }

    /// Once the table has doubled since the last purge, drops the objects only the table
    /// holds: unchanged (changed ones are held by `pending`) and unused by the app, they
    /// are read again when needed. Amortised O(1) per registration; the table never holds
    /// more than twice the objects in use (plus 1024).
    private func purgeIfNeeded() {
        guard registered.count >= purgeThreshold else { return }
        // Through the values' index subscript, which yields each stored reference in place
        // (no key is hashed: a bulk insert, which can drop nothing, scans its objects cheaply).
        var kept: [Dictionary<ObjectID, ManagedObject>.Index] = []
        var index = registered.values.startIndex
        while index != registered.values.endIndex {
            if !isKnownUniquelyReferenced(&registered.values[index]) { kept.append(index) }
            index = registered.values.index(after: index)
        }
        if kept.count < registered.count {
            // Rebuilt from the few kept rather than removing the many released one by one.
            registered = Dictionary(uniqueKeysWithValues: kept.map { registered[$0] })
        }
        purgeThreshold = max(1024, registered.count * 2)
    }
}

extension PersistentStore {
    /// A new context for the calling thread or actor, with undo.
    public func newContext() -> ManagedObjectContext { ManagedObjectContext(store: self) }
}
