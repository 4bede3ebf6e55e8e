import CGtk
@testable import TrellisGtk
import XCTest

/// The typed wrappers own one reference each: the GTK object goes when the last owner (the
/// wrapper or a container) lets it go; casts are checked against the GType. XCTest on Linux
/// runs test methods on the main thread, so each body enters the main actor with
/// `MainActor.assumeIsolated`.
final class GObjectReferenceTests: XCTestCase {
    /// Set by GLib when the object watched by ``watchFinalization(of:)`` is finalized.
    final class Finalized { var value = false }

    override func setUpWithError() throws {
        try AppDriver.requireDisplay()
        guard gtk_init_check() != 0 else { throw XCTSkip("GTK cannot open the display") }
    }

    /// A flag that turns true when `object` is finalized (`g_object_weak_ref`).
    private static func watchFinalization(of object: UnsafeMutableRawPointer) -> Finalized {
        let flag = Finalized()
        let notify: GWeakNotify = { data, _ in
            // Safe: `data` is the flag retained below, released here, once, at finalization.
            guard let data else { return }
            Unmanaged<Finalized>.fromOpaque(data).takeRetainedValue().value = true
        }
        // Safe: `object` is a live GObject; the weak notify keeps one retain of the flag.
        g_object_weak_ref(object.assumingMemoryBound(to: GObject.self), notify, Unmanaged.passRetained(flag).toOpaque())
        return flag
    }

    func testAWidgetTheWrapperCreatedIsFreedWhenTheWrapperGoes() {
        MainActor.assumeIsolated {
            var label: Label? = Label("Покупки")
            let finalized = Self.watchFinalization(of: label!.object)
            XCTAssertEqual(label?.text, "Покупки")
            label = nil
            XCTAssertTrue(finalized.value, "the wrapper held the only reference (it sank the floating one)")
        }
    }

    func testAContainerKeepsTheWidgetAfterItsWrapperGoesAndFreesItOnRemoval() {
        MainActor.assumeIsolated {
            let widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            g_object_ref_sink(widget)
            // Safe: gtk_box_new made a GtkBox, whose struct starts as its GtkWidget's does.
            let box = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self)
            var area: DrawingArea? = DrawingArea()
            let finalized = Self.watchFinalization(of: area!.object)
            gtk_box_append(box, area!.widget)
            area = nil
            XCTAssertFalse(finalized.value, "the box still holds the area")
            gtk_box_remove(box, gtk_widget_get_first_child(widget)!)
            XCTAssertTrue(finalized.value, "removed from the box, nobody holds it")
            g_object_unref(widget)
        }
    }

    func testTheDrawFunctionIsReleasedWithTheArea() {
        MainActor.assumeIsolated {
            final class Model {}
            var model: Model? = Model()
            weak let released = model
            var area: DrawingArea? = DrawingArea()
            area?.setDrawFunction { [model] _, _, _ in _ = model }
            model = nil
            XCTAssertNotNil(released, "GTK keeps the draw function, which keeps the model")
            area = nil
            XCTAssertNil(released, "finalizing the area released the draw function")
        }
    }

    func testCastToTheWrongTypeIsNilAndToTheRightOneSharesTheObject() {
        MainActor.assumeIsolated {
            let widget: Widget = Label("Письма")
            XCTAssertEqual(widget.typeName, "GtkLabel")
            XCTAssertNil(widget.cast(to: DrawingArea.self))
            let label = widget.cast(to: Label.self)
            XCTAssertEqual(label?.text, "Письма")
            XCTAssertTrue(label?.isSameObject(as: widget) ?? false)
        }
    }

    func testAWrongTypedWrapInADebugBuildIsReportedNamingBothTypes() {
        MainActor.assumeIsolated {
            var reports: [String] = []
            let report = GObjectTypeCheck.reportFailure
            GObjectTypeCheck.reportFailure = { reports.append($0) }
            defer { GObjectTypeCheck.reportFailure = report }
            let label = Label("not a drawing")
            _ = DrawingArea(retaining: label.object)
            #if DEBUG
            XCTAssertEqual(reports, ["cannot wrap a GtkLabel as DrawingArea: it is not a GtkDrawingArea"])
            #else
            XCTAssertEqual(reports, [], "release builds do not check")
            #endif
            let before = reports.count
            _ = Widget(retaining: label.object)
            XCTAssertEqual(reports.count, before, "a label is a widget: nothing reported")
        }
    }
}
