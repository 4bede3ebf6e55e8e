import TrellisCore
import TrellisPluginABI

/// A plugin's event handler and its `user_data`, kept by one watch. When the bus drops the
/// watch (and so this callback), `release(user_data)` gives the data back to the plugin.
// @unchecked Sendable: `userData` is plugin-owned and only passed back to the plugin's own
// handler, which trellis_plugin.h requires to be callable from any thread.
package final class EventCallback: @unchecked Sendable {
    private let handler: trellis_event_handler?
    private let userData: UnsafeMutableRawPointer?
    private let release: trellis_release?

    package init(handler: trellis_event_handler?, userData: UnsafeMutableRawPointer?, release: trellis_release?) {
        self.handler = handler
        self.userData = userData
        self.release = release
    }

    package func deliver(_ event: Event) {
        event.data.jsonString.withCString { deliver(event.message, json: $0) }
    }

    /// Calls the handler with JSON text as it is (a plugin process passes on the shell's).
    package func deliver(_ message: String, json: UnsafePointer<CChar>) {
        guard let handler else { return }
        message.withCString { handler(userData, $0, json) }
    }

    deinit {
        release?(userData)
    }
}
