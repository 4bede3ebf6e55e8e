/// Why a notification payload was refused. Every case names the payload's source (usually a
/// file path) and, where one is at fault, the key as a dotted path (`aps.alert.body`).
public enum NotificationPayloadError: Error, Equatable, CustomStringConvertible {
    /// The payload file could not be read.
    case unreadable(source: String, reason: String)
    /// The payload is not valid JSON.
    case malformed(source: String, reason: String)
    /// A required key is absent.
    case missingKey(source: String, key: String)
    /// A key holds a value of the wrong JSON type.
    case wrongType(source: String, key: String, expected: String, found: String)
    /// A key holds a value of the right type outside what it allows.
    case invalidValue(source: String, key: String, expected: String, found: String)
    /// A key the payload format does not define (often a typo).
    case unknownKey(source: String, key: String, allowed: [String])

    /// The dotted path of the key at fault, if one is.
    public var key: String? {
        switch self {
        case .unreadable, .malformed: return nil
        case .missingKey(_, let key), .wrongType(_, let key, _, _), .invalidValue(_, let key, _, _),
             .unknownKey(_, let key, _):
            return key
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let source, let reason):
            return "\(source): cannot read the notification payload: \(reason)"
        case .malformed(let source, let reason):
            return "\(source): the notification payload is not valid JSON: \(reason)"
        case .missingKey(let source, let key):
            return "\(source): \(key) is missing"
        case .wrongType(let source, let key, let expected, let found):
            return "\(source): \(key) must be \(expected), not \(found)"
        case .invalidValue(let source, let key, let expected, let found):
            return "\(source): \(key) must be \(expected), not \(found)"
        case .unknownKey(let source, let key, let allowed):
            return "\(source): unknown key \(key) (allowed: \(allowed.joined(separator: ", ")))"
        }
    }
}
