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
                autostart: [String: JSONValue] = [:],
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

    /// What the manifest at `url` declares, read leniently, from a manifest that was refused or
    /// is being edited: its `id` when it is a valid id (so that a report names the plugin as its
    /// author did), its `version`, its `library` when it is a file name; nil for each that it
    /// does not say so.
    static func declared(at url: URL) -> (id: String?, version: String?, library: String?) {
        guard let data = try? FileHandle(forReadingFrom: url).read(upToCount: maximumFileSize),
              let json = try? JSONValue(jsonData: data) else { return (nil, nil, nil) }
        let library = json["library"]?.stringValue.flatMap { $0.isEmpty || $0.contains("/") ? nil : $0 }
        return (json["id"]?.stringValue.flatMap { isValidID($0) ? $0 : nil },
                json["version"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }, library)
    }

    /// Validates a parsed manifest; `file` names it in errors. Every key is checked, and every
    /// problem found is thrown at once (``PluginManifestError/several(_:)`` when there are more
    /// than one), so that an author fixes them in one go.
    public init(json: JSONValue, file: String) throws(PluginManifestError) {
        guard let object = json.objectValue else { throw .notAnObject(file: file) }
        var problems = ManifestProblems()
        for stray in object.keys.sorted() where !Self.knownKeys.contains(stray) {
            problems.add(.invalidValue(file: file, key: stray, reason: "unknown key (known: \(Self.knownKeys.joined(separator: ", ")))"))
        }
        let keys = ManifestKeys(object: object, file: file)
        id = problems.read("") { () throws(PluginManifestError) in try keys.requiredString("id") }
        name = problems.read("") { () throws(PluginManifestError) in try keys.requiredString("name") }
        version = problems.read("") { () throws(PluginManifestError) in try keys.requiredString("version") }
        abiVersion = problems.read(0) { () throws(PluginManifestError) in try keys.requiredInt("abiVersion") }
        library = problems.read("") { () throws(PluginManifestError) in try keys.requiredString("library") }
        services = problems.read([]) { () throws(PluginManifestError) in try keys.optionalStrings("services") }
        dependencies = problems.read([]) { () throws(PluginManifestError) in try keys.optionalStrings("dependencies") }
        description = problems.read("") { () throws(PluginManifestError) in try keys.optionalString("description") }
        autostart = problems.read([:]) { () throws(PluginManifestError) in try keys.optionalObject("autostart") }
        // Every plugin runs in a process of its own: the key of earlier manifests
        // ("process" or "inProcess") is still read, checked and ignored.
        let isolation = problems.read("") { () throws(PluginManifestError) in try keys.optionalString("isolation") }
        if !(isolation.isEmpty || isolation == "process" || isolation == "inProcess") {
            problems.add(.invalidValue(file: file, key: "isolation", reason: "\(isolation.debugDescription) is not \"process\" or \"inProcess\""))
        }
        permissions = problems.read(PluginPermissions()) { () throws(PluginManifestError) in
            guard let value = object["permissions"], !value.isNull else { return PluginPermissions() }
            return try PluginPermissions(json: value, file: file)
        }
        commands = problems.read([]) { () throws(PluginManifestError) in
            guard let value = object["commands"], !value.isNull else { return [] }
            return try PluginCommand.list(json: value, file: file)
        }
        statusItems = problems.read([]) { () throws(PluginManifestError) in
            guard let value = object["statusItems"], !value.isNull else { return [] }
            return try PluginStatusItem.list(json: value, file: file)
        }
        routes = problems.read([]) { () throws(PluginManifestError) in
            guard let value = object["routes"], !value.isNull else { return [] }
            return try PluginRoute.list(json: value, file: file)
        }
        // A route no `contribute` permission covers is refused when the pages are registered
        // (the plugin loads without it), and is not the plugin's own to open.
        permissions.ownRoutes = permissions.contributable(routes, pluginID: id)
        settings = problems.read([]) { () throws(PluginManifestError) in
            guard let value = object["settings"], !value.isNull else { return [] }
            return try PluginSetting.list(json: value, file: file)
        }
        let (commandIDs, routePatterns) = (commands.map(\.id), routes.map(\.pattern.text))
        activation = problems.read([.onStartup]) { () throws(PluginManifestError) in
            guard let value = object["activation"], !value.isNull else { return [.onStartup] }
            return try PluginActivation.list(json: value, commands: commandIDs, routes: routePatterns, file: file)
        }
        problems.errors += validationProblems(file: file, unread: problems.keys)
        if let error = problems.error { throw error }
    }

    /// The manifest as JSON, as `plugin.json` holds it.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "version": .string(version),
            "abiVersion": .number(Double(abiVersion)), "library": .string(library),
            "services": .array(services.map(JSONValue.string)),
            "dependencies": .array(dependencies.map(JSONValue.string)),
            "description": .string(description), "autostart": .object(autostart),
        ]
        members["permissions"] = permissions.json
        if !commands.isEmpty { members["commands"] = .array(commands.map(\.json)) }
        if !statusItems.isEmpty { members["statusItems"] = .array(statusItems.map(\.json)) }
        if !routes.isEmpty { members["routes"] = .array(routes.map(\.json)) }
        if !settings.isEmpty { members["settings"] = .array(settings.map(\.json)) }
        if activation != [.onStartup] { members["activation"] = .array(activation.map { .string($0.description) }) }
        return .object(members)
    }

    /// What is wrong with the values read, beyond their types: one problem per key at most. The
    /// keys in `unread` were refused already (and hold their empty values): a check that needs
    /// one of them is skipped, so that one mistake is told once.
    private func validationProblems(file: String, unread: Set<String>) -> [PluginManifestError] {
        var problems: [PluginManifestError] = []
        if !id.isEmpty && !Self.isValidID(id) {
            problems.append(.invalidValue(file: file, key: "id", reason: "\"\(id)\" is not a valid id (letters, digits, '.', '_', '-')"))
        }
        if !library.isEmpty && (library.contains("/") || library == "." || library == ".."
                                || library.unicodeScalars.contains(where: \.isControl)) {
            problems.append(.invalidValue(file: file, key: "library",
                                          reason: "\(library.debugDescription) must be a file name without a folder or control characters"))
        }
        if let service = services.first(where: \.isEmpty) {
            problems.append(.invalidValue(file: file, key: "services", reason: "\"\(service)\" is not a service name"))
        } else if let duplicate = Self.firstDuplicate(services) {
            problems.append(.invalidValue(file: file, key: "services", reason: "\"\(duplicate)\" is listed twice"))
        }
        if let bad = dependencies.first(where: { !Self.isValidID($0) }) {
            problems.append(.invalidValue(file: file, key: "dependencies", reason: "\"\(bad)\" is not a valid plugin id"))
        } else if !id.isEmpty && dependencies.contains(id) {
            problems.append(.invalidValue(file: file, key: "dependencies", reason: "a plugin cannot depend on itself"))
        }
        if !unread.contains("services"), let stray = autostart.keys.sorted().first(where: { !services.contains($0) }) {
            problems.append(.invalidValue(file: file, key: "autostart", reason: "\"\(stray)\" is not one of the plugin's services"))
        }
        return problems
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

/// The problems found while a manifest is read, gathered so that all are told at once.
private struct ManifestProblems {
    var errors: [PluginManifestError] = []

    mutating func add(_ error: PluginManifestError) { errors.append(error) }

    /// What `read` returns, or `fallback` after noting what it threw.
    mutating func read<Value>(_ fallback: Value, _ read: () throws(PluginManifestError) -> Value) -> Value {
        do { return try read() } catch {
            errors.append(error)
            return fallback
        }
    }

    /// The top-level keys refused so far.
    var keys: Set<String> {
        Set(errors.compactMap { error in
            switch error {
            case .missingKey(_, let key), .wrongType(_, let key, _), .invalidValue(_, let key, _):
                return String(key.prefix { $0 != "[" && $0 != "." })
            default:
                return nil
            }
        })
    }

    /// The one error, or all of them; nil when there is none.
    var error: PluginManifestError? {
        errors.count > 1 ? .several(errors) : errors.first
    }
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
    public var contributionSummary: String? { contributionSummary(refusing: []) }

    /// ``contributionSummary`` without the pages of `refused` (pages the app refuses: see
    /// ``PluginRouteRefusal``).
    public func contributionSummary(refusing refused: [PluginRoute]) -> String? {
        var parts: [String] = []
        let routes = self.routes.filter { !refused.contains($0) }
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
