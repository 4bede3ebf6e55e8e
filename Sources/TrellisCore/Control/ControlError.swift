/// Errors in mapping commands and in requests the front controller cannot run; each names the
/// command, object or configuration entry at fault.
public enum ControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `handleRequest` was given a command nothing was mapped to or declared.
    case unknownCommand(String)
    /// Mapping by name: no control object is registered under `name`.
    case unknownObjectName(name: String, command: String, kind: ControlKind)
    /// Mapping by name: the object registered under `name` cannot be used as `kind` (a view
    /// object as business, say).
    case kindMismatch(name: String, command: String, kind: ControlKind)
    /// A control object name registered twice.
    case duplicateObjectName(String)
    /// A mapping configuration is not of the expected shape; `path` says where.
    case malformedConfiguration(path: String, reason: String)
    /// A request's parameters do not read as the typed ``Command`` a control object asked
    /// for (``ControlRequest/command(as:)``): `parameter` (a path such as `deleted.title` for
    /// a nested value; empty for the parameters as a whole) is missing, of another type or
    /// invalid, and `reason` says which, naming the expected type. Reported like a
    /// validation failure (``RequestEvents/validationFailed``).
    case malformedParameters(command: String, parameter: String, reason: String)
    /// A typed ``Command`` could not be encoded as parameters (a non-finite number, say, or a
    /// value that is not an object of properties); its request fails before any object runs,
    /// and its error objects get the failure.
    case unencodableCommand(command: String, reason: String)

    public var description: String {
        switch self {
        case .unknownCommand(let command):
            return "unknown command '\(command)': nothing is mapped to it"
        case .unknownObjectName(let name, let command, let kind):
            return "cannot map '\(name)' as \(kind) object of command '\(command)': no control object has that name"
        case .kindMismatch(let name, let command, let kind):
            let runs = kind.runsOnMainActor ? "a main-actor (view or error)" : "a background (security, validation or business)"
            return "cannot map '\(name)' as \(kind) object of command '\(command)': \(kind) needs \(runs) control object"
        case .duplicateObjectName(let name):
            return "a control object named '\(name)' is already registered"
        case .malformedConfiguration(let path, let reason):
            return "control mapping configuration at \(path): \(reason)"
        case .malformedParameters(let command, let parameter, let reason):
            let subject = parameter.isEmpty ? "the parameters" : "parameter '\(parameter)'"
            return "command '\(command)': \(subject) \(reason)"
        case .unencodableCommand(let command, let reason):
            return "command '\(command)' cannot be encoded as parameters: \(reason)"
        }
    }
}
