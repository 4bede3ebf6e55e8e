import TrellisCore
import Foundation
import TrellisPluginABI

/// The arguments of a plugin's call to `trigger`, `navigate` or `handle_request`, checked
/// before the host acts on them: a name (the event message, the route, the command) and
/// optional JSON text (the data or parameters).
///
/// The name must be non-empty UTF-8. The JSON text must be UTF-8, at most
/// ``maximumJSONBytes`` long (`TRELLIS_PLUGIN_MAX_JSON_SIZE`, 1 MiB) and well formed; NULL
/// stands for `null`. The size is checked before anything is decoded, so an oversized payload
/// costs the host one `strlen`.
///
/// ```swift
/// let call = try PluginCallArguments(plugin: "c-hello", function: "trigger", name: message, json: dataJSON)
/// bus.trigger(call.name, call.data)
/// ```
package struct PluginCallArguments: Sendable, Equatable {
    /// The largest JSON text accepted from a plugin, in bytes (`TRELLIS_PLUGIN_MAX_JSON_SIZE`).
    package static let maximumJSONBytes = Int(TRELLIS_PLUGIN_MAX_JSON_SIZE)

    /// The event message, route or command.
    package let name: String
    /// The decoded data or parameters.
    package let data: JSONValue

    /// Checks and decodes the C strings a plugin passed to host function `function`.
    package init(plugin: String, function: String, name: UnsafePointer<CChar>?,
         json: UnsafePointer<CChar>?) throws(PluginCallError) {
        guard let name, name.pointee != 0 else { throw .emptyName(plugin: plugin, function: function) }
        guard let decodedName = String(validatingCString: name) else {
            throw .nameNotUTF8(plugin: plugin, function: function)
        }
        self.name = decodedName
        guard let json else {
            data = .null
            return
        }
        let size = strlen(json)
        guard size <= Self.maximumJSONBytes else {
            throw .tooLarge(plugin: plugin, function: function, name: decodedName, bytes: size, limit: Self.maximumJSONBytes)
        }
        guard let text = String(validatingCString: json) else {
            throw .jsonNotUTF8(plugin: plugin, function: function, name: decodedName)
        }
        do {
            data = try JSONValue(jsonString: text)
        } catch {
            let reason = if case JSONValueError.malformed(_, let reason) = error { reason } else { "\(error)" }
            throw .malformedJSON(plugin: plugin, function: function, name: decodedName, reason: reason)
        }
    }
}

/// Why the host refused a plugin's call to `trigger`, `navigate` or `handle_request`
/// (`TRELLIS_ERROR_INVALID_ARGUMENT`). Every message names the plugin, the host function
/// and, once it could be read, the message, route or command.
package enum PluginCallError: Error, CustomStringConvertible, Equatable {
    /// The name is NULL or empty.
    case emptyName(plugin: String, function: String)
    /// The name is not valid UTF-8.
    case nameNotUTF8(plugin: String, function: String)
    /// The JSON text is longer than the limit.
    case tooLarge(plugin: String, function: String, name: String, bytes: Int, limit: Int)
    /// The JSON text is not valid UTF-8.
    case jsonNotUTF8(plugin: String, function: String, name: String)
    /// The JSON text is not well formed.
    case malformedJSON(plugin: String, function: String, name: String, reason: String)

    package var description: String {
        switch self {
        case .emptyName(let plugin, let function):
            return "plugin \"\(plugin)\": \(function): refused: the name is empty"
        case .nameNotUTF8(let plugin, let function):
            return "plugin \"\(plugin)\": \(function): refused: the name is not valid UTF-8"
        case .tooLarge(let plugin, let function, let name, let bytes, let limit):
            return "plugin \"\(plugin)\": \(function) \(Self.quoted(name)): refused: \(bytes) bytes of JSON is over the limit of \(limit) bytes"
        case .jsonNotUTF8(let plugin, let function, let name):
            return "plugin \"\(plugin)\": \(function) \(Self.quoted(name)): refused: the JSON is not valid UTF-8"
        case .malformedJSON(let plugin, let function, let name, let reason):
            return "plugin \"\(plugin)\": \(function) \(Self.quoted(name)): refused: malformed JSON: \(reason)"
        }
    }

    /// `name` quoted and escaped, cut short so that a hostile name keeps the message one readable line.
    private static func quoted(_ name: String) -> String {
        let limit = 120
        return name.count > limit ? String(name.prefix(limit)).debugDescription + "…" : name.debugDescription
    }
}
