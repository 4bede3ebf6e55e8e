import Foundation

/// The order of column values when a table is sorted in memory, as the store orders them:
/// missing values and `null` first, then booleans, numbers, strings (by their UTF-8 bytes,
/// which is by Unicode scalar values: SQLite's BINARY collation) and arrays and objects by
/// their JSON text.
@usableFromInline
enum ColumnValueOrder {
    /// Whether `lhs` sorts before `rhs`.
    static func areInIncreasingOrder(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        let (left, right) = (rank(lhs), rank(rhs))
        guard left == right else { return left < right }
        switch (lhs, rhs) {
        case (.bool(let a)?, .bool(let b)?): return !a && b
        case (.number(let a)?, .number(let b)?): return a < b
        case (.string(let a)?, .string(let b)?): return UTF8Order.compare(a, b) < 0
        case (let a?, let b?) where left == 4: return UTF8Order.compare(a.jsonString, b.jsonString) < 0
        default: return false
        }
    }

    /// The positions of `values` in sorted order, ties in their original order (a stable
    /// sort). A column of strings only or of numbers only is compared as plain strings or
    /// doubles, without going through `JSONValue`.
    static func stableOrder(of values: [JSONValue?], ascending: Bool) -> [Int] {
        if let strings = plain(values, { value -> String? in if case .string(let text)? = value { text } else { nil } }) {
            return UTF8Order.stableOrder(of: strings, ascending: ascending)
        }
        if let numbers = plain(values, { value -> Double? in if case .number(let number)? = value { number } else { nil } }) {
            return stableOrder(of: numbers, ascending: ascending)
        }
        return sortedPositions(of: values, ascending: ascending, by: areInIncreasingOrder)
    }

    /// The positions of typed `values` in sorted order, ties in their original order: strings
    /// by their UTF-8 bytes, anything else by `<`.
    // Inlinable, as the typed column calling it: compiled for `Value`, the test for strings
    // costs nothing (a cast of a million values to `[String]` otherwise copied them).
    @inlinable
    static func stableOrder<Value: Comparable>(of values: [Value], ascending: Bool) -> [Int] {
        if let strings = values as? [String] { return UTF8Order.stableOrder(of: strings, ascending: ascending) }
        return sortedPositions(of: values, ascending: ascending, by: <)
    }

    /// Whether `lhs` sorts before `rhs` in a typed column (strings by their UTF-8 bytes).
    @usableFromInline
    static func precedes<Value: Comparable>(_ lhs: Value, _ rhs: Value) -> Bool {
        if let lhs = lhs as? String, let rhs = rhs as? String { return UTF8Order.compare(lhs, rhs) < 0 }
        return lhs < rhs
    }

    /// A typed column value as its cell shows it: as ``KeyValueCellProvider/text(of:)`` shows
    /// the same value read by key (a whole number without a fraction), else its description.
    @usableFromInline
    static func text<Value>(of value: Value) -> String {
        switch value {
        case let text as String: return text
        case let json as JSONValue: return KeyValueCellProvider.text(of: json)
        case let number as Double: return KeyValueCellProvider.text(of: .number(number))
        case let flag as Bool: return KeyValueCellProvider.text(of: .bool(flag))
        default: return String(describing: value)
        }
    }

    /// `values` as plain `T`s, or nil when one of them is not a `T`.
    private static func plain<T>(_ values: [JSONValue?], _ extract: (JSONValue?) -> T?) -> [T]? {
        var result: [T] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let plain = extract(value) else { return nil }
            result.append(plain)
        }
        return result
    }

    /// The positions of `keys` sorted by `less` (descending: reversed), with the standard
    /// library's sort, which is stable: ties keep their original order either way. Keys and
    /// positions are sorted together, in place, rather than positions looking their keys up.
    @usableFromInline
    static func sortedPositions<Key>(of keys: [Key], ascending: Bool, by less: (Key, Key) -> Bool) -> [Int] {
        var pairs = Array(zip(keys, keys.indices))
        if ascending {
            pairs.sort { less($0.0, $1.0) }
        } else {
            pairs.sort { less($1.0, $0.0) }
        }
        return pairs.map(\.1)
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
