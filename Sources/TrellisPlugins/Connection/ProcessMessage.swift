import Logging
import TrellisCore
import TrellisPluginABI

/// What a plugin process sends the shell, one case per kind of message (GIMP's `GP_*`
/// messages, each its own type), decoded and checked once, where the frame is read. A frame
/// that does not decode as its kind says — data that is not JSON, a level out of range, an
/// answer without its request — means the process does not follow the protocol (the plugin
/// wrote to the socket itself, say): the shell stops it.
///
/// | Case | Sent when |
/// |------|-----------|
/// | `entry` | the plugin's entry returned, or its library could not be opened |
/// | `register`, `refuse` | the entry registered a service, or a registration was refused |
/// | `watch`, `unwatch` | the plugin watches a pattern (the id is the process's), or stops |
/// | `trigger`, `navigate`, `request` | the plugin called the host function (the process answered it already) |
/// | `log` | the plugin logged a line |
/// | `started`, `stopped` | the answer to the shell's `start` or `stop` request of that number |
/// | `done` | the plugin's handler returned for the oldest event sent to it |
enum ProcessMessage: Sendable, Equatable {
    case entry(PluginEntry)
    case register(service: String)
    case refuse(reason: String)
    case watch(id: UInt64, pattern: String)
    case unwatch(id: UInt64)
    case trigger(message: String, data: JSONValue)
    case navigate(path: String, data: JSONValue)
    case request(command: String, parameters: JSONValue)
    case log(level: Logger.Level, text: String)
    case started(request: UInt64, status: Int32, error: String)
    case stopped(request: UInt64)
    case done

    /// The message `frame` carries; throws when it is not one a plugin process sends, does
    /// not decode as its kind says, or has a name over `nameBytes` (``PluginLimits/nameBytes``,
    /// which the process refuses itself).
    init(frame: PluginMessage, nameBytes: Int = PluginLimits().nameBytes) throws(PluginWire.Malformed) {
        func data() throws(PluginWire.Malformed) -> JSONValue {
            guard let value = frame.value else {
                throw PluginWire.Malformed(reason: "\(frame.op) \(frame.name.debugDescription): its data is not JSON")
            }
            return value
        }
        func named() throws(PluginWire.Malformed) -> String {
            guard !frame.name.isEmpty else { throw PluginWire.Malformed(reason: "\(frame.op) without a name") }
            guard frame.name.utf8.count <= nameBytes else {
                throw PluginWire.Malformed(reason: "\(frame.op) with a name of \(frame.name.utf8.count) bytes, over the limit of \(nameBytes)")
            }
            return frame.name
        }
        let number = UInt64(truncatingIfNeeded: frame.number)
        switch frame.op {
        case .entry: self = .entry(PluginEntry(try data()))
        case .register: self = .register(service: try named())
        case .refuse: self = .refuse(reason: frame.name.isEmpty ? "a registration was refused" : frame.name)
        case .watch: self = .watch(id: number, pattern: try named())
        case .unwatch: self = .unwatch(id: number)
        case .trigger: self = .trigger(message: try named(), data: try data())
        case .navigate: self = .navigate(path: try named(), data: try data())
        case .request: self = .request(command: try named(), parameters: try data())
        case .log: self = .log(level: Self.logLevel(frame.number), text: frame.name)
        case .started:
            let answer = try data()
            guard let status = answer["status"]?.intValue, let code = Int32(exactly: status) else {
                throw PluginWire.Malformed(reason: "started without a status")
            }
            self = .started(request: number, status: code, error: answer["error"]?.stringValue ?? "")
        case .stopped: self = .stopped(request: number)
        case .done: self = .done
        case .grants, .start, .stop, .event, .settings:
            throw PluginWire.Malformed(reason: "a message only the shell sends (\(frame.op))")
        }
    }

    /// swift-log's level for `TRELLIS_LOG_*` value `level`; below the range, trace, above it,
    /// critical (the header promises no more).
    static func logLevel(_ level: Int64) -> Logger.Level {
        switch level {
        case ...Int64(TRELLIS_LOG_TRACE): .trace
        case Int64(TRELLIS_LOG_DEBUG): .debug
        case Int64(TRELLIS_LOG_INFO): .info
        case Int64(TRELLIS_LOG_NOTICE): .notice
        case Int64(TRELLIS_LOG_WARNING): .warning
        case Int64(TRELLIS_LOG_ERROR): .error
        default: .critical
        }
    }
}

/// What a plugin process reports once its plugin's entry returned: the plugin's info, or why
/// its library could not be opened; and whatever else the process says of itself (how it is
/// confined, say), kept as it came.
struct PluginEntry: Sendable, Equatable {
    /// What the entry returned (`trellis_plugin_info`); nil when it returned NULL.
    var info: Info?
    /// Why the library could not be opened or run; nil when the entry returned.
    var failure: PluginFailure?
    /// The whole report, as the process sent it.
    var report: JSONValue

    /// `trellis_plugin_info`, as the process read it.
    struct Info: Sendable, Equatable {
        var abiVersion: Int
        var size: Int
        var refusal: String?
    }

    init(_ report: JSONValue) {
        self.report = report
        failure = report["failure"].map(PluginFailure.init(wire:))
        info = report["info"].flatMap { info in
            info.objectValue == nil ? nil : Info(abiVersion: info["abiVersion"]?.intValue ?? -1, size: info["size"]?.intValue ?? 0,
                                                  refusal: info["refusal"]?.stringValue)
        }
    }
}

/// What the shell sends a plugin process, one case per kind of message.
enum ShellMessage: Sendable, Equatable {
    /// First, before the plugin's library is opened: its permissions, the routes known now,
    /// its limits and setting values (see `PluginGate.grantsMessage`).
    case grants(JSONValue)
    /// Start service `service` with `options`; answered `started` with the same `request`.
    case start(request: UInt64, service: String, options: JSONValue)
    /// Stop service `service`; answered `stopped` with the same `request`.
    case stop(request: UInt64, service: String, options: JSONValue)
    /// Event `message` for the plugin's watch `watch`, its data as JSON text encoded once for
    /// every plugin it goes to; answered `done`.
    case event(watch: UInt64, message: String, json: [UInt8])
    /// The plugin's setting values from now on, sent before the `<id>:settings` event.
    case settings(JSONValue)

    /// The message in its frame.
    var frame: PluginMessage {
        switch self {
        case .grants(let grants): PluginMessage(.grants, value: grants)
        case .start(let request, let service, let options): PluginMessage(.start, number: Int64(request), name: service, value: options)
        case .stop(let request, let service, let options): PluginMessage(.stop, number: Int64(request), name: service, value: options)
        case .event(let watch, let message, let json): PluginMessage(.event, number: Int64(truncatingIfNeeded: watch), name: message, json: json)
        case .settings(let values): PluginMessage(.settings, value: values)
        }
    }
}
