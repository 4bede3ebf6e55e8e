/// What a route's controller or block receives when its route is navigated to: iStructure's
/// `initWithValues:` dictionary, typed.
///
/// ```swift
/// // after shell.route("/notes/:id", to: NotePage.self) and navigate(to: "/notes/7?mode=edit", data: ["from": "list"])
/// assert(values.parameters["id"] == "7")
/// assert(values.parameters["mode"] == "edit")  // the query string; route parameters win on a clash
/// assert(values.data["from"] == "list")
/// ```
public struct RouteValues: Sendable, Equatable {
    /// The path navigated to, without its query string.
    public let path: String
    /// The pattern that matched, e.g. `/notes/:id`.
    public let pattern: String
    /// Route parameters merged over the query string's parameters.
    public let parameters: [String: String]
    /// The query string's parameters alone.
    public let query: [String: String]
    /// The data passed to `navigate(to:data:)`.
    public let data: JSONValue
    /// The options given when the route was registered.
    public let options: JSONValue

    public init(path: String, pattern: String, parameters: [String: String] = [:], query: [String: String] = [:],
                data: JSONValue = .null, options: JSONValue = .null) {
        self.path = path
        self.pattern = pattern
        self.parameters = parameters
        self.query = query
        self.data = data
        self.options = options
    }
}

/// What a route leads to.
public enum RouteTarget: Sendable {
    /// A page controller type; navigating creates an instance and pushes it (iStructure's
    /// `$routec`). `action`, when given, is performed on the new instance.
    case controller(PageController.Type, action: String?)
    /// A block run with the values (iStructure's `$route(pattern, block)`).
    case block(@MainActor @Sendable (RouteValues) -> Void)

    /// A short description for route tables (`trellis routes`).
    public var summary: String {
        switch self {
        case .controller(let type, let action):
            return action.map { "\(type) → \($0)" } ?? "\(type)"
        case .block:
            return "block"
        }
    }
}
