import Foundation
import TrellisCore
import TrellisPlugins
import TrellisPluginABI

/// The plugin's side of a plugin process: the host functions the plugin calls, forwarded to
/// the shell over the wire, and the shell's calls (service start and stop, events for the
/// plugin's watches) made on the plugin, one at a time, on the main thread.
///
/// Messages (``PluginMessage``s; see `PluginProcess` for the shell's side):
/// - to the shell: `register`, `refuse`, `entry` (while the entry runs and when it returns),
///   `watch`, `unwatch`, `trigger`, `navigate`, `request`, `log`, and the answers `started`,
///   `stopped` and `done` (one per event handled);
/// - from the shell: `grants` (first, before the library is opened: see `PluginGate`; it
///   carries the plugin's setting values too), then `start`, `stop`, `event`, `settings`.
///
/// Ids of watches are allocated here, so `watch` answers the plugin at once; arguments are
/// checked here with the in-process host's own checks (`PluginCallArguments`), and checked
/// again by the shell, which does not trust this process.
final class PluginProcessHost: Sendable {
    private struct State {
        var nextWatch: UInt64 = 0
        var watches: [UInt64: EventCallback] = [:]
        var services: [String: ServiceCallbacks] = [:]
        var inEntry = true
    }

    /// The shell's first message was not the plugin's grants.
    struct NoGrants: Error, CustomStringConvertible {
        var description: String { "the first message was not \"grants\"" }
    }

    let wire: PluginWire
    let pluginID: String
    /// The plugin's permissions, as the shell sent them: a denied call is answered
    /// `TRELLIS_ERROR_DENIED` here and never sent.
    let gate: PluginGate
    private let state = LockedState(State())
    private let settingsState: LockedState<JSONValue>

    init(wire: PluginWire, pluginID: String, gate: PluginGate, settings: JSONValue) {
        self.wire = wire
        self.pluginID = pluginID
        self.gate = gate
        self.settingsState = LockedState(settings)
    }

    /// The plugin's setting values, as the shell sent them last (`get_settings`).
    var settings: JSONValue { settingsState.withLock { $0 } }

    // MARK: Calls from the plugin (any thread)

    /// The watch's id, or 0 when no permission covers `pattern` (the callback is then released).
    func watch(_ pattern: String, _ callback: EventCallback) -> UInt64 {
        guard gate.allows(.watch, pattern) else { return 0 }
        let id = state.withLock { state in
            state.nextWatch += 1
            state.watches[state.nextWatch] = callback
            return state.nextWatch
        }
        wire.send(PluginMessage(.watch, number: Int64(id), name: pattern))
        return id
    }

    func unwatch(_ id: UInt64) -> Int32 {
        // The callback is released here, after the lock, as the in-process host does.
        guard let callback = state.withLock({ $0.watches.removeValue(forKey: id) }) else { return TRELLIS_ERROR_NOT_FOUND }
        wire.send(PluginMessage(.unwatch, number: Int64(id)))
        _ = callback
        return TRELLIS_OK
    }

    func forward(_ op: PluginMessage.Op, _ function: String, _ name: UnsafePointer<CChar>?, _ json: UnsafePointer<CChar>?) -> Int32 {
        do {
            let call = try PluginCallArguments(plugin: pluginID, function: function, name: name, json: json)
            // The plugin's JSON text goes to the shell as it is: checked here, decoded there.
            // (`json` is the plugin's NUL-terminated string, valid for this call, which
            // PluginCallArguments has measured and checked.)
            let text = json.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
            var message = PluginMessage(op, name: call.name, json: text)
            if op == .trigger && call.name == PluginGate.navigationMessage {
                // `route:open` is a navigate call, as the in-process host treats it.
                guard let path = call.data["path"]?.stringValue else { return TRELLIS_ERROR_INVALID_ARGUMENT }
                message = PluginMessage(.navigate, name: path, value: call.data["data"] ?? .null)
            }
            let permitted = switch message.op {
            case .trigger: gate.allows(.trigger, message.name)
            case .request: gate.allows(.request, message.name)
            default: !gate.navigation(to: message.name).isDenied
            }
            guard permitted else { return TRELLIS_ERROR_DENIED }
            wire.send(message)
            return TRELLIS_OK
        } catch {
            log(TRELLIS_LOG_ERROR, error.description)
            return TRELLIS_ERROR_INVALID_ARGUMENT
        }
    }

    func register(_ definition: UnsafePointer<trellis_service_definition>?) -> Int32 {
        switch ServiceCallbacks.copy(definition) {
        case .failure(let failure):
            wire.send(PluginMessage(.refuse, name: failure.description))
            return TRELLIS_ERROR_INVALID_ARGUMENT
        case .success(let callbacks):
            let accepted = state.withLock { state in
                guard state.inEntry, state.services[callbacks.name] == nil else { return false }
                state.services[callbacks.name] = callbacks
                return true
            }
            guard accepted else {
                callbacks.release()
                let reason = "service \"\(callbacks.name)\": registered twice, or after the plugin's entry returned"
                wire.send(PluginMessage(.refuse, name: reason))
                return TRELLIS_ERROR_REFUSED
            }
            wire.send(PluginMessage(.register, name: callbacks.name))
            return TRELLIS_OK
        }
    }

    func log(_ level: Int32, _ message: String) {
        wire.send(PluginMessage(.log, number: Int64(level), name: message))
    }

    // MARK: The process's life (main thread)

    /// Opens the library, runs its entry and then serves the shell's calls, read by `reader`,
    /// until the shell closes the socket. Returns the process's exit status (1 when the shell
    /// sent a frame it cannot read).
    func run(library url: URL, reader: inout PluginWire.Reader) -> Int32 {
        let library: PluginLibrary
        switch PluginLibrary.open(url) {
        case .success(let opened): library = opened
        case .failure(let failure):
            wire.send(PluginMessage(.entry, value: ["failure": failure.wireValue]))
            return 1
        }
        let info = library.entry(PluginProcessHostTable.make())
        state.withLock { $0.inEntry = false }
        var entry: JSONValue = [:]
        if let info {
            entry["info"] = [
                "abiVersion": .number(Double(info.pointee.abi_version)),
                "size": .number(Double(info.pointee.struct_size)),
                "refusal": info.pointee.refusal.map { .string(String(cString: $0)) } ?? .null,
            ]
        }
        wire.send(PluginMessage(.entry, value: entry))
        do {
            while let message = try reader.next() {
                serve(message)
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("trellis-plugin-host: the shell sent a malformed message: \(error)\n".utf8))
            return 1
        }
    }

    private func serve(_ message: PluginMessage) {
        switch message.op {
        case .event:
            // Answered `done` whatever happens: the shell's watchdog counts events, not watches.
            defer { wire.send(PluginMessage(.done)) }
            guard let callback = state.withLock({ $0.watches[UInt64(truncatingIfNeeded: message.number)] }) else { return }
            message.withJSONCString { callback.deliver(message.name, json: $0) }
        case .start:
            guard let service = service(message) else {
                wire.send(PluginMessage(.started, number: message.number, value: [
                    "status": .number(Double(TRELLIS_ERROR_NOT_FOUND)), "error": "no such service in this process",
                ]))
                return
            }
            let size = Int(TRELLIS_PLUGIN_ERROR_SIZE)
            var error = [CChar](repeating: 0, count: size)
            let status = message.withJSONCString { options in
                error.withUnsafeMutableBufferPointer { service.start(service.data, options, $0.baseAddress, size) }
            }
            error[size - 1] = 0
            let text = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            wire.send(PluginMessage(.started, number: message.number, value: ["status": .number(Double(status)), "error": .string(text)]))
        case .settings:
            // Sent before the shell triggers <id>:settings, so the plugin reads the new values.
            settingsState.withLock { $0 = message.value ?? .object([:]) }
        case .stop:
            if let service = service(message) {
                message.withJSONCString { service.stop(service.data, $0) }
            }
            wire.send(PluginMessage(.stopped, number: message.number))
        default:
            break
        }
    }

    private func service(_ message: PluginMessage) -> ServiceCallbacks? {
        state.withLock { $0.services[message.name] }
    }
}
