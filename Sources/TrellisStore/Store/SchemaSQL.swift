import Foundation

/// The SQL text of the store's schema: entity tables, indexes, the metadata table.
///
/// Identifiers come from a validated model (ASCII identifiers, see ``ManagedObjectModel``)
/// and are double-quoted. Values never appear in SQL text, except the constant `DEFAULT`
/// clauses of the model's own defaults, which SQLite requires as literals and which are
/// escaped here.
enum SchemaSQL {
    static let metadataTable = "trellis_metadata"
    /// `PRAGMA application_id` of every Trellis store: "TRLS".
    static let applicationID: Int32 = 0x5452_4C53

    static func quote(_ identifier: String) -> String { "\"\(identifier)\"" }

    static var createMetadataTable: String {
        "CREATE TABLE \(metadataTable) (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)"
    }

    static func createTable(_ entity: EntityDescription) -> String {
        let columns = ["\(quote(EntityDescription.idKey)) TEXT PRIMARY KEY NOT NULL"] + entity.columns.map(definition)
        return "CREATE TABLE \(quote(entity.name)) (\(columns.joined(separator: ", ")))"
    }

    /// A column definition, as in `CREATE TABLE` and `ALTER TABLE ... ADD COLUMN`.
    static func definition(_ column: Column) -> String {
        var text = "\(quote(column.name)) \(column.type.sqlType)"
        if !column.isOptional { text += " NOT NULL" }
        if !column.defaultValue.isNull { text += " DEFAULT \(literal(column.defaultValue))" }
        if let relationship = column.relationship {
            text += " REFERENCES \(quote(relationship.destination))(\(quote(EntityDescription.idKey)))"
                + " ON DELETE \(relationship.deleteRule.sqlAction)"
        }
        return text
    }

    /// Every index of an entity, the model's and one per relationship, by name.
    static func indexes(of entity: EntityDescription) -> [(name: String, sql: String)] {
        let declared = entity.indexes.map { index in
            let keys = index.isUnique ? index.keys : index.keys + [EntityDescription.idKey]
            let unique = index.isUnique ? "UNIQUE " : ""
            return (index.name, "CREATE \(unique)INDEX \(quote(index.name)) ON \(quote(entity.name))"
                + " (\(keys.map(quote).joined(separator: ", ")))")
        }
        let relationships = entity.relationships.map { relationship in
            let name = relationshipIndexName(entity: entity.name, relationship: relationship.name)
            return (name, "CREATE INDEX \(quote(name)) ON \(quote(entity.name)) (\(quote(relationship.name)))")
        }
        return declared + relationships
    }

    static func relationshipIndexName(entity: String, relationship: String) -> String {
        "trellis_fk_\(entity)_\(relationship)"
    }

    /// The SQL literal of a model default.
    static func literal(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "NULL"
        case .string(let text): return "'\(text.replacingOccurrences(of: "'", with: "''"))'"
        case .integer(let number): return String(number)
        case .double(let number): return number.isFinite ? "\(number)" : "NULL"
        case .bool(let flag): return flag ? "1" : "0"
        case .date(let date): return "\(date.timeIntervalSince1970)"
        case .uuid(let uuid): return "'\(uuid.uuidString)'"
        case .data(let data): return "X'\(data.map { String(format: "%02X", $0) }.joined())'"
        case .json(let json): return literal(.string(json.jsonString))
        }
    }
}
