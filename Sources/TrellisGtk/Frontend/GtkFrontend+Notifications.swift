import CGtk
import TrellisCore

/// How the window shows what ``NotificationRouter`` announces on the bus: `badge:changed`
/// puts the count after the window title ("Catalog (3)"); `notification:show` sends a desktop
/// notification (`GNotification`, through the notification portal or
/// `org.freedesktop.Notifications`, whichever the desktop has) titled with the application's
/// name, whose default action opens the payload's `show-view` path through `app.navigate`.
extension GtkFrontend {
    /// Watches the bus for badge and notification announcements.
    func installNotificationDisplay() {
        shell.bus.watchOnMainActor(NotificationRouter.Message.badgeChanged, owner: self) { frontend, event in
            frontend.window.setBadge(event.data["count"]?.intValue ?? 0)
        }
        shell.bus.watchOnMainActor(NotificationRouter.Message.show, owner: self) { frontend, event in
            guard let body = event.data["body"]?.stringValue else { return }
            frontend.sendDesktopNotification(body: body, path: event.data["path"]?.stringValue)
        }
    }

    /// Sends a desktop notification showing `body`; activating it opens `path` when given,
    /// otherwise it activates the application.
    public func sendDesktopNotification(body: String, path: String?) {
        let title = g_get_application_name().map { String(cString: $0) } ?? application.id
        let notification = g_notification_new(title)!
        defer { g_object_unref(GObjectPointer(notification)) }
        g_notification_set_body(notification, body)
        let icon = g_themed_icon_new(application.id)!
        g_notification_set_icon(notification, icon)
        g_object_unref(gobj(icon))
        if let path {
            g_notification_set_default_action_and_target_value(
                notification, "app.\(SingleInstance.navigateAction)", g_variant_new_string(path))
        }
        g_application_send_notification(application.pointer.as(), nil, notification)
    }
}
