/// A Swift struct that app code reads from and writes to managed objects of one entity.
///
/// ```swift
/// struct NoteRecord: ManagedRecord {
///     static let entityName = "Note"
///     var id: ObjectID?
///     var title: String
///     var created: Date
///
///     init(title: String, created: Date = Date()) { self.title = title; self.created = created }
///
///     init(from object: ManagedObject) throws {
///         id = object.objectID
///         title = try object.get("title")
///         created = try object.get("created")
///     }
///
///     func write(to object: ManagedObject) {
///         object.set("title", title)
///         object.set("created", created)
///     }
/// }
///
/// let object = try context.insert(NoteRecord(title: "Shopping"))
/// let notes = try context.fetch(NoteRecord.self, sortKeys: [.descending("created")])
/// ```
public protocol ManagedRecord {
    /// The entity the record maps.
    static var entityName: String { get }
    /// Reads the record from an object of the entity.
    init(from object: ManagedObject) throws
    /// Writes the record's values into an object (through tracked, undoable sets).
    func write(to object: ManagedObject)
}

extension ManagedObjectContext {
    /// Inserts an object of the record's entity and writes the record into it.
    @discardableResult
    public func insert<Record: ManagedRecord>(_ record: Record) throws -> ManagedObject {
        try undoGroup(named: "Insert \(Record.entityName)") {
            let object = try insert(Record.entityName)
            record.write(to: object)
            return object
        }
    }
}
