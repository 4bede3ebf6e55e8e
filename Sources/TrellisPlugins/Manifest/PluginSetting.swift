import TrellisCore

/// A setting a plugin declares in its manifest (`"settings"`), read without loading its code:
/// the Settings page shows it with the right control, checks what the user enters, stores it
/// per plugin, and the plugin reads the values (`get_settings`, ABI 2) and hears of changes
/// (`<plugin id>:settings`).
///
/// ```json
/// "settings": [
///   {"key": "interval", "type": "int", "default": 5, "min": 1, "max": 3600, "title": "Update every (seconds)"},
///   {"key": "units", "type": "choice", "choices": ["metric", "imperial"], "default": "metric", "title": "Units"},
///   {"key": "track", "type": "path", "default": "", "title": "Track file", "description": "A GPX-like JSON track"},
///   {"key": "simulate", "type": "bool", "default": true, "title": "Simulate positions"}
/// ]
/// ```
///
/// `key` (letters, digits, `.`, `_`, `-`), `type`, `default` and `title` are required; `title`
/// and `description` are looked up in the app's translations. `int` takes optional `min` and
/// `max`; `choice` needs `choices`; `path` takes an absolute path or "" (none).
public struct PluginSetting: Sendable, Hashable {
    /// What a setting holds.
    public enum Kind: Sendable, Hashable {
        case bool
        case int(ClosedRange<Int>)
        case string
        case choice([String])
        case path

        var name: String {
            switch self {
            case .bool: "bool"
            case .int: "int"
            case .string: "string"
            case .choice: "choice"
            case .path: "path"
            }
        }
    }

    public var key: String
    public var kind: Kind
    public var defaultValue: JSONValue
    public var title: String
    public var description: String

    public init(key: String, kind: Kind, defaultValue: JSONValue, title: String, description: String = "") {
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue
        self.title = title
        self.description = description
    }

    /// The longest string or path value accepted, in characters.
    public static let maximumLength = 4096

    /// `value` if this setting can hold it, or why not (for people: "must be a whole number
    /// from 1 to 3600").
    public func check(_ value: JSONValue) -> Result<JSONValue, SettingValueError> {
        switch kind {
        case .bool:
            guard value.boolValue != nil else { return .failure(.init(key: key, reason: "must be true or false")) }
        case .int(let range):
            guard let number = value.intValue, range.contains(number) else {
                return .failure(.init(key: key, reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
            }
        case .string:
            guard let text = value.stringValue, text.count <= Self.maximumLength else {
                return .failure(.init(key: key, reason: "must be text of at most \(Self.maximumLength) characters"))
            }
        case .choice(let choices):
            guard let text = value.stringValue, choices.contains(text) else {
                return .failure(.init(key: key, reason: "must be one of \(choices.joined(separator: ", "))"))
            }
        case .path:
            guard let text = value.stringValue, text.isEmpty || (text.hasPrefix("/") && text.count <= Self.maximumLength),
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                return .failure(.init(key: key, reason: "must be an absolute path (starting with /), or empty"))
            }
        }
        return .success(value)
    }

    /// The setting as the manifest holds it.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["key": .string(key), "type": .string(kind.name), "default": defaultValue, "title": .string(title)]
        if !description.isEmpty { members["description"] = .string(description) }
        switch kind {
        case .int(let range):
            members["min"] = .number(Double(range.lowerBound))
            members["max"] = .number(Double(range.upperBound))
        case .choice(let choices):
            members["choices"] = .array(choices.map(JSONValue.string))
        default:
            break
        }
        return .object(members)
    }

    /// Reads the `settings` value of manifest `file`; every error names the key, as
    /// `settings[0].default`.
    static func list(json: JSONValue, file: String) throws(PluginManifestError) -> [PluginSetting] {
        var settings: [PluginSetting] = []
        let known = ["key", "type", "default", "title", "description", "min", "max", "choices"]
        for entry in try ManifestEntry.list(json, key: "settings", known: known, file: file) {
            let key = try entry.text("key") ?? ""
            guard PluginManifest.isValidID(key) else {
                throw .invalidValue(file: file, key: "\(entry.path).key", reason: "\"\(key)\" is not a valid key (letters, digits, '.', '_', '-')")
            }
            guard !settings.contains(where: { $0.key == key }) else {
                throw .invalidValue(file: file, key: "\(entry.path).key", reason: "\"\(key)\" is listed twice")
            }
            let type = try entry.text("type") ?? ""
            let kind: Kind
            switch type {
            case "bool": kind = .bool
            case "string": kind = .string
            case "path": kind = .path
            case "int":
                let low = try entry.integer("min") ?? Int(Int32.min)
                let high = try entry.integer("max") ?? Int(Int32.max)
                guard low <= high else { throw .invalidValue(file: file, key: "\(entry.path).max", reason: "is below min (\(low))") }
                kind = .int(low...high)
            case "choice":
                guard let array = entry.object["choices"]?.arrayValue, !array.isEmpty,
                      array.allSatisfy({ !($0.stringValue ?? "").isEmpty }) else {
                    throw .wrongType(file: file, key: "\(entry.path).choices", expected: "a non-empty array of non-empty strings")
                }
                kind = .choice(array.compactMap(\.stringValue))
            default:
                throw .invalidValue(file: file, key: "\(entry.path).type", reason: "\"\(type)\" is not bool, int, string, choice or path")
            }
            if kind.name != "int", entry.object["min"] != nil || entry.object["max"] != nil {
                throw .invalidValue(file: file, key: "\(entry.path).min", reason: "only an int setting has min and max")
            }
            if kind.name != "choice", entry.object["choices"] != nil {
                throw .invalidValue(file: file, key: "\(entry.path).choices", reason: "only a choice setting has choices")
            }
            guard let value = entry.object["default"] else { throw .missingKey(file: file, key: "\(entry.path).default") }
            let setting = PluginSetting(key: key, kind: kind, defaultValue: value, title: try entry.text("title") ?? "",
                                        description: try entry.text("description", required: false) ?? "")
            if case .failure(let error) = setting.check(value) {
                throw .invalidValue(file: file, key: "\(entry.path).default", reason: error.reason)
            }
            settings.append(setting)
        }
        return settings
    }
}

/// Why a value cannot be stored in a plugin's setting.
public struct SettingValueError: Error, Equatable, Sendable, CustomStringConvertible {
    public let key: String
    public let reason: String
    public var description: String { "setting \"\(key)\": \(reason)" }
}

extension ManifestEntry {
    /// The integer at `key`, nil when absent.
    func integer(_ key: String) throws(PluginManifestError) -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.intValue else { throw .wrongType(file: file, key: "\(path).\(key)", expected: "an integer") }
        return number
    }
}
