import CGtk
import Foundation
import TrellisCore

/// A `GtkApplication` with the main-queue bridge installed, so `@MainActor` code and
/// `DispatchQueue.main` run inside its GLib main loop.
///
/// ```swift
/// let app = Application(id: "org.trellis.Demo")
/// app.onActivate = { app in GtkFrontend(shell: shell, application: app, title: "Hi").window.present() }
/// exit(app.run())
/// ```
@MainActor
public final class Application {
    let pointer: GObjectPointer
    /// Called when the application is activated (first launch, or a second launch of a
    /// unique application).
    public var onActivate: ((Application) -> Void)?

    /// - Parameters:
    ///   - id: a reverse-DNS application id.
    ///   - unique: when `false` every launch is its own process (tests, benchmarks).
    ///
    /// Sets the process locale from the environment (with `Localization`'s `LANGUAGE`
    /// fallback) and keeps GTK from setting it again; chooses the cairo renderer where
    /// OpenGL would run in software (``RendererChoice``).
    public init(id: String, unique: Bool = true) {
        // The locale GTK would set, plus Localization's LANGUAGE fallback, which GTK's own
        // setlocale (in gtk_init, at registration) would undo.
        Localization.setLocaleFromEnvironment(category: LC_ALL)
        gtk_disable_setlocale()
        RendererChoice.apply()
        let flags = unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE
        pointer = GObjectPointer(gtk_application_new(id, flags))!
        Signals.connect(pointer, "activate") { [weak self] in
            guard let self else { return }
            self.onActivate?(self)
        }
    }

    isolated deinit { g_object_unref(pointer) }

    /// Runs the GLib main loop until the last window closes or ``quit()``; returns the exit status.
    /// Command-line arguments are parsed by the caller, so GTK sees only the program name.
    public func run() -> Int32 {
        MainQueueBridge.install()
        skipResourceLoadingWithoutResources()
        let name = strdup(CommandLine.arguments.first ?? "trellis")
        defer { free(name) }
        var argv: [UnsafeMutablePointer<CChar>?] = [name, nil]
        return g_application_run(pointer.as(), 1, &argv)
    }

    /// GTK loads an application's own resources at start-up (`gtk/menus.ui`, the help overlay,
    /// icons) from its resource base path, `/` plus the id with dots as slashes, and adds that
    /// path's `icons/` to the icon theme. Adding it makes the icon theme drop the themes its
    /// worker thread has just read, and the first frame then reads them again on the main
    /// thread (GTK 4.8). An application with nothing registered there gets no base path, so the
    /// background read is kept; one that registers resources before ``run()`` keeps GTK's loading.
    func skipResourceLoadingWithoutResources() {
        guard let base = g_application_get_resource_base_path(pointer.as()) else { return }
        if let children = g_resources_enumerate_children(base, G_RESOURCE_LOOKUP_FLAGS_NONE, nil) {
            g_strfreev(children)
            return
        }
        g_application_set_resource_base_path(pointer.as(), nil)
    }

    public func quit() { g_application_quit(pointer.as()) }

    /// The name people see: the title of desktop notifications, the About dialog
    /// (`g_set_application_name`, one per process).
    public var displayName: String {
        get { g_get_application_name().map { String(cString: $0) } ?? "" }
        set { g_set_application_name(newValue) }
    }
}
