import TrellisCore
import Logging
import TrellisPluginABI

/// The host function table of `trellis_plugin.h`, one per loaded plugin, with the plugin's
/// `PluginContext` as its `context`. Each function turns C strings and JSON text into the
/// host's calls: `EventBus.watch/unwatch/trigger`, service registration, and the app's
/// navigate and front-controller closures.
///
/// The table and its context are allocated once and never freed: the plugin may keep the
/// pointer for as long as the process runs, and plugins are never unloaded.
package enum HostAPITable {
    /// A new table for `context`; the context is retained for the life of the process.
    static func make(for context: PluginContext) -> UnsafePointer<trellis_host_api> {
        let table = UnsafeMutablePointer<trellis_host_api>.allocate(capacity: 1)
        table.initialize(to: trellis_host_api(
            abi_version: UInt32(TRELLIS_PLUGIN_ABI_VERSION),
            struct_size: UInt32(MemoryLayout<trellis_host_api>.size),
            watch: { context, pattern, handler, userData, release in
                // Owns user_data from here on: released when the watch ends, or at once if refused.
                let callback = EventCallback(handler: handler, userData: userData, release: release)
                guard let context = PluginContextPointer(context)?.context, context.acceptsCalls,
                      let pattern, handler != nil, let text = String(validatingCString: pattern), !text.isEmpty,
                      context.gate.allows(.watch, text) else { return 0 }
                let id = context.bus.watch(text, owner: context) { _, event in callback.deliver(event) }
                context.remember(id)
                if !context.acceptsCalls {
                    // Disabled while the watch was being made: do not let it outlive the plugin.
                    context.bus.unwatch(id)
                    return 0
                }
                return id.rawValue
            },
            unwatch: { context, watch in
                guard let context = PluginContextPointer(context)?.context else { return TRELLIS_ERROR_INVALID_ARGUMENT }
                guard context.forget(watch) else { return TRELLIS_ERROR_NOT_FOUND }
                context.bus.unwatch(WatchID(rawValue: watch))
                return TRELLIS_OK
            },
            trigger: { context, message, dataJSON in
                guard let context = PluginContextPointer(context)?.context else { return TRELLIS_ERROR_INVALID_ARGUMENT }
                guard context.acceptsCalls else { return TRELLIS_ERROR_REFUSED }
                guard let call = HostAPITable.arguments(context, "trigger", message, dataJSON) else {
                    return TRELLIS_ERROR_INVALID_ARGUMENT
                }
                return context.trigger(call.name, call.data)
            },
            register_service: { context, definition in
                guard let context = PluginContextPointer(context)?.context else { return TRELLIS_ERROR_INVALID_ARGUMENT }
                switch ServiceCallbacks.copy(definition) {
                case .success(let callbacks):
                    return context.register(callbacks)
                case .failure(let failure):
                    context.refuse(failure)
                    return TRELLIS_ERROR_INVALID_ARGUMENT
                }
            },
            navigate: { context, route, dataJSON in
                guard let context = PluginContextPointer(context)?.context else { return TRELLIS_ERROR_INVALID_ARGUMENT }
                guard context.acceptsCalls else { return TRELLIS_ERROR_REFUSED }
                guard let call = HostAPITable.arguments(context, "navigate", route, dataJSON) else {
                    return TRELLIS_ERROR_INVALID_ARGUMENT
                }
                return context.navigate(call.name, call.data)
            },
            handle_request: { context, command, parametersJSON in
                guard let context = PluginContextPointer(context)?.context else { return TRELLIS_ERROR_INVALID_ARGUMENT }
                guard context.acceptsCalls else { return TRELLIS_ERROR_REFUSED }
                guard let call = HostAPITable.arguments(context, "handle_request", command, parametersJSON) else {
                    return TRELLIS_ERROR_INVALID_ARGUMENT
                }
                return context.request(call.name, call.data)
            },
            log: { context, level, message in
                guard let context = PluginContextPointer(context)?.context, let message else { return }
                context.logger.log(level: HostAPITable.logLevel(level), "\(String(cString: message))")
            },
            context: PluginContextPointer.register(context),
            get_settings: { context, buffer, size in
                guard let context = PluginContextPointer(context)?.context else { return Int64(TRELLIS_ERROR_INVALID_ARGUMENT) }
                return HostAPITable.copy(context.settings.withLock { $0 }.jsonString, to: buffer, size: size)
            }
        ))
        return UnsafePointer(table)
    }

    /// The checked arguments of a plugin's call (see ``PluginCallArguments``), or `nil` after
    /// logging why they were refused.
    private static func arguments(_ context: PluginContext, _ function: String, _ name: UnsafePointer<CChar>?,
                                  _ json: UnsafePointer<CChar>?) -> PluginCallArguments? {
        do {
            return try PluginCallArguments(plugin: context.pluginID, function: function, name: name, json: json)
        } catch {
            context.logger.error("\(error)")
            return nil
        }
    }

    /// Copies `text` and a NUL into `buffer` (`size` bytes) when it fits (`get_settings`);
    /// returns the text's length in bytes, or `TRELLIS_ERROR_INVALID_ARGUMENT`.
    package static func copy(_ text: String, to buffer: UnsafeMutablePointer<CChar>?, size: Int) -> Int64 {
        let bytes = Array(text.utf8)
        guard let buffer else { return size == 0 ? Int64(bytes.count) : Int64(TRELLIS_ERROR_INVALID_ARGUMENT) }
        guard bytes.count < size else { return Int64(bytes.count) }
        // The plugin passed `size` writable bytes at `buffer` (the header's contract); we write
        // bytes.count + 1 <= size of them.
        bytes.withUnsafeBufferPointer { source in
            guard let start = source.baseAddress else { return }  // nothing to copy
            UnsafeMutableRawPointer(buffer).copyMemory(from: start, byteCount: bytes.count)
        }
        buffer[bytes.count] = 0
        return Int64(bytes.count)
    }

    static func logLevel(_ level: Int32) -> Logger.Level {
        switch level {
        case ...TRELLIS_LOG_TRACE: return .trace
        case TRELLIS_LOG_DEBUG: return .debug
        case TRELLIS_LOG_INFO: return .info
        case TRELLIS_LOG_NOTICE: return .notice
        case TRELLIS_LOG_WARNING: return .warning
        case TRELLIS_LOG_ERROR: return .error
        default: return .critical
        }
    }
}

/// The `context` argument of a host function, turned back into the plugin's context.
///
/// The pointer a plugin gets is not an address but a number, 1 for the first context
/// registered: turning it back is a look-up in a table that keeps every context for the life
/// of the process (a plugin may keep its table for as long), so a stale or forged pointer from
/// a plugin finds nothing instead of reading memory.
private struct PluginContextPointer {
    private static let contexts = LockedState<[PluginContext]>([])

    let context: PluginContext

    /// Keeps `context` and returns the pointer that stands for it.
    static func register(_ context: PluginContext) -> UnsafeMutableRawPointer? {
        let number = contexts.withLock { contexts in
            contexts.append(context)
            return contexts.count
        }
        return UnsafeMutableRawPointer(bitPattern: number)
    }

    init?(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return nil }
        let index = Int(bitPattern: pointer) - 1
        guard let context = Self.contexts.withLock({ $0.indices.contains(index) ? $0[index] : nil }) else { return nil }
        self.context = context
    }
}
