import GRDB
import GRDBSQLite

/// The details of a failed SQLite call: which file, what the store was doing, and what
/// SQLite answered.
public struct SQLiteFailure: Sendable, Equatable, CustomStringConvertible {
    /// The database file.
    public let path: String
    /// What the store was doing, e.g. `"save"`, `"open"`, `"fetch Note"`, `"migrate to version 2"`.
    public let operation: String
    /// The SQLite primary result code (`SQLITE_CONSTRAINT` is 19).
    public let code: Int32
    /// The SQLite extended result code (`SQLITE_CONSTRAINT_NOTNULL` is 1299).
    public let extendedCode: Int32
    /// SQLite's message.
    public let message: String
    /// The statement that failed, without its arguments (they may be private data).
    public let sql: String?

    /// The details of a failure; `extendedCode` defaults to `code`.
    public init(path: String, operation: String, code: Int32, extendedCode: Int32? = nil, message: String,
                sql: String? = nil)
    {
        self.path = path
        self.operation = operation
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "\(path): \(operation) failed: SQLite error \(extendedCode): \(message)"
        if let sql { text += " (statement: \(sql))" }
        return text
    }
}

/// Errors of the persistent store. SQLite failures are sorted by kind, each carrying the
/// file, the operation and SQLite's code and message.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// A constraint failed: a duplicate unique key, a missing required value, a
    /// relationship to a missing object or a denied delete.
    case constraint(SQLiteFailure)
    /// The database stayed locked by another connection past the busy timeout.
    case busy(SQLiteFailure)
    /// The database file is damaged.
    case corrupt(SQLiteFailure)
    /// The file at the store path is not an SQLite database. It was left untouched.
    case notADatabase(SQLiteFailure)
    /// The database, its directory or the store was opened read-only.
    case readOnly(SQLiteFailure)
    /// The disk (or the database's page limit) is full.
    case diskFull(SQLiteFailure)
    /// Any other SQLite failure.
    case sqlite(SQLiteFailure)
    /// The file is an SQLite database of another application (it has no Trellis metadata).
    /// It was left untouched.
    case foreignDatabase(path: String, reason: String)
    /// A file-system operation on the store's file or directory failed.
    case fileSystem(path: String, operation: String, reason: String)
    /// The store was written by a newer model version than the one given.
    case modelOlderThanStore(path: String, storeVersion: Int, modelVersion: Int)
    /// The model differs from the one the store remembers but has the same version.
    case modelChangedWithoutNewVersion(path: String, version: Int, change: String)
    /// The model's changes cannot be applied by a lightweight migration. Nothing was written.
    case migrationNotInferable(path: String, entity: String, key: String?, reason: String)
    /// The model remembered in the store could not be read back.
    case storedModelUnreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .constraint(let failure): return "constraint failed: \(failure)"
        case .busy(let failure): return "database busy: \(failure)"
        case .corrupt(let failure): return "database corrupt: \(failure)"
        case .notADatabase(let failure): return "not a database: \(failure)"
        case .readOnly(let failure): return "read-only database: \(failure)"
        case .diskFull(let failure): return "disk full: \(failure)"
        case .sqlite(let failure): return "SQLite error: \(failure)"
        case .foreignDatabase(let path, let reason):
            return "\(path): refused: the file is an SQLite database of another application (\(reason)); "
                + "it was left untouched — choose another path"
        case .fileSystem(let path, let operation, let reason):
            return "\(path): \(operation) failed: \(reason)"
        case .modelOlderThanStore(let path, let storeVersion, let modelVersion):
            return "\(path): the store was written by model version \(storeVersion), "
                + "newer than this model (version \(modelVersion)); refusing to open it"
        case .modelChangedWithoutNewVersion(let path, let version, let change):
            return "\(path): the model changed (\(change)) but its version is still \(version); "
                + "raise the version to migrate"
        case .migrationNotInferable(let path, let entity, let key, let reason):
            let subject = key.map { "entity '\(entity)', key '\($0)'" } ?? "entity '\(entity)'"
            return "\(path): cannot migrate \(subject) automatically: \(reason); the store was not modified"
        case .storedModelUnreadable(let path, let reason):
            return "\(path): the model stored in the database cannot be read: \(reason)"
        }
    }

    /// The SQLite details, for the cases that have them.
    public var sqliteFailure: SQLiteFailure? {
        switch self {
        case .constraint(let f), .busy(let f), .corrupt(let f), .notADatabase(let f), .readOnly(let f),
            .diskFull(let f), .sqlite(let f):
            return f
        default:
            return nil
        }
    }

    /// Sorts an SQLite failure by its primary result code.
    public init(sqlite failure: SQLiteFailure) {
        switch failure.code {
        case SQLITE_CONSTRAINT: self = .constraint(failure)
        case SQLITE_BUSY, SQLITE_LOCKED: self = .busy(failure)
        case SQLITE_CORRUPT: self = .corrupt(failure)
        case SQLITE_NOTADB: self = .notADatabase(failure)
        case SQLITE_READONLY: self = .readOnly(failure)
        case SQLITE_FULL: self = .diskFull(failure)
        default: self = .sqlite(failure)
        }
    }

    /// Maps a GRDB `DatabaseError` to a `StoreError`; other errors are returned unchanged.
    static func mapping(_ error: any Error, path: String, operation: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        let failure = SQLiteFailure(
            path: path, operation: operation, code: error.resultCode.rawValue,
            extendedCode: error.extendedResultCode.rawValue, message: error.message ?? "unknown error", sql: error.sql)
        return StoreError(sqlite: failure)
    }
}

/// Runs `body`, turning GRDB errors into ``StoreError``s naming `path` and `operation`.
func mappingStoreErrors<T>(path: String, operation: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw StoreError.mapping(error, path: path, operation: operation)
    }
}
