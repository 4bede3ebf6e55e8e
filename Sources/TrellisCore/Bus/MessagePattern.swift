/// What a watch listens to: one exact message name, or a wildcard pattern over names.
///
/// Syntax: a `*` matches any run of characters, including none and including `:`.
/// A pattern without `*` is an exact name. There is no escape: a watch cannot ask for a
/// literal `*` in a message name.
///
/// | pattern        | matches                                   |
/// |----------------|-------------------------------------------|
/// | `network:on`   | exactly `network:on`                      |
/// | `network:*`    | every message starting with `network:`    |
/// | `*:failed`     | every message ending with `:failed`       |
/// | `request:*:id` | `request:` … `:id` with anything between  |
/// | `*`            | every message                             |
///
/// Matching compares UTF-8 bytes: the literal parts must be spelled exactly as in the message.
enum MessagePattern: Sendable, Hashable {
    /// A name without `*`: matched by dictionary lookup, never scanned.
    case exact(String)
    /// A pattern with at least one `*`, split into the literal pieces around the stars.
    case wildcard(Glob)

    init(_ pattern: String) {
        if pattern.utf8.contains(Glob.star) {
            self = .wildcard(Glob(pattern))
        } else {
            self = .exact(pattern)
        }
    }

    /// A parsed wildcard pattern: `pieces[0]` is a prefix, `pieces.last` a suffix, the
    /// pieces between must appear in order, without overlapping.
    struct Glob: Sendable, Hashable {
        static let star = UInt8(ascii: "*")

        let pieces: [[UInt8]]

        init(_ pattern: String) {
            pieces = pattern.utf8.split(separator: Glob.star, omittingEmptySubsequences: false).map(Array.init)
        }

        /// Whether `message` matches. Greedy left-to-right search: because a `*` absorbs
        /// anything, taking the earliest occurrence of each middle piece never loses a match.
        func matches(_ message: String) -> Bool {
            var message = message
            return message.withUTF8 { bytes in
                let first = pieces[0]
                let last = pieces[pieces.count - 1]
                guard bytes.count >= first.count + last.count,
                    bytes.starts(with: first),
                    bytes.suffix(last.count).elementsEqual(last)
                else { return false }
                var position = first.count
                let end = bytes.count - last.count
                for piece in pieces.dropFirst().dropLast() {
                    guard let found = Glob.firstIndex(of: piece, in: bytes, from: position, to: end) else {
                        return false
                    }
                    position = found + piece.count
                }
                return true
            }
        }

        private static func firstIndex(
            of piece: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
        ) -> Int? {
            guard !piece.isEmpty else { return start }
            var index = start
            while index + piece.count <= end {
                if bytes[index] == piece[0], bytes[index..<index + piece.count].elementsEqual(piece) {
                    return index
                }
                index += 1
            }
            return nil
        }
    }
}
