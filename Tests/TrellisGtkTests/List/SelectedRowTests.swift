import CGtk
import Foundation
@testable import TrellisGtk
import XCTest

/// A row the table marks selected is drawn tinted with the theme's selection colour, in a list
/// and in a column table; a row with a checkbox (a checklist's) shows its state there and is
/// not tinted. Read from the pixels GTK painted (in-process: XCTest on Linux runs test methods
/// on the main thread).
final class SelectedRowTests: InProcessWindowTestCase {
    /// Row 1 is selected; row 2 is selected too but has a checkbox; rows 0 and 3 are plain.
    final class Rows: ListRowSource {
        var selected: Set<Int> = [1, 2]
        var rowCount: Int { 4 }
        func listRow(at position: Int) -> ListRow {
            .item(columns: ["Row \(position)", "detail \(position)"], checkbox: position == 2 ? true : nil,
                  selected: selected.contains(position))
        }
    }

    func testASelectedRowIsTintedInAListAndInAColumnTable() throws {
        try MainActor.assumeIsolated {
            let application = Application(id: "io.github.trellis.SelectedRowTest", unique: false)
            XCTAssertNotEqual(g_application_register(application.pointer.as(), nil, nil), 0)
            WindowStyle.install()

            let listRows = Rows()
            let list = VirtualListView(source: listRows)
            try Self.check("list", list, rows: listRows, content: list.widget)

            let tableRows = Rows()
            let table = ColumnTableView(source: tableRows, titles: ["Name", "Detail"])
            try Self.check("column table", table, rows: tableRows, content: table.widget)
        }
    }

    /// A section header and three rows, row 2 selected, of a table that tells its selection.
    final class TellingRows: ListRowSource {
        var rowCount: Int { 4 }
        var tellsSelection: Bool { true }
        func listRow(at position: Int) -> ListRow {
            position == 0 ? .header("Section") : .item(columns: ["Row \(position)"], checkbox: nil, selected: position == 2)
        }
    }

    /// GTK 4.8 calls every new row widget selected right after its first bind: a header of a
    /// table that tells its selection must then be made neither selected nor selectable again
    /// (`trellis_accessible_set_row_selection`). Read from GTK's own accessible state, as its
    /// accessibility bus reads it, once the main loop has nothing left to do.
    func testANewHeaderRowIsNotSelectableOnceGTKIsDoneWithIt() throws {
        try MainActor.assumeIsolated {
            let application = Application(id: "io.github.trellis.SelectedRowStateTest", unique: false)
            XCTAssertNotEqual(g_application_register(application.pointer.as(), nil, nil), 0)
            for (kind, view) in [("list", VirtualListView(source: TellingRows()) as any RowsWidget),
                                 ("column table", ColumnTableView(source: TellingRows(), titles: ["Name"]))] {
                try Self.withWindow(showing: view.widget.widget) { _ in
                    try Self.waitUntil("\(kind): four rows shown") { view.visibleRows().count >= 3 }
                    try Self.waitUntil("\(kind): the main loop has nothing left to do") { g_main_context_pending(nil) == 0 }
                    let rows = Self.rowWidgets(under: view.focusTarget.widget)
                    XCTAssertEqual(rows.count, 4, kind)
                    let states = rows.map { gtk_test_accessible_has_state(OpaquePointer($0), GTK_ACCESSIBLE_STATE_SELECTED) != 0 }
                    XCTAssertEqual(states, [false, true, true, true], "\(kind): the header has no selected state, the rows one each")
                    // A column view's cells are list items of their own, told as their row.
                    let cells = rows.map { row in
                        sequence(first: gtk_widget_get_first_child(row), next: { gtk_widget_get_next_sibling($0!) }).prefix { $0 != nil }
                            .map { gtk_test_accessible_has_state(OpaquePointer($0!), GTK_ACCESSIBLE_STATE_SELECTED) != 0 }
                    }
                    if kind == "column table" { XCTAssertEqual(cells, [[false], [true], [true], [true]], "\(kind): the cells") }
                }
            }
        }
    }

    /// Shows `content` in a window and compares the rows' backgrounds, before and after the
    /// selection moves from row 1 to row 3.
    @MainActor
    private static func check(_ kind: String, _ view: any RowsWidget, rows: Rows, content: Widget) throws {
        try withWindow(showing: content.widget) { window in
            try waitUntil("\(kind): four rows shown") { view.visibleRows().count == 4 }

            var backgrounds = try rowBackgrounds(of: view, in: window, kind)
            XCTAssertEqual(backgrounds[0], backgrounds[3], "\(kind): two plain rows look alike")
            XCTAssertNotEqual(backgrounds[1], backgrounds[0], "\(kind): the selected row is tinted")
            XCTAssertEqual(backgrounds[2], backgrounds[0], "\(kind): a selected row with a checkbox is not tinted")
            if let tint = backgrounds[1], let plain = backgrounds[0] {
                XCTAssertGreaterThan(tint.blue, tint.red, "\(kind): tinted with the selection colour (GTK's default theme: blue), \(tint) on \(plain)")
            }

            // As a table tells of a selection change: the two rows whose state changed.
            rows.selected = [2, 3]
            view.itemsChanged(position: 1, removed: 1, added: 1)
            view.itemsChanged(position: 3, removed: 1, added: 1)
            try waitUntil("\(kind): the rows bound again") { view.visibleRows().count == 4 }
            let tint = backgrounds[1]
            backgrounds = try rowBackgrounds(of: view, in: window, kind)
            XCTAssertEqual(backgrounds[1], backgrounds[0], "\(kind): the row left unselected lost its tint")
            XCTAssertEqual(backgrounds[3], tint, "\(kind): the newly selected row is tinted")
        }
    }

    /// Each row's background: the most frequent colour across GTK's row widget, read from what
    /// the window painted at its next frame.
    @MainActor
    private static func rowBackgrounds(of view: any RowsWidget, in window: GObjectPointer, _ kind: String) throws -> [TextContrast.Colour?] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-selected-row-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try afterNextFrame(of: window) { try Screenshot.save(try Screenshot.capture(window), to: path) }
        let image = try TextContrast(png: path)
        let rows = rowWidgets(under: view.focusTarget.widget)
        XCTAssertEqual(rows.count, 4, "\(kind): GTK's row widgets shown")
        return rows.map { row in
            var bounds = graphene_rect_t()
            XCTAssertNotEqual(gtk_widget_compute_bounds(row, window.as(), &bounds), 0, "\(kind): a row has no bounds")
            return image.background(x: Double(bounds.origin.x), y: Double(bounds.origin.y),
                                    width: Double(bounds.size.width), height: Double(bounds.size.height))
        }
    }

    /// The shown widgets named `row` under `widget` (a list view's, a column view's), top to bottom.
    @MainActor
    private static func rowWidgets(under widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var rows: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if gtk_widget_get_visible(current) != 0 {
                if String(cString: gtk_widget_get_css_name(current)) == "row" { rows.append(current) } else { rows += rowWidgets(under: current) }
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return rows
    }

    /// Runs `body` in the `after-paint` of the window's next frame, while its picture is current.
    @MainActor
    private static func afterNextFrame(of window: GObjectPointer, _ body: @escaping @MainActor () throws -> Void) throws {
        let clock = GObjectPointer(try XCTUnwrap(gtk_widget_get_frame_clock(window.as())))
        var outcome: Result<Void, any Error>?
        let handler = try XCTUnwrap(Signals.connect(clock, "after-paint") {
            if outcome == nil { outcome = Result { try body() } }
        })
        defer { Signals.disconnect(clock, handler) }
        gtk_widget_queue_draw(window.as())
        try waitUntil("a frame painted") { outcome != nil }
        try outcome?.get()
    }
}
