import TrellisPlugins
import TrellisTesting

extension ManualClock {
    /// The host's clock on this test clock.
    var plugin: PluginClock { PluginClock(self) }
}
