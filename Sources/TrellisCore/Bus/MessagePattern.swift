/// What a watch listens to: one exact message name, or a wildcard pattern over names (the
/// syntax is in ``EventBus``'s documentation). Matching compares UTF-8 bytes.
package enum MessagePattern: Sendable, Hashable {
    /// A name without `*`: matched by dictionary lookup, never scanned.
    case exact(String)
    /// A pattern with at least one `*`, split into the literal pieces around the stars.
    case wildcard(Glob)

    package init(_ pattern: String) {
        if pattern.utf8.contains(Glob.star) {
            self = .wildcard(Glob(pattern))
        } else {
            self = .exact(pattern)
        }
    }

    /// A parsed wildcard pattern: `pieces[0]` is a prefix, `pieces.last` a suffix, the
    /// pieces between must appear in order, without overlapping.
    package struct Glob: Sendable, Hashable {
        static let star = UInt8(ascii: "*")

        let pieces: [[UInt8]]

        init(_ pattern: String) {
            pieces = pattern.utf8.split(separator: Glob.star, omittingEmptySubsequences: false).map(Array.init)
        }

        /// Whether `message` matches. Greedy left-to-right search: because a `*` absorbs
        /// anything, taking the earliest occurrence of each middle piece never loses a match.
        package func matches(_ message: String) -> Bool {
            let bytes = Array(message.utf8)
            let first = pieces[0]
            let last = pieces[pieces.count - 1]
            guard bytes.count >= first.count + last.count, bytes.starts(with: first),
                bytes.suffix(last.count).elementsEqual(last)
            else { return false }
            var rest = bytes[first.count..<bytes.count - last.count]
            for piece in pieces.dropFirst().dropLast() {
                guard let found = Glob.firstIndex(of: piece, in: rest) else { return false }
                rest = rest[(found + piece.count)...]
            }
            return true
        }

        private static func firstIndex(of piece: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
            guard !piece.isEmpty else { return bytes.startIndex }
            guard bytes.count >= piece.count else { return nil }
            return (bytes.startIndex...bytes.endIndex - piece.count).first { start in
                bytes[start..<start + piece.count].elementsEqual(piece)
            }
        }
    }
}
