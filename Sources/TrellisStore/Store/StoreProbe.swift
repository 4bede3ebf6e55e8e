import Foundation
import GRDB
import GRDBSQLite

/// Reads what an existing SQLite file at the store path is, without writing anything: an
/// empty database, a Trellis store (with the model it remembers), or a foreign database,
/// which is refused.
///
/// When the file has no `-wal` companion its content is complete, and it is opened as
/// `immutable`: no lock, no `-shm` or `-wal` file is created beside another
/// application's database. With a `-wal` file present it is opened read-only normally, so
/// that committed pages still in the WAL are seen.
enum StoreProbe {
    /// The model a store remembers, as written by the store that last opened it.
    struct StoredModel: Sendable {
        let version: Int
        let json: String
    }

    enum Contents {
        /// An SQLite database with no schema at all: nothing to lose, so it becomes a store.
        case empty
        case trellis(StoredModel)
    }

    /// Reads the file, waiting up to `busyTimeout` seconds while another connection holds
    /// a lock it cannot read past (another store closing and checkpointing its WAL, say).
    /// Each attempt looks at the `-wal` file afresh, as it may appear or go in between.
    static func read(_ path: String, busyTimeout: TimeInterval) throws -> Contents {
        let deadline = Date().addingTimeInterval(busyTimeout)
        while true {
            do {
                return try readOnce(path, busyTimeout: busyTimeout)
            } catch StoreError.busy(let failure) {
                guard Date() < deadline else { throw StoreError.busy(failure) }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }

    private static func readOnce(_ path: String, busyTimeout: TimeInterval) throws -> Contents {
        let connection = try ReadOnlyConnection(path: path, busyTimeout: busyTimeout)
        let applicationID = try connection.integer("PRAGMA application_id") ?? 0
        let schemaObjects = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
        if schemaObjects == 0 && applicationID == 0 { return .empty }
        let metadataTables = try connection.integer(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(SchemaSQL.metadataTable)'")
        guard metadataTables == 1 else {
            throw StoreError.foreignDatabase(path: path, reason: "it has no \(SchemaSQL.metadataTable) table")
        }
        guard applicationID == Int(SchemaSQL.applicationID) else {
            throw StoreError.foreignDatabase(
                path: path, reason: "its application id is \(String(applicationID, radix: 16)), not Trellis's")
        }
        let rows = try connection.rows("SELECT key, value FROM \(SchemaSQL.metadataTable)")
        let metadata = Dictionary(rows.map { ($0[0] ?? "", $0[1] ?? "") }, uniquingKeysWith: { first, _ in first })
        guard let version = metadata[StoreMetadata.modelVersion].flatMap({ Int($0) }),
            let json = metadata[StoreMetadata.model]
        else {
            throw StoreError.storedModelUnreadable(path: path, reason: "the metadata table is incomplete")
        }
        return .trellis(StoredModel(version: version, json: json))
    }
}

/// A minimal read-only SQLite connection on the C API, used before GRDB opens the file.
private final class ReadOnlyConnection {
    private var handle: OpaquePointer?
    private let path: String

    init(path: String, busyTimeout: TimeInterval) throws {
        self.path = path
        let hasWAL = FileManager.default.fileExists(atPath: path + "-wal")
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        let uri = "file:\(escaped)" + (hasWAL ? "?mode=ro" : "?immutable=1")
        let code = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        guard code == SQLITE_OK else { throw failure(code) }
        sqlite3_busy_timeout(handle, Int32(clamping: Int(busyTimeout * 1000)))
    }

    deinit { sqlite3_close_v2(handle) }

    func integer(_ sql: String) throws -> Int? {
        try rows(sql).first?.first.flatMap { $0.flatMap { Int($0) } }
    }

    func rows(_ sql: String) throws -> [[String?]] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK else { throw failure(prepared) }
        defer { sqlite3_finalize(statement) }
        var rows: [[String?]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw failure(code) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) }
            })
        }
    }

    private func failure(_ code: Int32) -> StoreError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        return StoreError(sqlite: SQLiteFailure(path: path, operation: "open", code: code & 0xFF, extendedCode: code,
                                                message: message))
    }
}
