import Foundation
import Logging
import TrellisCore

/// One window per user: a second `trellis PATH` hands PATH (and a notification payload, if
/// any) to the running instance and exits 0; the running instance opens PATH as a deep link.
///
/// The natural GApplication way: the primary instance exports `app.navigate(s)` and
/// `app.push-notification(s)` on the session bus (`org.gtk.Actions`), and a remote instance
/// activates them. So anything on the bus can ask the same:
/// `gdbus call --session --dest io.github.trellis.Demo --object-path /io/github/trellis/Demo
///  --method org.gtk.Actions.Activate navigate '[<"/catalog">]' '{}'`.
///
/// ```swift
/// var frontend: GtkFrontend?
/// app.onActivate = { app in frontend = GtkFrontend(shell: shell, application: app) }
/// SingleInstance.install(on: app, shell: shell, window: { frontend?.window })
/// if let status = try SingleInstance.forwardToPrimary(app, path: "/catalog", notification: nil) { exit(status) }
/// exit(app.run())
/// ```
@MainActor
public enum SingleInstance {
    /// `app.navigate`: a route path, opened as an external deep link (public routes only).
    public static let navigateAction = "navigate"
    /// `app.push-notification`: a notification payload as JSON text, routed by `NotificationRouter`.
    public static let notificationAction = "push-notification"

    private static let logger = Logger(trellis: "trellis.gtk.instance")

    /// Adds the two actions to `application` (call before `run()`). A path that cannot be
    /// opened shows why on the page on top; it never ends the application.
    public static func install(on application: Application, shell: Shell,
                               window: @escaping @MainActor () -> ShellWindow?) {
        application.addAction(navigateAction) { [weak shell] path in
            guard let shell else { return }
            logger.info("deep link from outside", metadata: ["path": "\(path)"])
            shell.openExternalLink(path)
            window()?.present()
        }
        application.addAction(notificationAction) { [weak shell] json in
            guard let shell else { return }
            do throws(NotificationPayloadError) {
                let notification = try PushNotification(jsonData: Data(json.utf8), source: "a notification from another process")
                if NotificationRouter(shell: shell).route(notification).openedPath != nil { window()?.present() }
            } catch {
                logger.warning("notification refused", metadata: ["error": "\(error)"])
                shell.navigator.top?.message = error.description
            }
        }
    }

    /// Registers `application` on the session bus. When another process is the primary
    /// instance, hands it `path` and `notification`, asks it to present its window, and
    /// returns this process's exit status (0): this process has nothing more to do. Returns
    /// `nil` when this process is the primary instance.
    public static func forwardToPrimary(_ application: Application, path: String?,
                                        notification: PushNotification?) throws(ApplicationError) -> Int32? {
        try application.register()
        guard application.isRemote else { return nil }
        logger.info("handing over to the running instance", metadata: ["id": "\(application.id)", "path": "\(path ?? "-")"])
        if let path { application.activateAction(navigateAction, string: path) }
        if let notification { application.activateAction(notificationAction, string: notification.json.jsonString) }
        // On a remote instance g_application_run activates the primary, sends what is
        // queued, unregisters and returns at once.
        return application.run()
    }
}
