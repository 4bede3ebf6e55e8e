import Foundation
import GRDB

/// One row of an entity table as read from a database: the object's id and its values in
/// entity column order. `Sendable`, so rows cross from reading threads to contexts.
struct ObjectRow: Sendable {
    let id: ObjectID
    let values: [AttributeValue]

    /// `SELECT "id", <every column> FROM <entity>` followed by `tail` (WHERE, ORDER BY ...).
    static func selectSQL(_ entity: EntityDescription, _ tail: String = "") -> String {
        let columns = ([EntityDescription.idKey] + entity.keys).map(SchemaSQL.quote).joined(separator: ", ")
        return "SELECT \(columns) FROM \(SchemaSQL.quote(entity.name))" + (tail.isEmpty ? "" : " " + tail)
    }

    /// Runs a statement made with ``selectSQL(_:_:)`` and reads its rows. Throws
    /// ``ContextError/invalidStoredValue(object:key:)`` for a value the model cannot hold.
    static func fetch(_ db: Database, _ entity: EntityDescription, _ tail: String = "",
                      arguments: [AttributeValue] = []) throws -> [ObjectRow]
    {
        let statement = try RawStatement(db, sql: selectSQL(entity, tail))
        try statement.bind(arguments)
        var rows: [ObjectRow] = []
        while try statement.step() {
            guard let uuid = statement.uuid(0) else {
                let text = statement.text(0) ?? "NULL"
                statement.reset()
                throw ContextError.invalidStoredID(entity: entity.name, id: text)
            }
            let id = ObjectID(entityName: entity.name, uuid: uuid)
            var values: [AttributeValue] = []
            values.reserveCapacity(entity.columns.count)
            for (index, column) in entity.columns.enumerated() {
                guard let value = statement.value(Int32(index + 1), as: column.type) else {
                    statement.reset()
                    throw ContextError.invalidStoredValue(object: id, key: column.name)
                }
                values.append(value)
            }
            rows.append(ObjectRow(id: id, values: values))
        }
        return rows
    }
}
