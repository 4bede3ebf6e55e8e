import CGtk
@testable import TrellisGtk
import XCTest

/// An announcement goes to the widget the focus settles on: when the window is placing the
/// focus on a page (``Announcer/placementBegan()``), the announcement waits for that placement,
/// whether the frame it also waits for comes before it or after. In a full test run the frame
/// once came first: the announcement went to the widget about to lose the focus, and Orca said
/// only the name of the list that took it. In-process (XCTest on Linux runs test methods on
/// the main thread, hence `assumeIsolated`); no screen reader: the description is read through
/// GTK's accessibility testing API.
final class AnnouncerTests: XCTestCase {
    override func setUpWithError() throws {
        try AppDriver.requireDisplay()
    }

    func testAnAnnouncementMadeWhileTheFocusIsPlacedGoesWhereItSettles() {
        MainActor.assumeIsolated {
            let (window, first, second) = Self.windowWithTwoButtons()
            defer { gtk_window_destroy(window.object.as()) }
            let announcer = Announcer(window: window)
            gtk_widget_grab_focus(first)

            announcer.placementBegan()
            announcer.prepare("Deleted “Groceries”.")
            announcer.deliver()  // the frame came first
            XCTAssertFalse(Self.hasDescription(first), "not told on the widget about to lose the focus")
            gtk_widget_grab_focus(second)
            announcer.focusMoved()
            XCTAssertFalse(Self.hasDescription(second), "the placement is not over yet")
            announcer.placementEnded()
            XCTAssertTrue(Self.hasDescription(second), "told where the focus settled")
            XCTAssertFalse(Self.hasDescription(first))

            // The focus leaves: the widget gets its own description (none) back, unspoken.
            gtk_widget_grab_focus(first)
            announcer.focusMoved()
            XCTAssertFalse(Self.hasDescription(second))
        }
    }

    func testWithNoPlacementUnderWayAnAnnouncementGoesToTheFocusAtOnce() {
        MainActor.assumeIsolated {
            let (window, first, _) = Self.windowWithTwoButtons()
            defer { gtk_window_destroy(window.object.as()) }
            let announcer = Announcer(window: window)
            gtk_widget_grab_focus(first)
            announcer.prepare("Saved.")
            announcer.deliver()
            XCTAssertTrue(Self.hasDescription(first))
            // A placement that ends with nothing waiting tells nothing more.
            announcer.placementBegan()
            announcer.placementEnded()
            XCTAssertTrue(Self.hasDescription(first))
        }
    }

    /// One application for the tests: GTK is initialised by its registration, and a second
    /// one of the same id would not register on a session bus. GTK's own, not Trellis's
    /// ``Application``, which would set `GSK_RENDERER` in this process, and
    /// RendererChoiceTests, later in the same run, would take it for the user's choice.
    @MainActor static let application: GObjectPointer = {
        let application = GObjectPointer(gtk_application_new("io.github.trellis.AnnouncerTest", G_APPLICATION_NON_UNIQUE))!
        XCTAssertNotEqual(g_application_register(application.as(), nil, nil), 0)
        return application
    }()

    /// A window of its own holding two buttons.
    @MainActor
    static func windowWithTwoButtons() -> (ApplicationWindow, UnsafeMutablePointer<GtkWidget>, UnsafeMutablePointer<GtkWidget>) {
        let window = ApplicationWindow(retaining: GObjectPointer(gtk_application_window_new(Self.application.as())))
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let first = gtk_button_new_with_label("First")!
        let second = gtk_button_new_with_label("Second")!
        gtk_box_append(UnsafeMutablePointer(OpaquePointer(box)), first)
        gtk_box_append(UnsafeMutablePointer(OpaquePointer(box)), second)
        gtk_window_set_child(window.object.as(), box)
        return (window, first, second)
    }

    @MainActor
    static func hasDescription(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        gtk_test_accessible_has_property(GObjectPointer(widget).as(), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION) != 0
    }
}
