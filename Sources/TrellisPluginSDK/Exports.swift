// The C types of the entry point (`trellis_host_api`, `trellis_plugin_info`) come with the SDK,
// so a plugin imports TrellisPluginSDK only.
@_exported import TrellisPluginABI
import TrellisShared

/// A JSON value: event data, service options, route data and request parameters.
///
/// The host's own type (from TrellisShared, the small module host and plugins share), used
/// here for its value semantics only: a plugin links a private copy of it, and nothing but
/// JSON text crosses the C ABI, so the two copies never meet.
public typealias JSONValue = TrellisShared.JSONValue
