import CGtk
import TrellisCore
@testable import TrellisGtk
import XCTest

/// The window's sections' sidebar follows the shell's sections: none, and the window has
/// neither sidebar nor toggle; declared later, and both appear with a row per section.
/// In-process (XCTest on Linux runs test methods on the main thread, hence `assumeIsolated`).
final class SectionSidebarTests: InProcessWindowTestCase {
    func testAnAppWithoutSectionsHasNoSidebarAndOneDeclaredLaterShowsIt() {
        MainActor.assumeIsolated {
            let shell = Shell()
            let application = Application(id: "io.github.trellis.SidebarTest", unique: false)
            // Registering emits `startup`, after which GTK accepts the application's windows.
            XCTAssertNotEqual(g_application_register(application.pointer.as(), nil, nil), 0)
            let frontend = GtkFrontend(shell: shell, application: application)
            let window = frontend.window
            XCTAssertFalse(window.sidebar.isShown)
            XCTAssertEqual(gtk_widget_get_visible(window.sidebarButton.widget), 0, "no toggle without sections")

            shell.sections = [ShellSection(title: "Notes", path: "/notes"), ShellSection(title: "People", path: "/people")]
            XCTAssertEqual(window.sidebar.rows.count, 2)
            XCTAssertTrue(window.sidebar.isShown, "the window's default width is wide")
            XCTAssertNotEqual(gtk_widget_get_visible(window.sidebarButton.widget), 0)
            XCTAssertTrue(hasAccessibleLabel(window.sidebar.rows[1].object))

            shell.sections = []
            XCTAssertFalse(window.sidebar.isShown)
            gtk_window_destroy(window.window.object.as())
        }
    }
}
