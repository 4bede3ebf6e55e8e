import CGtk
import Foundation
import TrellisCore
@testable import TrellisGtk
import TrellisTesting
import XCTest

/// The window's search field is made when first needed, and what is typed into it stays
/// there when the page on screen changes before
/// the list has been searched (the search runs off the GTK thread, after GtkSearchEntry's
/// short delay): a plugin loading then, say, adds a button to the page. In-process (XCTest on
/// Linux runs test methods on the main thread, hence `assumeIsolated`).
final class SearchFieldTests: InProcessWindowTestCase {
    final class ListPage: PageController {
        required init(values: RouteValues, shell: Shell) {
            super.init(values: values, shell: shell)
            title = "List"
            content = .table(TableContainer.list(of: ["alpha", "beta", "gamma"], route: { "/list/\($0.id)" },
                                                 navigate: { _ in }))
        }
    }

    final class PlainPage: PageController {
        required init(values: RouteValues, shell: Shell) {
            super.init(values: values, shell: shell)
            title = "Plain"
        }
    }

    /// The search bar and the notice bar are made when first needed: a window that has shown
    /// no page that can be searched, and no notice, has neither (the demo's first frame, on
    /// its home page, is spared their widgets). Made, they work as before: the header bar's
    /// toggle opens the search bar, the notice shows its text.
    func testTheSearchAndNoticeBarsAreMadeWhenFirstNeeded() throws {
        try MainActor.assumeIsolated {
            try Self.withWindow("io.github.trellis.LazyBarsTest") { shell, window in
                try shell.route("/plain", to: PlainPage.self, isPublic: true)
                try shell.route("/list", to: ListPage.self, isPublic: true)
                try shell.navigate(to: "/plain")
                window.setSearchActive(false)
                window.setSearchText("")
                XCTAssertNil(window.search, "no page could be searched yet")
                XCTAssertNil(window.noticeBar, "no notice was shown yet")
                XCTAssertFalse(window.isSearchActive)
                XCTAssertEqual(window.searchText, "")

                try shell.navigate(to: "/list")
                let search = try XCTUnwrap(window.search, "a page that can be searched makes the search bar")
                XCTAssertNotNil(gtk_widget_get_parent(search.bar.widget), "the bar is in the window")
                gtk_toggle_button_set_active(window.searchButton.object.as(), 1)
                XCTAssertTrue(window.isSearchActive, "the header bar's toggle is bound to the bar made after it")

                shell.notices.post("Deleted “x”", undo: {})
                try Self.waitUntil("the notice shown") { window.noticeBar?.text == "Deleted “x”" }
                XCTAssertEqual(window.noticeBar?.undoLabel, "Undo")
            }
        }
    }

    func testAPageChangeBeforeTheSearchIsAppliedKeepsWhatWasTyped() throws {
        try MainActor.assumeIsolated {
            try Self.withWindow("io.github.trellis.SearchFieldTest") { shell, window in
                try shell.route("/list", to: ListPage.self, isPublic: true)
                try shell.navigate(to: "/list")
                let page = try XCTUnwrap(shell.navigator.top)
                guard case .table(let container) = page.content else { return XCTFail("not a table page") }

                window.setSearchActive(true)
                window.setSearchText("bet")
                page.message = "Saved"  // the page changes; the list has not been searched yet
                XCTAssertEqual(window.searchText, "bet", "the page's change put back the search of before")

                // GtkSearchEntry reports the text after its delay; the list is then searched.
                let deadline = Date().addingTimeInterval(testDeadlineSeconds)
                while container.searchText != "bet" && Date() < deadline {
                    g_main_context_iteration(nil, 0)
                    RunLoop.main.run(until: Date().addingTimeInterval(0.01))
            }
            XCTAssertEqual(container.searchText, "bet")
            XCTAssertEqual(container.flatCount, 1, "only beta matches")
            XCTAssertEqual(window.searchText, "bet")
            }
        }
    }

    /// Runs `body` with a shell and its window (an application registered as `id`), then
    /// destroys the window.
    @MainActor
    private static func withWindow(_ id: String, _ body: (Shell, ShellWindow) throws -> Void) throws {
        let shell = Shell()
        let application = Application(id: id, unique: false)
        XCTAssertNotEqual(g_application_register(application.pointer.as(), nil, nil), 0)
        let frontend = GtkFrontend(shell: shell, application: application)
        defer { gtk_window_destroy(frontend.window.window.object.as()) }
        try body(shell, frontend.window)
    }
}
