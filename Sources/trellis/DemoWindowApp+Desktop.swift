import Foundation
import TrellisCore
import TrellisDemo
import TrellisGtk

/// What a launch asks for beyond opening the window; a second launch hands it to the running
/// instance.
struct LaunchRequest {
    /// The route path given on the command line; `nil` when none was given (a second launch
    /// then only brings the running window forward).
    var path: String?
    /// The payload of `--notification`.
    var notification: PushNotification?
}

/// The demo's desktop integration: single instance, launch notification, menu actions, About,
/// remembered window size, the system's colour scheme.
extension DemoWindowApp {
    /// The demo's application id: the `.desktop` file, metainfo and icon are named after it.
    nonisolated static let applicationID = "io.github.trellis.Demo"
    /// The demo's version (`trellis --version`, About, metainfo's latest release).
    nonisolated static let version = "0.1.0"
    /// The folder name under `$XDG_CONFIG_HOME` for the window state.
    nonisolated static let configName = "trellis"

    /// Exports `app.navigate` and `app.push-notification`, registers, and when another
    /// instance is running hands it ``launch``: returns the exit status then (0), `nil` when
    /// this process is the one to open the window.
    func handOverToRunningInstance() -> Int32? {
        app.displayName = "Trellis"
        SingleInstance.install(on: app, shell: shell, window: { [weak self] in self?.frontend?.window })
        do {
            return try SingleInstance.forwardToPrimary(app, path: launch.path, notification: launch.notification)
        } catch {
            FileHandle.standardError.write(Data("trellis: \(error)\n".utf8))
            return 1
        }
    }

    /// Adds the demo's menu actions, the contributed ones (the plugins' commands and pages) and About, restores the window size, follows the colour scheme.
    /// (The sections, one step away in the sidebar and the menu with Alt+1 …, come from
    /// `shell.sections`, which `DemoApp.install` declares.)
    func installDesktopIntegration(on frontend: GtkFrontend) {
        frontend.addMenuAction("new-note", label: tr("New note"), accelerators: ["<Control>n"]) { [weak self] in
            guard let shell = self?.shell else { return }
            do throws(NavigationError) { try shell.navigate(to: "/notes/new") } catch { shell.navigator.top?.message = error.description }
        }
        // The folder holds the app's own icon, which the About dialog shows: nothing in the
        // first frame needs it, and adding it sooner would make GTK read the icon theme again
        // on the main thread before that frame (see `addIconSearchPath`).
        if let data = try? Resources.dataDirectory() {
            frontend.window.afterFirstFrame { [weak frontend] in frontend?.addIconSearchPath(data.appendingPathComponent("icons")) }
        }
        frontend.installAbout(AboutInfo(
            name: "Trellis", version: Self.version, iconName: Self.applicationID,
            comments: tr("A plugin-based application shell for Linux, with a GTK 4 front end"),
            website: "https://github.com/trellis/trellis", license: .mit, developers: [tr("The Trellis authors")],
            credits: [AboutInfo.Credits(title: tr("Designs from"),
                                        names: ["QuickConnect (front controller, control stacks)",
                                                "iStructure (event bus, routes, services)",
                                                "JLTableContainer (table strategies)", "Core Data (persistence)"]),
                      AboutInfo.Credits(title: tr("Built on"),
                                        names: ["GTK 4", "GRDB.swift", "SwiftLog", "Swift Argument Parser", "Swift Collections"])]))
        // Preferences above About and Quit, as GNOME apps order them.
        frontend.addMenuAction("preferences", label: tr("Preferences"), section: .application, at: 0,
                               accelerators: ["<Control>comma"]) { [weak self] in
            guard let shell = self?.shell else { return }
            do throws(NavigationError) { try shell.navigate(to: "/settings") } catch { shell.navigator.top?.message = error.description }
        }
        WindowStateKeeper.attach(to: frontend.window, application: app,
                                 file: WindowState.fileURL(application: Self.configName))
        ColorSchemeFollower.start()
    }

    /// Routes `--notification`'s payload once the first page is shown.
    func routeLaunchNotification() {
        guard let notification = launch.notification else { return }
        NotificationRouter(shell: shell).route(notification)
    }
}
