import TrellisCore

extension TableItem {
    /// The ``ObjectID`` of a row of a ``FetchedSource`` (its identity), else `nil`:
    /// `item.objectID.map { "/notes/\($0.uuid)" }`.
    public var objectID: ObjectID? { id.base.base as? ObjectID }

    /// The row of a ``FetchedSource`` read as a record; `nil` for an item of another
    /// source, or of another entity.
    public func record<Record: ManagedRecord>(as type: Record.Type) throws -> Record? {
        guard let object = value(as: ManagedObject.self), object.entityName == Record.entityName else { return nil }
        return try Record(from: object)
    }
}
