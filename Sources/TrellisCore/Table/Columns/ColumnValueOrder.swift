/// The order of column values when a table is sorted in memory, as the store orders them:
/// missing values and `null` first, then booleans, numbers, strings (by their UTF-8 bytes,
/// as SQLite's BINARY collation) and arrays and objects by their JSON text.
enum ColumnValueOrder {
    /// Whether `lhs` sorts before `rhs`.
    static func areInIncreasingOrder(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        let (left, right) = (rank(lhs), rank(rhs))
        guard left == right else { return left < right }
        switch (lhs, rhs) {
        case (.bool(let a)?, .bool(let b)?): return !a && b
        case (.number(let a)?, .number(let b)?): return a < b
        case (.string(let a)?, .string(let b)?): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (let a?, let b?) where left == 4: return a.jsonString < b.jsonString
        default: return false
        }
    }

    private static func rank(_ value: JSONValue?) -> Int {
        switch value {
        case nil, .null?: return 0
        case .bool?: return 1
        case .number?: return 2
        case .string?: return 3
        case .array?, .object?: return 4
        }
    }
}
