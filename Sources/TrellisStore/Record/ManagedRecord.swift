import Foundation

/// A Swift struct that app code fetches, inserts, updates and observes as a value, mapped
/// to the objects of one entity (GRDB's `FetchableRecord` and `PersistableRecord` in one).
///
/// A `Codable` struct needs nothing more than its entity's name and an `id`: each stored
/// property is the attribute of the same name (a to-one relationship reads as the
/// destination's ``ObjectID``), and `id` is the object's identity, set by the context.
///
/// ```swift
/// struct NoteRecord: ManagedRecord, Codable {
///     static let entityName = "Note"
///     var id: ObjectID?
///     var title: String
///     var created: Date
/// }
///
/// var note = NoteRecord(title: "Shopping", created: Date())
/// note.id = try context.insert(note)
/// note.title = "Groceries"
/// try context.update(note)
/// let notes = try context.fetch(RecordRequest<NoteRecord>(sortKeys: [.descending("created")]))
/// ```
///
/// A property whose value does not fit its attribute fails with
/// ``ContextError/typeMismatch(object:key:expected:found:)``, which names the object (its
/// entity), the attribute and both types; a property the entity does not have fails with
/// ``ContextError/unknownKey(entity:key:)``. A struct that is not `Codable`, or maps
/// differently, implements ``init(from:)`` and ``write(to:)`` itself (with
/// `object.get("title")` and `object.set("title", title)`). A record may leave attributes
/// out: writing it leaves theirs as they are.
public protocol ManagedRecord {
    /// The entity the record maps, e.g. `"Note"`.
    static var entityName: String { get }
    /// The object's identity: `nil` until the record is inserted (or when it is made from
    /// scratch), stable from then on, in every context and across launches.
    var id: ObjectID? { get set }
    /// Reads the record from an object of the entity.
    init(from object: ManagedObject) throws
    /// Writes the record's values into an object (through tracked, undoable sets).
    func write(to object: ManagedObject) throws
}

extension ManagedRecord {
    /// The id of the object of this record's entity with `uuid` (a route parameter, say):
    /// `NoteRecord.objectID(uuid)` is `ObjectID(entityName: "Note", uuid: uuid)`.
    public static func objectID(_ uuid: UUID) -> ObjectID { ObjectID(entityName: entityName, uuid: uuid) }
}

extension ManagedRecord where Self: Decodable {
    /// Decodes the record from the object's attributes (`RecordDecoder`).
    public init(from object: ManagedObject) throws {
        try self.init(from: RecordDecoder(object: object))
    }
}

extension ManagedRecord where Self: Encodable {
    /// Encodes the record into the object's attributes (`RecordEncoder`); `id` is not
    /// written (an object's identity does not change).
    public func write(to object: ManagedObject) throws {
        try encode(to: RecordEncoder(object: object))
    }
}
