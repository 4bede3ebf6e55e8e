import CGtk
import Foundation
import TrellisCore
@testable import TrellisGtk
import XCTest

/// What is typed into the search field stays there when the page on screen changes before
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

    func testAPageChangeBeforeTheSearchIsAppliedKeepsWhatWasTyped() throws {
        try MainActor.assumeIsolated {
            let shell = Shell()
            let application = Application(id: "io.github.trellis.SearchFieldTest", unique: false)
            XCTAssertNotEqual(g_application_register(application.pointer.as(), nil, nil), 0)
            let frontend = GtkFrontend(shell: shell, application: application)
            let window = frontend.window
            defer { gtk_window_destroy(window.window.object.as()) }
            try shell.route("/list", to: ListPage.self, isPublic: true)
            try shell.navigate(to: "/list")
            let page = try XCTUnwrap(shell.navigator.top)
            guard case .table(let container) = page.content else { return XCTFail("not a table page") }

            window.setSearchActive(true)
            window.setSearchText("bet")
            page.message = "Saved"  // the page changes; the list has not been searched yet
            XCTAssertEqual(window.searchText, "bet", "the page's change put back the search of before")

            // GtkSearchEntry reports the text after its delay; the list is then searched.
            let deadline = Date().addingTimeInterval(10)
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
