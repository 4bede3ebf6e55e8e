import TrellisCore
/// What a plugin may reach outside the app, beside the calls of ``PluginPermissions``:
/// granted by the same `permissions` key of its `plugin.json` and enforced by the kernel in
/// the plugin's process (Landlock, seccomp, namespaces: see "What Trellis promises").
///
/// ```json
/// "permissions": {
///   "files": {"~/Music": "read", "/srv/weather": "read-write", "setting:track": "read"},
///   "network": ["api.example.org:443", "127.0.0.1:8080"],
///   "exec": ["/usr/bin/convert"],
///   "environment": ["LANG_OVERRIDE"]
/// }
/// ```
///
/// - `files`: paths (absolute, or `~/` for the user's home) and how they may be used, `read`
///   or `read-write`; `setting:KEY` stands for the file or folder the user chose in the
///   plugin's own `path` setting KEY, and `option:KEY` for the path the app passes under KEY in
///   the start options of the plugin's services (as the demo passes Location its track). A
///   change of either takes effect at the plugin's next start. Without a grant a plugin reads
///   only its own folder and the system's libraries, and writes only its data folder
///   (`$XDG_DATA_HOME/trellis/plugin-data/ID`, its `HOME`) and a private temporary folder (its
///   `TMPDIR`). A grant may not cover Trellis's own data or settings.
/// - `network`: `host:port` (the port may be `*`), or `any`. Without it the plugin has no
///   network at all. The kernel enforces ports (Landlock TCP rules, Linux 6.7 and newer), not
///   hosts: a plugin granted `example.org:443` can reach any host on port 443.
/// - `exec`: programs (absolute paths) the plugin may run; they run as confined as it is.
///   Without it, `execve` fails.
/// - `environment`: names of the shell's environment variables the plugin gets; it gets
///   none of the others (`PATH`, the locale and `TZ` apart).
public struct PluginResourceGrants: Sendable, Hashable {
    /// How a granted path may be used.
    public enum Access: String, Sendable, Hashable {
        case read
        case readWrite = "read-write"
    }

    /// Granted paths, as the manifest writes them, with their access.
    public var files: [String: Access]
    /// Granted `host:port` patterns, or `any`.
    public var network: [String]
    /// Granted programs.
    public var exec: [String]
    /// Granted environment variables.
    public var environment: [String]

    /// The keys of `permissions` these grants are read from.
    static let keys = ["files", "network", "exec", "environment"]

    public init(files: [String: Access] = [:], network: [String] = [], exec: [String] = [], environment: [String] = []) {
        self.files = files
        self.network = network
        self.exec = exec
        self.environment = environment
    }

    /// Whether nothing is granted.
    public var isEmpty: Bool { files.isEmpty && network.isEmpty && exec.isEmpty && environment.isEmpty }

    /// Whether any host and port may be reached.
    public var allowsAnyNetwork: Bool {
        network.contains { $0 == "any" || $0.hasSuffix(":*") }
    }

    /// The TCP ports of the `host:port` grants.
    public var ports: [Int] {
        network.compactMap { entry in entry.split(separator: ":").last.flatMap { Int($0) } }
    }

    /// The grants as the manifest holds them (the keys that grant something).
    var json: [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        if !files.isEmpty { members["files"] = .object(files.mapValues { .string($0.rawValue) }) }
        if !network.isEmpty { members["network"] = .array(network.map(JSONValue.string)) }
        if !exec.isEmpty { members["exec"] = .array(exec.map(JSONValue.string)) }
        if !environment.isEmpty { members["environment"] = .array(environment.map(JSONValue.string)) }
        return members
    }

    /// Reads the grants among `object` (a manifest's `permissions`); every error names the key.
    init(object: [String: JSONValue], file: String) throws(PluginManifestError) {
        self.init()
        if let value = object["files"], !value.isNull {
            guard let entries = value.objectValue else { throw .wrongType(file: file, key: "permissions.files", expected: "an object of paths") }
            for (path, access) in entries {
                let key = "permissions.files.\(path)"
                guard Self.isGrantablePath(path) else {
                    throw .invalidValue(file: file, key: key, reason: "a path must be absolute, start with ~/, or be setting:KEY or option:KEY, without \"..\" or control characters")
                }
                guard let text = access.stringValue, let granted = Access(rawValue: text) else {
                    throw .invalidValue(file: file, key: key, reason: "must be \"read\" or \"read-write\"")
                }
                files[path] = granted
            }
        }
        network = try Self.strings(object["network"], key: "permissions.network", file: file) { entry in
            guard entry != "any" else { return true }
            guard let colon = entry.lastIndex(of: ":"), colon != entry.startIndex else { return false }
            let port = entry[entry.index(after: colon)...]
            return port == "*" || Int(port).map { (1...65535).contains($0) } == true
        }
        exec = try Self.strings(object["exec"], key: "permissions.exec", file: file) { $0.hasPrefix("/") && !$0.contains("/../") }
        environment = try Self.strings(object["environment"], key: "permissions.environment", file: file, valid: Self.isGrantableVariable)
    }

    /// Whether `name` may be granted as an environment variable: letters, digits and `_`, not
    /// starting with a digit.
    static func isGrantableVariable(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    private static func strings(_ value: JSONValue?, key: String, file: String,
                                valid: (String) -> Bool) throws(PluginManifestError) -> [String] {
        guard let value, !value.isNull else { return [] }
        guard let array = value.arrayValue else { throw .wrongType(file: file, key: key, expected: "an array of strings") }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else { throw .wrongType(file: file, key: key, expected: "an array of strings") }
            guard valid(string), !string.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw .invalidValue(file: file, key: key, reason: "\(string.debugDescription) is not valid here")
            }
            strings.append(string)
        }
        return strings
    }

    private static func isGrantablePath(_ path: String) -> Bool {
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return false }
        if path.hasPrefix("setting:") || path.hasPrefix("option:") { return path.split(separator: ":").count == 2 }
        guard path.hasPrefix("/") || path.hasPrefix("~/") else { return false }
        return !path.split(separator: "/").contains("..")
    }

    /// One line per grant, in words a person understands (the approval asks with them).
    public var words: [String] {
        var lines: [String] = []
        for (path, access) in files.sorted(by: { $0.key < $1.key }) {
            let place = path.hasPrefix("setting:") ? "the file you choose in its setting \"\(path.dropFirst(8))\""
                : path.hasPrefix("option:") ? "the file the app gives it as \"\(path.dropFirst(7))\"" : path
            lines.append(access == .read ? "read \(place)" : "read and change \(place)")
        }
        if network.contains("any") {
            lines.append("connect to any computer on the network or the Internet")
        } else if !network.isEmpty {
            lines.append("connect to \(network.joined(separator: ", "))")
        }
        if !exec.isEmpty { lines.append("run the programs \(exec.joined(separator: ", "))") }
        if !environment.isEmpty { lines.append("read the environment variables \(environment.joined(separator: ", "))") }
        return lines
    }
}
