/// Acts on a ``PushNotification`` inside a running shell: the front-end-neutral half of
/// "launch with a notification payload" (the recipe's `didFinishLaunchingWithOptions:` and
/// `didReceiveRemoteNotification:`).
///
/// In this order, it
/// 1. triggers `notification:received` with the payload (for the event log);
/// 2. when `badge` is set, triggers `badge:changed` with `{"count": n}` (front ends show it);
/// 3. when `show-view` names a path, opens it as an external deep link (public routes only;
///    a refused or unknown path leaves the window where it was and shows why on the page);
/// 4. when the alert should be shown, triggers `notification:show` with
///    `{"body", "sound"?, "path"?}` (the GTK front end sends a desktop notification whose
///    default action opens `path`);
/// 5. when `content-available` is 1, triggers `sync:requested` with `{"reason": "notification"}`
///    (the sync engine watches it).
///
/// ```swift
/// let outcome = NotificationRouter(shell: shell).route(notification)
/// if let error = outcome.navigationError { print(error) }
/// ```
@MainActor
public struct NotificationRouter {
    /// The bus messages the router triggers.
    public enum Message {
        /// Every notification, with its payload as data.
        public static let received = "notification:received"
        /// An alert to show: `{"body", "sound"?, "path"?}`.
        public static let show = "notification:show"
        /// The badge count: `{"count": n}`.
        public static let badgeChanged = "badge:changed"
        /// New content on the server: `{"reason": "notification"}`.
        public static let syncRequested = "sync:requested"
    }

    /// What routing a notification did.
    public struct Outcome: Equatable, Sendable {
        /// Whether `notification:show` was triggered.
        public var shownAlert = false
        /// The path opened, when `show-view` named one that could be opened.
        public var openedPath: String?
        /// Why the `show-view` path could not be opened.
        public var navigationError: NavigationError?
        /// The badge count announced.
        public var badge: Int?
        /// Whether a sync was requested.
        public var requestedSync = false

        /// An outcome (the default: nothing done).
        public init(shownAlert: Bool = false, openedPath: String? = nil, navigationError: NavigationError? = nil,
                    badge: Int? = nil, requestedSync: Bool = false) {
            self.shownAlert = shownAlert
            self.openedPath = openedPath
            self.navigationError = navigationError
            self.badge = badge
            self.requestedSync = requestedSync
        }
    }

    /// The shell whose bus and navigator the router uses.
    public let shell: Shell

    /// A router acting on `shell`.
    public init(shell: Shell) {
        self.shell = shell
    }

    /// Routes `notification`; never throws (a bad `show-view` path is reported in the outcome
    /// and on the page on top).
    @discardableResult
    public func route(_ notification: PushNotification) -> Outcome {
        var outcome = Outcome()
        shell.bus.trigger(Message.received, notification.json)
        if let badge = notification.badge {
            shell.bus.trigger(Message.badgeChanged, ["count": .number(Double(badge))])
            outcome.badge = badge
        }
        if let path = notification.destination {
            if let error = shell.openExternalLink(path) {
                outcome.navigationError = error
            } else {
                outcome.openedPath = path
            }
        }
        if notification.showsAlert, let alert = notification.alert {
            var data: JSONValue = ["body": .string(alert.body)]
            if let sound = notification.sound { data["sound"] = .string(sound) }
            if let path = outcome.openedPath { data["path"] = .string(path) }
            shell.bus.trigger(Message.show, data)
            outcome.shownAlert = true
        }
        if notification.contentAvailable {
            shell.bus.trigger(Message.syncRequested, ["reason": "notification"])
            outcome.requestedSync = true
        }
        shell.logger.info("notification routed", metadata: [
            "shown": "\(outcome.shownAlert)", "path": "\(outcome.openedPath ?? "-")",
            "badge": "\(outcome.badge.map(String.init) ?? "-")", "sync": "\(outcome.requestedSync)",
        ])
        return outcome
    }
}
