import Foundation
import GRDB

/// Reads what an existing SQLite file at the store path is, through a read-only connection
/// that never writes to it: an empty database, a Trellis store (with the model it
/// remembers), or a foreign database, which is refused.
enum StoreProbe {
    /// The model a store remembers, as written by the store that last opened it.
    struct StoredModel: Sendable {
        let version: Int
        let json: String
        let commitSequence: Int
    }

    enum Contents {
        /// An SQLite database with no schema at all: nothing to lose, so it becomes a store.
        case empty
        case trellis(StoredModel)
    }

    static func read(_ path: String) throws -> Contents {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "trellis.store.probe"
        return try mappingStoreErrors(path: path, operation: "open") {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try contents(of: db, path: path) }
        }
    }

    private static func contents(of db: Database, path: String) throws -> Contents {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let schemaObjects = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        if schemaObjects == 0 && applicationID == 0 { return .empty }
        guard try db.tableExists(SchemaSQL.metadataTable) else {
            throw StoreError.foreignDatabase(path: path, reason: "it has no \(SchemaSQL.metadataTable) table")
        }
        guard applicationID == SchemaSQL.applicationID else {
            throw StoreError.foreignDatabase(
                path: path, reason: "its application id is \(String(applicationID, radix: 16)), not Trellis's")
        }
        let rows = try [String: String](
            Row.fetchAll(db, sql: "SELECT key, value FROM \(SchemaSQL.metadataTable)").map { ($0[0], $0[1]) },
            uniquingKeysWith: { first, _ in first })
        guard let versionText = rows[StoreMetadata.modelVersion], let version = Int(versionText),
            let json = rows[StoreMetadata.model], let sequence = rows[StoreMetadata.commitSequence].flatMap({ Int($0) })
        else {
            throw StoreError.storedModelUnreadable(path: path, reason: "the metadata table is incomplete")
        }
        return .trellis(StoredModel(version: version, json: json, commitSequence: sequence))
    }
}

/// The keys of the `trellis_metadata` table.
enum StoreMetadata {
    /// The store format, `1`.
    static let format = "format"
    /// The version of the model the store was last migrated to.
    static let modelVersion = "model_version"
    /// That model's canonical JSON.
    static let model = "model"
    /// Incremented by every save; a snapshot reads it to know which saves it sees.
    static let commitSequence = "commit_sequence"

    static func set(_ key: String, _ value: String, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO \(SchemaSQL.metadataTable) (key, value) VALUES (?, ?)",
            arguments: [key, value])
    }

    static func commitSequence(in db: Database) throws -> Int {
        let text = try String.fetchOne(
            db, sql: "SELECT value FROM \(SchemaSQL.metadataTable) WHERE key = ?", arguments: [commitSequence])
        return text.flatMap { Int($0) } ?? 0
    }
}
