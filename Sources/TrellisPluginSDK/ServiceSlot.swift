import TrellisShared
import TrellisPluginABI

/// One registered service type: the `service_data` behind its C start and stop callbacks.
/// Holds the running instance between start and stop; a service that fails to start, or stops,
/// loses its watches.
final class ServiceSlot: Sendable {
    let type: any PluginService.Type
    let host: TrellisHost
    private let running = LockedState<(any PluginService)?>(nil)

    init(type: any PluginService.Type, host: TrellisHost) {
        self.type = type
        self.host = host
    }

    /// Starts a fresh instance; returns the error's text on failure. Starting a running service
    /// does nothing (iStructure's services are singletons).
    func start(optionsJSON: UnsafePointer<CChar>?) -> String? {
        let options: JSONValue
        do { options = try Self.decode(optionsJSON, source: "options of service \(type.name)") } catch {
            return "\(error)"
        }
        // The host's registry never starts one service twice at once, so check-then-set is safe.
        guard running.withLock({ $0 == nil }) else { return nil }
        let service = type.init(host: host)
        running.withLock { $0 = service }
        do {
            try service.start(options: options)
            return nil
        } catch {
            host.bus.unwatch(owner: service)
            running.withLock { if $0 === service { $0 = nil } }
            return "\(error)"
        }
    }

    /// Stops and drops the running instance, if any, and removes the watches it owns (as the
    /// host's registry does for its own services).
    func stop(optionsJSON: UnsafePointer<CChar>?) {
        let options = (try? Self.decode(optionsJSON, source: "options of service \(type.name)")) ?? .null
        let service = running.withLock { current in
            defer { current = nil }
            return current
        }
        guard let service else { return }
        service.stop(options: options)
        host.bus.unwatch(owner: service)
    }

    private static func decode(_ text: UnsafePointer<CChar>?, source: String) throws -> JSONValue {
        guard let text else { return .null }
        return try JSONValue(jsonString: String(cString: text), source: source)
    }

    /// The C definition handed to `register_service`; `name` must stay valid during the call.
    /// Retains the slot until the host releases it.
    func definition(name: UnsafePointer<CChar>) -> trellis_service_definition {
        trellis_service_definition(
            struct_size: UInt32(MemoryLayout<trellis_service_definition>.size),
            name: name,
            service_data: Unmanaged.passRetained(self).toOpaque(),
            start: { data, optionsJSON, error, errorSize in
                guard let data else { return TRELLIS_ERROR_INVALID_ARGUMENT }
                let slot = Unmanaged<ServiceSlot>.fromOpaque(data).takeUnretainedValue()
                guard let message = slot.start(optionsJSON: optionsJSON) else { return TRELLIS_OK }
                CString.copy(message, into: error, size: errorSize)
                return TRELLIS_ERROR_REFUSED
            },
            stop: { data, optionsJSON in
                guard let data else { return }
                Unmanaged<ServiceSlot>.fromOpaque(data).takeUnretainedValue().stop(optionsJSON: optionsJSON)
            },
            release: { data in
                guard let data else { return }
                Unmanaged<ServiceSlot>.fromOpaque(data).release()
            }
        )
    }
}

/// Writing Swift strings into C buffers owned by the other side.
enum CString {
    /// Copies `text` into `buffer` (of `size` bytes) as NUL-terminated UTF-8, cut at a
    /// character boundary if it does not fit.
    static func copy(_ text: String, into buffer: UnsafeMutablePointer<CChar>?, size: Int) {
        guard let buffer, size > 0 else { return }
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if bytes.count + encoded.count > size - 1 { break }
            bytes.append(contentsOf: encoded)
        }
        for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
        buffer[bytes.count] = 0
    }
}
