import Foundation
import GRDB
import GRDBSQLite
import TrellisCore

/// SQLite's "copy the bytes now" destructor for bound text and blobs.
private let transientDestructor = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// A statement prepared on a GRDB connection and driven through the SQLite C API.
///
/// The save and page-read paths bind ``AttributeValue``s straight to SQLite and read
/// columns straight back, with no intermediate value boxes: one statement per entity and
/// kind of change is prepared once per save and reused for every row. Values are always
/// bound as `?` arguments. Failures throw GRDB `DatabaseError`s, mapped to ``StoreError``
/// like every other SQLite failure.
final class RawStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    let sql: String

    init(_ db: Database, sql: String) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed", sql: sql)
        }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)),
                                sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `value` to the 1-based parameter `index`.
    func bind(_ value: AttributeValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .string(let text):
            code = bindText(text, at: index)
        case .integer(let number):
            code = sqlite3_bind_int64(handle, index, Int64(number))
        case .double(let number):
            code = sqlite3_bind_double(handle, index, number)
        case .bool(let flag):
            code = sqlite3_bind_int64(handle, index, flag ? 1 : 0)
        case .date(let date):
            code = sqlite3_bind_double(handle, index, date.timeIntervalSince1970)
        case .uuid(let uuid):
            code = bindUUID(uuid, at: index)
        case .data(let data):
            code = data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
                return sqlite3_bind_blob(handle, index, base, Int32(bytes.count), transientDestructor)
            }
        case .json(let json):
            code = bindText(json.jsonString, at: index)
        }
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// Binds text, which SQLite copies. `withCString` lends a native string's own
    /// NUL-terminated UTF-8 bytes; passing the string itself as the `char *` argument
    /// made a copy in a new array for every value.
    private func bindText(_ text: String, at index: Int32) -> Int32 {
        text.withCString { sqlite3_bind_text(handle, index, $0, Int32(text.utf8.count), transientDestructor) }
    }

    /// Binds a UUID as its canonical upper-case text (what `uuidString` gives), written
    /// straight into a stack buffer: ids are bound for every saved row.
    private func bindUUID(_ uuid: UUID, at index: Int32) -> Int32 {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 36) { text in
                var position = 0
                for (offset, byte) in bytes.enumerated() {
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                        text[position] = CChar(UInt8(ascii: "-"))
                        position += 1
                    }
                    text[position] = Self.hexDigit(byte >> 4)
                    text[position + 1] = Self.hexDigit(byte & 0x0F)
                    position += 2
                }
                return sqlite3_bind_text(handle, index, text.baseAddress, 36, transientDestructor)
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> CChar {
        CChar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
    }

    /// Binds `values` to parameters 1, 2, ...
    func bind(_ values: [AttributeValue]) throws {
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Runs a statement that returns no rows, then resets it for the next use.
    func execute() throws {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(code) }
    }

    /// Steps to the next row; `false` at the end (the statement is then reset).
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else { throw failure(code) }
        return false
    }

    /// Resets the statement after a partial read.
    func reset() { sqlite3_reset(handle) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Reads a column holding a UUID's text (36 characters, hex digits of either case and four
    /// hyphens, as `UUID(uuidString:)` reads it) straight from SQLite's bytes: ids are read for
    /// every row, and Foundation's parser (`sscanf`) made a third of the cost of reading
    /// 10,000 sync records. `nil` for anything else.
    func uuid(_ column: Int32) -> UUID? {
        guard sqlite3_column_bytes(handle, column) == 36, let text = sqlite3_column_text(handle, column) else {
            return nil
        }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &bytes) { output -> Bool in
            var position = 0
            for index in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = Self.hexValue(text[position]), let low = Self.hexValue(text[position + 1]) else {
                    return false
                }
                output[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return parsed ? UUID(uuid: bytes) : nil
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Reads a column as a value of `type`; `nil` when the stored value does not fit it.
    func value(_ column: Int32, as type: AttributeType) -> AttributeValue? {
        let storage = sqlite3_column_type(handle, column)
        if storage == SQLITE_NULL { return .null }
        switch (type, storage) {
        case (.string, SQLITE_TEXT):
            return text(column).map { .string($0) }
        case (.integer, SQLITE_INTEGER):
            return .integer(int(column))
        case (.double, SQLITE_FLOAT), (.double, SQLITE_INTEGER):
            return .double(sqlite3_column_double(handle, column))
        case (.bool, SQLITE_INTEGER):
            return .bool(sqlite3_column_int64(handle, column) != 0)
        case (.date, SQLITE_FLOAT), (.date, SQLITE_INTEGER):
            return .date(Date(timeIntervalSince1970: sqlite3_column_double(handle, column)))
        case (.uuid, SQLITE_TEXT):
            return uuid(column).map { .uuid($0) }
        case (.data, SQLITE_BLOB):
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_blob(handle, column) else { return .data(Data()) }
            return .data(Data(bytes: bytes, count: count))
        case (.json, SQLITE_TEXT):
            return text(column).flatMap { try? JSONValue(jsonString: $0) }.map { .json($0) }
        default:
            return nil
        }
    }

    /// The connection's latest error; `code` when the connection has none recorded (a
    /// binding error).
    private func failure(_ code: Int32) -> DatabaseError {
        let extended = sqlite3_extended_errcode(connection)
        return DatabaseError(resultCode: ResultCode(rawValue: extended == SQLITE_OK ? code : extended),
                             message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
