import CGtk
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
                XCTAssertEqual(Self.typeName(child), "GtkLabel", "a plain row is its title alone")
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

    // MARK: - Helpers

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
