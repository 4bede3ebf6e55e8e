import TrellisCore

/// What the plugin host tells the bus of a plugin's life, each a typed message (``BusMessage``)
/// under the `plugin:` namespace, which no plugin may take as its own.
///
/// ```swift
/// bus.watchOnMainActor(PluginCrashed.self, owner: self) { page, crash in page.show(crash.reason) }
/// ```
public enum PluginEvents {
    /// Every message of a plugin's life: `plugin:*`.
    public static let all = "plugin:*"
    /// The names of the messages after which a plugin's state may have changed.
    public static let stateChanges = [PluginCrashed.name, PluginDisabled.name, PluginEnabled.name, PluginRestarted.name,
                                      PluginActivated.name, PluginReloaded.name, PluginApproved.name]
}

/// A plugin's process ended unasked (or faulted while it stopped): `plugin:crashed`.
public struct PluginCrashed: BusMessage {
    public static let name = "plugin:crashed"
    public var plugin: String
    /// How it ended, with its last output.
    public var reason: String

    public init(plugin: String, reason: String) {
        self.plugin = plugin
        self.reason = reason
    }
}

/// A crashed plugin runs again, in a new process: `plugin:restarted`.
public struct PluginRestarted: BusMessage {
    public static let name = "plugin:restarted"
    public var plugin: String

    public init(plugin: String) {
        self.plugin = plugin
    }
}

/// A plugin was enabled: `plugin:enabled`, with its state afterwards.
public struct PluginEnabled: BusMessage {
    public static let name = "plugin:enabled"
    public var plugin: String
    public var state: String

    public init(plugin: String, state: String) {
        self.plugin = plugin
        self.state = state
    }
}

/// A plugin was disabled: `plugin:disabled`, with its state afterwards.
public struct PluginDisabled: BusMessage {
    public static let name = "plugin:disabled"
    public var plugin: String
    public var state: String

    public init(plugin: String, state: String) {
        self.plugin = plugin
        self.state = state
    }
}

/// A plugin that waited for an activation event (or the end of the start) was started:
/// `plugin:activated`, with its state afterwards.
public struct PluginActivated: BusMessage {
    public static let name = "plugin:activated"
    public var plugin: String
    public var state: String

    public init(plugin: String, state: String) {
        self.plugin = plugin
        self.state = state
    }
}

/// A plugin was reloaded from its folder (`--plugin-dev`): `plugin:reloaded`, with its state.
public struct PluginReloaded: BusMessage {
    public static let name = "plugin:reloaded"
    public var plugin: String
    public var state: String

    public init(plugin: String, state: String) {
        self.plugin = plugin
        self.state = state
    }
}

/// The user approved what a plugin asks for (it may start now): `plugin:approved`.
public struct PluginApproved: BusMessage {
    public static let name = "plugin:approved"
    public var plugin: String

    public init(plugin: String) {
        self.plugin = plugin
    }
}
