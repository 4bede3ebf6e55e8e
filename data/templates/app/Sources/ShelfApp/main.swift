import Foundation
import Shelf
import TrellisCore
import TrellisGtk

// The window: the app's shell shown by GTK, at the path given (`shelf /items/1`), else at "/".
let path = CommandLine.arguments.dropFirst().first ?? "/"
let status = MainActor.assumeIsolated { () -> Int32 in
    let shell = Shell()
    do { try ShelfRoutes.install(on: shell) } catch { fatalError("the app's routes: \(error)") }
    let app = Application(id: "org.example.Shelf")
    var frontend: GtkFrontend?
    app.onActivate = { app in
        if let frontend { return frontend.window.present() }
        let window = GtkFrontend(shell: shell, application: app, title: "Shelf")
        frontend = window
        do {
            try shell.navigate(to: "/")
            if path != "/" { try shell.navigate(to: path, external: true) }
        } catch {
            window.show(error: error)
        }
        window.window.present()
    }
    return app.run()
}
exit(status)
