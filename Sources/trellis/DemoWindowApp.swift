import Foundation
import TrellisCore
import TrellisDemo
// The automation channel (`--automation`, for the GUI tests) is a test hook of TrellisGtk.
@_spi(Testing) import TrellisGtk

/// Runs the demo in a GTK window.
@MainActor
final class DemoWindowApp {
    let shell: Shell
    let path: String
    let exitAfterFirstFrame: Bool
    let automation: Bool
    let app: Application
    private(set) var frontend: GtkFrontend?
    /// What this launch asks for (handed to the running instance when there is one).
    var launch = LaunchRequest()
    /// Completes the shell (pages, plugins, sync) when the window is first activated.
    private var finishShell: (@MainActor () throws -> Void)?
    /// Why completing the shell failed: the window was not opened, and the command fails with it.
    private(set) var startFailure: (any Error)?
    /// What the start leaves until the first frame is on screen (the plugins), unless the app
    /// quits right after that frame.
    private var afterFirstFrame: (@MainActor () -> Void)?

    init(shell: Shell, path: String, exitAfterFirstFrame: Bool, automation: Bool,
         applicationID: String? = nil, finishShell: (@MainActor () throws -> Void)? = nil,
         afterFirstFrame: (@MainActor () -> Void)? = nil) {
        self.finishShell = finishShell
        self.afterFirstFrame = afterFirstFrame
        self.shell = shell
        self.path = path
        self.exitAfterFirstFrame = exitAfterFirstFrame
        self.automation = automation
        app = Application(id: applicationID ?? Self.applicationID,
                          unique: applicationID != nil || !(exitAfterFirstFrame || automation))
        app.onActivate = { [weak self] _ in self?.activate() }
    }

    func run() -> Int32 {
        if let status = handOverToRunningInstance() { return status }
        return app.run()
    }

    private func activate() {
        if let frontend { frontend.window.present(); return }
        if let finishShell {
            self.finishShell = nil
            do {
                try finishShell()
            } catch {
                startFailure = error
                app.quit()
                return
            }
        }
        let frontend = GtkFrontend(shell: shell, application: app)
        self.frontend = frontend
        frontend.register(NotesPerDayChart())
        installDesktopIntegration(on: frontend)
        do {
            try shell.navigate(to: "/")
            if path != "/" { try shell.navigate(to: path, external: true) }
        } catch {
            FileHandle.standardError.write(Data("trellis: \(error)\n".utf8))
            // The page's message, which stays while the page does; the window's alone would go
            // at the page's next update (its sections or badge changing as plugins start).
            if let page = shell.navigator.top { page.message = String(describing: error) } else { frontend.show(error: error) }
        }
        routeLaunchNotification()
        if exitAfterFirstFrame {
            frontend.window.afterFirstFrame { [app, window = frontend.window] in
                Self.printFirstFrameMoment(window.firstFramePaintedAt ?? 0)
                app.quit()
            }
        } else if let afterFirstFrame {
            self.afterFirstFrame = nil
            frontend.window.afterFirstFrame(afterFirstFrame)
        }
        if automation {
            GtkFrontend.disableAnimations()
            // From the first frame on, when the window is complete (the plugins' menu items
            // come just after it): a command never meets a window half made.
            frontend.window.afterFirstFrame { [weak frontend, app] in
                AutomationChannel(handler: { [weak frontend] command, argument, reply in
                    guard let frontend else { return reply(["ok": false, "error": "no window"]) }
                    frontend.automate(command, argument, reply)
                }, onEndOfInput: { [app] in app.quit() }).start()
            }
        }
        frontend.window.present()
    }
}

extension DemoWindowApp {
    /// With `--exit-after-first-frame`: prints when the first frame was painted, as
    /// `first-frame-monotonic-us: N` (`CLOCK_MONOTONIC`, µs), the line `trellis-bench startup`
    /// reads, as from its C baseline.
    static func printFirstFrameMoment(_ microseconds: Int64) {
        FileHandle.standardOutput.write(Data("first-frame-monotonic-us: \(microseconds)\n".utf8))
    }
}
