/// Why navigation failed. Every case names the path at fault.
public enum NavigationError: Error, Equatable, CustomStringConvertible {
    /// No route matches the path (a `route:not-found` event was triggered too).
    case notFound(path: String)
    /// The path is malformed (`..`, NUL bytes, too long, bad percent-encoding…).
    case invalidPath(path: String, reason: String)
    /// The route exists but is not public, and the path came from outside (a deep link).
    case notPublic(path: String, pattern: String)
    /// The route has no parameter of that name (``RouteValues/parameter(_:as:)``).
    case missingParameter(path: String, pattern: String, name: String)
    /// A parameter's text is not of the type the page reads it as (``RouteValues/parameter(_:as:)``).
    case invalidParameter(path: String, pattern: String, name: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .notFound(let path): return "no route matches \(Self.quoted(path))"
        case .invalidPath(let path, let reason): return "invalid path \(Self.quoted(path)): \(reason)"
        case .notPublic(let path, let pattern):
            return "\(Self.quoted(path)) matches \(pattern), which is not a public route and cannot be opened from outside"
        case .missingParameter(let path, let pattern, let name):
            return "\(Self.quoted(path)): \(pattern) has no parameter \(Self.quoted(name))"
        case .invalidParameter(let path, let pattern, let name, let value, let expected):
            return "\(Self.quoted(path)): parameter \(Self.quoted(name)) of \(pattern) is \(Self.quoted(value)), which is not \(expected)"
        }
    }

    /// The path in quotes, shortened and with control characters escaped, for messages.
    static func quoted(_ path: String) -> String {
        let shown = path.count > 120 ? String(path.prefix(120)) + "…" : path
        return "\"" + shown.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }
}
