import Foundation
import GRDB

/// The rows a context's save writes, in the order the context made the changes.
struct SaveBatch {
    struct Insert {
        let entity: EntityDescription
        let id: UUID
        /// Every column, in entity column order.
        let values: [AttributeValue]
    }

    struct Update {
        let entity: EntityDescription
        let id: UUID
        /// The indexes of the changed columns, ascending.
        let columns: [Int]
        /// Every column, in entity column order.
        let values: [AttributeValue]
    }

    struct Delete {
        let entity: EntityDescription
        let id: UUID
    }

    var inserts: [Insert] = []
    var updates: [Update] = []
    var deletes: [Delete] = []

    var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty }
}

/// Writes a ``SaveBatch`` inside an open write transaction, one prepared statement per
/// entity and kind of change, reused for every row.
struct SaveWriter {
    let model: ManagedObjectModel
    let db: Database

    /// Writes the batch and returns what changed, including the effects of delete rules.
    func write(_ batch: SaveBatch) throws -> StoreChanges {
        // Objects may point at objects inserted later in the same save.
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        var changes = StoreChanges()
        let effects = try deleteRuleEffects(of: batch.deletes)

        var deleteStatements: [String: RawStatement] = [:]
        for delete in batch.deletes {
            let statement = try cached(&deleteStatements, delete.entity.name) {
                "DELETE FROM \(SchemaSQL.quote(delete.entity.name)) WHERE \(SchemaSQL.quote(EntityDescription.idKey)) = ?"
            }
            try statement.bind(.uuid(delete.id), at: 1)
            try statement.execute()
            changes.delete(ObjectID(entityName: delete.entity.name, uuid: delete.id))
        }
        for id in effects.cascaded { changes.delete(id) }

        // Inserts come in runs of one entity, written up to 32 rows per statement: SQLite's
        // work of starting, halting and resetting a statement is paid once per 32 rows.
        var insertStatements: [String: RawStatement] = [:]
        let inserts = batch.inserts
        var start = 0
        while start < inserts.count {
            let entity = inserts[start].entity
            var end = start + 1
            while end < inserts.count && inserts[end].entity === entity { end += 1 }
            var ids: [ObjectID] = []
            ids.reserveCapacity(end - start)
            let rowsPerStatement = Self.insertRowsPerStatement(columns: entity.columns.count + 1)
            var first = start
            while first < end {
                let rows = min(rowsPerStatement, end - first)
                let statement = try cached(&insertStatements, "\(entity.name):\(rows)") {
                    Self.insertSQL(entity, rows: rows)
                }
                var parameter: Int32 = 1
                for insert in inserts[first..<first + rows] {
                    try statement.bind(.uuid(insert.id), at: parameter)
                    parameter += 1
                    for value in insert.values {
                        try statement.bind(value, at: parameter)
                        parameter += 1
                    }
                    ids.append(ObjectID(entityName: entity.name, uuid: insert.id))
                }
                try statement.execute()
                first += rows
            }
            changes.inserted[entity.name, default: []] += ids
            start = end
        }

        var updateStatements: [String: RawStatement] = [:]
        for update in batch.updates {
            let entity = update.entity
            let key = entity.name + ":" + update.columns.map(String.init).joined(separator: ",")
            let statement = try cached(&updateStatements, key) {
                let assignments = update.columns.map { "\(SchemaSQL.quote(entity.columns[$0].name)) = ?" }
                return "UPDATE \(SchemaSQL.quote(entity.name)) SET \(assignments.joined(separator: ", "))"
                    + " WHERE \(SchemaSQL.quote(EntityDescription.idKey)) = ?"
            }
            for (offset, column) in update.columns.enumerated() {
                try statement.bind(update.values[column], at: Int32(offset + 1))
            }
            try statement.bind(.uuid(update.id), at: Int32(update.columns.count + 1))
            try statement.execute()
            changes.update(ObjectID(entityName: entity.name, uuid: update.id))
        }
        let alreadyUpdated = Set(batch.updates.map(\.id))
        for id in effects.nullified where !alreadyUpdated.contains(id.uuid) { changes.update(id) }
        return changes
    }

    /// Rows per `INSERT`: up to 32, within the 999 parameters older SQLite builds allow.
    static func insertRowsPerStatement(columns: Int) -> Int { max(1, min(32, 999 / columns)) }

    /// `INSERT INTO "Entity" ("id", ...) VALUES (?, ...), (?, ...)` for `rows` rows: the id, then
    /// every column in entity column order.
    static func insertSQL(_ entity: EntityDescription, rows: Int) -> String {
        let columns = ([EntityDescription.idKey] + entity.keys).map(SchemaSQL.quote).joined(separator: ", ")
        let row = "(" + Array(repeating: "?", count: entity.columns.count + 1).joined(separator: ", ") + ")"
        return "INSERT INTO \(SchemaSQL.quote(entity.name)) (\(columns)) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    private func cached(_ statements: inout [String: RawStatement], _ key: String, sql: () -> String) throws -> RawStatement {
        if let statement = statements[key] { return statement }
        let statement = try RawStatement(db, sql: sql())
        statements[key] = statement
        return statement
    }

    /// The objects that SQLite's `ON DELETE` actions will delete (cascade) or change
    /// (nullify) when `deletes` run, found before they run so that observers hear of them.
    private func deleteRuleEffects(of deletes: [SaveBatch.Delete]) throws -> (cascaded: [ObjectID], nullified: [ObjectID]) {
        var deleted = Set(deletes.map { ObjectID(entityName: $0.entity.name, uuid: $0.id) })
        var pending = Dictionary(grouping: deletes, by: { $0.entity.name }).mapValues { $0.map(\.id) }
        var cascaded: [ObjectID] = []
        var nullified: [ObjectID] = []
        while let (entity, ids) = pending.popFirst() {
            for (source, relationship) in model.incomingRelationships(to: entity) where relationship.deleteRule != .deny {
                let sql = "SELECT \(SchemaSQL.quote(EntityDescription.idKey)) FROM \(SchemaSQL.quote(source.name))"
                    + " WHERE \(SchemaSQL.quote(relationship.name)) IN (SELECT value FROM json_each(?))"
                let list = "[" + ids.map { "\"\($0.uuidString)\"" }.joined(separator: ",") + "]"
                let referring = try String.fetchAll(db, sql: sql, arguments: [list]).compactMap(UUID.init(uuidString:))
                    .map { ObjectID(entityName: source.name, uuid: $0) }
                switch relationship.deleteRule {
                case .cascade:
                    let new = referring.filter { deleted.insert($0).inserted }
                    cascaded += new
                    if !new.isEmpty { pending[source.name, default: []] += new.map(\.uuid) }
                case .nullify:
                    nullified += referring
                case .deny:
                    break
                }
            }
        }
        return (cascaded, nullified.filter { !deleted.contains($0) })
    }
}
