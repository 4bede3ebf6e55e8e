/// The byte-level syntax that route patterns and paths share: the length limit, the
/// leading "/", the trailing-slash rule, splitting into segments, percent-decoding and
/// the query string.
///
/// Everything works on the UTF-8 bytes of the text, so splitting never allocates and a
/// segment is only decoded when it contains a "%" (or, in a query, a "+").
enum PathSyntax {
    /// Why a text is not a well-formed path or pattern. ``RoutePattern`` and ``RouteTable``
    /// wrap it in a ``RouteError`` that also names the text at fault.
    struct Failure: Error {
        let reason: String
    }

    /// Where the parts of a path are, found by ``layout(of:)``.
    struct Layout {
        /// The end of the path part: the index of the first "?" or "#", or the byte count.
        let pathEnd: Int
        /// The bytes of the query string, between "?" and "#" or the end; `nil` without a "?".
        let query: Range<Int>?
        /// The number of "/" in the path part, an upper bound for its segment count.
        let slashCount: Int
    }

    /// The longest text accepted, in UTF-8 bytes (see ``RouteTable/maximumPathLength``).
    static let maximumLength = 4096

    static let slash = UInt8(ascii: "/")
    static let percent = UInt8(ascii: "%")
    static let plus = UInt8(ascii: "+")

    /// Checks the whole text in one pass and finds its parts.
    ///
    /// Rejects a text longer than ``maximumLength`` bytes, one that does not
    /// start with "/", and one containing an ASCII control character (U+0000–U+001F, U+007F)
    /// anywhere, fragment included.
    static func layout(of bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> Layout {
        guard bytes.count <= maximumLength else {
            throw Failure(reason: "\(bytes.count) bytes is longer than the limit of \(maximumLength)")
        }
        guard bytes.first == slash else {
            throw Failure(reason: "it must start with \"/\"")
        }
        var pathEnd: Int?
        var queryStart: Int?
        var queryEnd: Int?
        var slashCount = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F {
                throw Failure(reason: "control character \(hexByte(byte)) at byte offset \(index)")
            }
            if pathEnd == nil {
                switch byte {
                case slash: slashCount += 1
                case UInt8(ascii: "?"): pathEnd = index; queryStart = index + 1
                case UInt8(ascii: "#"): pathEnd = index
                default: break
                }
            } else if queryStart != nil, queryEnd == nil, byte == UInt8(ascii: "#") {
                queryEnd = index
            }
        }
        let query = queryStart.map { $0..<(queryEnd ?? bytes.count) }
        return Layout(pathEnd: pathEnd ?? bytes.count, query: query, slashCount: slashCount)
    }

    /// Calls `body` with the raw bytes of each segment of `bytes[..<end]`, which starts with "/".
    ///
    /// One trailing "/" is ignored (`/notes/` has the segments of `/notes`; `/` has none);
    /// any other empty segment (`/notes//5`, `//`) is an error, as it usually comes from
    /// interpolating an empty string into a path.
    static func forEachSegment(
        in bytes: UnsafeBufferPointer<UInt8>,
        end: Int,
        _ body: (Slice<UnsafeBufferPointer<UInt8>>) throws(Failure) -> Void
    ) throws(Failure) {
        var end = end
        if end > 1, bytes[end - 1] == slash {
            end -= 1
            if bytes[end - 1] == slash { throw emptySegment(at: end) }
        }
        guard end > 1 else { return }
        var start = 1
        while true {
            let stop = bytes[start..<end].firstIndex(of: slash) ?? end
            guard stop > start else { throw emptySegment(at: start) }
            try body(bytes[start..<stop])
            if stop == end { return }
            start = stop + 1
        }
    }

    /// Percent-decodes the raw bytes of one path segment and rejects "." and ".."
    /// (written plainly or encoded).
    static func decodeSegment(_ raw: Slice<UnsafeBufferPointer<UInt8>>) throws(Failure) -> String {
        let decoded: String
        do throws(Failure) {
            decoded = try decode(raw, plusAsSpace: false)
        } catch {
            throw Failure(reason: "segment \(quoted(raw)): \(error.reason)")
        }
        if decoded == "." || decoded == ".." {
            throw Failure(reason: "segment \(quoted(raw)): \".\" and \"..\" segments are not allowed")
        }
        return decoded
    }

    /// Parses `key=value` pairs separated by "&": "+" is a space, both sides are
    /// percent-decoded, a pair without "=" has the empty value, a pair with an empty key is
    /// skipped, and when a key repeats the last value wins.
    static func parseQuery(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) throws(Failure) -> [String: String] {
        var query: [String: String] = [:]
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let stop = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            let pair = bytes[start..<stop]
            start = stop + 1
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let rawKey = pair[..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[($0 + 1)...] } ?? pair[pair.endIndex...]
            guard !rawKey.isEmpty else { continue }
            do throws(Failure) {
                query[try decode(rawKey, plusAsSpace: true)] = try decode(rawValue, plusAsSpace: true)
            } catch {
                throw Failure(reason: "query parameter \(quoted(pair)): \(error.reason)")
            }
        }
        return query
    }

    /// Decodes `%XX` escapes (and "+" as a space when `plusAsSpace`); the result must be
    /// UTF-8 without a NUL byte. Bytes without "%" (or "+") become a string directly.
    static func decode(_ raw: Slice<UnsafeBufferPointer<UInt8>>, plusAsSpace: Bool) throws(Failure) -> String {
        guard raw.contains(where: { $0 == percent || (plusAsSpace && $0 == plus) }) else {
            return String(decoding: raw, as: UTF8.self)
        }
        let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { out -> Result<String, Failure> in
            var count = 0
            var index = raw.startIndex
            while index < raw.endIndex {
                var byte = raw[index]
                if byte == percent {
                    guard index + 2 < raw.endIndex, let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2]) else {
                        return .failure(Failure(reason: "\"%\" at byte \(index - raw.startIndex) is not followed by two hex digits"))
                    }
                    byte = high << 4 | low
                    if byte == 0 { return .failure(Failure(reason: "\"%00\" encodes a NUL byte")) }
                    index += 3
                } else {
                    if plusAsSpace, byte == plus { byte = UInt8(ascii: " ") }
                    index += 1
                }
                out[count] = byte
                count += 1
            }
            guard let text = String(validating: UnsafeBufferPointer(rebasing: out[..<count]), as: UTF8.self) else {
                return .failure(Failure(reason: "percent-encoding does not decode to UTF-8"))
            }
            return .success(text)
        }
        return try result.get()
    }

    /// The raw bytes as a quoted, escaped string for an error message.
    static func quoted(_ raw: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: raw, as: UTF8.self).debugDescription
    }

    private static func emptySegment(at offset: Int) -> Failure {
        Failure(reason: "empty segment at byte offset \(offset) (repeated \"/\")")
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "U+00\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
