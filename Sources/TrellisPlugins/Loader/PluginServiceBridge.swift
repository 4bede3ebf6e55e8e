import TrellisCore
import TrellisPluginABI

/// A service definition a plugin registered: its name (copied) and its C callbacks.
// @unchecked Sendable: `data` and the callbacks are plugin-owned and never change after
// registration, and trellis_plugin.h lets the host call them from any thread.
package struct ServiceCallbacks: @unchecked Sendable {
    package let name: String
    package let data: UnsafeMutableRawPointer?
    package let start: trellis_service_start
    package let stop: trellis_service_stop
    package let releaseData: trellis_release?

    /// Copies `definition`, or returns why it is unusable (after giving its `service_data`
    /// back through its release callback, when the definition is complete enough to have one).
    package static func copy(_ definition: UnsafePointer<trellis_service_definition>?) -> Result<ServiceCallbacks, PluginFailure> {
        guard let definition else { return .failure(.invalidService(service: "?", reason: "no definition given")) }
        // Read the size alone first: a shorter struct must not be read whole.
        let size = UnsafeRawPointer(definition).load(as: UInt32.self)
        let expected = MemoryLayout<trellis_service_definition>.size
        guard size >= UInt32(expected) else {
            return .failure(.invalidService(service: "?", reason: "definition of \(size) bytes, expected \(expected)"))
        }
        let value = definition.pointee
        let name = value.name.map { String(cString: $0) } ?? ""
        guard !name.isEmpty, let start = value.start, let stop = value.stop else {
            value.release?(value.service_data)
            let reason = name.isEmpty ? "the definition has no name" : "start and stop callbacks are required"
            return .failure(.invalidService(service: name.isEmpty ? "?" : name, reason: reason))
        }
        return .success(ServiceCallbacks(name: name, data: value.service_data, start: start, stop: stop,
                                         releaseData: value.release))
    }

    /// Gives `data` back to the plugin when the host discards the definition.
    package func release() {
        releaseData?(data)
    }
}

/// Why a plugin's service cannot start; names the plugin and the service.
public enum PluginServiceError: Error, CustomStringConvertible, Sendable {
    /// The plugin's start callback returned an error, with the plugin's message.
    case startFailed(plugin: String, service: String, reason: String)
    /// The plugin failed to load or was disabled.
    case pluginInactive(plugin: String, service: String)

    public var description: String {
        switch self {
        case .startFailed(_, _, let reason):
            return reason
        case .pluginInactive(let plugin, let service):
            return "service \"\(service)\" belongs to plugin \"\(plugin)\", which is disabled or failed to load"
        }
    }
}

/// A plugin's service as the host's `ServiceRegistry` sees it: `start` and `stop` call the
/// plugin's C callbacks with the options as JSON text.
final class PluginServiceBridge: Service {
    private let callbacks: ServiceCallbacks
    private let context: PluginContext

    init(callbacks: ServiceCallbacks, context: PluginContext) {
        self.callbacks = callbacks
        self.context = context
    }

    func start(options: JSONValue, bus: EventBus) throws {
        guard context.phase == .active else {
            throw PluginServiceError.pluginInactive(plugin: context.pluginID, service: callbacks.name)
        }
        let size = Int(TRELLIS_PLUGIN_ERROR_SIZE)
        var error = [CChar](repeating: 0, count: size)
        let status = options.jsonString.withCString { options in
            error.withUnsafeMutableBufferPointer { callbacks.start(callbacks.data, options, $0.baseAddress, size) }
        }
        guard status == TRELLIS_OK else {
            error[size - 1] = 0
            let text = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw PluginServiceError.startFailed(plugin: context.pluginID, service: callbacks.name,
                                                 reason: text.isEmpty ? "error \(status)" : text)
        }
    }

    func stop(options: JSONValue) {
        options.jsonString.withCString { callbacks.stop(callbacks.data, $0) }
    }
}
