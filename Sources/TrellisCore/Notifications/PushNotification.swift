import Foundation

/// A push-notification payload in the shape of Apple's: a root object whose `aps` object
/// holds what the system acts on (the recipe "handling push notifications" of the iOS seeds).
///
/// ```json
/// {"aps": {"alert": {"body": "3 new notes", "show-view": "/notes"},
///          "badge": 3, "sound": "default", "content-available": 1}}
/// ```
///
/// - `alert`: a string (the text shown), or an object `{body, show-view}`. `show-view` is
///   `true`/`false` (show the alert or not, as in the recipe) or a route path: the alert is
///   shown and the app opens that path, as a deep link (public routes only).
/// - `badge`: an integer ≥ 0, the count shown on the app (0 clears it).
/// - `sound`: the name of a sound to play.
/// - `content-available`: `1` when the server has new content to fetch (a sync), `0` otherwise.
///
/// Keys outside `aps` are the app's own and are kept in ``custom``. Inside `aps` only the
/// keys above are allowed, so a typo is reported instead of silently ignored.
///
/// ```swift
/// let notification = try PushNotification(contentsOf: URL(fileURLWithPath: "push.json"))
/// NotificationRouter(shell: shell).route(notification)
/// ```
public struct PushNotification: Sendable, Equatable {
    /// The text to show, and whether and where to show it.
    public struct Alert: Sendable, Equatable {
        /// The text of the alert.
        public var body: String
        /// `show-view`: whether the alert is shown, and the page to open.
        public var showView: ShowView

        /// An alert showing `body`; shown by default.
        public init(body: String, showView: ShowView = .show) {
            self.body = body
            self.showView = showView
        }
    }

    /// The `show-view` value of an alert.
    public enum ShowView: Sendable, Equatable {
        /// Show the alert (`true`, or no `show-view`).
        case show
        /// Do not show the alert (`false`).
        case hide
        /// Show the alert and open this route path.
        case open(path: String)
    }

    /// The keys `aps` may hold.
    public static let apsKeys = ["alert", "badge", "sound", "content-available"]
    /// The keys an `alert` object may hold.
    public static let alertKeys = ["body", "show-view"]

    /// The alert, if the payload has one.
    public var alert: Alert?
    /// The badge count to show; `nil` leaves it as it is.
    public var badge: Int?
    /// The sound to play.
    public var sound: String?
    /// Whether the server has new content for the app to fetch.
    public var contentAvailable: Bool
    /// The keys next to `aps` (the app's own data).
    public var custom: [String: JSONValue]

    /// A notification from its parts (tests, code that builds payloads).
    public init(alert: Alert? = nil, badge: Int? = nil, sound: String? = nil, contentAvailable: Bool = false,
                custom: [String: JSONValue] = [:]) {
        self.alert = alert
        self.badge = badge
        self.sound = sound
        self.contentAvailable = contentAvailable
        self.custom = custom
    }

    /// Whether an alert should be shown to the user (a desktop notification).
    public var showsAlert: Bool {
        guard let alert else { return false }
        return alert.showView != .hide
    }

    /// The route path to open, when `show-view` names one.
    public var destination: String? {
        if case .open(let path)? = alert?.showView { return path }
        return nil
    }

    /// The payload as JSON, in the form ``init(json:source:)`` reads.
    public var json: JSONValue {
        var aps: [String: JSONValue] = [:]
        if let alert {
            switch alert.showView {
            case .show: aps["alert"] = .string(alert.body)
            case .hide: aps["alert"] = ["body": .string(alert.body), "show-view": false]
            case .open(let path): aps["alert"] = ["body": .string(alert.body), "show-view": .string(path)]
            }
        }
        if let badge { aps["badge"] = .number(Double(badge)) }
        if let sound { aps["sound"] = .string(sound) }
        if contentAvailable { aps["content-available"] = 1 }
        var root = custom
        root["aps"] = .object(aps)
        return .object(root)
    }
}
