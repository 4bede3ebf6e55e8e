/// The identity of one request, unique within its front controller; carried by every
/// lifecycle event so a log can follow a request.
public struct RequestID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The request's sequence number, from 1.
    public let rawValue: UInt64

    /// Makes an identity; the front controller numbers its requests from 1, so 0 is free for
    /// requests made by hand (tests of a single control object).
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "request#\(rawValue)" }
}

/// One request as it passes through a command's stack: what every control object receives.
public struct ControlRequest: Sendable {
    /// The request's identity.
    public let id: RequestID
    /// The command it was made for.
    public let command: String
    /// The parameters given to `handleRequest`, plus whatever business objects added.
    public var parameters: [String: JSONValue]
    /// The page that sent the request, if one did: view and error objects find it with
    /// `shell.navigator.page(request.page)` (nil once it has left the stack).
    public let page: PageID?
    /// Why the request failed; set only for error objects.
    public internal(set) var failure: RequestFailure?

    /// Makes a request; the front controller makes these, tests of a single object may too.
    public init(id: RequestID = RequestID(rawValue: 0), command: String, parameters: [String: JSONValue] = [:],
                page: PageID? = nil) {
        self.id = id
        self.command = command
        self.parameters = parameters
        self.page = page
    }
}

/// Why a request failed: an object threw, an object dispatched to an error command, the
/// command was unknown, or a typed command could not be encoded.
public struct RequestFailure: Error, Sendable, CustomStringConvertible {
    /// The command of the failed request.
    public let command: String
    /// The error command whose error objects were asked to handle it (the request's own
    /// command for a thrown error; the one named in `.dispatchToError`).
    public let errorCommand: String
    /// The stage that failed; `nil` when the command was unknown or a typed command could
    /// not be encoded (no stage ran).
    public let stage: ControlKind?
    /// The name of the control object that threw or dispatched, when known.
    public let object: String?
    /// A human-readable reason: the thrown error's description, or the dispatch's reason.
    public let reason: String
    /// The thrown error, if there was one.
    public let underlying: (any Error)?

    public var description: String {
        let place = [stage.map { "\($0) stage" }, object].compactMap { $0 }.joined(separator: ", ")
        return "command '\(command)'\(place.isEmpty ? "" : " (\(place))") failed: \(reason)"
    }
}

/// How a request ended.
public enum RequestOutcome: Sendable {
    /// Every stage ran to the end; the final parameters (with the business results).
    case completed([String: JSONValue])
    /// An object of this kind returned `.stop`; the parameters at that point.
    case stopped(ControlKind, [String: JSONValue])
    /// An object threw or dispatched to an error command, or the command was unknown.
    /// `handled` tells whether any error object ran for it.
    case failed(RequestFailure, handled: Bool)
    /// The request was cancelled before it finished.
    case cancelled

    /// The final parameters of a completed or stopped request.
    public var parameters: [String: JSONValue]? {
        switch self {
        case .completed(let parameters), .stopped(_, let parameters): return parameters
        case .failed, .cancelled: return nil
        }
    }

    /// The failure of a failed request.
    public var failure: RequestFailure? {
        if case .failed(let failure, _) = self { return failure }
        return nil
    }

    /// Whether the request completed every stage.
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }
}
