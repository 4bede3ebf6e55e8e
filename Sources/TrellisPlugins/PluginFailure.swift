import TrellisCore

/// Why a plugin was not loaded: one case per row of the failure matrix. The plugin's id is in
/// the report that carries the failure; each message names the file, key, library, symbol,
/// dependency or service at fault.
public enum PluginFailure: Error, CustomStringConvertible, Hashable, Sendable {
    /// The plugin folder or library is world-writable or owned by another user.
    case insecure(problem: String)
    /// The plugin's id is a name of the app's own: one of Trellis's event namespaces, or the
    /// first segment of one of the app's routes.
    case reservedID(id: String, reason: String)
    /// Confinement is required (`--require-confinement`) and this kernel cannot confine the
    /// plugin fully: what is missing.
    case unconfined(reason: String)
    /// The manifest cannot be read, is not valid JSON, or lacks or mistypes a key.
    case manifest(PluginManifestError)
    /// The manifest's ABI version is newer than the host's.
    case abiTooNew(plugin: Int, host: Int)
    /// The manifest's ABI version is older than the oldest the host loads.
    case abiTooOld(plugin: Int, oldest: Int)
    /// The library file was not found in any of the folders searched.
    case libraryMissing(library: String, searched: [String])
    /// Another plugin with the same id was found first.
    case duplicateID(firstFoundAt: String)
    /// A dependency was found nowhere.
    case dependencyMissing(dependency: String)
    /// A dependency was found but is not loaded (disabled, or it failed).
    case dependencyUnavailable(dependency: String, reason: String)
    /// The plugin is part of a dependency cycle (listed in order, first id repeated at the end).
    case dependencyCycle([String])
    /// `dlopen` refused the library.
    case libraryUnloadable(path: String, reason: String)
    /// The library does not export the entry symbol.
    case entryMissing(path: String, symbol: String)
    /// The entry returned no info, or an info the host cannot accept.
    case invalidInfo(path: String, reason: String)
    /// The library was built for another ABI version than its manifest says.
    case abiMismatch(path: String, manifest: Int, library: Int)
    /// The plugin refused to run on this host, with its own reason.
    case refusedByPlugin(reason: String)
    /// The plugin tried to register a service its manifest does not list, or a malformed one.
    case invalidService(service: String, reason: String)
    /// A service name is already registered (by the host or another plugin).
    case serviceAlreadyRegistered(service: String, reason: String)
    /// A service listed in `autostart` failed to start.
    case serviceStartFailed(service: String, reason: String)
    /// The plugin's process could not be started, or its entry failed there (the reason says).
    case pluginProcess(reason: String)
    /// The plugin's process ended while the plugin was loaded: how it ended (the signal or the
    /// exit status, or the call it did not answer in time) and the last lines it wrote to stderr.
    case crashed(reason: String, lastOutput: [String])
    /// The plugin crashed `crashes` times within `PluginHost.crashWindow`: it is disabled until
    /// the user enables it again. `last` is the last crash.
    indirect case crashedTooOften(crashes: Int, last: PluginFailure)

    public var description: String {
        switch self {
        case .insecure(let problem):
            return "refused: \(problem)"
        case .reservedID(let id, let reason):
            return "refused: the id \"\(id)\" \(reason); choose another id"
        case .unconfined(let reason):
            return "refused: confinement is required and this kernel cannot confine it fully: \(reason)"
        case .manifest(let error):
            return error.description
        case .abiTooNew(let plugin, let host):
            return "ABI version \(plugin) is too new: this Trellis supports plugin ABI up to \(host); update Trellis"
        case .abiTooOld(let plugin, let oldest):
            return "ABI version \(plugin) is too old: this Trellis needs plugin ABI \(oldest) or newer; rebuild the plugin"
        case .libraryMissing(let library, let searched):
            return "library \(library) not found (looked in: \(searched.joined(separator: ", ")))"
        case .duplicateID(let first):
            return "another plugin with the same id was found first at \(first)"
        case .dependencyMissing(let dependency):
            return "dependency \"\(dependency)\" is not installed"
        case .dependencyUnavailable(let dependency, let reason):
            return "dependency \"\(dependency)\" is not loaded: \(reason)"
        case .dependencyCycle(let cycle):
            return "dependency cycle: \(cycle.joined(separator: " → "))"
        case .libraryUnloadable(let path, let reason):
            return "\(path): cannot load the library: \(reason)"
        case .entryMissing(let path, let symbol):
            return "\(path): entry symbol \(symbol) not found"
        case .invalidInfo(let path, let reason):
            return "\(path): \(reason)"
        case .abiMismatch(let path, let manifest, let library):
            return "\(path) was built for ABI version \(library) but its manifest says \(manifest)"
        case .refusedByPlugin(let reason):
            return "the plugin refused to run: \(reason)"
        case .invalidService(let service, let reason):
            return "service \"\(service)\": \(reason)"
        case .serviceAlreadyRegistered(let service, let reason):
            return "service \"\(service)\" is already registered: \(reason)"
        case .serviceStartFailed(let service, let reason):
            return "service \"\(service)\" failed to start: \(reason)"
        case .pluginProcess(let reason):
            return reason
        case .crashed(let reason, let lastOutput):
            let output = lastOutput.isEmpty ? "" : "; its last output: " + lastOutput.joined(separator: " | ")
            return "its process ended: \(reason)\(output)"
        case .crashedTooOften(let crashes, let last):
            return "disabled after \(crashes) crashes in 5 minutes (enable it again to restart it); the last: \(last)"
        }
    }
}

extension PluginFailure {
    /// Whether the plugin's process ended unasked (see ``crashed(reason:lastOutput:)``).
    var isCrash: Bool {
        switch self {
        case .crashed, .crashedTooOften: return true
        default: return false
        }
    }
}

extension PluginFailure {
    /// How a plugin process tells the shell why its library could not be opened, so that the
    /// shell reports the same failure as for a plugin in its own process.
    package var wireValue: JSONValue {
        switch self {
        case .libraryUnloadable(let path, let reason):
            return ["libraryUnloadable": ["path": .string(path), "reason": .string(reason)], "text": .string(description)]
        case .entryMissing(let path, let symbol):
            return ["entryMissing": ["path": .string(path), "symbol": .string(symbol)], "text": .string(description)]
        default:
            return .string(description)
        }
    }

    /// The failure `wire` names (see ``wireValue``); another failure of the process's, with its text.
    init(wire: JSONValue) {
        if let path = wire["libraryUnloadable"]?["path"]?.stringValue, let reason = wire["libraryUnloadable"]?["reason"]?.stringValue {
            self = .libraryUnloadable(path: path, reason: reason)
        } else if let path = wire["entryMissing"]?["path"]?.stringValue, let symbol = wire["entryMissing"]?["symbol"]?.stringValue {
            self = .entryMissing(path: path, symbol: symbol)
        } else {
            self = .pluginProcess(reason: wire.stringValue ?? wire["text"]?.stringValue ?? "its library could not be opened")
        }
    }
}
