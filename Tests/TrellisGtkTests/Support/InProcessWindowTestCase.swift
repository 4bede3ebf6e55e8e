import CGtk
import Foundation
@testable import TrellisGtk
import TrellisTesting
import XCTest

/// A test that makes an `Application` and its windows in the test process, with a display.
/// Such an application sets the renderer's variables in the process environment
/// (`GSK_RENDERER`, `GDK_DEBUG`: `RendererChoice.apply`), and every window a later test starts
/// would inherit them, as if the user had chosen a renderer: they are put back after each test.
class InProcessWindowTestCase: XCTestCase {
    private var savedRenderer: [(name: String, value: String?)] = []

    override func setUpWithError() throws {
        // GTK is initialized by the application's registration (its `startup`).
        try AppDriver.requireDisplay()
        savedRenderer = ["GSK_RENDERER", "GDK_DEBUG"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
    }

    override func tearDown() {
        for (name, value) in savedRenderer {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        super.tearDown()
    }

    private struct NeverHappened: Error, CustomStringConvertible {
        let description: String
    }

    /// Shows `child` in a new 400×300 window, runs `body` with the window, then destroys it.
    @MainActor
    static func withWindow<Result>(showing child: UnsafeMutablePointer<GtkWidget>,
                                   _ body: (GObjectPointer) throws -> Result) rethrows -> Result {
        let window = GObjectPointer(gtk_window_new()!)
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = window.as()
        defer { gtk_window_destroy(gtkWindow) }
        gtk_window_set_default_size(gtkWindow, 400, 300)
        gtk_window_set_child(gtkWindow, child)
        gtk_window_present(gtkWindow)
        return try body(window)
    }

    /// Runs the main loop until `condition` holds; fails after the deadline (a limit for a
    /// failure, not a measurement).
    @MainActor
    static func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(testDeadlineSeconds)
        while !condition() {
            guard Date() < deadline else { throw NeverHappened(description: "never: \(what)") }
            g_main_context_iteration(nil, 0)
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
    }
}
