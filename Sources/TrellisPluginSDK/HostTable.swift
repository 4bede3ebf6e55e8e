import TrellisPluginABI

/// The host's function table and context, as handed to the entry.
///
/// Every SDK type goes through this one value; it wraps the C calls so that the rest of the
/// SDK deals in Swift strings and `JSONValue`s.
// @unchecked Sendable: the table is host-owned, never modified and valid for the life of the
// process, and trellis_plugin.h requires every host function to be callable from any thread.
struct HostTable: @unchecked Sendable {
    let api: UnsafePointer<trellis_host_api>

    var abiVersion: Int { Int(api.pointee.abi_version) }

    /// Watches through the host, which owns `userData` from then on (it releases it when the
    /// watch ends, or at once when refusing); released here if the host has no watch function.
    func watch(_ pattern: String, handler: trellis_event_handler, userData: UnsafeMutableRawPointer,
               release: trellis_release) -> trellis_watch_id {
        guard let watch = api.pointee.watch else {
            release(userData)
            return 0
        }
        return pattern.withCString { watch(api.pointee.context, $0, handler, userData, release) }
    }

    func unwatch(_ id: trellis_watch_id) -> Int32 {
        guard let unwatch = api.pointee.unwatch else { return TRELLIS_ERROR_REFUSED }
        return unwatch(api.pointee.context, id)
    }

    func trigger(_ message: String, _ data: JSONValue) -> Int32 {
        guard let trigger = api.pointee.trigger else { return TRELLIS_ERROR_REFUSED }
        return message.withCString { message in
            data.jsonString.withCString { trigger(api.pointee.context, message, $0) }
        }
    }

    func register(_ definition: inout trellis_service_definition) -> Int32 {
        guard let register = api.pointee.register_service else { return TRELLIS_ERROR_REFUSED }
        return register(api.pointee.context, &definition)
    }

    func navigate(_ route: String, _ data: JSONValue) -> Int32 {
        guard let navigate = api.pointee.navigate else { return TRELLIS_ERROR_REFUSED }
        return route.withCString { route in
            data.jsonString.withCString { navigate(api.pointee.context, route, $0) }
        }
    }

    func handleRequest(_ command: String, _ parameters: JSONValue) -> Int32 {
        guard let handleRequest = api.pointee.handle_request else { return TRELLIS_ERROR_REFUSED }
        return command.withCString { command in
            parameters.jsonString.withCString { handleRequest(api.pointee.context, command, $0) }
        }
    }

    /// The plugin's settings as the host answers `get_settings` (ABI 2; the SDK refuses older hosts).
    func settings() -> JSONValue {
        guard let get = api.pointee.get_settings else { return .object([:]) }
        var size = Int(get(api.pointee.context, nil, 0))
        while size >= 0 {
            var buffer = [CChar](repeating: 0, count: size + 1)
            let length = Int(get(api.pointee.context, &buffer, buffer.count))
            if length < 0 { break }
            if length < buffer.count {
                let text = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return (try? JSONValue(jsonString: text)) ?? .object([:])
            }
            size = length  // changed meanwhile: grown
        }
        return .object([:])
    }

    func log(_ level: Int32, _ message: String) {
        guard let log = api.pointee.log else { return }
        message.withCString { log(api.pointee.context, level, $0) }
    }
}
