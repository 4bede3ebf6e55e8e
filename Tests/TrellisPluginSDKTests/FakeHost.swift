import Foundation
import TrellisPluginSDK

/// A host function table backed by Swift closures, recording what a plugin asks of it.
// @unchecked Sendable: every stored property is read and written under `lock`.
final class FakeHost: @unchecked Sendable {
    struct Service {
        let name: String
        let data: UnsafeMutableRawPointer?
        let start: trellis_service_start
        let stop: trellis_service_stop
        let release: trellis_release?
    }

    private let lock = NSLock()
    private var _services: [Service] = []
    private var _triggers: [String] = []
    private var _watches: [trellis_watch_id: String] = [:]
    private var _logs: [String] = []
    private var nextWatch: trellis_watch_id = 1

    var services: [Service] { lock.withLock { _services } }
    var triggers: [String] { lock.withLock { _triggers } }
    var watchedPatterns: [String] { lock.withLock { _watches.values.sorted() } }
    var logs: [String] { lock.withLock { _logs } }

    /// The table, with this host as its context; `abiVersion` lets a test pose as an old host.
    func table(abiVersion: UInt32 = UInt32(TRELLIS_PLUGIN_ABI_VERSION)) -> trellis_host_api {
        trellis_host_api(
            abi_version: abiVersion,
            struct_size: UInt32(MemoryLayout<trellis_host_api>.size),
            watch: { context, pattern, _, userData, release in
                let host = FakeHost.from(context)
                // The fake never delivers events, so the handler's data can go back at once.
                release?(userData)
                return host.lock.withLock {
                    defer { host.nextWatch += 1 }
                    host._watches[host.nextWatch] = String(cString: pattern!)
                    return host.nextWatch
                }
            },
            unwatch: { context, id in
                let host = FakeHost.from(context)
                return host.lock.withLock { host._watches.removeValue(forKey: id) == nil ? TRELLIS_ERROR_NOT_FOUND : TRELLIS_OK }
            },
            trigger: { context, message, data in
                let host = FakeHost.from(context)
                host.lock.withLock { host._triggers.append("\(String(cString: message!)) \(String(cString: data!))") }
                return TRELLIS_OK
            },
            register_service: { context, definition in
                let host = FakeHost.from(context)
                let value = definition!.pointee
                host.lock.withLock {
                    host._services.append(Service(name: String(cString: value.name!), data: value.service_data,
                                                  start: value.start!, stop: value.stop!, release: value.release))
                }
                return TRELLIS_OK
            },
            navigate: nil,
            handle_request: nil,
            log: { context, level, message in
                let host = FakeHost.from(context)
                host.lock.withLock { host._logs.append("\(level) \(String(cString: message!))") }
            },
            context: Unmanaged.passUnretained(self).toOpaque(),
            get_settings: nil
        )
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> FakeHost {
        Unmanaged<FakeHost>.fromOpaque(context!).takeUnretainedValue()
    }
}
