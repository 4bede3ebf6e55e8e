import TrellisCore

/// Where a plugin's code runs.
///
/// - ``process``: in a `trellis-plugin-host` process of its own (the default). A crash, an
///   abort or an endless loop in the plugin ends or stops that process only; the shell reports
///   it and goes on.
/// - ``inProcess``: in the shell's own process, as a library it opens. Faster to call, and
///   events reach the plugin's watchers before `trigger` returns — but a crash of the plugin
///   is a crash of the shell. Honoured only for plugins the app ships (found in the source
///   tree's `plugins/` or the install prefix) whose manifest asks for it, and for hosts that
///   choose it for all (``PluginHost/init(bus:services:searchPaths:settings:security:isolation:navigate:handleRequest:logger:)``).
public enum PluginIsolation: String, Sendable, Hashable {
    case process
    case inProcess

    /// Where a plugin found at `origin` whose manifest asks for `requested` runs: plugins from
    /// the user's folder or `--plugin-dir` always run in a process.
    public static func effective(_ requested: PluginIsolation, origin: PluginSearchPath.Origin) -> PluginIsolation {
        switch origin {
        case .build, .system: return requested
        case .user, .commandLine: return .process
        }
    }
}
