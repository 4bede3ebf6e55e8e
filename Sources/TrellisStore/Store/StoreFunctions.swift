import Foundation
import GRDB

/// SQL functions the store registers on every connection.
enum StoreFunctions {
    /// `trellis_contains(text, part)`: 1 when `part` occurs in `text` ignoring case (Unicode
    /// aware, unlike SQLite's ASCII-only `LIKE`), 0 otherwise, NULL for NULL `text`.
    static let containsIgnoringCase = DatabaseFunction("trellis_contains", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let part = String.fromDatabaseValue(values[1]) else {
            return nil
        }
        return part.isEmpty || text.range(of: part, options: [.caseInsensitive]) != nil
    }

    /// `trellis_begins(text, prefix)`: like `trellis_contains`, anchored at the start.
    static let beginsIgnoringCase = DatabaseFunction("trellis_begins", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let prefix = String.fromDatabaseValue(values[1]) else {
            return nil
        }
        return prefix.isEmpty || text.range(of: prefix, options: [.caseInsensitive, .anchored]) != nil
    }

    static func register(in db: Database) throws {
        db.add(function: containsIgnoringCase)
        db.add(function: beginsIgnoringCase)
    }
}
