import Foundation

extension ManagedObjectContext {
    /// Inserts an object of the record's entity (with the UUID of the record's `id` when it
    /// has one, e.g. to restore a deleted note) and writes the record into it, as one undo
    /// step; returns the new object's id.
    ///
    /// ```swift
    /// var note = NoteRecord(title: "Shopping", created: Date())
    /// note.id = try context.insert(note)
    /// ```
    @discardableResult
    public func insert<Record: ManagedRecord>(_ record: Record) throws -> ObjectID {
        try undoGroup(named: "Insert \(Record.entityName)") {
            let object = try insert(Record.entityName, id: record.id?.uuid ?? UUID())
            try record.write(to: object)
            return object.objectID
        }
    }

    /// Writes the record into its object (tracked, one undo step), to be saved with the
    /// context. Throws ``ContextError/recordNotInserted(entity:)`` for a record without an
    /// id, ``ContextError/noObject(_:)`` when its object is gone.
    public func update<Record: ManagedRecord>(_ record: Record) throws {
        let object = try object(for: record)
        try undoGroup(named: "Update \(Record.entityName)") { try record.write(to: object) }
    }

    /// Deletes the record's object at the next save (throws as ``update(_:)`` does).
    public func delete<Record: ManagedRecord>(_ record: Record) throws {
        try delete(object(for: record))
    }

    /// The record of the object with `id`, with this context's unsaved changes; `nil` when
    /// there is no such object.
    ///
    /// ```swift
    /// let note = try context.record(NoteRecord.self, id: NoteRecord.objectID(uuid))
    /// ```
    public func record<Record: ManagedRecord>(_ type: Record.Type, id: ObjectID) throws -> Record? {
        try object(with: id).map(Record.init(from:))
    }

    /// The saved records matching `request` (as `fetch(_:)` with a ``FetchRequest`` returns objects).
    public func fetch<Record: ManagedRecord>(_ request: RecordRequest<Record>) throws -> [Record] {
        try fetch(request.fetchRequest).map(Record.init(from:))
    }

    /// Fetches records of a type: `fetch(RecordRequest<Record>(…))` in one call.
    public func fetch<Record: ManagedRecord>(_ type: Record.Type, predicate: FetchPredicate? = nil,
                                             sortKeys: [SortKey] = [], limit: Int? = nil) throws -> [Record]
    {
        try fetch(RecordRequest<Record>(predicate: predicate, sortKeys: sortKeys, limit: limit))
    }

    /// How many saved records match `request`.
    public func count<Record: ManagedRecord>(for request: RecordRequest<Record>) throws -> Int {
        try count(for: request.fetchRequest)
    }

    /// The context's object for a record that was inserted.
    private func object<Record: ManagedRecord>(for record: Record) throws -> ManagedObject {
        guard let id = record.id else { throw ContextError.recordNotInserted(entity: Record.entityName) }
        guard let object = try object(with: id) else { throw ContextError.noObject(id) }
        return object
    }
}
