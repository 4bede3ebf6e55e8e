/// One segment of a ``RoutePattern``.
///
///     try RoutePattern("/files/:owner/*path").segments
///     // [.literal("files"), .parameter("owner"), .splat("path")]
public enum RouteSegment: Sendable, Hashable, CustomStringConvertible {
    /// Matches exactly this text, compared with the percent-decoded path segment
    /// (so `caf%C3%A9` in a pattern or a path is the literal `café`).
    case literal(String)

    /// `:name`: matches any one segment and binds its percent-decoded value to `name`.
    case parameter(String)

    /// `*name`: matches the rest of the path, one segment or more, and binds the
    /// percent-decoded segments joined by "/" to `name`. Only the last segment of a pattern.
    case splat(String)

    /// The segment as written in a pattern: the literal text, `:name` or `*name`.
    public var description: String {
        switch self {
        case .literal(let text): text
        case .parameter(let name): ":" + name
        case .splat(let name): "*" + name
        }
    }
}
