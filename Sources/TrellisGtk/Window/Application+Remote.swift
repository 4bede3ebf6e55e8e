import CGtk
import Foundation

/// Why the application could not register on the session bus.
public enum ApplicationError: Error, Equatable, CustomStringConvertible {
    /// `g_application_register` failed for application `id`.
    case registrationFailed(id: String, reason: String)

    public var description: String {
        switch self {
        case .registrationFailed(let id, let reason): return "could not register \(id) on the session bus: \(reason)"
        }
    }
}

/// Single instance through GApplication: the first launch owns the application id on the
/// session bus (the *primary* instance); a later launch registers, finds it is *remote*, and
/// activates the primary's actions over D-Bus instead of opening a window of its own.
extension Application {
    /// The application id (`io.github.trellis.Demo`).
    public var id: String {
        g_application_get_application_id(pointer.as()).map { String(cString: $0) } ?? ""
    }

    /// Registers on the session bus now (`g_application_run` would do it otherwise). Afterwards
    /// ``isRemote`` tells whether another process is the primary instance.
    public func register() throws(ApplicationError) {
        skipResourceLoadingWithoutResources()
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(pointer.as(), nil, &error) == 0 else { return }
        let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        if let error { g_error_free(error) }
        throw .registrationFailed(id: id, reason: reason)
    }

    /// Whether another process is the primary instance (after ``register()``).
    public var isRemote: Bool { g_application_get_is_remote(pointer.as()) != 0 }

    /// Adds `app.<name>` taking a string parameter (`g_action_group_activate_action(app,
    /// name, <string>)`, a menu item's target, a notification's default action). Add actions
    /// before ``run()`` so that they are exported when the application registers.
    public func addAction(_ name: String, stringParameter handler: @escaping @MainActor (String) -> Void) {
        let stringType = g_variant_type_new("s")
        defer { g_variant_type_free(stringType) }
        let action = SimpleAction(taking: GObjectPointer(g_simple_action_new(name, stringType)!))
        action.connect("activate", variant: { parameter in
            guard let parameter else { return }
            handler(String(cString: g_variant_get_string(parameter, nil)))
        })
        g_action_map_add_action(pointer.as(), action.object.as())
    }

    /// Activates `app.<name>` with a string: here when this is the primary instance, on the
    /// primary over D-Bus when this one is remote (``run()`` then sends it, with an activation,
    /// and returns).
    public func activateAction(_ name: String, string: String) {
        g_action_group_activate_action(pointer.as(), name, g_variant_new_string(string))
    }
}
