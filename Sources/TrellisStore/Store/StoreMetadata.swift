import GRDB

/// The keys of the `trellis_metadata` table, which marks a file as a Trellis store.
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
