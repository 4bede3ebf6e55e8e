/// What went wrong when parsing a route pattern or matching a path.
///
/// Every case carries the text at fault, so a message read in a log names the
/// pattern or the path without further context:
///
///     do {
///         let match = try routes.match("/notes/5")
///         open(match)
///     } catch .notFound(let path) {
///         showMissingPage(path)
///     } catch {
///         logger.error("\(error)")   // invalid path "/notes/%zz": segment "%zz": "%" must be followed by two hex digits
///     }
public enum RouteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pattern text breaks the pattern syntax (see ``RoutePattern``); `reason` names the segment.
    case invalidPattern(pattern: String, reason: String)

    /// The path cannot be routed: it does not start with "/", is longer than
    /// ``RouteTable/maximumPathLength``, contains a control character or an encoded NUL,
    /// an empty, "." or ".." segment, or a malformed percent escape.
    case invalidPath(path: String, reason: String)

    /// The path is well formed but no registered pattern matches it.
    case notFound(path: String)

    public var description: String {
        switch self {
        case .invalidPattern(let pattern, let reason):
            "invalid route pattern \(Self.quoted(pattern)): \(reason)"
        case .invalidPath(let path, let reason):
            "invalid path \(Self.quoted(path)): \(reason)"
        case .notFound(let path):
            "no route matches path \(Self.quoted(path))"
        }
    }

    /// Quotes and escapes `text` (control characters become `\0`, `\n`, `\u{7F}`…),
    /// cutting it short so that a path of several kilobytes stays readable in a log line.
    static func quoted(_ text: String) -> String {
        let limit = 160
        guard text.count > limit else { return text.debugDescription }
        return String(text.prefix(limit)).debugDescription + "… (\(text.utf8.count) bytes)"
    }
}
