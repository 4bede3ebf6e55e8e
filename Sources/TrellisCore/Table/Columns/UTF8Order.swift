import Foundation

/// Strings in the order of their UTF-8 bytes, which is the order of their Unicode scalar
/// values and SQLite's BINARY collation: a column sorted in memory reads as the same column
/// sorted by the store. (Swift's `<` compares canonically equivalent text as equal, which
/// SQLite does not.)
@usableFromInline
enum UTF8Order {
    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`.
    static func compare(_ lhs: String, _ rhs: String) -> Int {
        // Safe: both buffers are only read, within their counts, inside the closures that lend
        // them. A native string's UTF-8 is contiguous; a bridged one is compared as a sequence.
        let contiguous = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in compare(left, right) }
        }
        if let result = contiguous ?? nil { return result }
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
    }

    private static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let a = left.baseAddress, let b = right.baseAddress {
            let order = memcmp(a, b, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }

    /// The positions of `strings` in this order (descending: reversed), ties in their original
    /// order.
    ///
    /// Most comparisons are of integers (PostgreSQL's "abbreviated keys"): each string's first
    /// eight bytes after the prefix all of them share ("Note number " of "Note number 17" and
    /// "Note number 4"), read as a big-endian integer and padded with zeros, order the strings
    /// as their bytes do; only strings whose eight bytes are equal are compared whole. A
    /// column of a million titles sorts several times faster than with `<` (`trellis-bench
    /// sort`, ``Benchmarks``).
    @usableFromInline
    static func stableOrder(of strings: [String], ascending: Bool) -> [Int] {
        let shared = sharedPrefixLength(strings)
        var keyed: [(key: UInt64, position: Int)] = []
        keyed.reserveCapacity(strings.count)
        // By index, not `enumerated()`: each string is read where it is, not copied (retained).
        for position in strings.indices { keyed.append((key(of: strings[position], after: shared), position)) }
        // The standard library's sort is stable: equal strings keep their order.
        keyed.sort { a, b in
            if a.key != b.key { return ascending ? a.key < b.key : a.key > b.key }
            let order = compare(strings[a.position], strings[b.position])
            return ascending ? order < 0 : order > 0
        }
        return keyed.map(\.position)
    }

    /// The bytes `offset ..< offset + 8` of `string`'s UTF-8 as a big-endian integer, zeros
    /// past its end.
    @inline(__always)
    private static func key(of string: String, after offset: Int) -> UInt64 {
        // Safe: the bytes are only read, within their count, inside the closure that lends them.
        string.utf8.withContiguousStorageIfAvailable { bytes in
            let end = min(bytes.count, offset + 8)
            var key: UInt64 = 0
            var index = offset
            while index < end {
                key = key << 8 | UInt64(bytes[index])
                index += 1
            }
            return key << (8 * UInt64(8 - max(0, end - offset)))
        } ?? key(of: String(decoding: Array(string.utf8), as: UTF8.self), after: offset)
    }

    /// How many leading UTF-8 bytes all of `strings` share.
    private static func sharedPrefixLength(_ strings: [String]) -> Int {
        guard let first = strings.first else { return 0 }
        let prefix = Array(first.utf8)
        var length = prefix.count
        for position in strings.indices.dropFirst() where length > 0 {
            // Safe: the bytes are only read, within their count, inside the closure that lends them.
            length = strings[position].utf8.withContiguousStorageIfAvailable { bytes in
                var shared = 0
                while shared < min(length, bytes.count) && bytes[shared] == prefix[shared] { shared += 1 }
                return shared
            } ?? 0
        }
        return length
    }
}
