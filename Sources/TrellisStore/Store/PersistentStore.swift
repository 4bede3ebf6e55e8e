import Foundation
import GRDB
import Logging
import TrellisCore

/// The persistent store (Core Data's persistent store and coordinator in one): one SQLite
/// file in WAL mode, shared by every context that saves into it.
///
/// ```swift
/// let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: "data/model.json"))
/// let store = try PersistentStore(url: PersistentStore.defaultURL(), model: model, bus: bus)
/// let context = store.newContext()
/// let note = try context.insert("Note")
/// note["title"] = "Shopping"
/// try context.save()
/// ```
///
/// Opening is careful with what is at the path:
/// - nothing, or an empty file: a new store is created (mode 0600, directory 0700);
/// - a Trellis store: its remembered model is compared with `model` and a lightweight
///   migration runs if the version grew (see `MigrationPlan`);
/// - anything else (not SQLite, another application's database, a newer store): refused
///   with a ``StoreError``, and the file is never written to.
///
/// Writes from other processes are not observed by fetched results.
public final class PersistentStore: Sendable {
    /// The database file.
    public let url: URL
    /// The model the store was opened with (after migration, the one it remembers).
    public let model: ManagedObjectModel
    let pool: DatabasePool
    /// The message the store triggers on its bus after every save that changed something,
    /// with the changes (``StoreChanges/json``) as data and the store as sender.
    public static let didSave = "store:did-save"
    /// Where ``didSave`` is triggered.
    let bus: EventBus?
    let logger = Logger(trellis: "trellis.store")
    let changeCenter = StoreChangeCenter()
    let validationRules = ValidationRules()

    /// The file's path.
    public var path: String { url.path }

    /// `$XDG_DATA_HOME/trellis/trellis.sqlite`, or `~/.local/share/trellis/trellis.sqlite`
    /// when `XDG_DATA_HOME` is unset, empty or relative (as the XDG base directory
    /// specification says).
    public static func defaultURL(environment: [String: String] = ProcessEnvironment.current) -> URL {
        let base: URL
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            base = URL(fileURLWithPath: dataHome, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent("trellis", isDirectory: true).appendingPathComponent("trellis.sqlite")
    }

    /// Opens the store at `url`, creating it (and its directory) on first use.
    ///
    /// - Parameters:
    ///   - bus: receives `store:did-save` from the store after every save that changed
    ///     something, with ``StoreChanges/json`` as data: `{"inserted": {"Note": ["<uuid>"]},
    ///     "updated": {...}, "deleted": {...}}` (an entity appears under a kind only when it
    ///     has such changes).
    /// - Throws: ``StoreError`` for a refused file, a model that cannot be migrated, or
    ///   an SQLite failure.
    public init(url: URL, model: ManagedObjectModel, bus: EventBus? = nil,
                options: StoreOptions = StoreOptions()) throws
    {
        let path = url.path
        self.url = url
        self.model = model
        self.bus = bus

        if !options.readOnly { try StoreFile.createDirectory(for: url) }
        var stored: StoreProbe.StoredModel?
        switch try StoreFile.inspect(path) {
        case .missing:
            guard !options.readOnly else {
                throw StoreError.fileSystem(path: path, operation: "open read-only", reason: "no such file")
            }
            try StoreFile.createEmpty(path)
        case .empty:
            break
        case .sqlite:
            if case .trellis(let found) = try StoreProbe.read(path, busyTimeout: options.busyTimeout) { stored = found }
        }
        // Decided before anything is written: a refused migration leaves the file as it was.
        let plan = try stored.map { try MigrationPlan(path: path, stored: $0, target: model) }
        if options.readOnly, stored == nil || plan?.isEmpty == false {
            throw StoreError.fileSystem(path: path, operation: "open read-only",
                                        reason: "the store must be created or migrated first")
        }

        var configuration = Configuration()
        configuration.label = "trellis.store"
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.readonly = options.readOnly
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            try StoreFunctions.register(in: db)
            // Up to 32 MiB of pages per connection, taken only as used (SQLite's default is
            // 2 MiB): a save of 100,000 notes otherwise spills its table and four indexes to the
            // write-ahead log and reads them back while it runs (20 % of its time).
            try db.execute(sql: "PRAGMA cache_size = -32768")
        }
        pool = try mappingStoreErrors(path: path, operation: "open") {
            try DatabasePool(path: path, configuration: configuration)
        }
        if !options.readOnly { try StoreFile.restrictPermissions(path) }

        if let plan {
            try plan.apply(to: pool)
        } else {
            try initialise()
        }
        logger.debug("opened store", metadata: ["path": "\(path)", "version": "\(model.version)"])
    }

    /// Closes the store's connections. Contexts and fetched results still holding the
    /// store fail afterwards.
    public func close() throws {
        try mappingStoreErrors(path: path, operation: "close") { try pool.close() }
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database, else SQLite's findings.
    public func integrityCheck() throws -> [String] {
        try read("integrity check") { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// Runs `body` in a write transaction, mapping SQLite errors to ``StoreError``s that
    /// name `operation`.
    func write<T>(_ operation: String, _ body: (Database) throws -> T) throws -> T {
        try mappingStoreErrors(path: path, operation: operation) {
            try pool.writeWithoutTransaction { db in
                try db.beginTransaction(.immediate)
                do {
                    let result = try body(db)
                    try db.commit()
                    return result
                } catch {
                    if db.isInsideTransaction { try? db.rollback() }
                    throw error
                }
            }
        }
    }

    /// Runs `body` in a read transaction on the latest committed state.
    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws -> T {
        try mappingStoreErrors(path: path, operation: operation) { try pool.read(body) }
    }

    private func initialise() throws {
        try write("create store") { db in
            try db.execute(sql: "PRAGMA application_id = \(SchemaSQL.applicationID)")
            try db.execute(sql: SchemaSQL.createMetadataTable)
            try StoreMetadata.set(StoreMetadata.format, "1", in: db)
            try StoreMetadata.set(StoreMetadata.modelVersion, String(model.version), in: db)
            try StoreMetadata.set(StoreMetadata.model, model.json.jsonString, in: db)
            try StoreMetadata.set(StoreMetadata.commitSequence, "0", in: db)
            for entity in model.entities {
                try db.execute(sql: SchemaSQL.createTable(entity))
                for index in SchemaSQL.indexes(of: entity) { try db.execute(sql: index.sql) }
            }
        }
        logger.info("created store", metadata: ["path": "\(path)", "version": "\(model.version)"])
    }
}
