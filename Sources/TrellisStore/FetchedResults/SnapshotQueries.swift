import Foundation
import GRDB

/// The reads fetched results make on a snapshot: pages of rows, the sort values of given
/// objects, and the positions of given objects — without reading every row.
extension SnapshotState {
    /// Rows `offset ..< offset + limit` of the results.
    func rows(offset: Int, limit: Int) throws -> [ObjectRow] {
        let tail = fetch.tail(limit: limit, offset: offset)
        return try read("read \(fetch.entity.name) rows") { db in
            try ObjectRow.fetch(db, fetch.entity, tail.sql, arguments: tail.arguments)
        }
    }

    /// The sort values (in ``CompiledFetch/order``, id last) of those of `ids` that are
    /// in the results.
    func sortValues(of ids: Set<ObjectID>) throws -> [ObjectID: [AttributeValue]] {
        guard !ids.isEmpty else { return [:] }
        let entity = fetch.entity
        let columns = fetch.order.map { SchemaSQL.quote($0.name) }.joined(separator: ", ")
        let sql = "SELECT \(columns) FROM \(SchemaSQL.quote(entity.name)) WHERE (\(fetch.condition))"
            + " AND \(SchemaSQL.quote(EntityDescription.idKey)) IN (SELECT value FROM json_each(?))"
        return try read("locate \(entity.name) rows") { db in
            let statement = try RawStatement(db, sql: sql)
            try statement.bind(fetch.arguments + [.string(Self.jsonList(ids))])
            var found: [ObjectID: [AttributeValue]] = [:]
            while try statement.step() {
                let values = fetch.order.enumerated().map { statement.value(Int32($0.offset), as: $0.element.type) ?? .null }
                if let uuid = values.last?.uuidValue { found[ObjectID(entityName: entity.name, uuid: uuid)] = values }
            }
            return found
        }
    }

    /// The global positions of rows given by their sort values. Few rows are placed by
    /// counting the rows before each (an index range scan); many by numbering the whole
    /// result once.
    func positions(of rows: [ObjectID: [AttributeValue]]) throws -> [ObjectID: Int] {
        guard !rows.isEmpty else { return [:] }
        let entity = fetch.entity
        if rows.count <= 32 {
            return try read("locate \(entity.name) rows") { db in
                var positions: [ObjectID: Int] = [:]
                for (id, values) in rows {
                    let before = fetch.before(values)
                    let statement = try RawStatement(db, sql: fetch.countSQL(and: before.sql))
                    try statement.bind(fetch.arguments + before.arguments)
                    positions[id] = try statement.step() ? statement.int(0) : 0
                    statement.reset()
                }
                return positions
            }
        }
        let idColumn = SchemaSQL.quote(EntityDescription.idKey)
        let sql = "SELECT \(idColumn), position FROM (SELECT \(idColumn), row_number() OVER (ORDER BY \(fetch.orderBy)) - 1"
            + " AS position FROM \(SchemaSQL.quote(entity.name)) WHERE \(fetch.condition))"
            + " WHERE \(idColumn) IN (SELECT value FROM json_each(?))"
        return try read("locate \(entity.name) rows") { db in
            let statement = try RawStatement(db, sql: sql)
            try statement.bind(fetch.arguments + [.string(Self.jsonList(Set(rows.keys)))])
            var positions: [ObjectID: Int] = [:]
            while try statement.step() {
                if let uuid = statement.text(0).flatMap(UUID.init(uuidString:)) {
                    positions[ObjectID(entityName: entity.name, uuid: uuid)] = statement.int(1)
                }
            }
            return positions
        }
    }

    private func read<T>(_ operation: String, _ body: (Database) throws -> T) throws -> T {
        try mappingStoreErrors(path: snapshot.path, operation: operation) { try snapshot.read(body) }
    }

    /// A JSON array of the ids' UUID text, for `json_each(?)`.
    static func jsonList(_ ids: Set<ObjectID>) -> String {
        "[" + ids.map { "\"\($0.uuid.uuidString)\"" }.joined(separator: ",") + "]"
    }
}

extension CompiledFetch {
    /// The condition "comes before a row with these sort values in the complete order",
    /// with its arguments. NULL sorts first ascending and last descending, as in SQLite.
    func before(_ values: [AttributeValue]) -> (sql: String, arguments: [AttributeValue]) {
        var sql = "0"
        var arguments: [AttributeValue] = []
        for (column, value) in zip(order, values).reversed() {
            let name = SchemaSQL.quote(column.name)
            let precedes: (String, [AttributeValue])
            switch (column.ascending, value.isNull) {
            case (true, true): precedes = ("0", [])
            case (true, false): precedes = ("(\(name) IS NULL OR \(name) < ?)", [value])
            case (false, true): precedes = ("\(name) IS NOT NULL", [])
            case (false, false): precedes = ("\(name) > ?", [value])
            }
            let equal: (String, [AttributeValue]) = value.isNull ? ("\(name) IS NULL", []) : ("\(name) = ?", [value])
            sql = "(\(precedes.0) OR (\(equal.0) AND \(sql)))"
            arguments = precedes.1 + equal.1 + arguments
        }
        return (sql, arguments)
    }
}
