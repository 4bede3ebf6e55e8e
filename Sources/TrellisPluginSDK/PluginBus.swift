import TrellisShared
import TrellisPluginABI

/// An event as a plugin sees it: the message and its data.
///
/// ```swift
/// bus.watch("weather:reading", owner: self) { [host] event in
///     host.log(.info, "\(event.message): \(event.data["city"]?.stringValue ?? "?")")   // weather:reading: Paris
/// }
/// ```
public struct Event: Sendable, Hashable {
    /// The message, such as `"network:on"`: the one a wildcard watch matched.
    ///
    /// ```swift
    /// bus.watch("network:*", owner: self) { service, event in
    ///     service.change(by: event.message == "network:on" ? +1 : -1)
    /// }
    /// ```
    public let message: String
    /// The data the event was triggered with (`.null` for none).
    ///
    /// ```swift
    /// bus.watch("weather:reading", owner: self) { [host] event in
    ///     guard !event.data.isNull else { return host.log(.warning, "a reading without data") }
    ///     host.log(.info, "\(event.data["celsius"]?.doubleValue ?? 0) °C in \(event.data["city"]?.stringValue ?? "?")")
    /// }
    /// ```
    public let data: JSONValue

    /// An event, as the bus hands it to a handler; a test builds one to call a handler directly.
    ///
    /// ```swift
    /// let handler: @Sendable (Event) -> Void = { [host] event in host.log(.info, event.message) }
    /// handler(Event(message: "weather:reading", data: ["city": "Paris"]))
    /// ```
    public init(message: String, data: JSONValue = .null) {
        self.message = message
        self.data = data
    }
}

/// Identifies one watch made through a `PluginBus`, to remove that watch alone.
///
/// ```swift
/// let once = bus.watch("sync:finished", owner: self) { service, _ in service.refresh() }
/// bus.unwatch(once)   // the other watches of `self` go on
/// ```
public struct WatchID: Hashable, Sendable {
    let raw: trellis_watch_id
}

/// The host's event bus, seen from a plugin: the same `watch`, `trigger` and `unwatch` calls
/// as TrellisCore's `EventBus`, carried over the C ABI. Every plugin and the host share the one
/// bus: a plugin's watch sees the host's triggers and the host sees the plugin's.
///
/// ```swift
/// bus.watch("network:on", owner: self) { service, _ in service.change(by: +1) }
/// bus.trigger("activity:changed", ["active": true, "count": 1])
/// bus.unwatch(owner: self)
/// ```
///
/// Handlers run one at a time on the plugin process's main thread, in the order the events were
/// triggered, and each must return within 3 s (the host's deadline; see "Writing a plugin").
public final class PluginBus: Sendable {
    private let host: HostTable
    private let owners = LockedState<[ObjectIdentifier: Set<trellis_watch_id>]>([:])

    init(host: HostTable) {
        self.host = host
    }

    /// Calls `handler` for every event whose message matches `pattern` (an exact message, or
    /// a wildcard such as `"network:*"` or `"*"`) until `owner` or the returned id is unwatched.
    /// A watch the host refuses (an empty pattern) is logged and never fires.
    ///
    /// ```swift
    /// let city = "Paris"
    /// bus.watch("weather:reading", owner: self) { [host] event in
    ///     guard event.data["city"]?.stringValue == city else { return }
    ///     host.log(.info, "\(city): \(event.data["celsius"]?.doubleValue ?? 0) °C")
    /// }
    /// ```
    ///
    /// A handler that holds `owner` strongly keeps it alive until the watch is removed: prefer
    /// the form whose handler receives the owner, ``watch(_:owner:_:)-(_,Owner,_)``.
    @discardableResult
    public func watch(_ pattern: String, owner: AnyObject,
                      _ handler: @escaping @Sendable (Event) -> Void) -> WatchID {
        let box = Unmanaged.passRetained(HandlerBox(handler: handler, host: host)).toOpaque()
        let id = host.watch(pattern, handler: { userData, message, dataJSON in
            guard let userData else { return }
            Unmanaged<HandlerBox>.fromOpaque(userData).takeUnretainedValue().deliver(message, dataJSON)
        }, userData: box, release: { userData in
            guard let userData else { return }
            Unmanaged<HandlerBox>.fromOpaque(userData).release()
        })
        if id == 0 {
            host.log(TRELLIS_LOG_ERROR, "the host refused to watch \"\(pattern)\"")
        } else {
            owners.withLock { _ = $0[ObjectIdentifier(owner), default: []].insert(id) }
        }
        return WatchID(raw: id)
    }

    /// Watches `pattern` with a handler that receives the owner, so it needs to capture
    /// nothing; the owner is held weakly (the host bus's form):
    ///
    /// ```swift
    /// bus.watch("network:on", owner: self) { service, _ in service.change(by: +1) }
    /// ```
    @discardableResult
    public func watch<Owner: AnyObject & Sendable>(_ pattern: String, owner: Owner,
                                                   _ handler: @escaping @Sendable (Owner, Event) -> Void) -> WatchID {
        watch(pattern, owner: owner as AnyObject) { [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
    }

    /// Triggers `message` with `data` on the host's bus. It returns once the plugin's process has
    /// checked the call against the plugin's permissions and sent it; the watchers — the host's,
    /// other plugins' and this plugin's own — run later, in the order of triggering.
    ///
    /// ```swift
    /// bus.trigger("shelf:status", ["item": "count", "text": "3 items"])
    /// ```
    public func trigger(_ message: String, _ data: JSONValue = .null) {
        let status = host.trigger(message, data)
        if status != TRELLIS_OK {
            host.log(TRELLIS_LOG_ERROR, "the host refused to trigger \"\(message)\" (status \(status))")
        }
    }

    /// Removes every watch `owner` made.
    ///
    /// ```swift
    /// bus.watch("network:on", owner: self) { service, _ in service.change(by: +1) }
    /// bus.watch("network:off", owner: self) { service, _ in service.change(by: -1) }
    /// bus.unwatch(owner: self)   // both end
    /// ```
    public func unwatch(owner: AnyObject) {
        let ids = owners.withLock { $0.removeValue(forKey: ObjectIdentifier(owner)) ?? [] }
        for id in ids { _ = host.unwatch(id) }
    }

    /// Removes one watch, the one `id` names.
    ///
    /// ```swift
    /// let first = bus.watch("sync:finished", owner: self) { service, _ in service.refresh() }
    /// bus.unwatch(first)
    /// ```
    public func unwatch(_ id: WatchID) {
        guard id.raw != 0 else { return }
        owners.withLock { owners in
            owners = owners.compactMapValues { ids in
                let rest = ids.subtracting([id.raw])
                return rest.isEmpty ? nil : rest
            }
        }
        _ = host.unwatch(id.raw)
    }
}

/// A watch's handler, retained by the host (as `user_data`) until it releases the watch.
private final class HandlerBox: Sendable {
    let handler: @Sendable (Event) -> Void
    let host: HostTable

    init(handler: @escaping @Sendable (Event) -> Void, host: HostTable) {
        self.handler = handler
        self.host = host
    }

    func deliver(_ message: UnsafePointer<CChar>?, _ dataJSON: UnsafePointer<CChar>?) {
        let message = message.map { String(cString: $0) } ?? ""
        var data = JSONValue.null
        if let dataJSON {
            do { data = try JSONValue(jsonString: String(cString: dataJSON), source: "data of \(message)") } catch {
                host.log(TRELLIS_LOG_ERROR, "\(error)")
            }
        }
        handler(Event(message: message, data: data))
    }
}
