import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import TrellisStore

@Suite("Persistent store: file, refusal of foreign files")
struct PersistentStoreTests {
    private func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int).flatMap { $0 }
    }

    @Test("a new store creates its directory and a WAL database with mode 0600, -wal and -shm included")
    func createsStore() throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("a/b/trellis.sqlite")
        let store = try PersistentStore(url: url, model: try Fixtures.demoModel())
        try store.write("insert person") { db in
            try db.execute(sql: "INSERT INTO Person (id, firstName, lastName) VALUES (?, 'Anna', 'Ivanova')",
                           arguments: [UUID().uuidString])
        }
        #expect(mode(url.path) == 0o600)
        #expect(mode(url.path + "-wal") == 0o600)
        #expect(mode(url.path + "-shm") == 0o600)
        #expect(mode(url.deletingLastPathComponent().path) == 0o700)
        let journal = try store.read("journal mode") { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
        let timeout = try store.write("busy timeout") { db in try Int.fetchOne(db, sql: "PRAGMA busy_timeout") }
        #expect(timeout == 5000)
        #expect(try store.integrityCheck() == ["ok"])
    }

    @Test("the default location follows XDG_DATA_HOME, else ~/.local/share")
    func defaultURL() {
        #expect(PersistentStore.defaultURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]).path
            == "/data/trellis/trellis.sqlite")
        #expect(PersistentStore.defaultURL(environment: ["HOME": "/home/u"]).path
            == "/home/u/.local/share/trellis/trellis.sqlite")
        #expect(PersistentStore.defaultURL(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]).path
            == "/home/u/.local/share/trellis/trellis.sqlite")
    }

    @Test("reopening a store keeps its rows and its model")
    func reopen() throws {
        let url = try Fixtures.storeURL()
        let model = try Fixtures.demoModel()
        do {
            let store = try PersistentStore(url: url, model: model)
            try store.write("insert") { db in
                try db.execute(sql: "INSERT INTO Person (id, firstName, lastName) VALUES ('p1', 'A', 'B')")
            }
            try store.close()
        }
        let again = try PersistentStore(url: url, model: model)
        #expect(try again.read("count") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Person") } == 1)
    }

    @Test("an empty file at the path becomes a store")
    func emptyFile() throws {
        let url = try Fixtures.storeURL()
        try Data().write(to: url)
        let store = try PersistentStore(url: url, model: try Fixtures.demoModel())
        #expect(try store.integrityCheck() == ["ok"])
    }

    @Test("a file of random bytes is refused as not a database and left byte for byte")
    func randomBytesRefused() throws {
        let url = try Fixtures.storeURL()
        let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255) })
        try bytes.write(to: url)
        #expect {
            try PersistentStore(url: url, model: try Fixtures.demoModel())
        } throws: { error in
            guard case .notADatabase(let failure) = error as? StoreError else { return false }
            return failure.path == url.path && failure.operation == "open"
                && String(describing: error).contains("left untouched")
        }
        #expect(try Data(contentsOf: url) == bytes)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test("another application's SQLite database is refused and left byte for byte")
    func foreignDatabaseRefused() throws {
        let url = try Fixtures.storeURL()
        do {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT)")
                try db.execute(sql: "INSERT INTO players (name) VALUES ('Arthur'), ('Barbara')")
            }
            try queue.close()
        }
        let before = try Data(contentsOf: url)
        #expect {
            try PersistentStore(url: url, model: try Fixtures.demoModel())
        } throws: { error in
            guard case .foreignDatabase(let path, let reason) = error as? StoreError else { return false }
            return path == url.path && reason.contains("trellis_metadata")
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test("a read-only store fails a write with a read-only error naming the file and operation")
    func readOnlyStore() throws {
        let url = try Fixtures.storeURL()
        try PersistentStore(url: url, model: try Fixtures.demoModel()).close()
        let store = try PersistentStore(url: url, model: try Fixtures.demoModel(), options: StoreOptions(readOnly: true))
        #expect {
            try store.write("insert person") { db in
                try db.execute(sql: "INSERT INTO Person (id, firstName, lastName) VALUES ('p', 'A', 'B')")
            }
        } throws: { error in
            guard case .readOnly(let failure) = error as? StoreError else { return false }
            return failure.path == url.path && failure.operation == "insert person" && failure.code == 8
        }
    }

    @Test("a constraint failure is a typed error with the file, operation and SQLite code")
    func constraintError() throws {
        let url = try Fixtures.storeURL()
        let store = try PersistentStore(url: url, model: try Fixtures.demoModel())
        #expect {
            try store.write("insert person") { db in
                try db.execute(sql: "INSERT INTO Person (id, firstName, lastName) VALUES ('p', NULL, 'B')")
            }
        } throws: { error in
            guard case .constraint(let failure) = error as? StoreError else { return false }
            return failure.path == url.path && failure.operation == "insert person" && failure.code == 19
                && failure.extendedCode == 1299 && failure.message.contains("Person.firstName")
        }
    }

    @Test("a write blocked by another connection past the busy timeout is a busy error")
    func busyError() throws {
        let url = try Fixtures.storeURL()
        let store = try PersistentStore(url: url, model: try Fixtures.demoModel(),
                                        options: StoreOptions(busyTimeout: 0.05))
        let other = try DatabaseQueue(path: url.path)
        try other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            #expect {
                try store.write("insert person") { db in
                    try db.execute(sql: "INSERT INTO Person (id, firstName, lastName) VALUES ('p', 'A', 'B')")
                }
            } throws: { error in
                guard case .busy(let failure) = error as? StoreError else { return false }
                return failure.path == url.path && failure.code == 5
            }
            try db.execute(sql: "ROLLBACK")
        }
    }

    @Test("opening waits while another connection holds the file exclusively, and opens once it lets go")
    func openWaitsForExclusiveLock() throws {
        let url = try Fixtures.storeURL()
        try PersistentStore(url: url, model: try Fixtures.demoModel()).close()
        // An exclusive-locking-mode connection blocks even WAL readers, as a closing
        // connection does while it checkpoints.
        let other = try ExclusiveLock(path: url.path)
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            other.release()
            released.signal()
        }
        let store = try PersistentStore(url: url, model: try Fixtures.demoModel(),
                                        options: StoreOptions(busyTimeout: 10))
        #expect(try store.integrityCheck() == ["ok"])
        released.wait()
        try store.close()

        // With a short timeout, the same lock is a busy error naming the file.
        let holder = try ExclusiveLock(path: url.path)
        defer { holder.release() }
        #expect {
            try PersistentStore(url: url, model: try Fixtures.demoModel(), options: StoreOptions(busyTimeout: 0.1))
        } throws: { error in
            guard case .busy(let failure) = error as? StoreError else { return false }
            return failure.path == url.path
        }
    }

    @Test("running out of pages is a disk-full error")
    func diskFullError() throws {
        let store = try PersistentStore(url: try Fixtures.storeURL(), model: try Fixtures.demoModel())
        let body = String(repeating: "x", count: 50_000)
        #expect {
            try store.write("save") { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1
                try db.execute(sql: "PRAGMA max_page_count = \(pages + 2)")
                for number in 0..<50 {
                    try db.execute(sql: "INSERT INTO Note (id, title, body, created, updated) VALUES (?, 't', ?, 0, 0)",
                                   arguments: ["n\(number)", body])
                }
            }
        } throws: { error in
            guard case .diskFull(let failure) = error as? StoreError else { return false }
            return failure.operation == "save" && failure.code == 13
        }
    }

    @Test("a damaged table page is reported as a corrupt database")
    func corruptError() throws {
        let url = try Fixtures.storeURL()
        let model = try Fixtures.demoModel()
        do {
            let store = try PersistentStore(url: url, model: model)
            try store.write("fill") { db in
                for number in 0..<200 {
                    try db.execute(sql: "INSERT INTO Note (id, title, body, created, updated) VALUES (?, 't', ?, 0, 0)",
                                   arguments: ["n\(number)", String(repeating: "b", count: 500)])
                }
            }
            try store.close()
        }
        var bytes = try Data(contentsOf: url)
        let pageSize = 4096
        let noteRoot = try DatabaseQueue(path: url.path).read { db in
            try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'Note'") ?? 2
        }
        let start = (noteRoot - 1) * pageSize
        bytes.replaceSubrange(start..<(start + pageSize), with: Data(repeating: 0xA5, count: pageSize))
        try bytes.write(to: url)
        let store = try PersistentStore(url: url, model: model)
        #expect {
            try store.read("fetch Note") { db in try Row.fetchAll(db, sql: "SELECT * FROM Note") }
        } throws: { error in
            guard case .corrupt(let failure) = error as? StoreError else { return false }
            return failure.path == url.path && failure.operation == "fetch Note" && failure.code == 11
        }
    }
}

@Suite("Raw statements")
struct RawStatementTests {
    @Test("every value kind binds and reads back; a UUID binds as its upper-case text")
    func roundTrip() throws {
        let store = try PersistentStore(url: try Fixtures.storeURL(), model: try Fixtures.demoModel())
        let uuid = UUID()
        let values: [(AttributeValue, AttributeType)] = [
            ("Фэнтези", .string), ("", .string), (42, .integer), (2.5, .double), (true, .bool),
            (.date(Date(timeIntervalSince1970: 12.5)), .date), (.uuid(uuid), .uuid), (.data(Data([0, 1, 255])), .data),
            (.data(Data()), .data), (.json(["a": [1, "b"]]), .json), (nil, .string),
        ]
        try store.read("round trip") { db in
            for (value, type) in values {
                let statement = try RawStatement(db, sql: "SELECT ?")
                try statement.bind(value, at: 1)
                #expect(try statement.step())
                #expect(statement.value(0, as: type) == value)
                statement.reset()
            }
            let text = try RawStatement(db, sql: "SELECT ?")
            try text.bind(.uuid(uuid), at: 1)
            #expect(try text.step())
            #expect(text.text(0) == uuid.uuidString)
            text.reset()
        }
    }
}

/// A raw SQLite connection holding an exclusive lock on a database until released (GRDB
/// refuses to leave a transaction open between accesses, so this uses the C API).
private final class ExclusiveLock: Sendable {
    // Used by one thread at a time: the test thread opens it, one later call releases it.
    nonisolated(unsafe) private var handle: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw StoreError.fileSystem(path: path, operation: "open for test", reason: "sqlite3_open_v2 failed")
        }
        for sql in ["PRAGMA locking_mode = EXCLUSIVE", "BEGIN EXCLUSIVE",
                    "UPDATE trellis_metadata SET value = value WHERE key = 'format'"] {
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
                throw StoreError.fileSystem(path: path, operation: sql, reason: String(cString: sqlite3_errmsg(handle)))
            }
        }
    }

    func release() {
        sqlite3_exec(handle, "COMMIT", nil, nil, nil)
        sqlite3_close_v2(handle)
        handle = nil
    }
}
