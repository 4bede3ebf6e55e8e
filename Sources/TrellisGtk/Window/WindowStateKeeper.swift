import CGtk
import Foundation
import Logging
import TrellisCore

/// Remembers a window's size and maximized state between runs (`WindowState`'s JSON file, in TrellisCore):
/// restores them before the window is first presented, follows the window's
/// `default-width`, `default-height` (which GTK 4 keeps at the unmaximized size) and
/// `maximized` properties, and saves them when the application shuts down — whether the last
/// window was closed or the application quit.
///
/// ```swift
/// WindowStateKeeper.attach(to: frontend.window, application: app,
///                          file: WindowState.fileURL(application: "trellis"))
/// frontend.window.present()
/// ```
@MainActor
public final class WindowStateKeeper {
    /// The JSON file.
    public let file: URL
    /// The state as it is now.
    public private(set) var state: WindowState
    /// Weak: the window's handlers hold the keeper.
    private weak var window: ApplicationWindow?
    private let logger = Logger(trellis: "trellis.gtk.window-state")

    private init(window: ApplicationWindow, file: URL) {
        self.window = window
        self.file = file
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_default_size(window.object.as(), &width, &height)
        state = WindowState(width: Int(width), height: Int(height), maximized: gtk_window_is_maximized(window.object.as()) != 0)
    }

    /// Restores the state saved in `file` onto `window` (call before presenting it) and saves
    /// it there when `application` shuts down. A missing file keeps the window's defaults; a
    /// damaged one is logged and replaced at shutdown.
    @discardableResult
    public static func attach(to window: ShellWindow, application: Application, file: URL) -> WindowStateKeeper {
        let keeper = WindowStateKeeper(window: window.window, file: file)
        keeper.restore()
        for property in ["default-width", "default-height", "maximized"] {
            window.window.connectNotify(property) { keeper.update() }
        }
        Signals.connect(application.pointer, "shutdown") { keeper.save() }
        return keeper
    }

    private func restore() {
        do {
            guard let saved = try WindowState.load(from: file) else { return }
            guard let window else { return }
            gtk_window_set_default_size(window.object.as(), Int32(saved.width), Int32(saved.height))
            if saved.maximized { gtk_window_maximize(window.object.as()) }
            state = saved
        } catch {
            logger.warning("window state ignored", metadata: ["error": "\(error)"])
        }
    }

    private func update() {
        guard let window else { return }
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_default_size(window.object.as(), &width, &height)
        if width > 0 { state.width = Int(width) }
        if height > 0 { state.height = Int(height) }
        state.maximized = gtk_window_is_maximized(window.object.as()) != 0
    }

    /// Writes the state now (the application's `shutdown` does it too).
    public func save() {
        do {
            try state.save(to: file)
        } catch {
            logger.warning("window state not saved", metadata: ["error": "\(error)"])
        }
    }
}
