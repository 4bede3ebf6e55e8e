import CGtk
import Foundation
import TrellisCore
@testable import TrellisGtk

/// Where the examples of TrellisGtk's doc comments are compiled: `.ci/doc-examples` makes each
/// ```swift block the body of an `async throws` method of this class, in
/// `Generated/Symbols_TrellisGtk_*.swift`, so that an example reads as code in an app's window
/// code: `shell`, `app`, `frontend` and `window` are the app's, and the widgets below those of
/// a page's view. They are compiled against GTK, never run (TrellisGtkTests runs the window).
/// The module is imported `@testable`, as some doc comments document internal helpers
/// (signal connections).
///
/// An example uses the names below as locals: its method begins with `let name = self.name`
/// for each it names (`.ci/doc-examples`), so its closures capture them as in an app's function.
@MainActor final class GtkExample {
    /// The app's shell, GApplication and window.
    let shell = Shell()
    let app = Application(id: "org.example.Notes")
    lazy var frontend = GtkFrontend(shell: shell, application: app)
    var window: ShellWindow { frontend.window }
    /// A GtkWindow of one's own, outside the shell's.
    let gtkWindow = UnsafeMutablePointer<GtkWindow>(OpaquePointer(gtk_window_new()))!
    /// A view's widgets.
    let area = DrawingArea()
    let label = Label()
    let button = Label()
    let dropDown = Label()
    let listView = Label()

    /// A view's own work (stand-ins).
    func save() {}
    func choiceChanged() {}
    func open(_ position: UInt32) {}

    /// The renderer of ``GtkContentRenderer``'s example, which ``GtkFrontend/register(_:)``'s uses.
    struct TemperatureChart: GtkContentRenderer {
        func makeWidget(for model: Temperatures) -> DrawingArea { DrawingArea() }
        func update(_ widget: DrawingArea, for model: Temperatures) {}
    }

    /// The custom content model of TrellisCore's ``CustomContentModel`` example.
    final class Temperatures: CustomContentModel {
        var readings: [Double] = [12.5, 14, 13.5]
        var textLines: [String] { readings.map { "\($0) °C" } }
    }
}
