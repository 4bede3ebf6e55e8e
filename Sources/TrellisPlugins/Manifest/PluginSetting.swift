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
///   {"key": "source", "type": "choice", "default": "app", "title": "Positions from",
///    "choices": [{"value": "app", "title": "The app’s choice"}, {"value": "fixed", "title": "A fixed position"}]},
///   {"key": "home", "type": "position", "default": "48.8584, 2.2945", "title": "Home"},
///   {"key": "track", "type": "path", "default": "", "title": "Track file", "description": "A GPX-like JSON track"},
///   {"key": "simulate", "type": "bool", "default": true, "title": "Simulate positions"}
/// ]
/// ```
///
/// `key` (letters, digits, `.`, `_`, `-`), `type`, `default` and `title` are required; `title`
/// and `description` are looked up in the app's translations. `int` takes optional `min` and
/// `max`; `choice` needs `choices`, each a value or `{"value": …, "title": …}` (the title is
/// what people see, the value what is stored); `position` takes "latitude, longitude" in
/// degrees; `path` takes an absolute path or "" (none).
public struct PluginSetting: Sendable, Hashable {
    /// What a setting holds.
    public enum Kind: Sendable, Hashable {
        case bool
        case int(ClosedRange<Int>)
        case string
        /// One of these values.
        case choice([String])
        case path
        /// A place on Earth, "latitude, longitude" in degrees ("48.8584, 2.2945"): latitude
        /// from -90 to 90, longitude from -180 to 180.
        case position

        var name: String {
            switch self {
            case .bool: "bool"
            case .int: "int"
            case .string: "string"
            case .choice: "choice"
            case .path: "path"
            case .position: "position"
            }
        }
    }

    public var key: String
    public var kind: Kind
    public var defaultValue: JSONValue
    public var title: String
    public var description: String
    /// The title people see for each value of a `choice` that has one (untranslated, as the
    /// manifest has it); a value without one is shown as itself.
    public var choiceTitles: [String: String]

    public init(key: String, kind: Kind, defaultValue: JSONValue, title: String, description: String = "",
                choiceTitles: [String: String] = [:]) {
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue
        self.title = title
        self.description = description
        self.choiceTitles = choiceTitles
    }

    /// The title of choice `value`: its manifest title, else the value itself.
    public func title(ofChoice value: String) -> String { choiceTitles[value] ?? value }

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
                return .failure(.init(key: key, reason: "must be one of \(choices.map { title(ofChoice: $0) }.joined(separator: ", "))"))
            }
        case .position:
            guard let text = value.stringValue, Self.coordinates(text) != nil else {
                return .failure(.init(key: key, reason: "must be a latitude from -90 to 90 and a longitude from -180 to 180, "
                                        + "in degrees, such as “48.8584, 2.2945”"))
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
            members["choices"] = .array(choices.map { value in
                choiceTitles[value].map { ["value": .string(value), "title": .string($0)] } ?? .string(value)
            })
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
            var choiceTitles: [String: String] = [:]
            switch type {
            case "bool": kind = .bool
            case "string": kind = .string
            case "path": kind = .path
            case "position": kind = .position
            case "int":
                let low = try entry.integer("min") ?? Int(Int32.min)
                let high = try entry.integer("max") ?? Int(Int32.max)
                guard low <= high else { throw .invalidValue(file: file, key: "\(entry.path).max", reason: "is below min (\(low))") }
                kind = .int(low...high)
            case "choice":
                let choices = try Self.choices(entry, file: file)
                kind = .choice(choices.map(\.value))
                choiceTitles = Dictionary(choices.compactMap { choice in choice.title.map { (choice.value, $0) } }) { first, _ in first }
            default:
                throw .invalidValue(file: file, key: "\(entry.path).type", reason: "\"\(type)\" is not bool, int, string, choice, path or position")
            }
            if kind.name != "int", entry.object["min"] != nil || entry.object["max"] != nil {
                throw .invalidValue(file: file, key: "\(entry.path).min", reason: "only an int setting has min and max")
            }
            if kind.name != "choice", entry.object["choices"] != nil {
                throw .invalidValue(file: file, key: "\(entry.path).choices", reason: "only a choice setting has choices")
            }
            guard let value = entry.object["default"] else { throw .missingKey(file: file, key: "\(entry.path).default") }
            let setting = PluginSetting(key: key, kind: kind, defaultValue: value, title: try entry.text("title") ?? "",
                                        description: try entry.text("description", required: false) ?? "",
                                        choiceTitles: choiceTitles)
            if case .failure(let error) = setting.check(value) {
                throw .invalidValue(file: file, key: "\(entry.path).default", reason: error.reason)
            }
            settings.append(setting)
        }
        return settings
    }
}

extension PluginSetting {
    /// The latitude and longitude `text` gives ("48.8584, 2.2945": two decimal numbers of
    /// degrees, a comma between them), or nil when it is not a position on Earth.
    public static func coordinates(_ text: String) -> (latitude: Double, longitude: Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return (latitude, longitude)
    }

    /// The `choices` of a choice setting: each a non-empty string, or an object with a
    /// non-empty `value` and `title`; no value twice.
    fileprivate static func choices(_ entry: ManifestEntry, file: String) throws(PluginManifestError)
        -> [(value: String, title: String?)] {
        let key = "\(entry.path).choices"
        guard let array = entry.object["choices"]?.arrayValue, !array.isEmpty else {
            throw .wrongType(file: file, key: key, expected: "a non-empty array of values, or of {\"value\", \"title\"} objects")
        }
        var choices: [(value: String, title: String?)] = []
        for (index, item) in array.enumerated() {
            if let value = item.stringValue, !value.isEmpty {
                choices.append((value, nil))
            } else if let value = item["value"]?.stringValue, !value.isEmpty, let title = item["title"]?.stringValue, !title.isEmpty,
                      item.objectValue?.keys.allSatisfy({ $0 == "value" || $0 == "title" }) == true {
                choices.append((value, title))
            } else {
                throw .wrongType(file: file, key: "\(key)[\(index)]", expected: "a non-empty string, or {\"value\": …, \"title\": …} with both non-empty")
            }
            if choices.dropLast().contains(where: { $0.value == choices.last!.value }) {
                throw .invalidValue(file: file, key: "\(key)[\(index)]", reason: "\"\(choices.last!.value)\" is listed twice")
            }
        }
        return choices
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
