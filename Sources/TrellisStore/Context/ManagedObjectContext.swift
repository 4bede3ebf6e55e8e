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
/// context.hasChanges          // true
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
    private struct WeakObject {
        weak var object: ManagedObject?
    }

    public let store: PersistentStore
    /// Unchanged objects are held weakly; changed objects are also held by `pending`.
    private var registered: [ObjectID: WeakObject] = [:]
    private var purgeThreshold = 1024
    /// Objects that became inserted, changed or deleted since the last save, in order.
    private(set) var pending: [ManagedObject] = []
    var undoStack = UndoStack<UndoAction>()
    let logger = Logger(label: "trellis.store.context")

    /// A context on `store`; `undoEnabled: false` for imports that need no undo.
    public init(store: PersistentStore, undoEnabled: Bool = true) {
        self.store = store
        undoStack.isEnabled = undoEnabled
    }

    public var model: ManagedObjectModel { store.model }

    // MARK: - Objects

    /// Inserts a new object of `entityName` with the model's default values.
    @discardableResult
    public func insert(_ entityName: String) throws -> ManagedObject {
        guard let entity = model.entity(named: entityName) else { throw ContextError.unknownEntity(entityName) }
        let object = ManagedObject(id: ObjectID(entityName: entityName), entity: entity, values: entity.defaultValues,
                                   committed: nil, state: .inserted, context: self)
        registered[object.objectID] = WeakObject(object: object)
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
        if let object = registered[id]?.object, object.state != .detached {
            return object.state == .deleted ? nil : object
        }
        guard let entity = model.entity(named: id.entityName) else { throw ContextError.unknownEntity(id.entityName) }
        let rows = try store.read("fetch \(id)") { db in
            try ObjectRow.fetch(db, entity, "WHERE \(SchemaSQL.quote(EntityDescription.idKey)) = ?",
                                arguments: [.uuid(id.uuid)])
        }
        return rows.first.map { object(for: $0, entity: entity) }
    }

    /// The context's instance for a row read from the store: an existing unchanged
    /// instance takes the row's values, a changed one keeps its unsaved values.
    func object(for row: ObjectRow, entity: EntityDescription) -> ManagedObject {
        if let object = registered[row.id]?.object, object.state != .detached {
            if object.state == .persistent && !object.isUpdated {
                object.values = row.values
                object.committed = row.values
            }
            return object
        }
        purgeIfNeeded()
        let object = ManagedObject(id: row.id, entity: entity, values: row.values, committed: row.values,
                                   state: .persistent, context: self)
        registered[row.id] = WeakObject(object: object)
        return object
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
        undoStack.register(.set(object, column: column, value: old))
    }

    /// Undoes a deletion: the object is inserted (or un-deleted) again.
    func reinsert(_ object: ManagedObject) {
        switch object.state {
        case .detached: object.state = .inserted
        case .deleted: object.state = .persistent
        case .inserted, .persistent: return
        }
        registered[object.objectID] = WeakObject(object: object)
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

    func registeredObject(_ id: ObjectID) -> ManagedObject? { registered[id]?.object }

    func checkOwnership(_ object: ManagedObject) throws {
        guard object.context === self else { throw ContextError.foreignObject(object.objectID) }
    }

    /// Drops the entries of released objects once the table has doubled.
    private func purgeIfNeeded() {
        guard registered.count >= purgeThreshold else { return }
        registered = registered.filter { $0.value.object != nil }
        purgeThreshold = max(1024, registered.count * 2)
    }
}

extension PersistentStore {
    /// A new context for the calling thread or actor, with undo.
    public func newContext() -> ManagedObjectContext { ManagedObjectContext(store: self) }
}
