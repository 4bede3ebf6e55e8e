import TrellisCore

/// When a plugin's library is opened (`"activation"` in its manifest, VS Code's activation
/// events): until then the plugin costs nothing but its manifest, and `trellis plugins` shows
/// it as "inactive (waiting for …)".
///
/// ```json
/// "activation": ["onCommand:greet", "onEvent:network:*"]
/// ```
///
/// - `onStartup` (the default, when the key is absent): loaded with the app.
/// - `onCommand:ID`: when the user invokes the plugin's command ID (one of its `commands`),
///   which then runs.
/// - `onEvent:PATTERN`: when an event matching PATTERN is triggered. That event itself is not
///   delivered to the plugin again: it sees the ones after it.
///
/// - `onRoute:PATTERN`: when the user opens the plugin's page PATTERN (one of its `routes`).
///   Opening any page of a waiting plugin activates it; `onRoute:` is how a plugin says it
///   waits for nothing else.
///
/// A plugin another enabled plugin depends on is loaded at startup whatever it says.
public enum PluginActivation: Sendable, Hashable, CustomStringConvertible {
    case onStartup
    case onCommand(String)
    case onEvent(String)
    case onRoute(String)

    public var description: String {
        switch self {
        case .onStartup: "onStartup"
        case .onCommand(let id): "onCommand:\(id)"
        case .onEvent(let pattern): "onEvent:\(pattern)"
        case .onRoute(let pattern): "onRoute:\(pattern)"
        }
    }

    /// Reads the `activation` value of manifest `file`; `commands` are the manifest's command
    /// ids, which `onCommand:` must name, and `routes` its route patterns, for `onRoute:`.
    static func list(json: JSONValue, commands: [String], routes: [String], file: String) throws(PluginManifestError) -> [PluginActivation] {
        guard let array = json.arrayValue, !array.isEmpty else {
            throw .wrongType(file: file, key: "activation", expected: "a non-empty array of strings")
        }
        var events: [PluginActivation] = []
        for (index, element) in array.enumerated() {
            let key = "activation[\(index)]"
            guard let text = element.stringValue else { throw .wrongType(file: file, key: key, expected: "a string") }
            if text == "onStartup" {
                events.append(.onStartup)
            } else if text.hasPrefix("onCommand:") {
                let id = String(text.dropFirst("onCommand:".count))
                guard commands.contains(id) else {
                    throw .invalidValue(file: file, key: key, reason: "\"\(id)\" is not one of the plugin's commands (\(commands.joined(separator: ", ")))")
                }
                events.append(.onCommand(id))
            } else if text.hasPrefix("onEvent:") {
                let pattern = String(text.dropFirst("onEvent:".count))
                guard !pattern.isEmpty, !pattern.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                    throw .invalidValue(file: file, key: key, reason: "onEvent: needs an event pattern, such as onEvent:network:*")
                }
                events.append(.onEvent(pattern))
            } else if text.hasPrefix("onRoute:") {
                let pattern = String(text.dropFirst("onRoute:".count))
                guard routes.contains(pattern) else {
                    throw .invalidValue(file: file, key: key, reason: "\"\(pattern)\" is not one of the plugin's routes (\(routes.joined(separator: ", ")))")
                }
                events.append(.onRoute(pattern))
            } else {
                throw .invalidValue(file: file, key: key, reason: "\(text.debugDescription) is not onStartup, onCommand:ID, onEvent:PATTERN or onRoute:PATTERN")
            }
        }
        return events
    }
}
