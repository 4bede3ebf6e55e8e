import TrellisCore
import TrellisPlugins
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

