import CGtk
import Foundation
import XCTest

/// A D-Bus service the test process owns on the session bus — a notification server, a
/// settings portal — so GUI tests see what the app asks of the desktop and can answer or
/// signal back. It runs its own GLib main context on its own thread and its own connection,
/// so closing it releases the name at once.
///
/// Replies and signal bodies are GVariant text (`"(uint32 7,)"`, `"(<<uint32 1>>,)"`).
///
/// ```swift
/// let server = try FakeBusService(name: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
///                                 interfaceXML: xml) { method, _ in method == "Notify" ? "(uint32 1,)" : nil }
/// ```
// Mutable state (`recorded`) is guarded by `lock`. The GLib objects are set up before the
// loop's thread starts and then used from its main context, except by `emit` and `deinit`,
// whose GDBus calls are documented thread-safe.
final class FakeBusService: @unchecked Sendable {
    /// Answers a method call: GVariant text of the reply tuple, or `nil` for a D-Bus error.
    typealias Handler = @Sendable (_ method: String, _ parameters: String) -> String?

    struct Call: Sendable {
        let method: String
        /// The parameters as GVariant text (`g_variant_print`).
        let parameters: String
    }

    let name: String
    let path: String
    let interface: String
    private let handler: Handler
    private let lock = NSLock()
    private var recorded: [Call] = []
    private let loop: ServiceLoop
    private var context: OpaquePointer { loop.context }
    private var connection: OpaquePointer?

    /// Skips (or fails under the README's test command) without a session bus.
    static func requireSessionBus() throws {
        if (ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty {
            if ProcessInfo.processInfo.environment["TRELLIS_REQUIRE_GUI"] == "1" {
                XCTFail("no DBUS_SESSION_BUS_ADDRESS, but TRELLIS_REQUIRE_GUI=1: run the tests through the README's test command")
            }
            throw XCTSkip("needs a D-Bus session bus (the README's test command starts one)")
        }
    }

    /// Connects, exports `interfaceXML`'s first interface at `path` and owns `name`.
    init(name: String, path: String, interfaceXML: String, handler: @escaping Handler) throws {
        try Self.requireSessionBus()
        self.name = name
        self.path = path
        self.handler = handler
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(interfaceXML, &error), let info = node.pointee.interfaces?[0] else {
            throw Failure.setup("bad introspection XML: \(Self.message(error))")
        }
        interface = String(cString: info.pointee.name)
        loop = ServiceLoop()
        // Method calls are dispatched to the thread-default context at registration time:
        // the service's own, which its thread then runs.
        g_main_context_push_thread_default(context)
        let setupError = start(info: info)
        g_main_context_pop_thread_default(context)
        g_dbus_node_info_unref(node)
        if let setupError { throw Failure.setup(setupError) }
        loop.start()
    }

    deinit {
        loop.stop()
        if let connection {
            g_dbus_connection_close_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
    }

    /// The calls received so far.
    var calls: [Call] { lock.withLock { recorded } }

    /// Polls until `condition` holds for the calls received, for up to `timeout` seconds.
    func waitForCalls(timeout: TimeInterval = 10, _ condition: ([Call]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(calls) {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Emits signal `signal` of the interface with `body` (GVariant text of a tuple).
    func emit(_ signal: String, _ body: String) throws {
        var error: UnsafeMutablePointer<GError>?
        guard let value = g_variant_parse(nil, body, nil, nil, &error) else { throw Failure.setup("bad signal body \(body): \(Self.message(error))") }
        guard g_dbus_connection_emit_signal(connection, nil, path, interface, signal, value, &error) != 0 else {
            throw Failure.setup("emitting \(signal): \(Self.message(error))")
        }
        g_dbus_connection_flush_sync(connection, nil, nil)
    }

    // MARK: - Setup and answers

    private func start(info: UnsafeMutablePointer<GDBusInterfaceInfo>) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            return "connecting to the session bus: \(Self.message(error))"
        }
        self.connection = connection
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, _, method, parameters, invocation, data in
            guard let method, let parameters, let invocation, let data else { return }
            let service = Unmanaged<FakeBusService>.fromOpaque(data).takeUnretainedValue()
            service.answer(String(cString: method), parameters, invocation)
        }
        let registered = g_dbus_connection_register_object(connection, path, info, &vtable,
                                                            Unmanaged.passUnretained(self).toOpaque(), nil, &error)
        guard registered != 0 else { return "exporting \(path): \(Self.message(error))" }
        let request = [g_variant_new_string(name), g_variant_new_uint32(4)]  // DBUS_NAME_FLAG_DO_NOT_QUEUE
        let arguments = request.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        guard let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", "RequestName", arguments, nil,
                                                      G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error) else {
            return "requesting \(name): \(Self.message(error))"
        }
        defer { g_variant_unref(reply) }
        let result = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(result) }
        return g_variant_get_uint32(result) == 1 ? nil : "\(name) is owned by another process already"
    }

    private func answer(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        let printed = g_variant_print(parameters, 1).map { pointer in
            defer { g_free(pointer) }
            return String(cString: pointer)
        } ?? ""
        lock.withLock { recorded.append(Call(method: method, parameters: printed)) }
        if let reply = handler(method, printed), let value = g_variant_parse(nil, reply, nil, nil, nil) {
            g_dbus_method_invocation_return_value(invocation, value)
        } else {
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.NotSupported", "not faked: \(method)")
        }
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }

    enum Failure: Error, CustomStringConvertible {
        case setup(String)
        var description: String {
            switch self { case .setup(let message): return "fake D-Bus service: \(message)" }
        }
    }
}

/// A GLib main context iterated on its own thread until ``stop()``. The thread holds this
/// object, not the service, so releasing the service stops it.
// `stopped` and `started` are guarded by `lock`; `context` is immutable and GLib contexts are thread-safe.
private final class ServiceLoop: @unchecked Sendable {
    let context: OpaquePointer = g_main_context_new()
    private let lock = NSLock()
    private var stopped = false
    private var started = false
    private let finished = DispatchSemaphore(value: 0)

    func start() {
        lock.withLock { started = true }
        Thread { [self] in
            g_main_context_push_thread_default(context)
            while !lock.withLock({ stopped }) { g_main_context_iteration(context, 1) }
            g_main_context_pop_thread_default(context)
            finished.signal()
        }.start()
    }

    /// Stops the thread and waits for it (nothing to do if it never started).
    func stop() {
        guard lock.withLock({ stopped = true; return started }) else { return }
        g_main_context_wakeup(context)
        finished.wait()
    }

    deinit { g_main_context_unref(context) }
}
