/// A parsed route pattern: what `$route` and `$routec` registered in iStructure.
///
///     let pattern = try RoutePattern("/notes/:id/attachments/*file")
///     pattern.segments   // [.literal("notes"), .parameter("id"), .literal("attachments"), .splat("file")]
///
/// ## Syntax
/// A pattern is a path: it starts with "/" and its segments are separated by "/".
/// - `notes` — a **literal** segment. It may be written percent-encoded (`caf%C3%A9`) or
///   plainly in any script (`каталог`); it is stored decoded and matched against the
///   decoded path segment, case-sensitively (Swift string equality, so the NFC and NFD
///   spellings of the same text are equal).
/// - `:id` — a **parameter**: any one segment.
/// - `*file` — a **splat**: the rest of the path, at least one segment; only last.
/// - `/` alone is the root pattern; one trailing "/" is ignored (`/notes/` is `/notes`).
///
/// A name is ASCII letters, digits and "_", not starting with a digit, and unique in the
/// pattern. Rejected, with a ``RouteError/invalidPattern(pattern:reason:)`` naming the
/// segment: an empty name (`:`, `*`), a bad or repeated name, a splat that is not last,
/// ":" or "*" inside a literal (`a:b` reads like a parameter; write `a%3Ab` for the literal),
/// an empty segment (`/a//b`), "." or "..", a malformed percent escape or an encoded NUL,
/// a control character, a "?" or "#", and text longer than ``RouteTable/maximumPathLength``.
///
/// Two patterns are equal when their segments are: `/notes/` equals `/notes`, and
/// `/a/:x` differs from `/a/:y` (though both match the same paths).
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let text: String

    /// The parsed segments, in order; empty for the root pattern `/`.
    public let segments: [RouteSegment]

    /// Parses `text`, throwing ``RouteError/invalidPattern(pattern:reason:)`` when it
    /// breaks the syntax above.
    public init(_ text: String) throws(RouteError) {
        var bytes = text
        let parsed = bytes.withUTF8 { bytes -> Result<[RouteSegment], RouteError> in
            do throws(PathSyntax.Failure) {
                return .success(try Self.parse(bytes))
            } catch {
                return .failure(.invalidPattern(pattern: text, reason: error.reason))
            }
        }
        self.text = text
        self.segments = try parsed.get()
    }

    /// The pattern as written.
    public var description: String { text }

    public static func == (lhs: RoutePattern, rhs: RoutePattern) -> Bool {
        lhs.segments == rhs.segments
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(segments)
    }

    /// The route parameters bound by matching this pattern against the decoded
    /// `segments` of a path (which the pattern is known to match).
    func bind(_ path: UnsafeBufferPointer<String>) -> [String: String] {
        var values: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal:
                continue
            case .parameter(let name):
                values[name] = path[index]
            case .splat(let name):
                values[name] = path[index...].joined(separator: "/")
            }
        }
        return values
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(PathSyntax.Failure) -> [RouteSegment] {
        let layout = try PathSyntax.layout(of: bytes)
        guard layout.pathEnd == bytes.count else {
            throw PathSyntax.Failure(reason: "a pattern has no query or fragment (\"?\" or \"#\" at byte offset \(layout.pathEnd))")
        }
        var segments: [RouteSegment] = []
        var names: Set<String> = []
        try PathSyntax.forEachSegment(in: bytes, end: layout.pathEnd) { raw throws(PathSyntax.Failure) in
            if case .splat(let name) = segments.last {
                throw PathSyntax.Failure(reason: "segment \(PathSyntax.quoted(raw)) follows the splat \"*\(name)\", which must be last")
            }
            switch raw.first {
            case UInt8(ascii: ":"):
                segments.append(.parameter(try name(of: raw, kind: "parameter", names: &names)))
            case UInt8(ascii: "*"):
                segments.append(.splat(try name(of: raw, kind: "splat", names: &names)))
            default:
                if raw.contains(UInt8(ascii: ":")) || raw.contains(UInt8(ascii: "*")) {
                    throw PathSyntax.Failure(
                        reason: "segment \(PathSyntax.quoted(raw)): \":\" and \"*\" may only begin a segment; write %3A or %2A in a literal"
                    )
                }
                segments.append(.literal(try PathSyntax.decodeSegment(raw)))
            }
        }
        return segments
    }

    /// The name after the leading ":" or "*" of `raw`, checked and added to `names`.
    private static func name(
        of raw: Slice<UnsafeBufferPointer<UInt8>>,
        kind: String,
        names: inout Set<String>
    ) throws(PathSyntax.Failure) -> String {
        let name = raw.dropFirst()
        let segment = PathSyntax.quoted(raw)
        guard let first = name.first else {
            throw PathSyntax.Failure(reason: "segment \(segment): empty \(kind) name")
        }
        let isNameByte = { (byte: UInt8) in
            byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        }
        guard name.allSatisfy(isNameByte), !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else {
            throw PathSyntax.Failure(
                reason: "segment \(segment): a \(kind) name is ASCII letters, digits and \"_\", not starting with a digit"
            )
        }
        let text = String(decoding: name, as: UTF8.self)
        guard names.insert(text).inserted else {
            throw PathSyntax.Failure(reason: "segment \(segment): the name \"\(text)\" is already used in this pattern")
        }
        return text
    }
}
