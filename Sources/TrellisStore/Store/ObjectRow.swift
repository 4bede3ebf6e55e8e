import Foundation
import GRDB

/// One row of an entity table as read from a database: the object's id and its values in
/// entity column order. `Sendable`, so rows cross from reading threads to contexts.
struct ObjectRow: Sendable {
    let id: ObjectID
    let values: [AttributeValue]

    /// `SELECT "id", <the columns> FROM <entity>` followed by `tail` (WHERE, ORDER BY ...);
    /// every column unless `columns` (indexes into the entity's columns) says which.
    static func selectSQL(_ entity: EntityDescription, _ tail: String = "", columns: [Int]? = nil) -> String {
        let names = [EntityDescription.idKey] + (columns.map { $0.map { entity.columns[$0].name } } ?? entity.keys)
        return "SELECT \(names.map(SchemaSQL.quote).joined(separator: ", ")) FROM \(SchemaSQL.quote(entity.name))"
            + (tail.isEmpty ? "" : " " + tail)
    }

    /// Reads every column of the rows `tail` selects. Throws
    /// ``ContextError/invalidStoredValue(object:key:)`` for a value the model cannot hold.
    static func fetch(_ db: Database, _ entity: EntityDescription, _ tail: String = "",
                      arguments: [AttributeValue] = []) throws -> [ObjectRow]
    {
        var rows: [ObjectRow] = []
        try read(db, entity, Array(entity.columns.indices), tail, arguments: arguments) { id, values in
            rows.append(ObjectRow(id: id, values: values))
        }
        return rows
    }

    /// Reads the id and the column at `column` of the rows `tail` selects, and nothing else
    /// (``ManagedObjectContext/fetchValues(of:_:)``).
    static func fetch(_ db: Database, _ entity: EntityDescription, column: Int, _ tail: String,
                      arguments: [AttributeValue]) throws -> [(id: ObjectID, value: AttributeValue)]
    {
        var rows: [(id: ObjectID, value: AttributeValue)] = []
        try read(db, entity, [column], tail, arguments: arguments) { rows.append(($0, $1[0])) }
        return rows
    }

    /// Runs ``selectSQL(_:_:columns:)`` and hands each row's id and values (of `columns`, in
    /// their order) to `row`.
    private static func read(_ db: Database, _ entity: EntityDescription, _ columns: [Int], _ tail: String,
                             arguments: [AttributeValue], row: (ObjectID, [AttributeValue]) -> Void) throws
    {
        let statement = try RawStatement(db, sql: selectSQL(entity, tail, columns: columns))
        try statement.bind(arguments)
        while try statement.step() {
            guard let uuid = statement.uuid(0) else {
                let text = statement.text(0) ?? "NULL"
                statement.reset()
                throw ContextError.invalidStoredID(entity: entity.name, id: text)
            }
            let id = ObjectID(entityName: entity.name, uuid: uuid)
            var values: [AttributeValue] = []
            values.reserveCapacity(columns.count)
            for (position, index) in columns.enumerated() {
                let column = entity.columns[index]
                guard let value = statement.value(Int32(position + 1), as: column.type) else {
                    statement.reset()
                    throw ContextError.invalidStoredValue(object: id, key: column.name)
                }
                values.append(value)
            }
            row(id, values)
        }
    }
}
