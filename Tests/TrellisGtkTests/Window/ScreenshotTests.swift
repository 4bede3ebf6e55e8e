import CGtk
import Foundation
import TrellisCore
@_spi(Testing) @testable import TrellisGtk
import TrellisTesting
import XCTest

/// A screenshot shows the frame just painted even when something asks for a redraw before the
/// picture is saved: GTK drops a widget's render node at such a request, and a picture taken
/// from the widget after it is empty ("the renderer produced no image", seen once in a GUI
/// test while a plugin was loading). In-process (XCTest on Linux runs test methods on the main
/// thread, hence `assumeIsolated`).
final class ScreenshotTests: InProcessWindowTestCase {
    func testAFrameIsPhotographedThoughARedrawIsAskedBeforeThePictureIsSaved() throws {
        try MainActor.assumeIsolated {
            let application = Application(id: "io.github.trellis.ScreenshotTest", unique: false)
            try application.register()
            let shell = Shell()
            let frontend = GtkFrontend(shell: shell, application: application)
            let window = frontend.window
            defer { gtk_window_destroy(window.window.object.as()); withExtendedLifetime(shell) {} }
            window.present()
            try Self.spin { window.firstFramePaintedAt != nil }

            // What GTK does: a redraw asked for after the paint leaves the widget nothing to show.
            var late: Result<Screenshot.Frame, Screenshot.Failure>?
            window.afterNextFrame { gtk_widget_queue_draw(window.window.widget) }
            window.afterNextFrame {
                do throws(Screenshot.Failure) { late = .success(try Screenshot.capture(window.window.object)) } catch { late = .failure(error) }
            }
            try Self.spin { late != nil }
            let savedLate = Result { () throws(Screenshot.Failure) in try Screenshot.save(try late!.get(), to: "/dev/null") }
            guard case .failure(.renderFailed) = savedLate else {
                return XCTFail("a picture taken after a redraw was asked for had something to show: \(savedLate)")
            }

            // The screenshot's way: the picture is taken in `after-paint`.
            var frame: Result<Screenshot.Frame, Screenshot.Failure>?
            window.afterNextFrame { gtk_widget_queue_draw(window.window.widget) }
            window.captureNextFrame(of: { window.window.object }) { frame = $0 }
            try Self.spin { frame != nil }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("screenshot-\(getpid()).png").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Screenshot.save(try XCTUnwrap(frame).get(), to: path)
            let png = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
        }
    }

    /// Runs GLib's main loop and the main queue until `done` (the deadline is for a failure).
    @MainActor
    private static func spin(until done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(testDeadlineSeconds)
        while !done() && Date() < deadline {
            g_main_context_iteration(nil, 0)
            RunLoop.main.run(until: Date().addingTimeInterval(0.005))
        }
        XCTAssertTrue(done(), "not done within \(testDeadlineSeconds) s")
    }
}
