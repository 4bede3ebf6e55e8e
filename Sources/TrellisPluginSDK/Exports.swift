// The C types of the entry point (`trellis_host_api`, `trellis_plugin_info`) come with the SDK,
// so a plugin imports TrellisPluginSDK only.
@_exported import TrellisPluginABI
import TrellisShared

/// A JSON value: event data, service options, route data and request parameters.
///
/// The host's own type (from TrellisShared, the small module host and plugins share), used
/// here for its value semantics only: a plugin links a private copy of it, and nothing but
/// JSON text crosses the C ABI, so the two copies never meet. Its accessors, subscripts and
/// literals are documented with the type: ``/TrellisShared/JSONValue``.
///
/// ```swift
/// let reading: JSONValue = ["city": "Paris", "celsius": 21.5, "gusts": [40, 52]]
/// bus.trigger("weather:reading", reading)
/// ```
public typealias JSONValue = TrellisShared.JSONValue

/// A value guarded by a lock that ThreadSanitizer sees: the lock Trellis uses everywhere,
/// for a plugin's own state. Never call out of `withLock`'s body (a trigger, a log line):
/// copy what you need and call after it returns.
///
/// ```swift
/// let count = LockedState(0)      // in a plugin, a stored property or a static one
/// let now = count.withLock { count in
///     count += 1
///     return count
/// }
/// bus.trigger("counter:changed", ["count": .number(Double(now))])
/// ```
public typealias LockedState<State: Sendable> = TrellisShared.LockedState<State>
