import Foundation

/// The store's file on disk: where it lives by default, what is at the path before SQLite
/// opens it, and its permissions.
enum StoreFile {
    /// What the store path holds before anything is opened.
    enum State: Equatable {
        /// No file: a new store will be created.
        case missing
        /// A file of zero bytes: SQLite treats it as an empty database.
        case empty
        /// A file that starts with the SQLite header.
        case sqlite
    }

    /// The 16 bytes every SQLite database file starts with.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Looks at the path without opening it with SQLite. Throws ``StoreError/notADatabase(_:)``
    /// for a non-empty file that does not start with the SQLite header.
    static func inspect(_ path: String) throws -> State {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return .missing }
            throw StoreError.fileSystem(path: path, operation: "stat", reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw StoreError.fileSystem(path: path, operation: "open", reason: "not a regular file")
        }
        if info.st_size == 0 { return .empty }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.fileSystem(path: path, operation: "open for reading", reason: "permission denied")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: sqliteHeader.count)) ?? Data()
        guard Array(header) == sqliteHeader, info.st_size >= 512 else {
            throw StoreError.notADatabase(SQLiteFailure(
                path: path, operation: "open", code: 26,
                message: "the file does not start with the SQLite header; it was left untouched"))
        }
        return .sqlite
    }

    /// Creates the store's directory (mode 0700 for the directories it makes).
    static func createDirectory(for url: URL) throws {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.fileSystem(path: directory.path, operation: "create directory",
                                        reason: error.localizedDescription)
        }
    }

    /// Creates an empty file with mode 0600; fails if a file appeared at the path meanwhile.
    static func createEmpty(_ path: String) throws {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.fileSystem(path: path, operation: "create", reason: String(cString: strerror(errno)))
        }
        close(fd)
    }

    /// The database file and SQLite's companion files.
    static func companions(of path: String) -> [String] {
        [path, path + "-wal", path + "-shm"]
    }

    /// Sets mode 0600 on the database and its existing `-wal` and `-shm` files.
    static func restrictPermissions(_ path: String) throws {
        for file in companions(of: path) where chmod(file, 0o600) != 0 && errno != ENOENT {
            throw StoreError.fileSystem(path: file, operation: "chmod 0600", reason: String(cString: strerror(errno)))
        }
    }
}
