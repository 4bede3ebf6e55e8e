import CGtk
import Logging

/// Follows the desktop's light/dark preference on any desktop that has an XDG settings
/// portal (GNOME, KDE Plasma, Xfce and others with xdg-desktop-portal), by setting GTK's
/// `gtk-application-prefer-dark-theme`.
///
/// It reads `org.freedesktop.appearance` `color-scheme` with
/// `org.freedesktop.portal.Settings.Read` and listens to `SettingChanged`, over GDBus. When no
/// portal answers (no session bus, no portal running), GTK's own default stays in force —
/// `GTK_THEME=Adwaita:dark`, `settings.ini` — and a portal that starts later is still heard.
/// The read is synchronous and does not start the portal (`NO_AUTO_START`), so the first frame
/// is painted in the right colours without waiting for a service to launch.
///
/// ```swift
/// let follower = ColorSchemeFollower.start()   // after GTK is initialised (in `activate`)
/// let dark = follower?.prefersDark ?? false     // true on a dark desktop
/// ```
@MainActor
public final class ColorSchemeFollower {
    /// The portal's `color-scheme` values.
    public enum Preference: UInt32, Sendable {
        /// The user has not chosen: the application's own default.
        case noPreference = 0
        /// Prefer dark.
        case dark = 1
        /// Prefer light.
        case light = 2
    }

    static let portalName = "org.freedesktop.portal.Desktop"
    static let portalPath = "/org/freedesktop/portal/desktop"
    static let settingsInterface = "org.freedesktop.portal.Settings"
    static let appearanceNamespace = "org.freedesktop.appearance"
    static let colorSchemeKey = "color-scheme"

    /// The last preference the portal gave; `nil` while no portal has answered.
    public private(set) var preference: Preference?
    private let settings: GObjectPointer
    private let defaultPrefersDark: Bool
    private let connection: OpaquePointer
    private var subscription: guint = 0
    private let logger = Logger(trellis: "trellis.gtk.appearance")

    /// Starts following the preference. Returns `nil` (GTK's default applies) when there is no
    /// display or no session bus.
    @discardableResult
    public static func start() -> ColorSchemeFollower? {
        guard let settings = gtk_settings_get_default() else { return nil }
        let connection: OpaquePointer
        switch sessionBus() {
        case .success(let bus): connection = bus
        case .failure(let reason):
            Logger(trellis: "trellis.gtk.appearance").info("no session bus; GTK's default colours apply", metadata: ["reason": "\(reason)"])
            return nil
        }
        let follower = ColorSchemeFollower(settings: gobj(settings), connection: connection)
        follower.subscribe()
        follower.readCurrent()
        return follower
    }

    /// Why there is no session bus to ask.
    struct NoSessionBus: Error, CustomStringConvertible {
        let description: String
    }

    /// The session bus (a reference the follower owns). In a running application, the
    /// application's own connection: GApplication asked for the bus when it registered, and
    /// when it found none, asking again would only repeat the failed attempt — GDBus's
    /// autolaunch forks the whole process to run `dbus-launch`, on the GTK thread, before the
    /// first frame (about 5 ms under `xvfb-run`). With no application, a connection of its own.
    private static func sessionBus() -> Result<OpaquePointer, NoSessionBus> {
        if let application = g_application_get_default(), g_application_get_is_registered(application) != 0 {
            guard let connection = g_application_get_dbus_connection(application) else {
                return .failure(NoSessionBus(description: "the application found none when it registered"))
            }
            // Transfer none: the follower keeps its own reference (released in deinit).
            return .success(OpaquePointer(g_object_ref(UnsafeMutableRawPointer(connection))))
        }
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            return .failure(NoSessionBus(description: reason))
        }
        return .success(connection)
    }

    private init(settings: GObjectPointer, connection: OpaquePointer) {
        self.settings = settings
        self.connection = connection
        defaultPrefersDark = GtkSettingsProperty.bool(settings, Self.preferDarkProperty)
    }

    isolated deinit {
        g_object_unref(GObjectPointer(connection))
    }

    /// Stops following (the subscription held the follower; it is released afterwards).
    public func stop() {
        guard subscription != 0 else { return }
        let id = subscription
        subscription = 0
        g_dbus_connection_signal_unsubscribe(connection, id)
    }

    static let preferDarkProperty = "gtk-application-prefer-dark-theme"

    /// Whether GTK is asked for the dark variant now.
    public var prefersDark: Bool { GtkSettingsProperty.bool(settings, Self.preferDarkProperty) }

    /// Applies a preference: dark or light as asked; no preference restores GTK's default.
    func apply(_ preference: Preference) {
        self.preference = preference
        let dark = switch preference {
        case .dark: true
        case .light: false
        case .noPreference: defaultPrefersDark
        }
        if dark != prefersDark { GtkSettingsProperty.setBool(settings, Self.preferDarkProperty, dark) }
        logger.debug("colour scheme", metadata: ["preference": "\(preference)", "dark": "\(dark)"])
    }

    private func readCurrent() {
        let arguments = [g_variant_new_string(Self.appearanceNamespace), g_variant_new_string(Self.colorSchemeKey)]
        let parameters = arguments.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(connection, Self.portalName, Self.portalPath, Self.settingsInterface, "Read",
                                                parameters, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 1000, nil, &error)
        guard let reply else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            logger.info("no settings portal answered; GTK's default colours apply", metadata: ["reason": "\(reason)"])
            return
        }
        defer { g_variant_unref(reply) }
        let value = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(value) }
        if let preference = Self.preference(in: value) { apply(preference) }
    }

    private func subscribe() {
        let callback: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
            guard let parameters, let data, g_variant_n_children(parameters) == 3 else { return }
            let follower = Unmanaged<ColorSchemeFollower>.fromOpaque(data).takeUnretainedValue()
            let key = g_variant_get_child_value(parameters, 1)!
            let value = g_variant_get_child_value(parameters, 2)!
            defer { g_variant_unref(key); g_variant_unref(value) }
            guard String(cString: g_variant_get_string(key, nil)) == ColorSchemeFollower.colorSchemeKey else { return }
            MainActor.assumeIsolated {
                if let preference = ColorSchemeFollower.preference(in: value) { follower.apply(preference) }
            }
        }
        let release: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<ColorSchemeFollower>.fromOpaque(data).release()
        }
        subscription = g_dbus_connection_signal_subscribe(
            connection, Self.portalName, Self.settingsInterface, "SettingChanged", Self.portalPath,
            Self.appearanceNamespace, G_DBUS_SIGNAL_FLAGS_NONE, callback,
            Unmanaged.passRetained(self).toOpaque(), release)
    }

    /// The `u` inside however many variant wrappers (`Read` returns `v` holding `v`).
    static func preference(in value: OpaquePointer) -> Preference? {
        var current = g_variant_ref(value)!
        defer { g_variant_unref(current) }
        while String(cString: g_variant_get_type_string(current)) == "v" {
            let inner = g_variant_get_variant(current)!
            g_variant_unref(current)
            current = inner
        }
        guard String(cString: g_variant_get_type_string(current)) == "u" else { return nil }
        return Preference(rawValue: g_variant_get_uint32(current)) ?? .noPreference
    }
}
