import Foundation
import TrellisCore

/// One object of an entity, living in a ``ManagedObjectContext`` (Core Data's
/// `NSManagedObject`), with key-value access to its attributes and relationships.
///
/// ```swift
/// let note = try context.insert("Note")
/// note["title"] = "Shopping"                // tracked, undoable
/// assert(note["title"].stringValue == "Shopping")
/// let created: Date = try note.get("created")
/// try note.setRelated("author", to: person)
/// ```
///
/// Setting an unknown key through the subscript is remembered and reported by
/// validation at save; ``setValue(_:forKey:)`` throws at once instead. A value of the
/// wrong type is kept and reported at save too (an integer given to a `double` attribute
/// is converted). Objects are not `Sendable`: pass their ``objectID`` between threads.
public final class ManagedObject {
    /// Where the object is in its life.
    enum LifeState {
        /// Inserted in the context, not saved yet.
        case inserted
        /// Saved in the store (and maybe changed since).
        case persistent
        /// Saved in the store and marked for deletion at the next save.
        case deleted
        /// Neither in the context's pending changes nor in the store: a deleted object
        /// after save, or an insertion that was undone or rolled back.
        case detached
    }

    /// The object's stable identity.
    public let objectID: ObjectID
    /// The entity the object belongs to.
    public let entity: EntityDescription
    weak var context: ManagedObjectContext?
    /// The current values, in entity column order.
    var values: [AttributeValue]
    /// The values last read from or saved to the store; `nil` when the store has no row.
    var committed: [AttributeValue]?
    var state: LifeState
    /// Whether the context lists the object among its pending changes.
    var isPending = false
    /// Keys set through the subscript that the entity does not have.
    var unknownKeys: [String] = []

    init(id: ObjectID, entity: EntityDescription, values: [AttributeValue], committed: [AttributeValue]?,
         state: LifeState, context: ManagedObjectContext?)
    {
        self.objectID = id
        self.entity = entity
        self.values = values
        self.committed = committed
        self.state = state
        self.context = context
    }

    /// The name of the object's entity.
    public var entityName: String { entity.name }

    /// The value of an attribute or relationship (`.uuid` of the destination), or of `"id"`.
    /// `.null` for an unknown key; setting one is reported at save.
    public subscript(key: String) -> AttributeValue {
        get {
            if key == EntityDescription.idKey { return .uuid(objectID.uuid) }
            guard let index = entity.index(ofColumn: key) else { return .null }
            return values[index]
        }
        set {
            guard let index = entity.index(ofColumn: key) else {
                if !unknownKeys.contains(key) { unknownKeys.append(key) }
                return
            }
            setValue(newValue, at: index)
        }
    }

    /// The value of `key`; throws ``ContextError/unknownKey(entity:key:)``.
    public func attributeValue(forKey key: String) throws -> AttributeValue {
        guard key == EntityDescription.idKey || entity.index(ofColumn: key) != nil else {
            throw ContextError.unknownKey(entity: entity.name, key: key)
        }
        return self[key]
    }

    /// Sets `key`; throws ``ContextError/unknownKey(entity:key:)`` instead of deferring the
    /// error to save.
    public func setValue(_ value: AttributeValue, forKey key: String) throws {
        guard let index = entity.index(ofColumn: key) else { throw ContextError.unknownKey(entity: entity.name, key: key) }
        setValue(value, at: index)
    }

    func setValue(_ value: AttributeValue, at index: Int) {
        let value = value.conformed(to: entity.columnTypes[index]) ?? value
        guard let old = Self.replace(&values[index], with: value) else { return }
        context?.objectDidChange(self, column: index, from: old)
    }

    /// Puts `value` in `slot` and returns what was there, or `nil` when that was equal:
    /// the values are reached once per change (every access to a class's stored property
    /// is checked for exclusivity while the program runs).
    private static func replace(_ slot: inout AttributeValue, with value: AttributeValue) -> AttributeValue? {
        guard slot != value else { return nil }
        let old = slot
        slot = value
        return old
    }

    /// The object a to-one relationship points at, or `nil`.
    public func relatedID(_ key: String) throws -> ObjectID? {
        guard let relationship = entity.relationship(named: key) else {
            throw ContextError.notARelationship(entity: entity.name, key: key)
        }
        return self[key].uuidValue.map { ObjectID(entityName: relationship.destination, uuid: $0) }
    }

    /// Points a to-one relationship at `id` (or at nothing).
    public func setRelated(_ key: String, to id: ObjectID?) throws {
        guard let relationship = entity.relationship(named: key) else {
            throw ContextError.notARelationship(entity: entity.name, key: key)
        }
        if let id, id.entityName != relationship.destination {
            throw ContextError.wrongDestination(entity: entity.name, key: key, expected: relationship.destination,
                                                got: id.entityName)
        }
        try setValue(id.map { .uuid($0.uuid) } ?? .null, forKey: key)
    }

    /// Points a to-one relationship at `object`.
    public func setRelated(_ key: String, to object: ManagedObject) throws {
        try setRelated(key, to: object.objectID)
    }

    /// Inserted in its context and not saved yet.
    public var isInserted: Bool { state == .inserted }

    /// Marked for deletion at the next save.
    public var isDeleted: Bool { state == .deleted }

    /// Saved, with values changed since.
    public var isUpdated: Bool { state == .persistent && committed.map { $0 != values } == true }

    /// Inserted, deleted or updated and not saved yet.
    public var hasChanges: Bool { isInserted || isDeleted || isUpdated || (state != .detached && !unknownKeys.isEmpty) }

    /// The keys whose values differ from the saved ones (every key with a value for an
    /// inserted object).
    public var changedKeys: [String] {
        guard let committed else { return entity.columns.indices.filter { !values[$0].isNull }.map { entity.columns[$0].name } }
        return entity.columns.indices.filter { values[$0] != committed[$0] }.map { entity.columns[$0].name }
    }

    /// Every key with its current value.
    public var dictionary: [String: AttributeValue] {
        Dictionary(uniqueKeysWithValues: zip(entity.keys, values))
    }
}

extension ManagedObject: CustomStringConvertible {
    public var description: String { objectID.description }
}

/// Key-value reading for cell providers: the value of an attribute, relationship or `id`
/// as JSON (see ``AttributeValue/json``), `nil` for an unknown key.
extension ManagedObject: KeyValueCoding {
    /// The value of `key` as JSON, or `nil` for an unknown key.
    public func value(forKey key: String) -> JSONValue? {
        guard key == EntityDescription.idKey || entity.index(ofColumn: key) != nil else { return nil }
        return self[key].json
    }
}
