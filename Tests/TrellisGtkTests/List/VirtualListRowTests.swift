import CGtk
import CTrellisGtk
import Foundation
import TrellisCore
@testable import TrellisGtk
import TrellisTesting
import XCTest

/// A list row is its title's label alone until a row of that widget has a check button or a
/// detail: then the title moves into a box with them, and the row keeps working as before
/// (text, checkbox, clicking it, its name for screen readers). GTK keeps the row widgets when
/// the rows change in place (a search, a checklist turned on), so one widget meets both
/// kinds. In-process (XCTest on Linux runs test methods on the main thread).
final class VirtualListRowTests: InProcessWindowTestCase {
    /// Rows whose kind the test changes: plain, or with a checkbox and a detail column.
    final class Rows: ListRowSource {
        var titles = ["Фэнтези", "Проза", "Поэзия"]
        var checklist = false
        var ticked: Set<Int> = []
        var rowCount: Int { titles.count }
        func listRow(at position: Int) -> ListRow {
            guard checklist else { return .item(columns: [titles[position]], checkbox: nil, selected: false) }
            return .item(columns: [titles[position], "genre \(position)"], checkbox: ticked.contains(position),
                         selected: position == 1)
        }
    }

    func testARowGainsAndLosesItsCheckboxAndDetailInPlace() throws {
        try MainActor.assumeIsolated {
            let application = Application(id: "io.github.trellis.VirtualListRowTest", unique: false)
            XCTAssertNotEqual(g_application_register(application.pointer.as(), nil, nil), 0)
            let rows = Rows()
            let list = VirtualListView(source: rows)
            var toggled: [Int] = []
            list.onToggle = { toggled.append($0) }
            try Self.withWindow(showing: list.widget.widget) { window in
                try Self.waitUntil("three plain rows shown") { list.visibleRows().count == 3 }
                XCTAssertEqual(list.visibleRows().map(\.text), rows.titles)
                XCTAssertEqual(list.visibleRows().map(\.checkbox), [nil, nil, nil])
                let built = list.rowWidgetsBuilt
                let child = try XCTUnwrap(Self.firstRowChild(of: list))
                XCTAssertEqual(Self.typeName(child), "TrellisRowLabel", "a plain row is its title alone")
                XCTAssertFalse(list.clickCheckbox(position: 0), "a plain row has no checkbox")

                // The same widgets now show a checklist with details.
                rows.checklist = true
                rows.ticked = [2]
                list.itemsChanged(position: 0, removed: 3, added: 3)
                try Self.waitUntil("the checklist shown") { list.visibleRows().map(\.checkbox) == [false, false, true] }
                XCTAssertEqual(list.rowWidgetsBuilt, built, "the rows changed in place")
                XCTAssertEqual(list.visibleRows().map(\.text), ["Фэнтези · genre 0", "Проза · genre 1", "Поэзия · genre 2"])
                let boxed = try XCTUnwrap(Self.firstRowChild(of: list))
                XCTAssertEqual(Self.typeName(boxed), "GtkBox", "the title went into a box with the checkbox and the detail")
                XCTAssertEqual(gtk_widget_get_parent(child).map(Self.typeName), "GtkBox", "the first row's label went into its box")
                let bounds = try XCTUnwrap(list.bounds(position: 0, in: Widget(retaining: window)))
                XCTAssertGreaterThan(bounds.checkbox.size.width, 0, "the checkbox has a place in the row")
                XCTAssertTrue(list.clickCheckbox(position: 0))
                XCTAssertEqual(toggled, [0], "a click on the checkbox reaches onToggle with its row")

                // And back: the check button and the detail are hidden, the text is the title.
                rows.checklist = false
                list.itemsChanged(position: 0, removed: 3, added: 3)
                try Self.waitUntil("plain rows again") { list.visibleRows().map(\.checkbox) == [nil, nil, nil] }
                XCTAssertEqual(list.visibleRows().map(\.text), rows.titles)
            }
        }
    }

    /// GTK keeps about 200 row widgets around the few on screen; their titles are laid out
    /// only when drawn, which GTK does for the rows on screen (trellis-row-label.h). A row
    /// scrolled into view, or whose new text shows on screen, is laid out in the frame that
    /// shows it: never left blank.
    func testRowTitlesAreLaidOutOnlyOnScreenAndWhenTheyComeIntoView() throws {
        try MainActor.assumeIsolated {
            let application = Application(id: "io.github.trellis.VirtualListRowLabelTest", unique: false)
            XCTAssertNotEqual(g_application_register(application.pointer.as(), nil, nil), 0)
            let rows = Rows()
            rows.titles = (0..<1000).map { "Row \($0)" }
            let list = VirtualListView(source: rows)
            try Self.withWindow(showing: list.widget.widget) { _ in
                try Self.waitUntil("rows on screen laid out") {
                    !list.visibleRows().isEmpty && Self.titles(of: list).allSatisfy { !$0.onScreen || $0.laidOut }
                }
                let titles = Self.titles(of: list)
                let onScreen = titles.filter(\.onScreen).count
                XCTAssertGreaterThan(titles.count, onScreen * 2, "GTK keeps rows off screen")
                XCTAssertEqual(titles.filter(\.laidOut).count, onScreen, "only the rows on screen are laid out")

                // Scrolled to rows GTK already had (and had not laid out), then to rows it binds anew.
                for position in [onScreen + 40, 600] {
                    // (GTK 4.8 scrolls the row to the edge of the view, or just past it.)
                    _ = list.focusRow(at: position)
                    try Self.waitUntil("row \(position) shown and laid out") {
                        list.visibleRows().contains { abs($0.position - position) < 10 }
                            && Self.titles(of: list).allSatisfy { !$0.onScreen || $0.laidOut }
                    }
                }
                // New texts on the rows shown (as a search gives them): laid out again when drawn.
                rows.titles = rows.titles.map { "Genre " + $0 }
                list.itemsChanged(position: 0, removed: 1000, added: 1000)
                try Self.waitUntil("the new texts laid out on screen") {
                    let shown = Self.titles(of: list).filter(\.onScreen)
                    return !shown.isEmpty && shown.allSatisfy { $0.laidOut && $0.text.hasPrefix("Genre ") }
                }
            }
        }
    }

    // MARK: - Helpers

    /// Every row title GTK has a widget for: its text, whether any of it is inside the list's
    /// scrolled window, and whether it is laid out.
    @MainActor
    private static func titles(of list: VirtualListView) -> [(text: String, onScreen: Bool, laidOut: Bool)] {
        rowChildren(of: list).map { title in
            var bounds = graphene_rect_t()
            var viewport = graphene_rect_t(origin: .init(x: 0, y: 0),
                                           size: .init(width: Float(list.scroller.width), height: Float(list.scroller.height)))
            // GTK 4.8 gives the rows it keeps off screen no size, or unmaps them in place.
            let onScreen = gtk_widget_get_mapped(title) != 0 && gtk_widget_compute_bounds(title, list.scroller.widget, &bounds) != 0
                && graphene_rect_intersection(&bounds, &viewport, nil)
            // Safe: a plain row's child is its TrellisRowLabel (testARowGainsAndLoses… checks it).
            let label = OpaquePointer(title)
            return (String(cString: trellis_row_label_get_text(label)), onScreen, trellis_row_label_is_laid_out(label) != 0)
        }
    }

    /// The child of the first row widget GTK shows (the list item's child).
    @MainActor
    private static func firstRowChild(of list: VirtualListView) -> UnsafeMutablePointer<GtkWidget>? {
        Self.rowChildren(of: list).first
    }

    @MainActor
    private static func rowChildren(of list: VirtualListView) -> [UnsafeMutablePointer<GtkWidget>] {
        var children: [UnsafeMutablePointer<GtkWidget>] = []
        var row = gtk_widget_get_first_child(list.listView.widget)
        while let current = row {
            if gtk_widget_get_visible(current) != 0, let child = gtk_widget_get_first_child(current) { children.append(child) }
            row = gtk_widget_get_next_sibling(current)
        }
        return children
    }

    private static func typeName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        // Safe: every widget starts with its GTypeInstance; g_type_name returns GLib's string.
        String(cString: g_type_name_from_instance(gobj(widget).as()))
    }
}
