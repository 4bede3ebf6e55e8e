import CGtk
import Foundation
import TrellisCore
@testable import TrellisGtk
import TrellisTesting
import XCTest

/// When the row that has the keyboard focus leaves the list (its note deleted, by this window
/// or by a pull), the focus stays in the list: on the row now in its place, or on the list
/// when no row is left. GTK 4.8 alone would give it, at its next layout, to the window's first
/// control — the header bar's Show Sections button, here a button before the page. A list and
/// a table with columns, in-process (XCTest on Linux runs test methods on the main thread).
final class RemovedFocusedRowTests: InProcessWindowTestCase {
    private struct Note: CustomStringConvertible {
        let title: String
        var description: String { title }
    }

    func testTheFocusStaysInAListWhoseFocusedRowIsRemoved() throws {
        try checkTheFocusStays(columns: false)
    }

    func testTheFocusStaysInATableWithColumnsWhoseFocusedRowIsRemoved() throws {
        try checkTheFocusStays(columns: true)
    }

    private func checkTheFocusStays(columns: Bool) throws {
        try MainActor.assumeIsolated {
            let application = Application(id: "io.github.trellis.RemovedFocusedRowTest\(columns ? "Columns" : "List")", unique: false)
            XCTAssertNotEqual(g_application_register(application.pointer.as(), nil, nil), 0)
            let notes = ArraySource([Note(title: "Groceries"), Note(title: "Letters"), Note(title: "Plans")], id: { $0.title })
            let container = columns
                ? TableContainer.records(notes, columns: [TableColumn(key: "title", title: "Title") { (note: Note) in note.title }])
                : TableContainer.list(notes)
            let page = PageView(content: .table(container), renderers: GtkContentRenderers(), title: "Notes")
            let list = try XCTUnwrap(page.list)

            let window = gtk_window_new()!
            let gtkWindow: UnsafeMutablePointer<GtkWindow> = GObjectPointer(window).as()
            defer { gtk_window_destroy(gtkWindow) }
            gtk_window_set_default_size(gtkWindow, 400, 300)
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            let firstControl = gtk_button_new_with_label("Show Sections")!
            gtk_box_append(GObjectPointer(box).as(), firstControl)
            gtk_widget_set_vexpand(page.widget.widget, 1)
            gtk_box_append(GObjectPointer(box).as(), page.widget.widget)
            gtk_window_set_child(gtkWindow, box)
            gtk_window_present(gtkWindow)

            try Self.waitUntil("three rows shown") { list.visibleRows().count == 3 }
            try Self.waitUntil("the first row focused") { list.focusRow(at: 0) }
            try Self.waitForFrames(2, of: page.widget)
            XCTAssertTrue(list.focusTarget.focusIsInside, "a row has the focus")

            // The focused row is removed: the row after it takes its place, and the focus.
            _ = try notes.remove(at: 0)
            try Self.waitUntil("two rows shown") { list.visibleRows().map(\.text) == ["Letters", "Plans"] }
            try Self.waitForFrames(3, of: page.widget)
            XCTAssertTrue(list.focusTarget.focusIsInside, "a row of the list has the focus, not \(Self.focusName(window, firstControl))")

            // Every row is removed: the list itself keeps the focus.
            notes.replace(all: [])
            try Self.waitUntil("no row shown") { list.visibleRows().isEmpty }
            try Self.waitForFrames(3, of: page.widget)
            XCTAssertTrue(list.focusTarget.isFocus || list.focusTarget.focusIsInside,
                          "the empty list has the focus, not \(Self.focusName(window, firstControl))")
        }
    }

    /// Runs the main loop through `count` frames of `widget`'s frame clock (GTK moves a lost
    /// focus at a frame's layout).
    @MainActor
    private static func waitForFrames(_ count: Int, of widget: Widget) throws {
        var frames = 0
        FrameTicks.repeatUntilDone(on: widget, frames: count) {
            frames += 1
            return false
        }
        try waitUntil("\(count) frames drawn") { frames >= count }
    }

    /// What has the focus, for a failure's message.
    @MainActor
    private static func focusName(_ window: UnsafeMutablePointer<GtkWidget>, _ firstControl: UnsafeMutablePointer<GtkWidget>) -> String {
        guard let focus = gtk_root_get_focus(GObjectPointer(window).opaque) else { return "nothing" }
        return focus == firstControl ? "the window's first control" : String(cString: gtk_widget_get_name(focus))
    }
}
