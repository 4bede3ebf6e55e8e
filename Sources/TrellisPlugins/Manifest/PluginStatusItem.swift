import TrellisCore

/// A line a plugin contributes to the window's status area (`"statusItems"` in its manifest):
/// the window shows "title: text" while the plugin has set a text, which it does by
/// triggering `<plugin id>:status` with `{"item": id, "text": "…"}` (`"text": null` hides it).
///
/// ```json
/// "statusItems": [{"id": "position", "title": "Location"}]
/// ```
///
/// `id` (letters, digits, `.`, `_`, `-`) and `title` are required; the title is looked up in
/// the app's translations.
public struct PluginStatusItem: Sendable, Hashable {
    public var id: String
    public var title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    /// The item as the manifest holds it.
    public var json: JSONValue { ["id": .string(id), "title": .string(title)] }

    /// Reads the `statusItems` value of manifest `file`; errors name the key, as
    /// `statusItems[0].title`.
    static func list(json: JSONValue, file: String) throws(PluginManifestError) -> [PluginStatusItem] {
        var items: [PluginStatusItem] = []
        for entry in try ManifestEntry.list(json, key: "statusItems", known: ["id", "title"], file: file) {
            let id = try entry.id(existing: items.map(\.id))
            items.append(PluginStatusItem(id: id, title: try entry.text("title") ?? ""))
        }
        return items
    }
}

/// One object of an array in a manifest (a command, a status item): typed access to its keys,
/// with errors naming the file and the key (`commands[1].title`).
struct ManifestEntry {
    let object: [String: JSONValue]
    let path: String
    let file: String

    /// The objects of array `key`, refusing keys not in `known`.
    static func list(_ json: JSONValue, key: String, known: [String], file: String) throws(PluginManifestError) -> [ManifestEntry] {
        guard let array = json.arrayValue else { throw .wrongType(file: file, key: key, expected: "an array of objects") }
        var entries: [ManifestEntry] = []
        for (index, element) in array.enumerated() {
            let path = "\(key)[\(index)]"
            guard let object = element.objectValue else { throw .wrongType(file: file, key: path, expected: "an object") }
            if let stray = object.keys.sorted().first(where: { !known.contains($0) }) {
                throw .invalidValue(file: file, key: "\(path).\(stray)", reason: "unknown key (known: \(known.joined(separator: ", ")))")
            }
            entries.append(ManifestEntry(object: object, path: path, file: file))
        }
        return entries
    }

    /// The non-empty string at `key` without control characters; nil when absent and not `required`.
    func text(_ key: String, required: Bool = true) throws(PluginManifestError) -> String? {
        guard let value = object[key], !value.isNull else {
            if required { throw .missingKey(file: file, key: "\(path).\(key)") }
            return nil
        }
        guard let string = value.stringValue else { throw .wrongType(file: file, key: "\(path).\(key)", expected: "a string") }
        guard !string.isEmpty, !string.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidValue(file: file, key: "\(path).\(key)", reason: "\(string.debugDescription) is empty or has control characters")
        }
        return string
    }

    /// The entry's `id`: valid as a plugin id is, and not one of `existing`.
    func id(existing: [String]) throws(PluginManifestError) -> String {
        let id = try text("id") ?? ""
        guard PluginManifest.isValidID(id) else {
            throw .invalidValue(file: file, key: "\(path).id", reason: "\"\(id)\" is not a valid id (letters, digits, '.', '_', '-')")
        }
        guard !existing.contains(id) else {
            throw .invalidValue(file: file, key: "\(path).id", reason: "\"\(id)\" is listed twice")
        }
        return id
    }
}
