import Foundation

/// A type a route parameter can be read as: ``RouteValues/parameter(_:as:)``.
///
/// `String`, `Int`, `Double`, `Bool` and `UUID` conform; conform your own identifiers the
/// same way.
public protocol RouteParameter {
    /// The value a parameter's text stands for, or nil when the text is not one. (A static
    /// function, not an initializer: an `init?(_:)`-shaped addition to `UUID` or `Int` would
    /// make every `UUID.init` passed as a function ambiguous in the app's code.)
    static func routeParameter(_ text: String) -> Self?
    /// How error messages name the type ("a UUID", "an integer").
    static var routeParameterDescription: String { get }
}

extension String: RouteParameter {
    public static func routeParameter(_ text: String) -> String? { text }
    public static var routeParameterDescription: String { "a text" }
}

extension Int: RouteParameter {
    public static func routeParameter(_ text: String) -> Int? { Int(text) }
    public static var routeParameterDescription: String { "an integer" }
}

extension Double: RouteParameter {
    public static func routeParameter(_ text: String) -> Double? { Double(text) }
    public static var routeParameterDescription: String { "a number" }
}

extension Bool: RouteParameter {
    public static func routeParameter(_ text: String) -> Bool? { Bool(text) }
    public static var routeParameterDescription: String { "true or false" }
}

extension UUID: RouteParameter {
    public static func routeParameter(_ text: String) -> UUID? { UUID(uuidString: text) }
    public static var routeParameterDescription: String { "a UUID" }
}

extension RouteValues {
    /// The parameter `name` (of the route, else of the query string) read as `type`.
    ///
    /// ```swift
    /// // /notes/:id navigated to as /notes/5
    /// let id = try values.parameter("id", as: UUID.self)
    /// // throws NavigationError.invalidParameter: "/notes/5": parameter "id" of /notes/:id
    /// // is "5", which is not a UUID
    /// ```
    ///
    /// - Throws: ``NavigationError/missingParameter(path:pattern:name:)`` when the path has no
    ///   such parameter, ``NavigationError/invalidParameter(path:pattern:name:value:expected:)``
    ///   when its text is not a `type`.
    public func parameter<Value: RouteParameter>(_ name: String, as type: Value.Type) throws(NavigationError) -> Value {
        guard let text = parameters[name] else {
            throw .missingParameter(path: path, pattern: pattern, name: name)
        }
        guard let value = Value.routeParameter(text) else {
            throw .invalidParameter(path: path, pattern: pattern, name: name, value: text,
                                    expected: Value.routeParameterDescription)
        }
        return value
    }
}
