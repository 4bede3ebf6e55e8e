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
    /// What the start leaves until the first frame is on screen, in order, unless the app
    /// quits right after that frame: finding the plugins, when the start has not
    /// (`joinPlugins`); then the plugins' menu items and the automation channel; then
    /// `afterFirstFrame` (starting the plugins).
    private var joinPlugins: (@MainActor () async -> Void)?
    private var afterFirstFrame: (@MainActor () async -> Void)?

    init(shell: Shell, path: String, exitAfterFirstFrame: Bool, automation: Bool,
         applicationID: String? = nil, finishShell: (@MainActor () throws -> Void)? = nil,
         joinPlugins: (@MainActor () async -> Void)? = nil, afterFirstFrame: (@MainActor () async -> Void)? = nil) {
        self.finishShell = finishShell
        self.joinPlugins = joinPlugins
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
            frontend.show(error: error)
        }
        routeLaunchNotification()
        if automation { GtkFrontend.disableAnimations() }
        if exitAfterFirstFrame {
            frontend.window.afterFirstFrame { [app, window = frontend.window] in
                Self.printFirstFrameMoment(window.firstFramePaintedAt ?? 0)
                app.quit()
            }
        } else {
            let (joinPlugins, afterFirstFrame) = (self.joinPlugins, self.afterFirstFrame)
            (self.joinPlugins, self.afterFirstFrame) = (nil, nil)
            frontend.window.afterFirstFrame { [weak self, weak frontend] in
                Task { @MainActor in
                    await joinPlugins?()
                    guard let self, let frontend else { return }
                    // After every action of the app's own, so that a plugin cannot take their
                    // shortcuts (Ctrl+N, Ctrl+,); after the first frame, which does not show the
                    // closed menu (50 plugins' commands took 3.6 M instructions before it).
                    frontend.addContributedMenuItems()
                    // Once the window is complete: a command never meets it half made.
                    if self.automation { self.startAutomation(frontend) }
                    await afterFirstFrame?()
                }
            }
        }
        frontend.window.present()
    }
}

extension DemoWindowApp {
    /// Reads test commands from standard input (`--automation`); its end quits.
    func startAutomation(_ frontend: GtkFrontend) {
        AutomationChannel(handler: { [weak frontend] command, argument, reply in
            guard let frontend else { return reply(["ok": false, "error": "no window"]) }
            frontend.automate(command, argument, reply)
        }, onEndOfInput: { [app] in app.quit() }).start()
    }

    /// With `--exit-after-first-frame`: prints when the first frame was painted, as
    /// `first-frame-monotonic-us: N` (`CLOCK_MONOTONIC`, µs), the line `trellis-bench startup`
    /// reads, as from its C baseline.
    static func printFirstFrameMoment(_ microseconds: Int64) {
        FileHandle.standardOutput.write(Data("first-frame-monotonic-us: \(microseconds)\n".utf8))
    }
}
