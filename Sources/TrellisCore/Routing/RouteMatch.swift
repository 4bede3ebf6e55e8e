/// The result of ``RouteTable/match(_:)``: the winning route and the values taken from the path.
///
///     let match = try routes.match("/notes/42?highlight=caf%C3%A9")
///     match.pattern.text            // "/notes/:id"
///     match.parameters["id"]        // "42"
///     match.parameters["highlight"] // "café" (query values are merged in)
///     match.query                   // ["highlight": "café"]
public struct RouteMatch<Target: Sendable>: Sendable {
    /// The target registered with the winning route.
    public let target: Target

    /// The winning route's pattern.
    public let pattern: RoutePattern

    /// The winning route's registration.
    public let id: RouteID

    /// Whether the winning route was registered as public.
    public let isPublic: Bool

    /// The path without its query and fragment and without a trailing "/" (except for the
    /// root `/`), still percent-encoded as given.
    public let path: String

    /// The route parameters (percent-decoded) merged over ``query``: on a clash the route
    /// parameter wins.
    public let parameters: [String: String]

    /// The query string's parameters (percent-decoded, "+" as a space, the last value of a
    /// repeated key); empty without a query.
    public let query: [String: String]
}
