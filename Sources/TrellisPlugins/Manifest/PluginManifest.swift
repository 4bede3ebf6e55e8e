import TrellisCore
import Foundation

/// What a plugin declares about itself in `plugin.json`, beside its library: read without
/// loading any of the plugin's code (libpeas's `.plugin` file, Qt's plugin metadata).
///
/// ```json
/// {
///   "id": "network-activity",
///   "name": "Network Activity",
///   "version": "1.0.0",
///   "abiVersion": 2,
///   "library": "libTrellisPluginNetworkActivity.so",
///   "services": ["net_state"],
///   "dependencies": [],
///   "description": "Counts network:on/off and triggers activity:changed.",
///   "autostart": {"net_state": null}
/// }
/// ```
///
/// `id`, `name`, `version`, `abiVersion` and `library` are required; the other keys default to
/// empty. `autostart` maps a service the plugin provides to the options it is started with
/// right after the plugin loads.
///
/// ```swift
/// let manifest = try PluginManifest.load(from: folder.appendingPathComponent("plugin.json"))
/// print(manifest.id, manifest.services)
/// ```
public struct PluginManifest: Sendable, Hashable {
    /// The manifest's file name inside a plugin folder.
    public static let fileName = "plugin.json"

    /// Unique identifier: letters, digits, `.`, `_` and `-`, starting with a letter or digit.
    public var id: String
    /// Human-readable name.
    public var name: String
    /// The plugin's own version, free-form (e.g. "1.2.0").
    public var version: String
    /// The plugin ABI version the library was built against (`TRELLIS_PLUGIN_ABI_VERSION`).
    public var abiVersion: Int
    /// The library's file name (no folder), looked up next to the manifest (see
    /// `PluginDiscovery.libraryFolders(of:in:)` for the other places).
    public var library: String
    /// Names of the services the plugin registers.
    public var services: [String]
    /// Ids of the plugins that must be loaded first.
    public var dependencies: [String]
    /// One or two sentences for the plugins page.
    public var description: String
    /// Services started right after loading, with their options.
    public var autostart: [String: JSONValue]
    /// Where the plugin's code runs (`"isolation"`: `"process"`, the default, or
    /// `"inProcess"`); the host decides in the end (see ``PluginIsolation``).
    public var isolation: PluginIsolation
    /// What the plugin may trigger, watch, open, request and reach (`"permissions"`; without
    /// the key, its own namespace only: see ``PluginPermissions``).
    public var permissions: PluginPermissions
    /// The commands the plugin contributes to the window (`"commands"`: see ``PluginCommand``).
    public var commands: [PluginCommand]
    /// The lines the plugin contributes to the status area (`"statusItems"`: see ``PluginStatusItem``).
    public var statusItems: [PluginStatusItem]
    /// When the plugin's library is opened (`"activation"`; default `[.onStartup]`: see
    /// ``PluginActivation``).
    public var activation: [PluginActivation]
    /// The pages the plugin contributes (`"routes"`: see ``PluginRoute``).
    public var routes: [PluginRoute]
    /// The settings the plugin declares (`"settings"`: see ``PluginSetting``).
    public var settings: [PluginSetting]

    /// A manifest from its parts (tests and tools write manifests with `json`).
    public init(id: String, name: String, version: String, abiVersion: Int, library: String,
                services: [String] = [], dependencies: [String] = [], description: String = "",
                autostart: [String: JSONValue] = [:], isolation: PluginIsolation = .process,
                permissions: PluginPermissions = PluginPermissions(), commands: [PluginCommand] = [],
                statusItems: [PluginStatusItem] = [], activation: [PluginActivation] = [.onStartup],
                routes: [PluginRoute] = [], settings: [PluginSetting] = []) {
        self.id = id
        self.name = name
        self.version = version
        self.abiVersion = abiVersion
        self.library = library
        self.services = services
        self.dependencies = dependencies
        self.description = description
        self.autostart = autostart
        self.isolation = isolation
        self.permissions = permissions
        self.commands = commands
        self.statusItems = statusItems
        self.activation = activation
        self.routes = routes
        self.settings = settings
        self.permissions.ownRoutes = permissions.contributable(routes, pluginID: id)
    }

    /// The keys a manifest may have; any other is refused, naming it (a misspelt `"setings"`
    /// would otherwise be ignored without a word).
    public static let knownKeys = ["id", "name", "version", "abiVersion", "library", "services", "dependencies", "description",
                                   "autostart", "isolation", "permissions", "commands", "statusItems", "activation", "routes", "settings"]

    /// The largest manifest file read, in bytes (64 KiB: a real manifest is well under 1 KiB).
    public static let maximumFileSize = 64 * 1024

    /// Reads and validates the manifest at `url`. A file over ``maximumFileSize`` bytes is
    /// refused after reading one byte past the limit, however large it is.
    public static func load(from url: URL) throws(PluginManifestError) -> PluginManifest {
        let data: Data
        do {
            let file = try FileHandle(forReadingFrom: url)
            defer { try? file.close() }
            data = try file.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw .unreadable(file: url.path, reason: error.localizedDescription)
        }
        guard data.count <= maximumFileSize else {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? data.count
            throw .tooLarge(file: url.path, bytes: size, limit: maximumFileSize)
        }
        let json: JSONValue
        do { json = try JSONValue(jsonData: data, source: url.path) } catch let error as JSONValueError {
            guard case .malformed(_, let reason) = error else { throw .malformed(file: url.path, reason: "\(error)") }
            throw .malformed(file: url.path, reason: reason)
        } catch {
            throw .malformed(file: url.path, reason: "\(error)")
        }
        return try PluginManifest(json: json, file: url.path)
    }

    /// Validates a parsed manifest; `file` names it in errors.
    public init(json: JSONValue, file: String) throws(PluginManifestError) {
        guard let object = json.objectValue else { throw .notAnObject(file: file) }
        if let stray = object.keys.sorted().first(where: { !Self.knownKeys.contains($0) }) {
            throw .invalidValue(file: file, key: stray, reason: "unknown key (known: \(Self.knownKeys.joined(separator: ", ")))")
        }
        let keys = ManifestKeys(object: object, file: file)
        id = try keys.requiredString("id")
        name = try keys.requiredString("name")
        version = try keys.requiredString("version")
        abiVersion = try keys.requiredInt("abiVersion")
        library = try keys.requiredString("library")
        services = try keys.optionalStrings("services")
        dependencies = try keys.optionalStrings("dependencies")
        description = try keys.optionalString("description")
        autostart = try keys.optionalObject("autostart")
        let isolation = try keys.optionalString("isolation")
        guard let mode = isolation.isEmpty ? .process : PluginIsolation(rawValue: isolation) else {
            throw .invalidValue(file: file, key: "isolation", reason: "\(isolation.debugDescription) is not \"process\" or \"inProcess\"")
        }
        self.isolation = mode
        if let value = object["permissions"], !value.isNull {
            permissions = try PluginPermissions(json: value, file: file)
        } else {
            permissions = PluginPermissions()
        }
        if let value = object["commands"], !value.isNull {
            commands = try PluginCommand.list(json: value, file: file)
        } else {
            commands = []
        }
        if let value = object["statusItems"], !value.isNull {
            statusItems = try PluginStatusItem.list(json: value, file: file)
        } else {
            statusItems = []
        }
        if let value = object["routes"], !value.isNull {
            routes = try PluginRoute.list(json: value, file: file)
        } else {
            routes = []
        }
        // A route no `contribute` permission covers is refused when the pages are registered
        // (the plugin loads without it), and is not the plugin's own to open.
        permissions.ownRoutes = permissions.contributable(routes, pluginID: id)
        if let value = object["settings"], !value.isNull {
            settings = try PluginSetting.list(json: value, file: file)
        } else {
            settings = []
        }
        if let value = object["activation"], !value.isNull {
            activation = try PluginActivation.list(json: value, commands: commands.map(\.id), routes: routes.map(\.pattern.text), file: file)
        } else {
            activation = [.onStartup]
        }
        try validate(file: file)
    }

    /// The manifest as JSON, as `plugin.json` holds it.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "version": .string(version),
            "abiVersion": .number(Double(abiVersion)), "library": .string(library),
            "services": .array(services.map(JSONValue.string)),
            "dependencies": .array(dependencies.map(JSONValue.string)),
            "description": .string(description), "autostart": .object(autostart),
            "isolation": .string(isolation.rawValue),
        ]
        members["permissions"] = permissions.json
        if !commands.isEmpty { members["commands"] = .array(commands.map(\.json)) }
        if !statusItems.isEmpty { members["statusItems"] = .array(statusItems.map(\.json)) }
        if !routes.isEmpty { members["routes"] = .array(routes.map(\.json)) }
        if !settings.isEmpty { members["settings"] = .array(settings.map(\.json)) }
        if activation != [.onStartup] { members["activation"] = .array(activation.map { .string($0.description) }) }
        return .object(members)
    }

    private func validate(file: String) throws(PluginManifestError) {
        guard Self.isValidID(id) else {
            throw .invalidValue(file: file, key: "id", reason: "\"\(id)\" is not a valid id (letters, digits, '.', '_', '-')")
        }
        guard !library.isEmpty, !library.contains("/"), library != ".", library != "..",
              !library.unicodeScalars.contains(where: \.isControl) else {
            throw .invalidValue(file: file, key: "library",
                                reason: "\(library.debugDescription) must be a file name without a folder or control characters")
        }
        if let service = services.first(where: \.isEmpty) {
            throw .invalidValue(file: file, key: "services", reason: "\"\(service)\" is not a service name")
        }
        if let duplicate = Self.firstDuplicate(services) {
            throw .invalidValue(file: file, key: "services", reason: "\"\(duplicate)\" is listed twice")
        }
        if let bad = dependencies.first(where: { !Self.isValidID($0) }) {
            throw .invalidValue(file: file, key: "dependencies", reason: "\"\(bad)\" is not a valid plugin id")
        }
        if dependencies.contains(id) {
            throw .invalidValue(file: file, key: "dependencies", reason: "a plugin cannot depend on itself")
        }
        if let stray = autostart.keys.sorted().first(where: { !services.contains($0) }) {
            throw .invalidValue(file: file, key: "autostart", reason: "\"\(stray)\" is not one of the plugin's services")
        }
    }

    /// True for a non-empty id of ASCII letters, digits, `.`, `_` and `-` that starts with a
    /// letter or digit.
    public static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, first.isASCIIAlphanumeric else { return false }
        return id.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "." || $0 == "_" || $0 == "-" }
    }

    private static func firstDuplicate(_ values: [String]) -> String? {
        var seen: Set<String> = []
        return values.first { !seen.insert($0).inserted }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }

    /// U+0000–U+001F and U+007F: a NUL would cut the name short where it becomes a C string.
    fileprivate var isControl: Bool { value < 0x20 || value == 0x7F }
}

/// Typed access to the manifest's keys, with errors naming the file and the key.
private struct ManifestKeys {
    let object: [String: JSONValue]
    let file: String

    func requiredString(_ key: String) throws(PluginManifestError) -> String {
        guard let value = object[key], !value.isNull else { throw .missingKey(file: file, key: key) }
        guard let string = value.stringValue else { throw .wrongType(file: file, key: key, expected: "a string") }
        guard !string.isEmpty else { throw .invalidValue(file: file, key: key, reason: "must not be empty") }
        return string
    }

    func requiredInt(_ key: String) throws(PluginManifestError) -> Int {
        guard let value = object[key], !value.isNull else { throw .missingKey(file: file, key: key) }
        guard let int = value.intValue else { throw .wrongType(file: file, key: key, expected: "an integer") }
        return int
    }

    func optionalString(_ key: String) throws(PluginManifestError) -> String {
        guard let value = object[key], !value.isNull else { return "" }
        guard let string = value.stringValue else { throw .wrongType(file: file, key: key, expected: "a string") }
        return string
    }

    func optionalStrings(_ key: String) throws(PluginManifestError) -> [String] {
        guard let value = object[key], !value.isNull else { return [] }
        guard let array = value.arrayValue else { throw .wrongType(file: file, key: key, expected: "an array of strings") }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else {
                throw .wrongType(file: file, key: key, expected: "an array of strings")
            }
            strings.append(string)
        }
        return strings
    }

    func optionalObject(_ key: String) throws(PluginManifestError) -> [String: JSONValue] {
        guard let value = object[key], !value.isNull else { return [:] }
        guard let members = value.objectValue else { throw .wrongType(file: file, key: key, expected: "an object") }
        return members
    }
}

extension PluginManifest {
    /// What the plugin adds to the app, in one line for people (`trellis plugins`): `pages
    /// /weather (table) · commands refresh (<Control>r), share (page actions) · status items
    /// position · settings units, interval`; nil when it contributes nothing.
    public var contributionSummary: String? {
        var parts: [String] = []
        if !routes.isEmpty {
            parts.append("pages " + routes.map { "\($0.pattern) (\($0.content.rawValue)\($0.isPublic ? ", public" : ""))" }.joined(separator: ", "))
        }
        if !commands.isEmpty {
            parts.append("commands " + commands.map { command in
                let place = command.placement == .pageActions ? "on \(command.routes.map(\.text).joined(separator: ", "))" : command.accelerator ?? ""
                return place.isEmpty ? command.id : "\(command.id) (\(place))"
            }.joined(separator: ", "))
        }
        if !statusItems.isEmpty { parts.append("status items " + statusItems.map(\.id).joined(separator: ", ")) }
        if !settings.isEmpty { parts.append("settings " + settings.map(\.key).joined(separator: ", ")) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
