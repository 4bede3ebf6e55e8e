/// The order of column values when a table is sorted in memory, as the store orders them:
/// missing values and `null` first, then booleans, numbers, strings (by Unicode scalar
/// values, which for text in canonical form, NFC, is SQLite's BINARY order) and arrays and
/// objects by their JSON text.
enum ColumnValueOrder {
    /// Whether `lhs` sorts before `rhs`.
    static func areInIncreasingOrder(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        let (left, right) = (rank(lhs), rank(rhs))
        guard left == right else { return left < right }
        switch (lhs, rhs) {
        case (.bool(let a)?, .bool(let b)?): return !a && b
        case (.number(let a)?, .number(let b)?): return a < b
        case (.string(let a)?, .string(let b)?): return a < b
        case (let a?, let b?) where left == 4: return a.jsonString < b.jsonString
        default: return false
        }
    }

    /// The positions of `values` in sorted order, ties in their original order (a stable
    /// sort). A column of strings only or of numbers only is compared as plain strings or
    /// doubles, without going through `JSONValue`.
    static func stableOrder(of values: [JSONValue?], ascending: Bool) -> [Int] {
        if let strings = plain(values, { value -> String? in if case .string(let text)? = value { text } else { nil } }) {
            return stableOrder(of: strings, ascending: ascending, by: <)
        }
        if let numbers = plain(values, { value -> Double? in if case .number(let number)? = value { number } else { nil } }) {
            return stableOrder(of: numbers, ascending: ascending, by: <)
        }
        return stableOrder(of: values, ascending: ascending, by: areInIncreasingOrder)
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

    /// Sorts the positions, breaking ties by position, so the result does not depend on
    /// whether the standard library's sort is stable. Values and positions are sorted
    /// together, in place, rather than positions looking their values up.
    private static func stableOrder<T>(of keys: [T], ascending: Bool, by less: (T, T) -> Bool) -> [Int] {
        var pairs = Array(zip(keys, keys.indices))
        if ascending {
            pairs.sort { a, b in less(a.0, b.0) || (a.1 < b.1 && !less(b.0, a.0)) }
        } else {
            pairs.sort { a, b in less(b.0, a.0) || (a.1 < b.1 && !less(a.0, b.0)) }
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
