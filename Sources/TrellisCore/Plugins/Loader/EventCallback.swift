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
        guard let handler else { return }
        event.message.withCString { message in
            event.data.jsonString.withCString { handler(userData, message, $0) }
        }
    }

    deinit {
        release?(userData)
    }
}
